"""The wrong solutions a learner walk-through got accepted: each is now refused, with its reason.

Each test writes the wrong solution as a learner would, runs `check` on it, and asserts that the
reference comes back and what the report says. The check's own time limits bound every test.
"""
from __future__ import annotations

import re
from typing import Callable

import pytest

from solutions.course import check as check_module
from solutions.course.check import check
from solutions.tools import calculator as reference_calculator


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shorter case limit, so the tests that time out stay quick."""
    monkeypatch.setattr(check_module, "CASE_SECONDS", 0.5)


def _verdict(fn: Callable, reference: Callable, capsys: pytest.CaptureFixture) -> str:
    """Check `fn`, assert that the reference comes back, return the printed report."""
    assert check(fn) is reference
    return capsys.readouterr().out


# ---------------------------------------------------------------- lesson 01: the calculator
# (its wrong solutions are in tests/wrong_solutions/lesson01.py; this test checks the refusal's form)

def test_the_eval_calculator_is_refused_before_any_case_runs(capsys) -> None:
    from tests.wrong_solutions.lesson01 import allow_list_and_eval

    out = _verdict(allow_list_and_eval, reference_calculator, capsys)
    assert out.startswith("✗ calculator: refused without running the cases\n")
    assert "it uses eval in calculator (`value = eval(text, {\"__builtins__\": {}})" in out
    assert "cases pass" not in out  # not one case ran, 2**10**10 included


# ---------------------------------------------------------------- lesson 04: the loop

def test_a_case_that_runs_out_of_time_is_reported_first_with_its_hint(capsys) -> None:
    from solutions.agent import run_agent as reference
    from tests.wrong_solutions.lesson04 import no_step_limit  # the loop without a step limit

    out = _verdict(no_step_limit, reference, capsys)
    first_failure = out.splitlines()[1:5]
    assert re.match(r"  case \d+: run_agent\(\"What is today's date, and what date is it 50 days from "
                    r"now\?\", MockLLM\(persona='looper'\)", first_failure[0])
    assert first_failure[3].startswith(f"    hint:     still running after {check_module.CASE_SECONDS:g} "
                                       "seconds of work, so it was stopped: bound the work")
    assert first_failure[3].endswith("here: count the model calls: call run_step at most "
                                     "max_steps times, e.g. for _ in range(max_steps)")
    assert "raised ScriptExhaustedError" in out  # the scripted step-limit case ran out of replies


# ---------------------------------------------------------------- checking twice, lesson 00
# (lesson 00's wrong solutions are in tests/wrong_solutions/lesson00.py)

def test_checking_the_returned_reference_says_so(capsys) -> None:
    from solutions.chat import ask as reference
    from tests.wrong_solutions.lesson00 import the_message

    ask = check(the_message)
    assert ask is reference
    assert "cases fail for one reason: returns the message object" in capsys.readouterr().out
    assert check(ask) is reference
    assert capsys.readouterr().out == (
        "ask: this is still the reference solutions.chat.ask: run your own cell first (the one "
        "that defines ask), then this check\n")

