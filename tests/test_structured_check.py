"""Lesson 06's checks refuse the classic wrong solutions of its two exercises, and name why.

Each wrong solution is written as a learner would; `check` must hand back the reference and say
what went wrong. The reference itself passes (tests/test_check.py runs every reference).
"""
from __future__ import annotations

import json
from typing import Any, Callable

import jsonschema
import pytest

from solutions.arguments import decode_arguments
from solutions.arguments import validate_arguments as reference_validate
from solutions.course.check import check
from solutions.structured import tool_messages as reference_messages

JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "object": dict,
              "array": list}


def _named(name: str) -> Callable[[Callable], Callable]:
    """Give a wrong solution the exercise's name, as the learner's cell would."""
    def rename(fn: Callable) -> Callable:
        fn.__name__ = name
        return fn
    return rename


def _verdict(fn: Callable, reference: Callable, capsys: pytest.CaptureFixture) -> str:
    """Check `fn`, assert that the reference comes back, return the printed report."""
    assert check(fn) is reference
    return capsys.readouterr().out


# ---------------------------------------------------------------- validate_arguments

@_named("validate_arguments")
def isinstance_only(tool: Any, arguments: str) -> tuple[dict, str | None]:
    """Decodes carefully, then checks the type of each argument present with isinstance."""
    try:
        value = json.loads(arguments)
        if isinstance(value, str):
            value = json.loads(value)
    except ValueError as exc:
        return {}, f"the arguments are not valid JSON: {exc}"
    if not isinstance(value, dict):
        return {}, "the arguments must be a JSON object"
    for key, item in value.items():
        spec = tool.parameters.get("properties", {}).get(key)
        if spec is None:
            return {}, f"unexpected argument {key!r}"
        if not isinstance(item, JSON_TYPES[spec["type"]]):
            return {}, f"argument {key!r} must be of type {spec['type']}"
    return value, None


