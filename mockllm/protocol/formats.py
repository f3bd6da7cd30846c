"""`response_format=`: checked like the API does, and the reply's content written to match it.

- `{"type": "text"}`: the content as the model wrote it.
- `{"type": "json_object"}`: JSON content. The API requires the word "json" somewhere in the
  messages (else HTTP 400); the mock raises the same complaint as a ValueError. A final answer
  becomes `{"answer": ...}`; a ReAct step with an action `{"thought", "action", "action_input"}`.
- `{"type": "json_schema", "json_schema": {"name", "schema", "strict", "description"}}`: content
  valid against the schema, built by `mockllm.protocol.schema_values` from the final answer, the
  question and the ReAct fields. With `strict: true` the schema must follow the API's strict
  rules (every object has `additionalProperties: false` and lists every property in `required`),
  or the request is refused with the API's message.
Tool calls are left as they are: the format applies to content. A malformed `response_format`
is a ValueError naming it; a pydantic class is a TypeError pointing to `.parse()`, as in the SDK.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from mockllm.protocol.fields import check_name, show, type_error, value_error
from mockllm.protocol.jsonvalue import check_json

FORMAT_TYPES = ("text", "json_object", "json_schema")
_SHAPE = ("{'type': 'text'}, {'type': 'json_object'} or {'type': 'json_schema', 'json_schema': "
          "{'name': ..., 'schema': {...}, 'strict': True}}")
_NO_ACTION = frozenset({"none", "n/a", "na", "no action needed", "no action", ""})
_FIELD_LINE = re.compile(r"[\s*]*(thought|action input|action|final answer)[\s*]*[:：]\s*(.*)",
                         re.IGNORECASE)  # one character class per run of filler: no backtracking


def check_response_format(value: object, messages: list[dict]) -> dict | None:
    """Check `response_format=`; return it (None for text), or raise naming the field."""
    if isinstance(value, type) and callable(getattr(value, "model_json_schema", None)):
        raise TypeError("You tried to pass a `BaseModel` class to `chat.completions.create()`; "
                        "You must use `chat.completions.parse()` instead")
    if not isinstance(value, Mapping):
        raise type_error("response_format", _SHAPE, value)
    kind = value.get("type")
    if kind not in FORMAT_TYPES:
        raise value_error("response_format.type", kind, ", ".join(repr(t) for t in FORMAT_TYPES))
    if kind == "text":
        return None
    if kind == "json_object":
        if not any("json" in (m.get("content") or "").lower() for m in messages):
            raise ValueError("Invalid value for 'messages': 'messages' must contain the word 'json' in "
                             "some form, to use 'response_format' of type 'json_object'.")
        return {"type": "json_object"}
    return {"type": "json_schema", "json_schema": _check_json_schema(value.get("json_schema"))}


def _check_json_schema(spec: object) -> dict:
    """Check the `json_schema` part of a json_schema response format."""
    field = "response_format.json_schema"
    if not isinstance(spec, Mapping):
        raise type_error(field, "a dict {'name': ..., 'schema': {...}, 'strict': bool}", spec)
    name = spec.get("name")
    check_name(f"{field}.name", name)
    schema = spec.get("schema", {})
    if not isinstance(schema, Mapping):
        raise type_error(f"{field}.schema", "a JSON schema dict", schema)
    schema = check_json(f"{field}.schema", schema)
    strict = spec.get("strict")
    if strict is not None and not isinstance(strict, bool):
        raise type_error(f"{field}.strict", "True, False or None", strict)
    if not isinstance(spec.get("description", ""), str):
        raise type_error(f"{field}.description", "a str", spec["description"])
    if strict:
        _check_strict(name, schema)
    return {"name": name, "schema": schema, "strict": bool(strict)}


def _check_strict(name: str, schema: Mapping) -> None:
    """Refuse a schema that breaks the API's strict-mode rules, with the API's message."""
    prefix = f"Invalid schema for response_format '{name}': "
    if schema.get("type") != "object":
        raise ValueError(f"{prefix}schema must be a JSON Schema of 'type: \"object\"', got "
                         f"'type: \"{schema.get('type')}\"'.")
    stack: list[tuple[object, tuple]] = [(schema, ())]
    while stack:
        node, context = stack.pop()
        if isinstance(node, list):
            stack.extend((item, (*context, str(index))) for index, item in enumerate(node))
            continue
        if not isinstance(node, Mapping):
            continue
        if node.get("type") == "object" or "properties" in node:
            where = f"{prefix}In context={context!r}, "
            if node.get("additionalProperties") is not False:
                raise ValueError(f"{where}'additionalProperties' is required to be supplied and to be false.")
            properties = node.get("properties") or {}
            required = node.get("required") if isinstance(node.get("required"), list) else []
            missing = [key for key in properties if key not in required]
            if missing:
                raise ValueError(f"{where}'required' is required to be supplied and to be an array "
                                 f"including every key in properties. Missing {show(missing[0])}.")
        for key, sub in node.items():
            if key in ("properties", "$defs", "definitions") and isinstance(sub, Mapping):
                stack.extend((item, (*context, key, name_)) for name_, item in sub.items())
            elif isinstance(sub, (Mapping, list)) and key not in ("enum", "const", "required", "default"):
                stack.append((sub, (*context, key)))


def react_fields(content: str) -> dict[str, str]:
    """The fields of the reply's first ReAct step (Thought, Action, Action Input, Final Answer).

    Reading stops where a second step begins (a field seen again, or a Final Answer after an
    Action: what follows an Action was invented before its Observation). An Action of None or
    N/A is no action.
    """
    fields: dict[str, str] = {}
    for line in content.splitlines():
        match = _FIELD_LINE.match(line)
        if not match:
            continue
        key, value = match.group(1).lower().replace(" ", "_"), match.group(2).strip(" \t*")
        if key in fields or (key == "final_answer" and "action" in fields):
            break
        if key == "action" and value.strip("()").lower() in _NO_ACTION:
            continue
        fields[key] = value
    return fields


def _action_input(text: str) -> object:
    """The action input as parsed JSON when it is JSON, else the text."""
    import json

    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def facts_of(content: str, question: str, today: str) -> object:
    """The Facts a formatted reply is built from: the answer text and the ReAct fields."""
    from mockllm.protocol.schema_values import Facts

    fields = react_fields(content)
    answer = fields.get("final_answer") or (content.strip() if not fields else fields.get("thought", ""))
    step = {"thought": fields.get("thought"), "answer": answer}
    if "action" in fields:
        step.update(action=fields["action"], action_input=_action_input(fields.get("action_input", "{}")))
    return Facts(answer, question, step, today)


def formatted(response_format: dict, content: str, question: str, today: str) -> tuple[str, str]:
    """(the content written in the format, a note for x_mock saying what was done)."""
    import json

    facts = facts_of(content, question, today)
    if response_format["type"] == "json_object":
        if facts.fields.get("action"):
            value = {key: facts.fields[key] for key in ("thought", "action", "action_input")}
            note = "response_format json_object: the ReAct step written as a JSON object"
        else:
            value = {"answer": facts.text}
            note = "response_format json_object: the answer written as {\"answer\": ...}"
        return json.dumps(value, ensure_ascii=False), note
    from mockllm.protocol.schema_values import build

    spec = response_format["json_schema"]
    value = build(spec["schema"], facts)
    return (json.dumps(value, ensure_ascii=False),
            f"response_format json_schema {spec['name']!r}: content built from the schema and the answer")
