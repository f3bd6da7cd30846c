"""Cases for lesson 16 (Judges and trajectories): `grade_trajectory`, the tool calls of a trace
against an expected trajectory."""
from __future__ import annotations

import copy
from typing import Any

from solutions.course.exercises import Case, Cause, Exercise

ONE_CALL = {"calls": [{"tool": "calculator", "arguments": {"expression": "(17 + 5) * 3"}}]}
DATE_THEN_DAYS = {"calls": [{"tool": "get_current_date"},
                            {"tool": "add_days", "arguments": {"date": "2025-03-14", "days": 50}}]}
TWO_ORDERS = {"calls": [{"tool": "lookup_order", "arguments": {"order_id": "A1001"}},
                        {"tool": "lookup_order", "arguments": {"order_id": "A1002"}}], "extra_calls": True}
NO_TOOL = {"calls": [], "extra_calls": False}
GIVEN: list[Any] = []
"""The trace the current case passes, a copy made before the call, and the case's expected
trajectory (set by its setup)."""
GIVEN_EXPECTED: list[Any] = []
"""The copy of the expected trajectory the current case passes (compared after the call)."""


def _step(action: Any) -> Any:
    """A TraceStep: a (tool, arguments) call, a str final answer, or None for a format error."""
    from solutions.agent import TraceStep
    if action is None:
        return TraceStep(thought="", raw_reply="Let me think.", error="Your reply had no Action.")
    if isinstance(action, str):
        return TraceStep(thought="I know the answer.", final_answer=action)
    tool, arguments = action
    return TraceStep(thought=f"I call {tool}.", action=tool, action_input=dict(arguments),
                     observation="(the tool's result)")


def _case(steps: list, expected: dict, want: bool, label: str, hint: str) -> Case:
    """A case: grade_trajectory(<a trace of `steps`>, expected) is `want`, and the trace is unchanged."""
    def setup() -> tuple[tuple, dict]:
        from solutions.agent import Trace
        trace = Trace("the question", [_step(s) for s in steps],
                      next((s for s in reversed(steps) if isinstance(s, str)), None), "answered")
        given = copy.deepcopy(expected)
        GIVEN[:] = [trace, copy.deepcopy(trace), expected]
        GIVEN_EXPECTED[:] = [given]
        return (trace, given), {}
    return Case(setup=setup, expect=lambda value: value is want and _unchanged(), label=label,
                hint=hint, says=f"{want}, the trace and the expected trajectory left as they were")


def _unchanged() -> bool:
    """True when the case's trace and expected trajectory are as they were before the call."""
    trace, before, expected = GIVEN
    return trace == before and trace.steps == before.steps and GIVEN_EXPECTED[0] == expected


CALC = ("calculator", {"expression": "(17 + 5) * 3"})
MUTATED = ("grade_trajectory reads the trace and the expected trajectory, and changes neither: no "
           "steps removed or reordered, no arguments rewritten in place (another grader, or the "
           "trace viewer, reads them next); build your own list of calls instead")