@_named("validate_arguments")
def raises_on_bad_json(tool: Any, arguments: str) -> tuple[dict, str | None]:
    """jsonschema done right, but json.loads unguarded."""
    value = json.loads(arguments)
    if isinstance(value, str):
        value = json.loads(value)
    schema = {"additionalProperties": False, **tool.parameters}
    errors = [f"{'.'.join(map(str, e.path))}: {e.message}" for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


@_named("validate_arguments")
def open_schema(tool: Any, arguments: str) -> tuple[dict, str | None]:
    """Validates against the schema as given, which lets extra arguments through."""
    value, problem = decode_arguments(arguments)
    if problem:
        return {}, problem
    errors = [f"{'.'.join(map(str, e.path))}: {e.message}"
              for e in jsonschema.Draft202012Validator(tool.parameters).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


@_named("validate_arguments")
def message_without_the_name(tool: Any, arguments: str) -> tuple[dict, str | None]:
    """Reports jsonschema's messages alone: "'50' is not of type 'integer'" says not which argument."""
    value, problem = decode_arguments(arguments)
    if problem:
        return {}, problem
    schema = {"additionalProperties": False, **tool.parameters}
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


@_named("validate_arguments")
def decodes_once(tool: Any, arguments: str) -> tuple[dict, str | None]:
    """Everything right but the second decoding."""
    try:
        value = json.loads(arguments)
    except ValueError as exc:
        return {}, f"the arguments are not valid JSON: {exc}"
    if not isinstance(value, dict):
        return {}, "the arguments must be a JSON object"
    schema = {"additionalProperties": False, **tool.parameters}
    errors = [f"argument {'.'.join(map(str, e.path))!r}: {e.message}"
              for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


def test_isinstance_only_is_refused_for_what_it_cannot_see(capsys) -> None:
    report = _verdict(isinstance_only, reference_validate, capsys)
    assert "✗ validate_arguments" in report
    for case in ("""(add_days, '{"date": "2025-03-14"}')""", "true", "kelvin", '"count": 0'):
        assert case in report, case  # missing required, bool for integer, enum, minimum


def test_raising_on_bad_json_is_the_named_root_cause(capsys) -> None:
    report = _verdict(raises_on_bad_json, reference_validate, capsys)
    assert "raises on arguments that are not JSON" in report


def test_an_open_schema_lets_an_extra_argument_through(capsys) -> None:
    report = _verdict(open_schema, reference_validate, capsys)
    assert "units" in report and "additionalProperties" in report


def test_a_message_that_does_not_name_the_argument_is_refused(capsys) -> None:
    report = _verdict(message_without_the_name, reference_validate, capsys)
    assert "error.path" in report


def test_decoding_once_misses_arguments_encoded_twice(capsys) -> None:
    report = _verdict(decodes_once, reference_validate, capsys)
    assert "11/12 cases pass" in report and "encode the arguments twice" in report


# ---------------------------------------------------------------- tool_messages

def _run(call: Any, tools: Any) -> str:
    """Validate and run one call as the reference does (the part these wrong solutions keep)."""
    name = call.function.name
    if name not in tools:
        return tools.run(name, {})
    arguments, problem = reference_validate(tools[name], call.function.arguments)
    return f"Error: {problem}" if problem else tools.run(name, arguments)


@_named("tool_messages")
def loses_the_id(tool_calls: list, tools: Any) -> list[dict]:
    """The right contents, but no tool_call_id."""
    return [{"role": "tool", "content": _run(call, tools)} for call in tool_calls]


@_named("tool_messages")
def index_as_id(tool_calls: list, tools: Any) -> list[dict]:
    """An id, but the call's position instead of its id."""
    return [{"role": "tool", "tool_call_id": str(i), "content": _run(call, tools)}
            for i, call in enumerate(tool_calls)]


@_named("tool_messages")
def raises_on_bad_arguments(tool_calls: list, tools: Any) -> list[dict]:
    """Decodes with json.loads and lets the exception out."""
    return [{"role": "tool", "tool_call_id": call.id,
             "content": tools.run(call.function.name, json.loads(call.function.arguments))}
            for call in tool_calls]


@_named("tool_messages")
def runs_without_validating(tool_calls: list, tools: Any) -> list[dict]:
    """Decodes safely, then runs the tool whatever the types."""
    answers = []
    for call in tool_calls:
        arguments, problem = decode_arguments(call.function.arguments)
        content = f"Error: {problem}" if problem else tools.run(call.function.name, arguments)
        answers.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return answers


@_named("tool_messages")
def as_user_messages(tool_calls: list, tools: Any) -> list[dict]:
    """Lesson 04's habit: observations as user messages."""
    return [{"role": "user", "tool_call_id": call.id, "content": f"Observation: {_run(call, tools)}"}
            for call in tool_calls]


@_named("tool_messages")
def first_call_only(tool_calls: list, tools: Any) -> list[dict]:
    """Answers the first call of a reply and forgets the others."""
    return [{"role": "tool", "tool_call_id": call.id, "content": _run(call, tools)} for call in tool_calls[:1]]


@pytest.mark.parametrize("wrong, says", [
    (loses_the_id, "a message without 'tool_call_id'"),
    (as_user_messages, "a message whose role is not 'tool'"),
])
def test_a_shared_mistake_is_reported_once_as_the_cause(wrong: Callable, says: str, capsys) -> None:
    report = _verdict(wrong, reference_messages, capsys)
    assert says in report and "cases fail for one reason" in report


@pytest.mark.parametrize("wrong, case", [
    (raises_on_bad_arguments, "raised JSONDecodeError"),
    (index_as_id, "call_b: get_weather Beijing, call_a"),
    (runs_without_validating, "repeat {'word': 'hi', 'times': 'three'}"),
    (first_call_only, "call_b: get_weather Beijing, call_a"),
])
def test_a_wrong_tool_messages_fails_the_case_that_shows_it(wrong: Callable, case: str, capsys) -> None:
    report = _verdict(wrong, reference_messages, capsys)
    assert "✗ tool_messages" in report and case in report


def test_raising_is_named_as_the_cause_even_in_one_case(capsys) -> None:
    report = _verdict(raises_on_bad_arguments, reference_messages, capsys)
    assert "hint:     raises on arguments that are not JSON" in report
