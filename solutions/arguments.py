"""Validate a tool call's `arguments` against the tool's JSON schema, with errors a model can read.

Built in lesson 06 (Structured tool calls). In structured mode the model sends each call's
arguments as a JSON string. Nothing guarantees that the string is JSON, that it holds an object,
or that the object fits the schema the tool was offered with: the program checks all three with
`jsonschema` before running the tool, and turns every problem into one sentence the model can act
on. The loop that uses it is `solutions.structured`.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from mockllm.protocol.jsonschema_loader import load_jsonschema
from solutions.tools import Tool

MAX_ARGUMENTS_CHARS = 10_000  # longer `arguments` are refused before decoding
_TYPE_NAMES = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "true or false", "object": "a JSON object", "array": "a list",
               "null": "null"}


def validate_arguments(tool: Tool, arguments: Any) -> tuple[dict, str | None]:
    """Return (arguments, None), or ({}, problem) when they are not JSON that fits `tool`'s schema. Built in lesson 06 (Structured tool calls)."""
    value, problem = decode_arguments(arguments)
    if problem is not None:
        return {}, f"the arguments of {tool.name} {problem}; send a JSON object such as {example(tool)}"
    validator = schema_validator(tool.parameters)  # jsonschema, for the schema's draft
    errors = sorted(validator.iter_errors(value), key=lambda error: [str(p) for p in error.path])
    if errors:  # every problem at once, each named by its argument: the model fixes them together
        problems = "; ".join(dict.fromkeys(describe_error(error, tool) for error in errors))
        return {}, f"invalid arguments for {tool.name}: {problems}. Expected {example(tool)}"
    return value, None


def decode_arguments(arguments: Any) -> tuple[Any, str | None]:
    """Decode a call's `arguments` into a dict: (value, None), or (None, problem); never raises. Built in lesson 06 (Structured tool calls)."""
    if isinstance(arguments, dict):
        return arguments, None
    if not isinstance(arguments, str):
        return None, f"must be a JSON string, got {type(arguments).__name__}"
    if len(arguments) > MAX_ARGUMENTS_CHARS:
        return None, f"are too long ({len(arguments)} characters, at most {MAX_ARGUMENTS_CHARS})"
    value: Any = arguments if arguments.strip() else "{}"  # some servers send "" for no arguments
    for _ in range(2):  # a JSON string holding the object: decode it once more
        try:
            value = json.loads(value)
        except ValueError as exc:
            return None, f"are not valid JSON ({getattr(exc, 'msg', exc)})"
        except RecursionError:
            return None, "are nested too deeply"
        if not isinstance(value, str):
            break
    if not isinstance(value, dict):
        return None, f"must be a JSON object, got {shown(value)}"
    return value, None


def describe_error(error: Any, tool: Tool) -> str:
    """One jsonschema ValidationError as a sentence a model can act on."""
    where = ".".join(str(part) for part in error.path)
    name = f"argument {where!r}" if where else "the arguments"
    if error.validator == "required":
        missing = [key for key in error.validator_value if key not in error.instance]
        properties = error.schema.get("properties", {})
        return "; ".join(f"missing required argument {key!r}" + (
            f" ({properties[key]['description']})" if "description" in properties.get(key, {}) else "")
            for key in missing)
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        allowed = ", ".join(tool.arguments) or "none"
        return f"unexpected argument(s) {', '.join(map(repr, extra))} (allowed: {allowed})"
    if error.validator == "type":
        wanted = error.validator_value
        wanted = [wanted] if isinstance(wanted, str) else list(wanted)
        return f"{name} must be {' or '.join(_TYPE_NAMES.get(w, w) for w in wanted)}, got {shown(error.instance)}"
    if error.validator == "enum":
        return f"{name} must be one of {', '.join(json.dumps(v) for v in error.validator_value)}"
    return f"{name}: {error.message}"


def example(tool: Tool) -> str:
    """A JSON object naming each parameter of `tool` with its type, e.g. {"city": "<string>"}."""
    properties = tool.parameters.get("properties", {})
    parts = [f'"{name}": <{spec.get("type", "value")}>' for name, spec in properties.items()]
    return "{" + ", ".join(parts) + "}"


def shown(value: Any) -> str:
    """A decoded JSON value named by its type, e.g. 'the string "50"' (True is a boolean, not an integer)."""
    kind = next((name for cls, name in ((bool, "boolean"), (int, "integer"), (float, "number"),
                                        (str, "string"), (list, "list"), (dict, "object"))
                 if isinstance(value, cls)), "value")
    text = json.dumps(value, ensure_ascii=False)
    return f"the {kind} {text if len(text) <= 40 else text[:39] + '…'}"


def schema_validator(schema: dict) -> Any:
    """The jsonschema validator of a tool's parameters schema.

    It follows the draft the schema declares in `$schema` (Draft 2020-12 when it declares none),
    checks `format`s such as "date", and closes the schema (`additionalProperties: false`) unless
    it says otherwise: a Python function takes no argument it does not name. A broken schema
    raises jsonschema's SchemaError: that is the program's bug, not the model's.
    """
    return _validator(json.dumps(schema, sort_keys=True))


@lru_cache(maxsize=64)
def _validator(schema_json: str) -> Any:
    """The validator of a schema given as JSON text (text, so that it can be cached)."""
    jsonschema = load_jsonschema()
    schema = {"additionalProperties": False, **json.loads(schema_json)}
    validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    validator_class.check_schema(schema)
    return validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
