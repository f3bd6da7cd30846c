"""Property tests: lesson 03's `parse_step` and lesson 05's `parse_reply` never break.

Each property runs on both parsers. The examples come from tests/fuzz_strategies.py: arbitrary
text, text glued from the format's fragments, valid replies after mutations, replies followed by
an invented Observation, and values that are not text. The number of examples is the hypothesis
profile's (tests/conftest.py): 10,000 in all for `make test`, 200,000 for `make test-long`.
"""
from __future__ import annotations

import json
import sys
from typing import Callable

import pytest
from hypothesis import given, settings

from fuzz_strategies import (MARKER, arbitrary_texts, fabricated_observations, mutated_replies,
                             non_text_values)
from solutions.guards import parse_reply
from solutions.parsing import FORMAT_HELP, Step, parse_step
from timing import best_seconds

PARSERS = {"parse_step": parse_step, "parse_reply": parse_reply}
Parser = Callable[[object], Step]
parsers = pytest.mark.parametrize("parse", list(PARSERS.values()), ids=list(PARSERS))


def check_step(step: Step, text: str) -> None:
    """The properties every parse of a text has, whatever the text."""
    assert isinstance(step, Step) and step.kind in ("action", "final", "error")
    assert isinstance(step.action_input, dict) and all(isinstance(key, str) for key in step.action_input)
    assert step.raw == text
    found = (step.action is not None) + (step.final_answer is not None)
    if step.error is None:
        assert found == 1, step  # an action or an answer, never both
    else:
        assert found == 0, step  # an error carries neither
        assert step.error.startswith("Error: could not parse your reply: ") and FORMAT_HELP in step.error
        assert "unexpected" not in step.error, step.error  # no exception was swallowed on the way
    if step.action is not None:
        assert step.action.strip() and step.action in text.replace("\r\n", "\n").replace("\r", "\n"), step


@parsers
@given(text=arbitrary_texts())
def test_arbitrary_text_gives_a_consistent_step(parse: Parser, text: str) -> None:
    check_step(parse(text), text)


@parsers
@given(text=mutated_replies())
def test_mutated_replies_give_a_consistent_step(parse: Parser, text: str) -> None:
    check_step(parse(text), text)


@parsers
@given(text=fabricated_observations())
def test_a_fabricated_observation_never_becomes_the_answer(parse: Parser, text: str) -> None:
    step = parse(text)
    check_step(step, text)
    for part in (step.final_answer, step.action, json.dumps(step.action_input, ensure_ascii=False)):
        assert MARKER not in (part or ""), step


@parsers
@given(value=non_text_values())
def test_a_value_that_is_not_text_is_an_error(parse: Parser, value: object) -> None:
    step = parse(value)
    if isinstance(value, bytes):  # bytes are decoded as UTF-8 and read as text
        check_step(step, value.decode("utf-8", errors="replace"))
    else:
        assert step.kind == "error" and f"not text (got {type(value).__name__})" in step.error


def test_the_profile_gives_the_examples_the_readme_promises() -> None:
    """The properties above times the profile's examples: 3,000 (default) or 200,000 (long)."""
    module = sys.modules[__name__]
    properties = [name for name, value in vars(module).items()
                  if name.startswith("test_") and getattr(value, "is_hypothesis_test", False)]
    total = len(properties) * len(PARSERS) * settings.default.max_examples
    assert total == {"default": 3_000, "long": 200_000}.get(settings.get_current_profile_name(), total)
    assert settings.default.derandomize and settings.default.database is None


# ---------------------------------------------------------------- catastrophic backtracking

PROBES = {
    "50,000 spaces": " " * 50_000,
    "spaces inside a field line": "Action:" + " " * 50_000 + "x",
    "spaces before the colon": "Action" + " " * 50_000 + ":",
    "spaces after Action Input": "Action: calculator\nAction Input:" + " " * 50_000 + "{",
    "20,000 field names on one line": "Action " * 20_000,
    "20,000 'Action Input:' on one line": "Action: x Action Input:" * 20_000,
    "20,000 field lines": "Thought:\n" * 20_000,
    "20,000 bold field names": "**Final Answer**" * 20_000,
    "20,000 Chinese field names": "行动输入" * 20_000,
    "50,000 open braces": "{" * 50_000,
    "50,000 close braces": "}" * 50_000,
    "50,000 braces after an Action Input": "Action: calculator\nAction Input: " + "{" * 50_000,
    "25,000 brace pairs": "Action: x\nAction Input: " + "{}" * 25_000,
    "nested JSON blob keys": '{"action": ' * 20_000,
    "quotes and braces": "Action: x\nAction Input: " + '{"' * 25_000,
    "a call with 50,000 parentheses": "Action: f" + "(" * 50_000,
}


@parsers
@pytest.mark.parametrize("text", list(PROBES.values()), ids=list(PROBES))
def test_pathological_replies_are_read_well_under_a_second(parse: Parser, text: str) -> None:
    seconds = best_seconds(lambda: check_step(parse(text), text), repeats=1)
    assert seconds < 1.0, f"{seconds:.2f} s: a hang guard (linear reading takes milliseconds)"
