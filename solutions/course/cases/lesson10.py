"""Cases for lesson 10 (Evaluation): `summarise` (the harness's metrics) and `verdict` (judging a change)."""
from __future__ import annotations

import math
from typing import Any

from solutions.course.exercises import Case, Cause, Exercise, has_attributes, returns


def _run(correct: bool = True, stop: str = "answered", steps: int = 2, calls: int = 1,
         errors: int = 0, tokens: int = 100) -> Any:
    """A Run built when a case runs (the reference module is imported only then)."""
    from solutions.evaluation.harness import Run
    return Run("q", correct, stop, steps, calls, errors, tokens)


def _same(value: Any, expected: tuple) -> bool:
    """True when `value` is a Metrics-like object whose six fields match `expected` (floats to 1e-9)."""
    names = ("runs", "success_rate", "average_steps", "tool_success", "tokens", "step_limit_hits")
    if not all(hasattr(value, name) for name in names):
        return False
    for name, want in zip(names, expected):
        got = getattr(value, name)
        if want is None or got is None:
            if got is not want:
                return False
        elif isinstance(got, bool) or not isinstance(got, (int, float)) or not math.isclose(got, want, abs_tol=1e-9):
            return False
    return True


RUNS: list[Any] = []
"""The runs the current summarise case passes (set by its setup, read by the causes)."""


def _measures(runs: list[tuple], expected: tuple, label: str, hint: str, *, once: bool = False) -> Case:
    """A case: summarise(<runs>) gives Metrics equal to `expected`; `once`: the runs come as a generator."""
    def setup() -> tuple[tuple, dict]:
        built = [_run(*r) for r in runs]
        RUNS[:] = built
        return ((run for run in built) if once else built,), {}
    names = "runs, success_rate, average_steps, tool_success, tokens, step_limit_hits"
    return Case(setup=setup, expect=lambda value: _same(value, expected), label=label, hint=hint,
                says=f"Metrics({', '.join(f'{n}={v!r}' for n, v in zip(names.split(', '), expected))})")


def _close(a: Any, b: Any) -> bool:
    """Two numbers equal to 1e-9 (False when either is None or not a number)."""
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)) \
        and math.isclose(a, b, abs_tol=1e-9)


def _pooled_tool_success() -> float | None:
    """The right tool_success of the case's runs."""
    calls = sum(run.tool_calls for run in RUNS)
    return (calls - sum(run.tool_errors for run in RUNS)) / calls if calls else None


def _share_of_runs_without_errors() -> float | None:
    """The share of the case's runs with tool calls that had no failed call (a mistaken tool_success)."""
    with_tools = [run for run in RUNS if run.tool_calls]
    return sum(not run.tool_errors for run in with_tools) / len(with_tools) if with_tools else None


A_GENERATOR = ("runs can be any iterable, here a generator, which can be read only once (len() does "
               "not work on it, and a second pass finds it empty): make it a list first, runs = list(runs)")
NO_RUNS = ("no runs is no data, not 0%: success_rate and average_steps are None (like tool_success "
           "without tool calls), Metrics(0, None, None, None, 0, 0); a 0.0 would read as an agent that "
           "failed every question, and a gate would take it for a measured rate")
