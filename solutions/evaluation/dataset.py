"""The evaluation set as data: lesson 05's questions by their place, and new ones, in questions.json.

Built in lesson 10 (Evaluation). Every item is lesson 05's dict (`question`, `expected`,
`grader`) with an `id` and a `category` added; `load_questions` reads the file and checks it.
"""
from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from solutions.evaluation.graders import check_item
from solutions.guards.questions import QUESTIONS as LESSON_05

CATEGORIES = ("no_tool", "single_tool", "several_tools", "multi_step", "tool_error")
"""What a question asks of the agent: no tool call, one, two, three or more, or reading a tool's error."""
_CJK = re.compile(r"[\u4e00-\u9fff]")


def load_questions(text: str | None = None) -> tuple[dict, ...]:
    """The evaluation set, read from questions.json (or from `text`) and checked. Built in lesson 10 (Evaluation)."""
    if text is None:
        text = resources.files("solutions.evaluation").joinpath("questions.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not {"lesson05", "new"} <= set(data):
        raise ValueError("the evaluation file is an object with 'lesson05' and 'new' lists")
    items = [_from_lesson_05(entry) for entry in data["lesson05"]] + [dict(e) for e in data["new"]]
    ids = [item.get("id") for item in items]
    repeated = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    if repeated:
        raise ValueError(f"question ids must be unique, repeated: {repeated}")
    for item in items:
        _check(item)
    return tuple(items)


def _from_lesson_05(entry: Any) -> dict:
    """Lesson 05's item at entry['index'], with the entry's id and category."""
    if not isinstance(entry, dict) or not isinstance(entry.get("index"), int):
        raise ValueError(f"a lesson05 entry is {{'id', 'index', 'category'}}, got {entry!r:.80}")
    if not 0 <= entry["index"] < len(LESSON_05):
        raise ValueError(f"lesson 05 has {len(LESSON_05)} questions, no index {entry['index']}")
    return {"id": entry.get("id"), "category": entry.get("category"), **LESSON_05[entry["index"]]}


def _check(item: dict) -> None:
    """Raise ValueError naming what is wrong with an evaluation item."""
    if not isinstance(item.get("id"), str) or not item["id"]:
        raise ValueError(f"every question needs an id (a non-empty string), got {item!r:.80}")
    if item.get("category") not in CATEGORIES:
        raise ValueError(f"question {item['id']!r}: category {item.get('category')!r} is not one "
                         f"of {', '.join(CATEGORIES)}")
    check_item(item)


def is_chinese(item: dict) -> bool:
    """True when the question is written in Chinese. Built in lesson 10 (Evaluation)."""
    return bool(_CJK.search(item["question"]))


EVAL_SET: tuple[dict, ...] = load_questions()
"""The evaluation set of lesson 10: lesson 05's 24 questions and the new ones."""
