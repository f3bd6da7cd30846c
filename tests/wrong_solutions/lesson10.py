"""Wrong solutions of lesson 10's exercises (summarise, verdict)."""
from __future__ import annotations

import dataclasses
import operator
from typing import Any, Callable

from solutions.evaluation.harness import Metrics
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("10")
EMPTY = Metrics(0, None, None, None, 0, 0)


def _succeeded(run) -> bool:
    return run.correct and run.stop_reason == "answered"


def _tool_success(runs) -> float | None:
    calls = sum(run.tool_calls for run in runs)
    return (calls - sum(run.tool_errors for run in runs)) / calls if calls else None


def _right(runs: list) -> Metrics:
    """The Metrics of a non-empty list of runs, as the exercise asks."""
    return Metrics(len(runs), sum(map(_succeeded, runs)) / len(runs),
                   sum(run.steps for run in runs) / len(runs), _tool_success(runs),
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


def _with(**wrong: Callable[[list], Any]) -> Callable:
    """A summarise right in every field but those given, each computed by its wrong expression."""
    def summarise(runs):
        runs = list(runs)
        if not runs:
            return EMPTY
        return dataclasses.replace(_right(runs), **{name: how(runs) for name, how in wrong.items()})
    return summarise


def _answered(runs: list) -> list:
    return [run for run in runs if run.stop_reason == "answered"]


def _per_run_tool_rate(runs: list) -> float | None:
    rates = [(run.tool_calls - run.tool_errors) / run.tool_calls for run in runs if run.tool_calls]
    return sum(rates) / len(rates) if rates else None


# ---------------------------------------------------------------- summarise(runs)

for _fault, _says, _wrong in [
        ("counts a correct run as a success even when it hit the step limit",
         "a run that hit the step limit is no success",
         {"success_rate": lambda runs: sum(run.correct for run in runs) / len(runs)}),
        ("success rate over the answered runs only", "success_rate is over every run too",
         {"success_rate": lambda runs: sum(run.correct for run in _answered(runs)) / max(len(_answered(runs)), 1)}),
        ("averages the steps over the answered runs only, hiding the costly failures",
         "average the steps over every run",
         {"average_steps": lambda runs: sum(run.steps for run in _answered(runs)) / max(len(_answered(runs)), 1)}),
        ("counts every run that did not answer as a step-limit hit",
         "step_limit_hits counts stop_reason 'step_limit' only",
         {"step_limit_hits": lambda runs: sum(run.stop_reason != "answered" for run in runs)}),
        ("rounds the rates and the average to two places in Metrics", "do not round() in Metrics",
         {"success_rate": lambda runs: round(_right(runs).success_rate, 2),
          "average_steps": lambda runs: round(_right(runs).average_steps, 1)}),
        ("tool_success is 0.0 when there were no tool calls", "tool_success is None (no rate over nothing)",
         {"tool_success": lambda runs: _tool_success(runs) or 0.0}),
        ("tool_success is the mean of each run's own rate, not the calls pooled",
         "tool_success pools the calls", {"tool_success": _per_run_tool_rate}),
        ("tokens averaged per run instead of summed", "tokens is the sum over the runs",
         {"tokens": lambda runs: sum(run.tokens for run in runs) // len(runs)}),
        ("a success is any correct run that did not hit the step limit (a repeat-guard stop counts)",
         "a run stopped by the repeat guard failed too",
         {"success_rate": lambda runs: sum(run.correct and run.stop_reason != "step_limit"
                                           for run in runs) / len(runs)}),
        ("step-limit hits counted as the runs that took 6 steps, the lesson's max_steps",
         "not the runs with 6 steps", {"step_limit_hits": lambda runs: sum(run.steps >= 6 for run in runs)}),
        ("runs counts the distinct questions, not the runs", "runs is not the number of runs given",
         {"runs": lambda runs: len({run.question_id for run in runs})}),
        ("average_steps counts the tool calls, not the model calls", "average_steps counts the tool calls",
         {"average_steps": lambda runs: sum(run.tool_calls for run in runs) / len(runs)}),
        ("tool_success as the share of runs whose calls all worked", "tool_success is the share of runs",
         {"tool_success": lambda runs: (sum(not run.tool_errors for run in runs if run.tool_calls)
                                        / sum(1 for run in runs if run.tool_calls))
          if any(run.tool_calls for run in runs) else None})]:
    CATALOGUE.wrong("summarise", fault=_fault, says=_says)(_with(**_wrong))


@CATALOGUE.wrong("summarise", fault="divides by len(runs) when there are no runs", says="division by zero")
def divides_by_zero_on_no_runs(runs):
    return _right(list(runs))


@CATALOGUE.wrong("summarise", fault="assumes a list: len(runs) fails on a generator",
                 says="a generator, which can be read only once")
def assumes_a_list(runs):
    return _right(runs) if len(runs) else EMPTY


@CATALOGUE.wrong("summarise", fault="reads runs twice: counts them in a first pass, so a generator is empty after it",
                 says="a generator, which can be read only once")
def reads_the_runs_twice(runs):
    count = sum(1 for _ in runs)
    if count == 0:
        return EMPTY
    return Metrics(count, sum(map(_succeeded, runs)) / count, sum(run.steps for run in runs) / count,
                   _tool_success(runs), sum(run.tokens for run in runs),
                   sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="no runs measures zeros, a success rate of 0.0 (no data read as 0%)",
                 says="no runs is no data, not 0%")
def zeros_for_no_runs(runs):
    runs = list(runs)
    return _right(runs) if runs else Metrics(0, 0.0, 0.0, None, 0, 0)


@CATALOGUE.wrong("summarise", fault="no runs: the success rate is None but the average steps 0.0",
                 says="success_rate and average_steps are None")
def average_of_nothing_is_zero(runs):
    runs = list(runs)
    return _right(runs) if runs else Metrics(0, None, 0.0, None, 0, 0)


@CATALOGUE.wrong("summarise", fault="no runs: the rates are NaN (0 / 0 as floats)",
                 says="no runs is no data, not 0%")
def nan_for_no_runs(runs):
    runs = list(runs)
    return _right(runs) if runs else Metrics(0, float("nan"), float("nan"), None, 0, 0)


@CATALOGUE.wrong("summarise", fault="tests for no runs before making a list: an empty generator is truthy",
                 says="division by zero")
def tests_the_generator_for_no_runs(runs):
    if not runs:
        return EMPTY
    return _right(list(runs))


@CATALOGUE.wrong("summarise", fault="raises ValueError for no runs instead of measuring no data",
                 says="no runs is no data")
def refuses_no_runs(runs):
    runs = list(runs)
    if not runs:
        raise ValueError("no runs to summarise")
    return _right(runs)


# ---------------------------------------------------------------- verdict(before, after)


def _differ(a: float, b: float) -> bool:
    return abs(a - b) > 1e-9


def _verdict(rates_differ: Callable[[Any, Any], bool] = _differ,
             rate: Callable[[Metrics], Any] = lambda metrics: metrics.success_rate,
             tokens_differ: Callable[[Metrics, Metrics], bool] = lambda b, a: a.tokens != b.tokens,
             fewer_is_better: bool = True) -> Callable:
    """A verdict: the rate decides, then the tokens, each compared as the mistake compares them."""
    def verdict(before, after):
        if rates_differ(rate(before), rate(after)):
            return "better" if rate(after) > rate(before) else "worse"
        if tokens_differ(before, after):
            return "better" if (after.tokens < before.tokens) == fewer_is_better else "worse"
        return "same"
    return verdict


for _fault, _says, _wrong in [
        ("rates compared with ==, so a rounding difference reads as a change", "small tolerance",
         _verdict(operator.ne)),
        ("a tolerance of 5 percentage points hides a one-question regression",
         "one question of the 38 regressed", _verdict(lambda b, a: abs(a - b) > 0.05)),
        ("a tolerance of 1 percentage point hides a one-run regression of a larger set",
         "never for percentage points", _verdict(lambda b, a: abs(a - b) > 0.01)),
        ("compares the rates as the table prints them, rounded to whole percents",
         "both rates print as 100%", _verdict(operator.ne, lambda m: round(m.success_rate * 100))),
        ("compares the numbers of right answers, not the rates",
         "compare success rates, not counts of right answers",
         _verdict(operator.ne, lambda m: round(m.success_rate * m.runs))),
        ("a tie in rates ignores token differences under 5%, as if they were noise", "no tolerance",
         _verdict(tokens_differ=lambda b, a: abs(a.tokens - b.tokens) > 0.05 * b.tokens)),
        ("more tokens read as better (the tie-break the wrong way round)", "fewer tokens is better",
         _verdict(fewer_is_better=False)),
        ("compares the rates rounded to three places", "rounding hides it",
         _verdict(operator.ne, lambda m: round(m.success_rate, 3))),
        ("the tokens decide only when the rates are exactly equal, so a rounding tie is 'same'",
         "the tokens decide", _verdict(tokens_differ=lambda b, a: a.success_rate == b.success_rate
                                        and a.tokens != b.tokens))]:
    CATALOGUE.wrong("verdict", fault=_fault, says=_says)(_wrong)


@CATALOGUE.wrong("verdict", fault="the cheaper change wins, whatever it does to the answers",
                 says="the success rate decides first")
def tokens_first(before, after):
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    if after.success_rate != before.success_rate:
        return "better" if after.success_rate > before.success_rate else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="an equal rate counts as better (>= where the spec says higher)",
                 says="equal rates are a tie")
def equal_rate_is_better(before, after):
    if after.success_rate - before.success_rate >= -1e-9:
        same = not _differ(after.success_rate, before.success_rate) and after.tokens == before.tokens
        return "same" if same else "better"
    return "worse"


@CATALOGUE.wrong("verdict", fault="a tie is broken by the average steps instead of the tokens",
                 says="steps are already in the tokens")
def tie_broken_by_steps(before, after):
    if _differ(after.success_rate, before.success_rate):
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.average_steps != before.average_steps:
        return "better" if after.average_steps < before.average_steps else "worse"
    return _verdict()(before, after)


@CATALOGUE.wrong("verdict", fault="returns the words capitalised ('Better')",
                 says="return exactly 'better', 'worse' or 'same'")
def capitalised_words(before, after):
    return _verdict()(before, after).capitalize()


@CATALOGUE.wrong("verdict", fault="the average steps break a tie in the tokens", says="steps are already in the tokens")
def steps_after_the_tokens(before, after):
    if _verdict()(before, after) == "same" and after.average_steps != before.average_steps:
        return "better" if after.average_steps < before.average_steps else "worse"
    return _verdict()(before, after)


@CATALOGUE.wrong("verdict", fault="a tie in the rates is broken by the tokens per run, not the tokens",
                 harmless="every comparison of the lesson measures the same 38 questions before and after, "
                          "so tokens per run and tokens order the changes the same way")
def tokens_per_run(before, after):
    if _differ(after.success_rate, before.success_rate):
        return "better" if after.success_rate > before.success_rate else "worse"
    spent_before, spent_after = before.tokens / max(before.runs, 1), after.tokens / max(after.runs, 1)
    if spent_after != spent_before:  # a fairer comparison when the set grows
        return "better" if spent_after < spent_before else "worse"
    return "same"
