"""The judging prompt: what the judge model `mock-judge` reads from a request.

The fields are read from the last user message, one label at the start of a line (case aside,
`**bold**` allowed), its text running to the next label line:

    Question: ...        optional
    Reference: ...       (or "Reference answer:", "Expected answer:") the right answer
    Rubric:              criteria, one a line ("- ..."): each must hold
    Answer: ...          one answer to score ("Response:" too)
    Answer A: ...        or two answers to compare ("Response A:", "Response B:")
    Answer B: ...

A label seen once already is text of the field it appears in. The instructions that control for
length (`LENGTH_CUES`) are read from every system and user message. Read in linear time: one
pass over the lines. See docs/mock.md, "A judge model"; the verdict is `mockllm/reply/judge.py`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_FIELDS = {"question": "question", "reference": "reference", "reference answer": "reference",
           "expected answer": "reference", "rubric": "rubric", "answer": "answer",
           "response": "answer", "answer a": "a", "response a": "a", "answer b": "b",
           "response b": "b"}
_LABEL = re.compile(r"[ \t]*(?:\*\*)?(question|reference answer|reference|expected answer|rubric|"
                    r"answer a|answer b|answer|response a|response b|response)[ \t]*(?:\*\*)?:"
                    r"(?:\*\*)?[ \t]*", re.IGNORECASE)
_BULLET = re.compile(r"[ \t]*(?:[-*•]|\d+[.)])[ \t]+")

LENGTH_CUES = ("length does not matter", "regardless of length", "regardless of its length",
               "regardless of their length", "ignore the length", "ignore length",
               "do not prefer longer", "do not favour longer", "do not favor longer",
               "not be swayed by length")
"""Phrases (case aside) that ask the judge to set length aside: a length-controlled prompt."""


@dataclass(frozen=True)
class JudgePrompt:
    """A judging prompt as read: `kind` "single" (one answer), "pair" (A and B) or "" (neither)."""

    kind: str
    question: str = ""
    reference: str = ""
    rubric: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    length_controlled: bool = False


def _fields(text: str) -> dict[str, str]:
    """The labelled fields of `text`, each the first time its label starts a line."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        match = _LABEL.match(line)
        name = _FIELDS[match.group(1).lower()] if match else None
        if name is not None and name not in found:
            current = found[name] = [line[match.end():]]
        elif current is not None:
            current.append(line)
    return {name: "\n".join(lines).strip() for name, lines in found.items()}


def _criteria(text: str) -> tuple[str, ...]:
    """A rubric's criteria: its non-empty lines, bullets and numbers taken off."""
    items = (_BULLET.sub("", line, count=1).strip() for line in text.splitlines())
    return tuple(item for item in items if item)


def read_judge_prompt(messages: list[dict]) -> JudgePrompt:
    """The judging prompt of `messages` (role/content dicts with str or None content)."""
    texts = [m.get("content") or "" for m in messages if m.get("role") in ("system", "developer", "user")]
    last = next((m.get("content") or "" for m in reversed(messages) if m.get("role") == "user"), "")
    fields = _fields(last)
    lowered = "\n".join(texts).lower()
    controlled = any(cue in lowered for cue in LENGTH_CUES)
    if "a" in fields and "b" in fields:
        kind, answers = "pair", (fields["a"], fields["b"])
    elif "answer" in fields:
        kind, answers = "single", (fields["answer"],)
    else:
        kind, answers = "", ()
    return JudgePrompt(kind, fields.get("question", ""), fields.get("reference", ""),
                       _criteria(fields.get("rubric", "")), answers, controlled)
