"""Wrong solutions of lesson 10's exercises (summarise, verdict)."""
from __future__ import annotations

from solutions.evaluation.harness import Metrics
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("10")
EMPTY = Metrics(0, 0.0, 0.0, None, 0, 0)


def _tool_success(runs) -> float | None:
    """The right tool-call success rate of a list of runs (the part these mistakes do not touch)."""
    calls = sum(run.tool_calls for run in runs)
    return (calls - sum(run.tool_errors for run in runs)) / calls if calls else None


def _succeeded(run) -> bool:
    return run.correct and run.stop_reason == "answered"


# ---------------------------------------------------------------- summarise(runs)


@CATALOGUE.wrong("summarise", fault="counts a correct run as a success even when it hit the step limit",
                 says="a run that hit the step limit is no success")
def success_by_the_grader_alone(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    return Metrics(len(runs), sum(run.correct for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs), _tool_success(runs),
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="success rate over the answered runs only",
                 says="success_rate is over every run too")
def success_over_the_answered_runs(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    answered = [run for run in runs if run.stop_reason == "answered"]
    return Metrics(len(runs), sum(run.correct for run in answered) / len(answered) if answered else 0.0,
                   sum(run.steps for run in runs) / len(runs), _tool_success(runs),
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="divides by len(runs) when there are no runs",
                 says="division by zero")
def divides_by_zero_on_no_runs(runs):
    runs = list(runs)
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs), _tool_success(runs),
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="averages the steps over the answered runs only, hiding the costly failures",
                 says="average the steps over every run")
def steps_of_the_answered_runs(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    answered = [run for run in runs if run.stop_reason == "answered"]
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in answered) / len(answered) if answered else 0.0,
                   _tool_success(runs), sum(run.tokens for run in runs),
                   sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="counts every run that did not answer as a step-limit hit",
                 says="step_limit_hits counts stop_reason 'step_limit' only")
def every_failure_is_a_step_limit_hit(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs), _tool_success(runs),
                   sum(run.tokens for run in runs), sum(run.stop_reason != "answered" for run in runs))


@CATALOGUE.wrong("summarise", fault="rounds the rates and the average to two places in Metrics",
                 says="do not round() in Metrics")
def rounds_early(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    rate = _tool_success(runs)
    return Metrics(len(runs), round(sum(_succeeded(run) for run in runs) / len(runs), 2),
                   round(sum(run.steps for run in runs) / len(runs), 1),
                   None if rate is None else round(rate, 2),
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="tool_success is 0.0 when there were no tool calls",
                 says="tool_success is None (no rate over nothing)")
def no_calls_is_a_zero_rate(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    calls = sum(run.tool_calls for run in runs)
    good = calls - sum(run.tool_errors for run in runs)
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs), good / calls if calls else 0.0,
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="tool_success is the mean of each run's own rate, not the calls pooled",
                 says="tool_success pools the calls")
def tool_success_averaged_per_run(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    rates = [(run.tool_calls - run.tool_errors) / run.tool_calls for run in runs if run.tool_calls]
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs),
                   sum(rates) / len(rates) if rates else None,
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="tokens averaged per run instead of summed",
                 says="tokens is the sum over the runs")
def tokens_averaged(runs):
    runs = list(runs)
    if not runs:
        return EMPTY
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs), _tool_success(runs),
                   sum(run.tokens for run in runs) // len(runs),
                   sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="assumes a list: len(runs) fails on a generator",
                 says="a generator, which can be read only once")
