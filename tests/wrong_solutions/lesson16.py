"""Wrong solutions of lesson 16's exercise (grade_trajectory)."""
from __future__ import annotations

import json
from collections import Counter
from typing import Callable

from solutions.evaluation.trajectory import call_matches, check_expected
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("16")


def _calls(trace) -> list:
    return [step for step in trace.steps if step.action]


def _strict(calls: list, wanted: list, match=call_matches) -> bool:
    return len(calls) == len(wanted) and all(map(match, calls, wanted))


def _in_order(calls: list, wanted: list, match=call_matches) -> bool:
    found = 0
    for step in calls:
        if found < len(wanted) and match(step, wanted[found]):
            found += 1
    return found == len(wanted)


def _graded(calls: list, expected: dict, match=call_matches) -> bool:
    """The reference's verdict on these calls (strict or in order, as `expected` says)."""
    grade = _in_order if expected.get("extra_calls", False) else _strict
    return grade(calls, expected["calls"], match)


def _with(match: Callable) -> Callable:
    """A grade_trajectory right in everything but how one call is matched (`match(step, call)`)."""
    def grade_trajectory(trace, expected):
        check_expected(expected)
        return _graded(_calls(trace), expected, match)
    return grade_trajectory


@CATALOGUE.wrong("grade_trajectory", fault="grades the answer only: any run that answered passes",
                 says="without calling the calculator")
def answer_only(trace, expected):
    return trace.final_answer is not None


CATALOGUE.wrong("grade_trajectory", fault="compares the tool names only, never the arguments",
                says="compare the arguments too")(_with(lambda step, call: step.action == call["tool"]))

CATALOGUE.wrong("grade_trajectory", fault="compares the arguments as JSON text, so spacing and key order count",
                says="not the JSON text")(_with(
    lambda step, call: step.action == call["tool"]
    and json.dumps(step.action_input) == json.dumps(call.get("arguments", step.action_input))))

CATALOGUE.wrong("grade_trajectory", fault="compares argument values with ==, so '(17+5)*3' is not '(17 + 5) * 3'",
                says="white space is set aside")(_with(
    lambda step, call: step.action == call["tool"]
    and all(step.action_input.get(k) == v for k, v in call.get("arguments", {}).items())))


@CATALOGUE.wrong("grade_trajectory", fault="ignores the order: the same calls in any order pass",
                 says="the order of the calls matters")
def order_ignored(trace, expected):
    check_expected(expected)
    calls, wanted = _calls(trace), expected["calls"]
    left = list(calls)
    for call in wanted:
        match = next((step for step in left if call_matches(step, call)), None)
        if match is None:
            return False
        left.remove(match)
    return expected.get("extra_calls", False) or not left


@CATALOGUE.wrong("grade_trajectory", fault="reads step.action of every step, and crashes on a step with no action",
                 says="has action None")
def crashes_without_action(trace, expected):
    check_expected(expected)
    names = [step.action.strip() for step in trace.steps]
    return _graded([step for step, name in zip(trace.steps, names) if name], expected)


@CATALOGUE.wrong("grade_trajectory", fault="zips the calls with the expected calls, so an empty trace passes",
                 says="an empty trace made no call")
def zip_passes_empty(trace, expected):
    check_expected(expected)
    calls, wanted = _calls(trace), expected["calls"]
    if expected.get("extra_calls", False):
        return _in_order(calls, wanted)
    return all(map(call_matches, calls, wanted))


@CATALOGUE.wrong("grade_trajectory", fault="collects the calls in a set, so a repeated call counts once",
                 says="do not collect them in a set")
def repeats_in_a_set(trace, expected):
    check_expected(expected)
    unique = {}
    for step in _calls(trace):
        unique.setdefault((step.action, json.dumps(step.action_input, sort_keys=True)), step)
    return _graded(list(unique.values()), expected)


@CATALOGUE.wrong("grade_trajectory", fault="never allows an extra call, whatever extra_calls says",
                 says="extra calls are allowed here")
def always_strict(trace, expected):
    check_expected(expected)
    return _strict(_calls(trace), expected["calls"])


@CATALOGUE.wrong("grade_trajectory", fault="always allows extra calls, whatever extra_calls says",
                 says="a call is one too many")
def always_extra(trace, expected):
    check_expected(expected)
    return _in_order(_calls(trace), expected["calls"])


@CATALOGUE.wrong("grade_trajectory", fault="with extra calls allowed, looks for each expected call anywhere, in no order",
                 says="must still come in order")
def anywhere(trace, expected):
    check_expected(expected)
    calls, wanted = _calls(trace), expected["calls"]
    if not expected.get("extra_calls", False):
        return _strict(calls, wanted)
    return all(any(call_matches(step, call) for step in calls) for call in wanted)


@CATALOGUE.wrong("grade_trajectory", fault="reads step.action_input[name], a KeyError for a missing argument",
                 says="not a KeyError")
def key_error(trace, expected):
    from solutions.evaluation.trajectory import same_value

    return _with(lambda step, call: step.action == call["tool"] and all(
        same_value(step.action_input[k], v) for k, v in call.get("arguments", {}).items()))(trace, expected)


@CATALOGUE.wrong("grade_trajectory", fault="drops the steps without an action from trace.steps in place",
                 says="changes neither")
def mutates_the_trace(trace, expected):
    check_expected(expected)
    trace.steps[:] = [step for step in trace.steps if step.action]
    return _graded(trace.steps, expected)


@CATALOGUE.wrong("grade_trajectory", fault="fills in the default extra_calls by writing it into the expected trajectory",
                 says="changes neither")
def mutates_the_expected(trace, expected):
    expected.setdefault("extra_calls", False)
    check_expected(expected)
    return _graded(_calls(trace), expected)


@CATALOGUE.wrong("grade_trajectory", fault="counts calls with a Counter of tool names, ignoring order and arguments",
                 says="compare the arguments too")
def counter_of_names(trace, expected):
    check_expected(expected)
    got = Counter(step.action for step in _calls(trace))
    want = Counter(call["tool"] for call in expected["calls"])
    return got == want if not expected.get("extra_calls") else all(got[k] >= n for k, n in want.items())
