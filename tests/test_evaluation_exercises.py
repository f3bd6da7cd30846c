"""Lesson 10's exercises: the check accepts the reference and refuses the classic wrong solutions."""
from __future__ import annotations

import pytest

from solutions.course.check import check
from solutions.evaluation.gate import verdict as reference_verdict
from solutions.evaluation.harness import Metrics
from solutions.evaluation.harness import summarise as reference_summarise


def _calls(runs) -> tuple[int, float | None]:
    calls = sum(r.tool_calls for r in runs)
    return calls, (calls - sum(r.tool_errors for r in runs)) / calls if calls else None


def summarise_counting_step_limits(runs):
    """Wrong: a correct flag counts, even on a run that hit the step limit."""
    runs = list(runs)
    if not runs:
        return Metrics(0, 0.0, 0.0, None, 0, 0)
    return Metrics(len(runs), sum(r.correct for r in runs) / len(runs), sum(r.steps for r in runs) / len(runs),
                   _calls(runs)[1], sum(r.tokens for r in runs), sum(r.stop_reason == "step_limit" for r in runs))


def summarise_dividing_by_zero(runs):
    """Wrong: every average divides by len(runs), also when there are none."""
    runs = list(runs)
    return Metrics(len(runs), sum(r.correct and r.stop_reason == "answered" for r in runs) / len(runs),
                   sum(r.steps for r in runs) / len(runs), _calls(runs)[1], sum(r.tokens for r in runs),
                   sum(r.stop_reason == "step_limit" for r in runs))


def summarise_steps_of_answered_runs(runs):
    """Wrong: average_steps over the answered runs only, which hides the costly failures."""
    runs = list(runs)
    if not runs:
        return Metrics(0, 0.0, 0.0, None, 0, 0)
    answered = [r for r in runs if r.stop_reason == "answered"]
    return Metrics(len(runs), sum(r.correct and r.stop_reason == "answered" for r in runs) / len(runs),
                   sum(r.steps for r in answered) / len(answered) if answered else 0.0, _calls(runs)[1],
                   sum(r.tokens for r in runs), sum(r.stop_reason == "step_limit" for r in runs))


def verdict_by_tokens(before, after):
    """Wrong: the cheaper change wins, whatever it does to the answers."""
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


def verdict_with_equality(before, after):
    """Wrong: rates compared with ==, so a rounding difference reads as a change."""
    if after.success_rate != before.success_rate:
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


@pytest.mark.parametrize("wrong, says", [
    (summarise_counting_step_limits, "a run that hit the step limit is no success"),
    (summarise_dividing_by_zero, "division by zero"),
    (summarise_steps_of_answered_runs, "average the steps over every run"),
])
def test_summarise_refuses_the_classic_wrong_solutions(wrong, says, capsys) -> None:
    wrong.__name__ = "summarise"
    assert check(wrong) is reference_summarise
    assert says in capsys.readouterr().out


@pytest.mark.parametrize("wrong, says", [
    (verdict_by_tokens, "the success rate decides first"),
    (verdict_with_equality, "small tolerance"),
])
def test_verdict_refuses_the_classic_wrong_solutions(wrong, says, capsys) -> None:
    wrong.__name__ = "verdict"
    assert check(wrong) is reference_verdict
    assert says in capsys.readouterr().out


def test_verdict_refuses_what_is_not_metrics() -> None:
    with pytest.raises(TypeError, match="two Metrics"):
        reference_verdict({"success_rate": 1}, Metrics(0, 0.0, 0.0, None, 0, 0))