GRADE_TRAJECTORY_CASES = (
    _case([CALC, "66"], ONE_CALL, True, "grade_trajectory(<calculator (17 + 5) * 3, answer 66>, ONE_CALL)",
          "the run made the one expected call: True (the final-answer step has no action: it is not a call)"),
    _case([], ONE_CALL, False, "grade_trajectory(<a trace with no steps>, ONE_CALL)",
          "an empty trace made no call, so it lacks the expected one: False (zip() of the calls and "
          "the expected calls stops at the shorter: check the counts too)"),
    _case(["66"], ONE_CALL, False, "grade_trajectory(<answer 66, no tool called>, ONE_CALL)",
          "the run answered 66 without calling the calculator: the answer is right, the trajectory is "
          "not; grade the calls (steps with an action), not the final answer"),
    _case([("calculator", {"expression": "17 + 5 * 3"}), "32"], ONE_CALL, False,
          "grade_trajectory(<calculator 17 + 5 * 3>, ONE_CALL)",
          "the right tool with the wrong expression is a wrong call: compare the arguments too, not "
          "only the tool names"),
    _case([("calculator", {"expression": "(17+5)*3"}), "66"], ONE_CALL, True,
          "grade_trajectory(<calculator (17+5)*3>, ONE_CALL)",
          "arguments match by value: '(17+5)*3' is '(17 + 5) * 3' once white space is set aside; compare "
          "each argument's value (same_value), not the JSON text of the arguments"),
    _case([("query_orders", {"end_date": "2025-03-07", "start_date": "2025-03-01"}), "3 orders"],
          {"calls": [{"tool": "query_orders", "arguments": {"start_date": "2025-03-01", "end_date": "2025-03-07"}}]},
          True, "grade_trajectory(<query_orders with end_date before start_date>, <start_date, end_date>)",
          "the same arguments in another key order are the same call: compare argument by argument, "
          "not json.dumps() of the dicts (its text follows the key order)"),
    _case([("get_weather", {"city": "beijing", "date": "2025-03-14"}), "Partly cloudy"],
          {"calls": [{"tool": "get_weather", "arguments": {"city": "Beijing"}}]}, True,
          "grade_trajectory(<get_weather city='beijing' date=...>, <get_weather city='Beijing'>)",
          "texts match whatever their case ('beijing' is 'Beijing'), and only the arguments the "
          "expected call names are checked: the date is not"),
    _case([("calculator", {"input": "(17 + 5) * 3"}), "66"], ONE_CALL, False,
          "grade_trajectory(<calculator input='(17 + 5) * 3'>, ONE_CALL)",
          "the call has no 'expression' argument (it sent 'input'): an expected argument that is "
          "missing is a mismatch, not a pass (and not a KeyError)"),
    _case([("add_days", {"date": "2025-03-14", "days": 50}), ("get_current_date", {}), "2025-05-03"],
          DATE_THEN_DAYS, False, "grade_trajectory(<add_days, then get_current_date>, DATE_THEN_DAYS)",
          "the calls came in the wrong order (add_days before the date was known): the order of the "
          "calls matters; compare the i-th call with the i-th expected call"),
    _case([("get_current_date", {}), ("add_days", {"date": "2025-03-14", "days": 50.0}), "2025-05-03"],
          DATE_THEN_DAYS, True, "grade_trajectory(<get_current_date, add_days days=50.0>, DATE_THEN_DAYS)",
          "in order, and 50.0 is the number 50: True"),
    _case([None, CALC, "66"], ONE_CALL, True,
          "grade_trajectory(<a format error, then calculator>, ONE_CALL)",
          "a step without an action (a format error, the final answer) is not a call: skip it "
          "(step.action is None there)"),
    _case(["Paris"], NO_TOOL, True, "grade_trajectory(<answer Paris, no tool>, NO_TOOL)",
          "no call expected and none made: True"),
    _case([("search_docs", {"query": "capital of France"}), "Paris"], NO_TOOL, False,
          "grade_trajectory(<search_docs, answer Paris>, NO_TOOL)",
          "no call was expected and extra_calls is False: a call is one too many"),
    _case([CALC, CALC, "66"], ONE_CALL, False, "grade_trajectory(<calculator twice>, ONE_CALL)",
          "the same call twice is two calls, and ONE_CALL expects exactly one (extra_calls is False by "
          "default): count every call, do not collect them in a set"),
    _case([CALC, CALC, "66"], {**ONE_CALL, "extra_calls": True}, True,
          "grade_trajectory(<calculator twice>, {**ONE_CALL, 'extra_calls': True})",
          "extra calls are allowed here: the expected call is made, a repeat does not matter"),
    _case([("math", {"expression": "(17 + 5) * 3"}), CALC, "66"], {**ONE_CALL, "extra_calls": True}, True,
          "grade_trajectory(<an unknown tool, then calculator>, <ONE_CALL, extra calls allowed>)",
          "with extra_calls True, other calls may come before the expected ones"),
    _case([("math", {"expression": "(17 + 5) * 3"}), CALC, "66"], ONE_CALL, False,
          "grade_trajectory(<an unknown tool, then calculator>, ONE_CALL)",
          "extra_calls is False (the default when the key is absent): the unknown tool's call is one "
          "too many"),
    _case([("lookup_order", {"order_id": "A1001"}), ("get_current_date", {}),
           ("lookup_order", {"order_id": "A1002"}), "179.90"], TWO_ORDERS, True,
          "grade_trajectory(<A1001, get_current_date, A1002>, TWO_ORDERS)",
          "extra calls allowed: the expected calls appear in order, with another call between them"),
    _case([("lookup_order", {"order_id": "A1002"}), ("lookup_order", {"order_id": "A1001"}), "179.90"],
          TWO_ORDERS, False, "grade_trajectory(<A1002, then A1001>, TWO_ORDERS)",
          "extra calls allowed, but the expected calls must still come in order: A1001 first. Match "
          "each expected call with a later call than the one before it"),
    _case([("lookup_order", {"order_id": "A1001"}), ("lookup_order", {"order_id": "A1001"}), "59.90"],
          TWO_ORDERS, False, "grade_trajectory(<A1001 twice>, TWO_ORDERS)",
          "A1002 was never looked up: a call matches one expected call, once; A1001 twice is not A1001 "
          "then A1002"),
    _case([None, ("calculator", {"expression": " (17 + 5) * 3 "}), "66"], ONE_CALL, True,
          "grade_trajectory(<a format error, calculator ' (17 + 5) * 3 '>, ONE_CALL)", MUTATED),
    Case(args=(None, {"calls": "calculator"}), raises=TypeError, match="calls",
         label="grade_trajectory(<trace>, {'calls': 'calculator'})",
         hint="an expected trajectory whose calls are not a list is a mistake in the data: raise a "
              "TypeError naming 'calls' (check_expected does)"),
)

GRADE_TRAJECTORY_CAUSES = (
    Cause(lambda value: bool(GIVEN) and not _unchanged(), MUTATED),
    Cause(lambda value: not isinstance(value, bool),
          "return True or False (a bool): whether the trace's calls follow the expected trajectory"),
    Cause(lambda exc: isinstance(exc, (AttributeError, TypeError)) and "NoneType" in str(exc),
          "a step without an action (a format error, the final answer) has action None: skip the "
          "steps whose action is None before reading a call", raised=True),
    Cause(lambda exc: isinstance(exc, KeyError),
          "an expected argument the call lacks, or an expected call without 'arguments', is a "
          "mismatch to report (False), not a KeyError: use .get() or `in`", raised=True),
)

EXERCISES = [
    Exercise("grade_trajectory", "16", "solutions.evaluation.trajectory:grade_trajectory",
             GRADE_TRAJECTORY_CASES, causes=GRADE_TRAJECTORY_CAUSES),
]
