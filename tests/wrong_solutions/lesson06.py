"""Wrong solutions of lesson 06's exercises (validate_arguments, tool_messages).

Each is written as a learner would, with the helpers the lesson offers (`decode_arguments`,
`schema_validator`, `describe_error`) or with `jsonschema` directly, and passes the easy cases.
"""
from __future__ import annotations

import json
from typing import Any

import jsonschema

from solutions.arguments import decode_arguments, describe_error, schema_validator
from solutions.arguments import validate_arguments as reference_validate
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("06")
JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "object": dict,
              "array": list}


def _problems(errors: list, tool: Any) -> str | None:
    """Every error as one sentence naming its argument (None when there is none)."""
    return "; ".join(describe_error(error, tool) for error in errors) or None


def _loads_twice(text: str) -> Any:
    """json.loads, and again when it gives a str (arguments encoded twice)."""
    value = json.loads(text)
    return json.loads(value) if isinstance(value, str) else value


def _schema_checked(tool: Any, value: Any) -> tuple[dict, str | None]:
    """The exercise's checks of a decoded value, right: an object that fits the closed schema."""
    if not isinstance(value, dict):
        return {}, f"the arguments of {tool.name} must be a JSON object"
    problems = _problems(list(schema_validator(tool.parameters).iter_errors(value)), tool)
    return ({}, f"invalid arguments for {tool.name}: {problems}") if problems else (value, None)


# ---------------------------------------------------------------- validate_arguments

@CATALOGUE.wrong("validate_arguments", fault="reports only the first schema error",
                 says="report every error, not only the first")
