"""Trajectory grading: did the run call the right tools, in the right order, with the right arguments?

Built in lesson 16 (Judges and trajectories). An expected trajectory is data:

    {"calls": [{"tool": "get_current_date"},
               {"tool": "add_days", "arguments": {"date": "2025-03-14", "days": 50}}],
     "extra_calls": False}

- `calls`: the tool calls the run must make, in this order. `arguments` (optional) names the
  arguments that must match, by value: a text whatever its case and white space ("(17+5)*3" is
  "(17 + 5) * 3"), a number whatever its type (50 is 50.0, not "50"), anything else by ==. Other
  arguments of the call are not checked.
- `extra_calls` (default False): False, the run makes exactly these calls and no other; True,
  other calls may come before, between and after them (a retry, a look-up the grader does not
  mind).

A step without an action (a format error, the final answer) is not a call. The trace is read,
never changed.
"""
from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

EXPECTED_KEYS = frozenset({"calls", "extra_calls"})
CALL_KEYS = frozenset({"tool", "arguments"})
_SPACE = re.compile(r"\s+")


def check_expected(expected: Any) -> None:
    """Raise a TypeError or ValueError naming what is wrong with an expected trajectory."""
    if not isinstance(expected, dict) or not isinstance(expected.get("calls"), list):
        raise TypeError("an expected trajectory is a dict {'calls': [{'tool': ..., 'arguments': {...}}, "
                        f"...], 'extra_calls': False}}, got {expected!r:.80}")
    if set(expected) - EXPECTED_KEYS:
        raise ValueError(f"unknown key(s) {sorted(set(expected) - EXPECTED_KEYS)} in an expected "
                         "trajectory; accepted: 'calls', 'extra_calls'")
    if not isinstance(expected.get("extra_calls", False), bool):
        raise TypeError(f"'extra_calls' is True or False, got {expected['extra_calls']!r}")
    for number, call in enumerate(expected["calls"], 1):
        if not isinstance(call, dict) or not isinstance(call.get("tool"), str) or not call["tool"]:
            raise TypeError(f"expected call {number} must be a dict with a tool name, "
                            f"{{'tool': 'calculator', 'arguments': {{...}}}}, got {call!r:.80}")
        if set(call) - CALL_KEYS or not isinstance(call.get("arguments", {}), dict):
            raise ValueError(f"expected call {number} takes 'tool' and 'arguments' (a dict), got {call!r:.80}")


def same_value(got: Any, want: Any) -> bool:
    """True when an argument's value `got` matches the expected `want` (see the module's rules)."""
    if isinstance(want, str):
        return isinstance(got, str) and _SPACE.sub("", got).lower() == _SPACE.sub("", want).lower()
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, (int, float)):
        return isinstance(got, (int, float)) and got == want
    return got == want


def call_matches(step: Any, call: dict) -> bool:
    """True when a step's action is the expected call's tool with its expected arguments."""
    given = step.action_input if isinstance(step.action_input, dict) else {}
    return step.action == call["tool"] and all(
        name in given and same_value(given[name], value) for name, value in call.get("arguments", {}).items())


def grade_trajectory(trace: Any, expected: dict) -> bool:
    """True when the trace's tool calls follow `expected`: in order, arguments by value, extra calls
    only if allowed. Built in lesson 16 (Judges and trajectories)."""
    check_expected(expected)
    calls = [step for step in trace.steps if step.action]
    wanted = expected["calls"]
    if not expected.get("extra_calls", False):
        return len(calls) == len(wanted) and all(map(call_matches, calls, wanted))
    found = 0
    for step in calls:  # each expected call, in order, is the next matching call
        if found < len(wanted) and call_matches(step, wanted[found]):
            found += 1
    return found == len(wanted)


def load_trajectories(text: str | None = None) -> dict[str, dict]:
    """The expected trajectories of trajectories.json (or of `text`) by question id, each checked."""
    if text is None:
        text = resources.files("solutions.evaluation").joinpath("trajectories.json").read_text("utf-8")
    trajectories = json.loads(text)["trajectories"]
    for question_id, expected in trajectories.items():
        try:
            check_expected(expected)
        except (TypeError, ValueError) as error:
            raise ValueError(f"trajectory {question_id!r}: {error}") from None
    return trajectories
