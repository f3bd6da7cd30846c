"""A fixed set of questions with expected answers, and the grader that scores an answer.

Built in lesson 05 (Failure clinic), to compare agents on the same questions; lesson 10 grows it
into an evaluation set. Each item is a plain dict (JSON-ready): `question`, `expected` (a list
of strings) and `grader`, one of GRADERS:

- "all": every expected string appears in the answer (case ignored);
- "any": at least one of them appears;
- "number": the answer holds the expected number as a number of its own (66 is not 166 or 6.6).

The expected strings are facts of the frozen world (today is 2025-03-14) that only a correct
answer contains, so an answer that reports a tool error or a guess fails.
"""
from __future__ import annotations

import re
from typing import Any

QUESTIONS: tuple[dict, ...] = (
    {"question": "What is today's date?", "expected": ["2025-03-14"], "grader": "all"},
    {"question": "What will the date be 3 days from today?", "expected": ["2025-03-17"], "grader": "all"},
    {"question": "What will the date be 50 days from today?", "expected": ["2025-05-03"], "grader": "all"},
    {"question": "What is (17 + 5) * 3?", "expected": ["66"], "grader": "number"},
    {"question": "What is 12 * 7 + 5?", "expected": ["89"], "grader": "number"},
    {"question": "What is 1234 + 4321?", "expected": ["5555"], "grader": "number"},
    {"question": "What is 100 divided by 8?", "expected": ["12.5"], "grader": "number"},
    {"question": "What's the weather like in Beijing today?", "expected": ["partly cloudy"], "grader": "all"},
    {"question": "What will the weather be in London tomorrow?", "expected": ["sunny intervals"], "grader": "all"},
    {"question": "What was the weather in Shanghai yesterday?", "expected": ["light rain"], "grader": "all"},
    {"question": "Which city is warmer today, Beijing or Shanghai?", "expected": ["Shanghai"], "grader": "all"},
    {"question": "Is tomorrow a good day for a morning run in Beijing?", "expected": ["dust storm"],
     "grader": "all"},
    {"question": "Will it rain in Shanghai on 2025-03-15?", "expected": ["moderate rain"], "grader": "all"},
    {"question": "What is the status of order A1002?", "expected": ["shipped"], "grader": "all"},
    {"question": "What is the status of order A1003?", "expected": ["cancelled"], "grader": "all"},
    {"question": "How much did order A1004 cost?", "expected": ["249.99"], "grader": "number"},
    {"question": "What is the status of order A9999?", "expected": ["not found", "no order"], "grader": "any"},
    {"question": "What is the total amount of orders A1001 and A1002?", "expected": ["179.9"], "grader": "number"},
    {"question": "What is the capital of France?", "expected": ["Paris"], "grader": "all"},
    {"question": "What is the return policy?", "expected": ["30 days"], "grader": "all"},
    {"question": "今天几号？", "expected": ["2025-03-14"], "grader": "all"},
    {"question": "北京今天天气怎么样？", "expected": ["多云", "partly cloudy"], "grader": "any"},
    {"question": "订单A1001的状态是什么？", "expected": ["paid", "已支付"], "grader": "any"},
    {"question": "(17+5)*3 等于多少？", "expected": ["66"], "grader": "number"},
)
"""24 questions: dates, arithmetic, weather, orders, one general-knowledge and one document
question, four in Chinese."""

GRADERS = ("all", "any", "number")
_NUMBER = re.compile(r"(?<![\d.])-?\d+(?:,\d{3})*(?:\.\d+)?(?![\d])")


def grade(answer: str | None, item: dict) -> bool:
    """True when `answer` is correct for `item` by its grader; no answer is never correct. Built in lesson 05 (Failure clinic)."""
    check_item(item)
    if not isinstance(answer, str) or not answer.strip():
        return False
    expected = item["expected"]
    if item["grader"] == "number":
        found = {float(n.replace(",", "")) for n in _NUMBER.findall(answer[:20000])}
        return any(abs(float(e) - value) < 1e-6 for e in expected for value in found)
    text = answer.lower()
    hits = [e.lower() in text for e in expected]
    return all(hits) if item["grader"] == "all" else any(hits)


def check_item(item: Any) -> None:
    """Raise a ValueError or TypeError naming what is wrong with a question item."""
    if not isinstance(item, dict) or not {"question", "expected", "grader"} <= set(item):
        raise TypeError(f"a question item is a dict with question, expected and grader, got {item!r:.80}")
    if item["grader"] not in GRADERS:
        raise ValueError(f"unknown grader {item['grader']!r}; graders: {', '.join(GRADERS)}")
    expected = item["expected"]
    if not isinstance(expected, list) or not expected or not all(isinstance(e, str) and e for e in expected):
        raise ValueError(f"expected must be a non-empty list of strings, got {expected!r:.80}")
    if item["grader"] == "number":
        for e in expected:
            float(e)  # ValueError names the value that is not a number
