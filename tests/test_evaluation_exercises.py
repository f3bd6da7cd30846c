"""Lesson 10's exercises: other right solutions pass the check (the wrong ones are in tests/wrong_solutions/lesson10.py)."""
from __future__ import annotations

import math

import pytest

from solutions.course.check import check
from solutions.evaluation.gate import verdict as reference_verdict
from solutions.evaluation.harness import Metrics


def test_a_one_pass_summarise_passes(capsys) -> None:
    def summarise(runs):
        count = right = steps = calls = errors = tokens = limits = 0
        for run in runs:
            count += 1
            right += run.correct and run.stop_reason == "answered"
            steps += run.steps
            calls += run.tool_calls
            errors += run.tool_errors
            tokens += run.tokens
            limits += run.stop_reason == "step_limit"
        if not count:
            return Metrics(0, None, None, None, 0, 0)
        return Metrics(count, right / count, steps / count, (calls - errors) / calls if calls else None,
                       tokens, limits)
    assert check(summarise) is summarise, capsys.readouterr().out


def test_a_verdict_with_math_isclose_passes(capsys) -> None:
    def verdict(before, after):
        if not math.isclose(before.success_rate, after.success_rate):
            return "better" if after.success_rate > before.success_rate else "worse"
        if before.tokens == after.tokens:
            return "same"
        return "better" if after.tokens < before.tokens else "worse"
    assert check(verdict) is verdict, capsys.readouterr().out


def test_verdict_refuses_what_is_not_metrics() -> None:
    with pytest.raises(TypeError, match="two Metrics"):
        reference_verdict({"success_rate": 1}, Metrics(1, 0.0, 1.0, None, 0, 0))


def test_verdict_refuses_a_metrics_of_no_runs() -> None:
    from solutions.evaluation.harness import summarise

    with pytest.raises(ValueError, match="no runs"):
        reference_verdict(summarise([]), Metrics(1, 1.0, 1.0, None, 10, 0))