def assumes_a_list(runs):
    if len(runs) == 0:
        return EMPTY
    calls = sum(run.tool_calls for run in runs)
    return Metrics(len(runs), sum(_succeeded(run) for run in runs) / len(runs),
                   sum(run.steps for run in runs) / len(runs),
                   (calls - sum(run.tool_errors for run in runs)) / calls if calls else None,
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


@CATALOGUE.wrong("summarise", fault="reads runs twice: counts them in a first pass, so a generator is empty after it",
                 says="a generator, which can be read only once")
def reads_the_runs_twice(runs):
    count = sum(1 for _ in runs)
    if count == 0:
        return EMPTY
    calls = sum(run.tool_calls for run in runs)
    return Metrics(count, sum(_succeeded(run) for run in runs) / count,
                   sum(run.steps for run in runs) / count,
                   (calls - sum(run.tool_errors for run in runs)) / calls if calls else None,
                   sum(run.tokens for run in runs), sum(run.stop_reason == "step_limit" for run in runs))


# ---------------------------------------------------------------- verdict(before, after)


def _by_rate_then_tokens(before_rate, after_rate, before, after) -> str:
    """The rest of a verdict once the two rates are compared as the mistake compares them."""
    if after_rate != before_rate:
        return "better" if after_rate > before_rate else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="the cheaper change wins, whatever it does to the answers",
                 says="the success rate decides first")
def tokens_first(before, after):
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    if after.success_rate != before.success_rate:
        return "better" if after.success_rate > before.success_rate else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="rates compared with ==, so a rounding difference reads as a change",
                 says="small tolerance")
def rates_compared_with_equality(before, after):
    return _by_rate_then_tokens(before.success_rate, after.success_rate, before, after)


@CATALOGUE.wrong("verdict", fault="a tolerance of 5 percentage points hides a one-question regression",
                 says="one question of the 38 regressed")
def tolerance_of_five_points(before, after):
    if abs(after.success_rate - before.success_rate) > 0.05:
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="a tolerance of 1 percentage point hides a one-run regression of a larger set",
                 says="never for percentage points")
def tolerance_of_one_point(before, after):
    if abs(after.success_rate - before.success_rate) > 0.01:
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="compares the rates as the table prints them, rounded to whole percents",
                 says="both rates print as 100%")
def rates_as_printed(before, after):
    return _by_rate_then_tokens(round(before.success_rate * 100), round(after.success_rate * 100),
                                before, after)


@CATALOGUE.wrong("verdict", fault="compares the numbers of right answers, not the rates",
                 says="compare success rates, not counts of right answers")
def counts_not_rates(before, after):
    return _by_rate_then_tokens(round(before.success_rate * before.runs),
                                round(after.success_rate * after.runs), before, after)


@CATALOGUE.wrong("verdict", fault="an equal rate counts as better (>= where the spec says higher)",
                 says="equal rates are a tie")
def equal_rate_is_better(before, after):
    if after.success_rate - before.success_rate >= -1e-9:
        if abs(after.success_rate - before.success_rate) <= 1e-9 and after.tokens == before.tokens:
            return "same"
        return "better"
    return "worse"


@CATALOGUE.wrong("verdict", fault="a tie is broken by the average steps instead of the tokens",
                 says="steps are already in the tokens")
def tie_broken_by_steps(before, after):
    if abs(after.success_rate - before.success_rate) > 1e-9:
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.average_steps != before.average_steps:
        return "better" if after.average_steps < before.average_steps else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="a tie in rates ignores token differences under 5%, as if they were noise",
                 says="no tolerance")
def token_tolerance(before, after):
    if abs(after.success_rate - before.success_rate) > 1e-9:
        return "better" if after.success_rate > before.success_rate else "worse"
    if abs(after.tokens - before.tokens) > 0.05 * before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="more tokens read as better (the tie-break the wrong way round)",
                 says="fewer tokens is better")
def more_tokens_is_better(before, after):
    if abs(after.success_rate - before.success_rate) > 1e-9:
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens > before.tokens else "worse"
    return "same"


@CATALOGUE.wrong("verdict", fault="returns the words capitalised ('Better')",
                 says="return exactly 'better', 'worse' or 'same'")
def capitalised_words(before, after):
    if abs(after.success_rate - before.success_rate) > 1e-9:
        return "Better" if after.success_rate > before.success_rate else "Worse"
    if after.tokens != before.tokens:
        return "Better" if after.tokens < before.tokens else "Worse"
    return "Same"
