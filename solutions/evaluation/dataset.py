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
ITEM_FIELDS = frozenset({"id", "category", "question", "expected", "grader"})
"""The fields a new question of questions.json may have."""


def load_questions(text: str | None = None) -> tuple[dict, ...]:
    """The evaluation set, read from questions.json (or from `text`) and checked. Built in lesson 10 (Evaluation)."""
    where = "questions.json (of solutions.evaluation)" if text is None else "the evaluation text"
    if text is None:
        text = resources.files("solutions.evaluation").joinpath("questions.json").read_text("utf-8")
    data = read_json(text, where)
    if not isinstance(data, dict) or not {"lesson05", "new"} <= set(data) or not all(
            isinstance(data[part], list) for part in ("lesson05", "new")):
        raise ValueError(f"{where} is an object with 'lesson05' and 'new' lists")
    for number, entry in enumerate(data["new"], 1):
        unknown = sorted(set(entry) - ITEM_FIELDS, key=str) if isinstance(entry, dict) else []
        if unknown:
            raise ValueError(f"{where}: new question {number} has unknown field(s) {unknown} (a typo "
                             f"checks nothing); the fields are {', '.join(sorted(ITEM_FIELDS))}")
    items = [_from_lesson_05(entry) for entry in data["lesson05"]] + [dict(e) for e in data["new"]]
    if not items:
        raise ValueError(f"{where} holds no questions: an empty set would pass every agent")
    ids = [item.get("id") for item in items]
    repeated = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    if repeated:
        raise ValueError(f"question ids must be unique, repeated: {repeated}")
    for item in items:
        _check(item)
    return tuple(items)


def read_json(text: str, where: str) -> Any:
    """`text` read as JSON (a leading byte-order mark allowed); a ValueError names `where` and the spot."""
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno}, column "
                         f"{exc.colno} (an empty, cut or hand-edited file?)") from None


def _from_lesson_05(entry: Any) -> dict:
    """Lesson 05's item at entry['index'], with the entry's id and category."""
    if not isinstance(entry, dict) or isinstance(entry.get("index"), bool) or not isinstance(entry.get("index"), int):
        raise ValueError(f"a lesson05 entry is {{'id', 'index', 'category'}}, got {entry!r:.80}")
    if not 0 <= entry["index"] < len(LESSON_05):
        raise ValueError(f"lesson 05 has {len(LESSON_05)} questions, no index {entry['index']}")
    return {"id": entry.get("id"), "category": entry.get("category"), **LESSON_05[entry["index"]]}


def _check(item: dict) -> None:
    """Raise ValueError naming what is wrong with an evaluation item."""
    if isinstance(item.get("question"), str) and not item["question"].strip():
        raise ValueError(f"question {item.get('id')!r} is empty")
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