def first_error_only(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    error = next(iter(schema_validator(tool.parameters).iter_errors(value)), None)
    if error is not None:  # the model fixes one thing at a time
        return {}, f"invalid arguments for {tool.name}: {describe_error(error, tool)}"
    return value, None


@CATALOGUE.wrong("validate_arguments", fault="jsonschema.validate caught: one error, the best match",
                 says="report every error, not only the first")
def best_match_only(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    try:
        jsonschema.validate(value, {"additionalProperties": False, **tool.parameters},
                            format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    except jsonschema.ValidationError as error:
        return {}, f"invalid arguments for {tool.name}: {describe_error(error, tool)}"
    return value, None


@CATALOGUE.wrong("validate_arguments", fault="validates without a format checker ('tomorrow' passes as a date)",
                 says="format checker")
def no_format_checker(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    validator = jsonschema.Draft202012Validator({"additionalProperties": False, **tool.parameters})
    problems = _problems(list(validator.iter_errors(value)), tool)
    return ({}, f"invalid arguments for {tool.name}: {problems}") if problems else (value, None)


@CATALOGUE.wrong("validate_arguments", fault="raises jsonschema's ValidationError instead of returning it",
                 says="raises jsonschema's ValidationError")
def raises_validation_error(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    jsonschema.validate(value, {"additionalProperties": False, **tool.parameters},
                        format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    return value, None


@CATALOGUE.wrong("validate_arguments", fault="raises ValueError with the problem instead of returning it",
                 says="raises where it must return")
def raises_the_problem(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        raise ValueError(f"the arguments of {tool.name} {problem}")
    problems = _problems(list(schema_validator(tool.parameters).iter_errors(value)), tool)
    if problems:
        raise ValueError(f"invalid arguments for {tool.name}: {problems}")
    return value, None


@CATALOGUE.wrong("validate_arguments", fault="json.loads without catching the error",
                 says="raises on arguments that are not JSON")
def raises_on_bad_json(tool, arguments):
    value = json.loads(arguments)
    if isinstance(value, str):
        value = json.loads(value)
    schema = {"additionalProperties": False, **tool.parameters}
    errors = [f"{'.'.join(map(str, e.path))}: {e.message}"
              for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


@CATALOGUE.wrong("validate_arguments", fault="reads a JSON array as the arguments in the parameters' order",
                 says="a JSON array is not an object")
def array_read_in_order(tool, arguments):
    try:
        value = json.loads(arguments)
        if isinstance(value, str):
            value = json.loads(value)
    except ValueError as exc:
        return {}, f"the arguments of {tool.name} are not valid JSON ({exc})"
    if isinstance(value, list):  # a model that sent the values only: match them to the names
        value = dict(zip(tool.arguments, value))
    return _schema_checked(tool, value)


@CATALOGUE.wrong("validate_arguments", fault="json.loads(text) or {}: null (or 0, false, []) passes as no arguments",
                 says="null is JSON but not an object")
def null_as_no_arguments(tool, arguments):
    try:
        value = json.loads(arguments or "{}") or {}
        if isinstance(value, str):
            value = json.loads(value) or {}
    except ValueError as exc:
        return {}, f"the arguments of {tool.name} are not valid JSON ({exc})"
    return _schema_checked(tool, value)


@CATALOGUE.wrong("validate_arguments", fault="closes the schema by changing tool.parameters in place",
                 says="tool.parameters was changed")
def closes_the_tools_schema(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    schema = tool.parameters
    schema.setdefault("additionalProperties", False)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    problems = _problems(list(validator.iter_errors(value)), tool)
    return ({}, f"invalid arguments for {tool.name}: {problems}") if problems else (value, None)


@CATALOGUE.wrong("validate_arguments", fault="over-strict: closes the schema even where it allows extra arguments",
                 says="too strict: this schema says \"additionalProperties\": true")
def always_closed(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    schema = {**tool.parameters, "additionalProperties": False}
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    problems = _problems(list(validator.iter_errors(value)), tool)
    return ({}, f"invalid arguments for {tool.name}: {problems}") if problems else (value, None)


@CATALOGUE.wrong("validate_arguments", fault="checks each argument present with isinstance, not the schema",
                 says="validate with jsonschema, which reads 'required'")
def isinstance_only(tool, arguments):
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


@CATALOGUE.wrong("validate_arguments", fault="validates against the schema as given, which lets extra arguments through",
                 says="additionalProperties set to False")
def open_schema(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem:
        return {}, problem
    errors = [f"{'.'.join(map(str, e.path))}: {e.message}"
              for e in jsonschema.Draft202012Validator(tool.parameters).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


@CATALOGUE.wrong("validate_arguments", fault="jsonschema's messages alone, without the argument they concern",
                 says="error.path")
def message_without_the_name(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem:
        return {}, problem
    schema = {"additionalProperties": False, **tool.parameters}
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]
    return ({}, "; ".join(errors)) if errors else (value, None)


@CATALOGUE.wrong("validate_arguments", fault="decodes once: arguments encoded twice are refused",
                 says="encode the arguments twice")
def decodes_once(tool, arguments):
    try:
        value = json.loads(arguments)
    except ValueError as exc:
        return {}, f"the arguments are not valid JSON: {exc}"
    if not isinstance(value, dict):
        return {}, "the arguments must be a JSON object"
    return _schema_checked(tool, value)


@CATALOGUE.wrong("validate_arguments", fault="returns the JSON text instead of the decoded dict",
                 says="returns the JSON text, not the decoded object")
def returns_the_text(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    problems = _problems(list(schema_validator(tool.parameters).iter_errors(value)), tool)
    return ({}, f"invalid arguments for {tool.name}: {problems}") if problems else (arguments, None)


@CATALOGUE.wrong("validate_arguments", fault="'' instead of None when there is no problem",
                 says="returns '' for no problem")
def empty_string_for_no_problem(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    errors = schema_validator(tool.parameters).iter_errors(value)
    problems = "; ".join(describe_error(error, tool) for error in errors)
    return ({}, problems) if problems else (value, problems)


@CATALOGUE.wrong("validate_arguments", fault="returns the decoded arguments with the problem instead of {}",
                 says="returns the arguments together with the problem")
def arguments_with_the_problem(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    return value, _problems(list(schema_validator(tool.parameters).iter_errors(value)), tool)


@CATALOGUE.wrong("validate_arguments", fault="its own decoder reads \"\" as text that is not JSON",
                 says="some servers send \"\" as the arguments")
def empty_text_is_not_json(tool, arguments):
    try:
        return _schema_checked(tool, _loads_twice(arguments))
    except (ValueError, RecursionError) as exc:
        return {}, f"the arguments of {tool.name} are not valid JSON ({exc})"


@CATALOGUE.wrong("validate_arguments", fault="its own decoder catches JSONDecodeError only: deep nesting raises RecursionError",
                 says="raises RecursionError on JSON nested thousands deep")
def recursion_error_let_out(tool, arguments):
    try:
        return _schema_checked(tool, _loads_twice(arguments or "{}"))
    except json.JSONDecodeError as exc:
        return {}, f"the arguments of {tool.name} are not valid JSON ({exc.msg})"


@CATALOGUE.wrong("validate_arguments", fault="the problems as a list of sentences, not one text",
                 says="the problem is a list: return one str")
def problems_as_a_list(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    problems = [describe_error(error, tool) for error in schema_validator(tool.parameters).iter_errors(value)]
    return ({}, problems) if problems else (value, None)


_VALIDATORS: dict = {}


@CATALOGUE.wrong("validate_arguments", fault="keeps one validator per tool name: a tool of the same name with another schema is checked against the old one",
                 says="a validator kept from an earlier call (cached by tool.name)")
def validator_cached_by_name(tool, arguments):
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}"
    if tool.name not in _VALIDATORS:  # building a validator is slow: once per tool
        _VALIDATORS[tool.name] = schema_validator(tool.parameters)
    problems = _problems(list(_VALIDATORS[tool.name].iter_errors(value)), tool)
    return ({}, f"invalid arguments for {tool.name}: {problems}") if problems else (value, None)


# ---------------------------------------------------------------- tool_messages

def _run(call: Any, tools: Any) -> str:
    """Validate and run one call as the reference does (the part most of these keep right)."""
    name = call.function.name
    if name not in tools:
        return tools.run(name, {})
    arguments, problem = reference_validate(tools[name], call.function.arguments)
    return f"Error: {problem}" if problem else tools.run(name, arguments)


@CATALOGUE.wrong("tool_messages", fault="the right contents, but no tool_call_id",
                 says="a message without 'tool_call_id'")
def loses_the_id(tool_calls, tools):
    return [{"role": "tool", "content": _run(call, tools)} for call in tool_calls]


@CATALOGUE.wrong("tool_messages", fault="the call's position as its id",
                 says="a tool_call_id that is not the id of any call")
def index_as_id(tool_calls, tools):
    return [{"role": "tool", "tool_call_id": str(i), "content": _run(call, tools)}
            for i, call in enumerate(tool_calls)]


@CATALOGUE.wrong("tool_messages", fault="results kept by tool name: two calls of one tool get the same result",
                 says="two calls of one tool are two calls")
def results_by_tool_name(tool_calls, tools):
    results = {call.function.name: _run(call, tools) for call in tool_calls}
    return [{"role": "tool", "tool_call_id": call.id, "content": results[call.function.name]}
            for call in tool_calls]


@CATALOGUE.wrong("tool_messages", fault="calls run in sorted order, results paired with the ids by position",
                 says="do not sort or group the calls")
def paired_by_position_after_sorting(tool_calls, tools):
    ordered = sorted(tool_calls, key=lambda call: call.function.name)  # the same order every time
    contents = [_run(call, tools) for call in ordered]
    return [{"role": "tool", "tool_call_id": call.id, "content": content}
            for call, content in zip(tool_calls, contents)]


@CATALOGUE.wrong("tool_messages", fault="answers the first call of a reply only",
                 says="answer every call of the reply")
def first_call_only(tool_calls, tools):
    return [{"role": "tool", "tool_call_id": call.id, "content": _run(call, tools)} for call in tool_calls[:1]]


@CATALOGUE.wrong("tool_messages", fault="skips a call identical to an earlier one (one message for two ids)",
                 says="two identical calls are still two calls")
def skips_repeated_calls(tool_calls, tools):
    messages, seen = [], set()
    for call in tool_calls:
        key = (call.function.name, call.function.arguments)
        if key in seen:  # the same call twice: run it once
            continue
        seen.add(key)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": _run(call, tools)})
    return messages


@CATALOGUE.wrong("tool_messages", fault="json.loads on the arguments, the exception let out",
                 says="raises on arguments that are not JSON")
def raises_on_bad_arguments(tool_calls, tools):
    return [{"role": "tool", "tool_call_id": call.id,
             "content": tools.run(call.function.name, json.loads(call.function.arguments))}
            for call in tool_calls]


@CATALOGUE.wrong("tool_messages", fault="looks the tool up with tools[name]: an unknown tool raises",
                 says="an unknown tool: tools.run(name, {})")
def unknown_tool_raises(tool_calls, tools):
    messages = []
    for call in tool_calls:
        arguments, problem = reference_validate(tools[call.function.name], call.function.arguments)
        content = f"Error: {problem}" if problem else tools.run(call.function.name, arguments)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return messages


@CATALOGUE.wrong("tool_messages", fault="decodes the arguments, then runs the tool whatever their types",
                 says="validate first (validate_arguments)")
def runs_without_validating(tool_calls, tools):
    answers = []
    for call in tool_calls:
        arguments, problem = decode_arguments(call.function.arguments)
        content = f"Error: {problem}" if problem else tools.run(call.function.name, arguments)
        answers.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return answers


@CATALOGUE.wrong("tool_messages", fault="the problem as the content, without 'Error: ' before it",
                 says="put validate_arguments' problem in the content ('Error: ...')")
def problem_without_error(tool_calls, tools):
    messages = []
    for call in tool_calls:
        name = call.function.name
        if name not in tools:
            content = tools.run(name, {})
        else:
            arguments, problem = reference_validate(tools[name], call.function.arguments)
            content = problem if problem else tools.run(name, arguments)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return messages


@CATALOGUE.wrong("tool_messages", fault="an error sent as a JSON object {'error': ...}, not as text",
                 says="a message whose content is not a string")
def error_as_an_object(tool_calls, tools):
    messages = []
    for call in tool_calls:
        name = call.function.name
        if name not in tools:
            content: Any = {"error": tools.run(name, {})}
        else:
            arguments, problem = reference_validate(tools[name], call.function.arguments)
            content = {"error": problem} if problem else tools.run(name, arguments)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    return messages


@CATALOGUE.wrong("tool_messages", fault="lesson 04's habit: observations as user messages",
                 says="a message whose role is not 'tool'")
def as_user_messages(tool_calls, tools):
    return [{"role": "user", "tool_call_id": call.id, "content": f"Observation: {_run(call, tools)}"}
            for call in tool_calls]


@CATALOGUE.wrong("tool_messages", fault="the old function-calling API's role 'function' with the tool's name",
                 says="role is 'function', the old function-calling API")
def function_role(tool_calls, tools):
    return [{"role": "function", "name": call.function.name, "content": _run(call, tools)}
            for call in tool_calls]


@CATALOGUE.wrong("tool_messages", fault="a generator of messages, not a list (read once)",
                 says="returns something that is not a list")
def a_generator(tool_calls, tools):
    return ({"role": "tool", "tool_call_id": call.id, "content": _run(call, tools)} for call in tool_calls)


@CATALOGUE.wrong("tool_messages", fault="adds 'name', the function's name, as older OpenAI examples do",
                 harmless="the API accepts a tool message's 'name' and so does the mock: the loop and the "
                          "comparison run the same; only the printed messages show the extra key")
def with_the_name(tool_calls, tools):
    return [{"role": "tool", "tool_call_id": call.id, "name": call.function.name,
             "content": _run(call, tools)} for call in tool_calls]


def _message(call: Any, content: str) -> dict:
    """The tool message that answers `call` with `content`."""
    return {"role": "tool", "tool_call_id": call.id, "content": content}


@CATALOGUE.wrong("tool_messages", fault="takes the calls off the caller's list with pop(0), leaving it empty",
                 says="it emptied the caller's list (pop)")
def pops_the_calls(tool_calls, tools):
    messages = []
    while tool_calls:
        call = tool_calls.pop(0)
        messages.append(_message(call, _run(call, tools)))
    return messages


@CATALOGUE.wrong("tool_messages", fault="rewrites each call's arguments as the decoded JSON, in place",
                 says="rewrote a call's arguments")
def rewrites_the_arguments(tool_calls, tools):
    for call in tool_calls:
        arguments, problem = decode_arguments(call.function.arguments)
        if problem is None:  # keep the clean form for the trace
            call.function.arguments = json.dumps(arguments)
    return [_message(call, _run(call, tools)) for call in tool_calls]


def _reused(results: dict, call: Any, tools: Any) -> str:
    """The result of `call`, run only when `results` holds none for its tool and arguments."""
    key = (call.function.name, call.function.arguments)
    if key not in results:  # the same call again: no need to run it twice
        results[key] = _run(call, tools)
    return results[key]


_RESULTS: dict = {}


@CATALOGUE.wrong("tool_messages", fault="keeps every result by tool and arguments across calls, whatever the registry",
                 says="a result kept from an earlier call (a cache of results)")
def results_cached_across_calls(tool_calls, tools):
    return [_message(call, _reused(_RESULTS, call, tools)) for call in tool_calls]


@CATALOGUE.wrong("tool_messages", fault="runs two identical calls of one reply once, and answers both ids with that result",
                 harmless="every tool of the lesson reads a fixed world, so the second run would give the "
                          "same text: each id still gets its own message, and the loop and the comparison "
                          "run the same")
def identical_calls_run_once(tool_calls, tools):
    results: dict = {}
    return [_message(call, _reused(results, call, tools)) for call in tool_calls]