SUMMARISE_CASES = (
    _measures([(True,), (False,)], (2, 0.5, 2.0, 1.0, 200, 0),
              "summarise([<right>, <wrong>])", "success_rate is the share of runs that succeeded: 1 of "
              "2; tokens is the sum over the runs (200), not an average"),
    _measures([(True, "answered", 1, 1, 0, 100), (False, "answered", 2, 1, 1, 100),
               (False, "answered", 2, 1, 0, 100)], (3, 1 / 3, 5 / 3, 2 / 3, 300, 0),
              "summarise([<right in 1 step>, <wrong after a failed call>, <wrong in 2 steps>])",
              "keep the full precision: 1 of 3 is 0.333..., 5 steps over 3 runs 1.666...; do not "
              "round() in Metrics, round only when you print (f'{rate:.0%}')"),
    _measures([(True, "answered", 2, 1, 0, 100), (False, "step_limit", 6, 6, 2, 900),
               (True, "answered", 1, 0, 0, 50)], (3, 2 / 3, 3.0, 5 / 7, 1050, 1),
              "summarise([<answered in 2>, <step limit after 6>, <answered in 1, no tool>])",
              "average the steps over every run, the step-limit run included (9 / 3 = 3.0): the runs "
              "that failed are the ones that cost most steps; success_rate is over every run too "
              "(2 of 3); tool_success pools the calls, 5 good of 7 (not the mean of each run's rate)"),
    _measures([(True, "step_limit", 6, 6, 0, 600), (True, "answered", 2, 1, 0, 100)],
              (2, 0.5, 4.0, 1.0, 700, 1),
              "summarise([<step limit, graded correct>, <answered>])",
              "a run that hit the step limit is no success, even when a grader accepted the text a loop "
              "handed back: count only runs with stop_reason 'answered' and correct, over every run"),
    _measures([(False, "repeated_call", 3, 3, 1, 300)], (1, 0.0, 3.0, 2 / 3, 300, 0),
              "summarise([<stopped by the repeat guard>])",
              "step_limit_hits counts stop_reason 'step_limit' only (a run the repeat guard stopped "
              "is a failure, not a step-limit hit); tool_success is (calls - errors) / calls"),
    _measures([(True, "repeated_call", 3, 3, 0, 300), (True, "answered", 2, 1, 0, 100)],
              (2, 0.5, 2.5, 1.0, 400, 0),
              "summarise([<stopped by the repeat guard, graded correct>, <answered>])",
              "a success is a run that answered (stop_reason == 'answered') with an answer the grader "
              "accepted: a run stopped by the repeat guard failed too, whatever the grader says, like "
              "a step-limit run (test == 'answered', not != 'step_limit')"),
    _measures([(True, "answered", 6, 5, 0, 600), (False, "step_limit", 6, 6, 0, 700)],
              (2, 0.5, 6.0, 1.0, 1300, 1),
              "summarise([<answered at step 6>, <step limit after 6>])",
              "the first run answered at its sixth step: it did not hit the limit; count the runs whose "
              "stop_reason is 'step_limit', not the runs with 6 steps (max_steps may be anything)"),
    _measures([(True, "answered", 1, 0, 0, 40)], (1, 1.0, 1.0, None, 40, 0),
              "summarise([<answered without a tool>])",
              "no tool calls: tool_success is None (no rate over nothing), not 0 or 1"),
    _measures([(False, "answered", 3, 2, 2, 250)], (1, 0.0, 3.0, 0.0, 250, 0),
              "summarise([<answered wrongly after two failed calls>])",
              "an answered run the grader refused is no success; two calls, both errors: tool_success 0.0"),
    _measures([(True, "answered", 2, 1, 0, 100)] * 3 + [(False, "step_limit", 6, 5, 5, 800)] * 2,
              (5, 0.6, 3.6, 3 / 13, 1900, 2),
              "summarise([<3 answered in 2 steps>, <2 step limits after 6>])",
              "sum tokens and step-limit hits over every run; average the steps over all 5 runs (18 / 5)"),
    _measures([(True, "answered", 2, 1, 0, 100), (False, "step_limit", 6, 6, 2, 900),
               (True, "answered", 1, 0, 0, 50)], (3, 2 / 3, 3.0, 5 / 7, 1050, 1),
              "summarise(run for run in <the 3 runs of case 3>)  # a generator", A_GENERATOR, once=True),
    _measures([], (0, None, None, None, 0, 0), "summarise([])", NO_RUNS),
    _measures([], (0, None, None, None, 0, 0), "summarise(run for run in [])  # an empty generator",
              "an empty generator is truthy (`if not runs` sees a generator, not its runs): make it a "
              "list first, then test for no runs; " + NO_RUNS, once=True),
)
SUMMARISE_CAUSES = (
    Cause(lambda exc: isinstance(exc, ZeroDivisionError), "a division by zero: no runs (an empty list, or "
          "an empty generator) or no tool calls must not divide by 0; a rate or average over nothing is "
          "None, no data", raised=True),
    Cause(lambda exc: isinstance(exc, TypeError) and "generator" in str(exc), A_GENERATOR, raised=True),
    Cause(lambda exc: not RUNS, "raises on no runs: " + NO_RUNS, raised=True),
    has_attributes("runs", "success_rate", "average_steps", "tool_success", "tokens", "step_limit_hits",
                   says="return a Metrics(runs, success_rate, average_steps, tool_success, tokens, step_limit_hits)"),
    Cause(lambda value: value.runs != len(RUNS), "runs is not the number of runs given: count every run, "
          "len(runs) (a sweep runs each question once per persona and variant: not the distinct questions)"),
    Cause(lambda value: RUNS and _close(value.average_steps, sum(r.tool_calls for r in RUNS) / len(RUNS))
          and not _close(value.average_steps, sum(r.steps for r in RUNS) / len(RUNS)),
          "average_steps counts the tool calls: a step is a model call, run.steps (the final answer is "
          "a step too, and so is a format error)"),
    Cause(lambda value: _close(value.tool_success, _share_of_runs_without_errors())
          and not _close(value.tool_success, _pooled_tool_success()),
          "tool_success is the share of runs without a failed call: it is a share of the calls, "
          "pooled: (all calls - all errors) / all calls"),
)


