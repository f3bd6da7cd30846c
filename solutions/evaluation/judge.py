"""A judge model: an LLM that grades open answers, asked in a fixed prompt shape, and its mitigations.

Built in lesson 16 (Judges and trajectories). `judge_score` asks for a score of one answer against
a reference or a rubric, `judge_pair` for the better of two answers; `swap_and_agree` asks twice
with the answers swapped and keeps a winner only when both orders agree. The prompt shapes are the
ones `mock-judge` reads (docs/mock.md, "A judge model"); a real judge model reads them too.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

JUDGE_MODEL = "mock-judge"
JUDGE_RULE = "You are a strict grader. Reply with one JSON object and nothing else."
LENGTH_RULE = "Judge only whether the answer is right: length does not matter."
PADDING = ("I worked through this carefully, checked each step against what I know, and the "
           "reasoning holds together from start to finish.")


def _messages(fields: list[tuple[str, str]], length_controlled: bool) -> list[dict]:
    """The system rule and one user message of 'Label: text' lines (empty fields left out)."""
    system = JUDGE_RULE + (" " + LENGTH_RULE if length_controlled else "")
    user = "\n".join(f"{label}: {text}" for label, text in fields if text)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def judge_messages(answer: str, *, reference: str = "", rubric: Iterable[str] = (),
                   question: str = "", length_controlled: bool = False) -> list[dict]:
    """The messages asking for a score of `answer` against `reference` and/or `rubric` lines."""
    criteria = "".join(f"\n- {line}" for line in rubric)
    return _messages([("Question", question), ("Reference", reference), ("Rubric", criteria),
                      ("Answer", answer)], length_controlled)


def pair_messages(first: str, second: str, *, reference: str = "", question: str = "",
                  length_controlled: bool = False) -> list[dict]:
    """The messages asking which of two answers is better (`first` shown as A)."""
    return _messages([("Question", question), ("Reference", reference), ("Answer A", first),
                      ("Answer B", second)], length_controlled)


def verdict_of(text: str | None, key: str, accepted: tuple) -> Any:
    """The value of `key` in the judge's JSON reply (from its first '{' to its last '}'), checked."""
    text = text or ""
    try:
        value = json.loads(text[text.index("{"):text.rindex("}") + 1]).get(key)
    except (ValueError, AttributeError):
        value = None
    if value not in accepted or isinstance(value, bool):
        raise ValueError(f"the judge's reply is not a verdict with {key!r} in {accepted}: {text[:120]!r}")
    return value


def judge_score(client: Any, answer: str, *, model: str = JUDGE_MODEL, **prompt: Any) -> int:
    """1 when the judge scores `answer` right, 0 when wrong (`prompt`: judge_messages' options)."""
    reply = client.chat.completions.create(model=model, messages=judge_messages(answer, **prompt))
    return verdict_of(reply.choices[0].message.content, "score", (0, 1))


def judge_pair(client: Any, first: str, second: str, *, model: str = JUDGE_MODEL, **prompt: Any) -> str:
    """'A' when the judge prefers `first`, 'B' when it prefers `second`."""
    reply = client.chat.completions.create(model=model, messages=pair_messages(first, second, **prompt))
    return verdict_of(reply.choices[0].message.content, "winner", ("A", "B"))


def swap_and_agree(client: Any, first: str, second: str, **prompt: Any) -> str:
    """'A' or 'B' when the judge prefers the same answer in both orders, else 'tie'."""
    straight = judge_pair(client, first, second, **prompt)
    swapped = judge_pair(client, second, first, **prompt)
    if straight != swapped:  # the same answer won in both orders
        return straight
    return "tie"


def pad(answer: str, times: int = 2) -> str:
    """`answer` after `times` confident sentences that add words and no facts."""
    return " ".join([PADDING] * times + [answer])


def agreement(judged: Iterable[Any], truth: Iterable[Any]) -> float:
    """The share of verdicts (scores 0 or 1, or bools) equal to the truth: same length, not empty."""
    pairs = list(zip(judged, truth, strict=True))
    if not pairs:
        raise ValueError("agreement of no verdicts: there is nothing to measure")
    return sum(bool(a) == bool(b) for a, b in pairs) / len(pairs)
