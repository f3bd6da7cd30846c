"""Graders: is an answer right? Exact, contained ('all' or 'any' of the expected texts) and numeric.

Built in lesson 10 (Evaluation). The contained and numeric graders are lesson 05's `grade`;
this module adds `exact`, which only accepts the expected text itself (case, spaces and a final
full stop aside).
"""
from __future__ import annotations

import re
from typing import Any

from solutions.guards.questions import GRADERS as LESSON_05_GRADERS
from solutions.guards.questions import check_item as check_lesson_05_item
from solutions.guards.questions import grade as grade_lesson_05

GRADERS = ("exact",) + LESSON_05_GRADERS
"""exact: the answer is an expected text; all / any: it contains all / one of them; number: it holds the number."""


def normalise(text: str) -> str:
    """Lower case, runs of white space as one space, no spaces or final full stop at the ends."""
    return re.sub(r"\s+", " ", text).strip().rstrip(".。").strip().lower()


def grade_answer(answer: str | None, item: dict) -> bool:
    """True when `answer` is right for `item` by its grader; no answer is never right. Built in lesson 10 (Evaluation)."""
    check_item(item)
    if item["grader"] != "exact":
        return grade_lesson_05(answer, item)
    if not isinstance(answer, str) or not answer.strip():
        return False
    return normalise(answer) in {normalise(e) for e in item["expected"]}


def check_item(item: Any) -> None:
    """Raise a ValueError or TypeError naming what is wrong with a question item (any of GRADERS)."""
    if isinstance(item, dict) and "grader" in item and item["grader"] not in GRADERS:
        raise ValueError(f"unknown grader {item['grader']!r}; graders: {', '.join(GRADERS)}")
    if isinstance(item, dict) and item.get("grader") == "exact":
        check_lesson_05_item({**item, "grader": "all"})
    else:
        check_lesson_05_item(item)