# ---------------------------------------------------------------- verdict(before, after)


def _metrics(success: float, tokens: int, steps: float = 2.0, runs: int = 10) -> Any:
    """A Metrics of `runs` runs with the given success rate, tokens and average steps."""
    from solutions.evaluation.harness import Metrics
    return Metrics(runs, success, steps, 0.9, tokens, 0)


def _shown(metrics: tuple) -> str:
    """A Metrics of a case in words: how many runs were right, of how many, and the tokens."""
    success, tokens = metrics[:2]
    runs = metrics[3] if len(metrics) > 3 else 10
    return f"<{success * runs:,.0f} of {runs:,} right ({success:.1%}), {tokens:,} tokens>"


def _judges(before: tuple, after: tuple, expected: str, hint: str) -> Case:
    """A case: verdict(Metrics(*before), Metrics(*after)) == expected."""
    def setup() -> tuple[tuple, dict]:
        return (_metrics(*before), _metrics(*after)), {}
    return Case(setup=setup, expected=expected, hint=hint,
                label=f"verdict({_shown(before)}, {_shown(after)})")


ONE_OF_THE_SET = ("any drop in the success rate is worse, whatever the tokens: a tolerance is for "
                  "float rounding only (abs(a - b) > 1e-9), never for percentage points, or a "
                  "real regression passes as a tie")
VERDICT_CASES = (
    _judges((0.8, 1000), (0.9, 1000), "better", "a higher success rate is better"),
    _judges((0.9, 1000), (0.8, 1000), "worse", "a lower success rate is worse"),
    _judges((0.8, 1000), (0.9, 5000), "better", "the success rate decides first: more right answers "
            "for more tokens is better"),
    _judges((0.9, 1000), (0.8, 500), "worse", "fewer tokens do not make up for wrong answers"),
    _judges((0.9, 1000), (0.9, 800), "better", "same success rate: fewer tokens is better"),
    _judges((0.9, 800), (0.9, 1000), "worse", "same success rate: more tokens is worse (equal rates "
            "are a tie, not 'better': let the tokens decide)"),
    _judges((0.9, 1000, 2.0), (0.9, 1000, 3.0), "same", "same success rate and tokens: 'same' "
            "(steps are already in the tokens)"),
    _judges((0.3, 1000), (0.1 + 0.2, 1000), "same", "0.1 + 0.2 is 0.30000000000000004, the same rate "
            "computed another way: compare rates with a small tolerance (abs(a - b) > 1e-9), not ==, "
            "or a rounding shows as a change"),
    _judges((0.3, 1000), (0.1 + 0.2, 800), "better", "0.1 + 0.2 is the rate 0.3 computed another way, a "
            "tie: so the tokens decide, and 800 is fewer than 1,000; when the rates differ by 1e-9 or "
            "less, compare the tokens (do not test the rates with == for the tie)"),
    _judges((0.9, 1000), (0.9, 999), "better", "same success rate: 999 tokens is fewer than 1,000, "
            "so better; tokens are counted, not measured: any difference decides, no tolerance"),
    _judges((1.0, 98_047, 2.4, 38), (37 / 38, 87_946, 2.4, 38), "worse",
            "one question of the 38 regressed (2.6 points): " + ONE_OF_THE_SET),
    _judges((1025 / 1026, 500_810, 2.4, 1026), (1024 / 1026, 490_000, 2.4, 1026), "worse",
            "one run of the sweep's 1,026 regressed (0.1 points; both rates print as 100%): "
            + ONE_OF_THE_SET),
    _judges((37 / 38, 98_047, 2.4, 38), (38 / 40, 99_000, 2.4, 40), "worse",
            "the set grew from 38 to 40 questions: 38 right of 40 (95%) is a lower rate than 37 of "
            "38 (97%), though more answers are right; compare success rates, not counts of right "
            "answers"),
    _judges((1007 / 1026, 500_810, 2.4, 1026), (1006 / 1026, 490_000, 2.4, 1026), "worse",
            "one run of the sweep's 1,026 regressed, and both rates round to 0.981 at three places: "
            "rounding hides it; compare the rates themselves, abs(after - before) > 1e-9"),
)

VERDICT_CAUSES = (
    returns(str, "return one of the words 'better', 'worse' or 'same'"),
    Cause(lambda value: isinstance(value, str) and value not in ("better", "worse", "same"),
          "return exactly 'better', 'worse' or 'same' (lower case, no other words)"),
)


EXERCISES = [
    Exercise("summarise", "10", "solutions.evaluation.harness:summarise", SUMMARISE_CASES,
             causes=SUMMARISE_CAUSES),
    Exercise("verdict", "10", "solutions.evaluation.gate:verdict", VERDICT_CASES,
             causes=VERDICT_CAUSES),
]
