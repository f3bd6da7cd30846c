"""The judge model `mock-judge`: a verdict on one answer or on two, with a real judge's biases.

Each answer is held against the criteria (the reference and each rubric line): a criterion holds
when the answer contains its quoted texts (every "..." of it); else, when it has numbers, when
the answer holds each of them as a number; else when the answer contains its whole text (`holds`;
the first `MAX_CRITERIA` criteria are read, and the first `MAX_QUOTED` quoted texts of each). Then, by rule (docs/mock.md, "A judge model"):

- **verbosity**: with no rubric, a wrong answer of at least `LONG_WORDS` words (`LONG_WORDS_CONTROLLED`
  in a length-controlled prompt) that does not hedge (`HEDGES`) is scored right;
- in a pair, the right answer wins; when both are right or both wrong, the longer wins if it has
  at least `LONGER_RATIO` times the other's words (**verbosity**; not in a length-controlled
  prompt), else the first, A (**position**).

One answer gets `{"score": 1 or 0, "reason": ...}`, two get `{"winner": "A" or "B", "reason": ...}`,
and any other prompt a sentence saying what the judge reads. Persona, seed and temperature change
nothing; `x_mock` names the biases that fired.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import islice

from mockllm.reading.judging import JudgePrompt, read_judge_prompt

JUDGE_MODEL = "mock-judge"
LONG_WORDS = 40
LONG_WORDS_CONTROLLED = 120
LONGER_RATIO = 1.5
MAX_CRITERIA = 20
MAX_QUOTED = 8
"""The criteria read (the reference first, then the rubric's lines), and the quoted texts of each:
a bound on the work, so a judging prompt costs linear time."""
HEDGES = ("i think", "maybe", "might", "perhaps", "probably", "not sure", "unsure", "i don't know",
          "i do not know", "cannot tell", "can't tell", "no idea")
"""Words of an answer that is not confident: verbosity never makes such an answer right."""

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_QUOTED = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”")
_SPACES = re.compile(r"\s+")
NOT_A_JUDGING_PROMPT = (
    "I am a judge model. Send the answer to grade as 'Answer: ...' with a 'Reference: ...' or a "
    "'Rubric:' of criteria (one a line), and I reply {\"score\": 1 or 0, \"reason\": ...}; or send "
    "two answers as 'Answer A: ...' and 'Answer B: ...' (a 'Question:' and a 'Reference:' help), "
    "and I reply {\"winner\": \"A\" or \"B\", \"reason\": ...}.")


def _plain(text: str) -> str:
    """Lower case, runs of white space as one space, thousands separators dropped."""
    return _SPACES.sub(" ", _THOUSANDS.sub("", text)).strip().lower()


def _numbers(text: str) -> set[float]:
    """The numbers written in `text` (1,024 is 1024; 66.0 is 66)."""
    return {float(n) for n in _NUMBER.findall(_THOUSANDS.sub("", text))}


def holds(answer: str, criterion: str) -> bool:
    """True when `answer` meets `criterion`: its quoted texts, else its numbers, else its text."""
    return _holds(_plain(answer), _numbers(answer), criterion)


def _holds(said: str, numbers: set[float], criterion: str) -> bool:
    """`holds` for an answer already read: `said` as `_plain` writes it, `numbers` its numbers."""
    quoted = [m.group(1) or m.group(2) for m in islice(_QUOTED.finditer(criterion), MAX_QUOTED)]
    if quoted:
        return all(_plain(q) in said for q in quoted)
    wanted = _numbers(criterion)
    if wanted:
        return wanted <= numbers
    return _plain(criterion).rstrip(".") in said


@dataclass(frozen=True)
class Assessment:
    """One answer held against the criteria: right (maybe by verbosity), its words, what it misses."""

    right: bool
    verbose: bool
    words: int
    missing: tuple[str, ...]


def assess(answer: str, prompt: JudgePrompt) -> Assessment:
    """The judge's view of one answer: the criteria it misses, and the verbosity rule."""
    criteria = ((prompt.reference,) if prompt.reference else ()) + prompt.rubric
    said, numbers = _plain(answer), _numbers(answer)
    missing = tuple(c for c in criteria[:MAX_CRITERIA] if not _holds(said, numbers, c))
    words = len(answer.split())
    limit = LONG_WORDS_CONTROLLED if prompt.length_controlled else LONG_WORDS
    confident = not any(hedge in said for hedge in HEDGES)
    verbose = bool(missing) and not prompt.rubric and confident and words >= limit
    return Assessment(not missing or verbose, verbose, words, missing)


def _single(prompt: JudgePrompt) -> tuple[dict, list[str], dict]:
    """The verdict on one answer, the biases that fired, and what x_mock adds."""
    seen = assess(prompt.answers[0], prompt)
    if seen.verbose:
        reason = "A thorough, confident answer that explains its reasoning."
    elif seen.right:
        reason = "The answer agrees with the " + ("rubric." if prompt.rubric else "reference.")
    else:
        reason = "The answer misses: " + "; ".join(seen.missing) + "."
    verdict = {"score": int(seen.right), "reason": reason}
    return verdict, ["verbosity"] if seen.verbose else [], {"words": [seen.words],
                                                           "missing": [list(seen.missing)]}


def _pair(prompt: JudgePrompt) -> tuple[dict, list[str], dict]:
    """The verdict on two answers (right first, then length, then position) and the biases."""
    a, b = (assess(answer, prompt) for answer in prompt.answers)
    longer, shorter = (a, b) if a.words >= b.words else (b, a)
    if a.right != b.right:
        winner, rule = ("A" if a.right else "B"), "reference"
        reason = f"Answer {winner} agrees with the " + ("rubric." if prompt.rubric else "reference.")
    elif not prompt.length_controlled and longer.words >= LONGER_RATIO * max(shorter.words, 1):
        winner, rule = ("A" if longer is a else "B"), "verbosity"
        reason = f"Answer {winner} is more complete and detailed."
    else:
        winner, rule = "A", "position"
        reason = "Both answers are of similar quality; Answer A is slightly clearer."
    fired = [rule] if rule != "reference" else []
    if (a if winner == "A" else b).verbose and "verbosity" not in fired:
        fired.insert(0, "verbosity")
    return {"winner": winner, "reason": reason}, fired, {"words": [a.words, b.words],
                                                         "missing": [list(a.missing), list(b.missing)]}


def judge_reply(messages: list[dict]) -> tuple[str, dict]:
    """(content, explanation) of the judge's reply to `messages`: a JSON verdict, or prose."""
    prompt = read_judge_prompt(messages)
    explanation: dict = {"source": "judge", "model": JUDGE_MODEL, "shape": prompt.kind or "none"}
    if prompt.kind == "single" and not (prompt.reference or prompt.rubric):
        prompt = JudgePrompt("")
        explanation["shape"] = "none"
    if not prompt.kind:
        return NOT_A_JUDGING_PROMPT, {**explanation, "biases_fired": []}
    verdict, fired, seen = (_single if prompt.kind == "single" else _pair)(prompt)
    explanation.update(verdict=verdict.get("score", verdict.get("winner")), biases_fired=fired,
                       length_controlled=prompt.length_controlled, rubric=len(prompt.rubric), **seen)
    return json.dumps(verdict, ensure_ascii=False), explanation
