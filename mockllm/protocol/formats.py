"""`response_format=`: checked like the API does, and the reply's content written to match it.

- `{"type": "text"}`: the content as the model wrote it.
- `{"type": "json_object"}`: JSON content. The API requires the word "json" somewhere in the
  messages (else HTTP 400); the mock raises the same complaint as a ValueError. A ReAct step with
  an action becomes `{"thought", "action", "action_input"}`; a final answer takes the shape the
  system and user messages ask for (`prompt_shape`): the last JSON schema they show (langchain's
  and instructor's format instructions), else the last JSON example object, else the keys they
  name ("with keys `answer` and `confidence`", "fields: a, b"); else `{"answer": ...}`.
- `{"type": "json_schema", "json_schema": {"name", "schema", "strict", "description"}}`: content
  valid against the schema, built by `mockllm.reply.schema_values` from the final answer, the
  question and the ReAct fields. The schema must be a valid JSON Schema (checked with
  `jsonschema`, Draft 2020-12 unless it names its `$schema`; imported only then); with
  `strict: true` it must also follow the API's strict rules (every object has
  `additionalProperties: false` and lists every property in `required`), or the request is
  refused with the API's message.
- No `response_format`, no tools, and a message that asks for JSON in a ```json code block with a
  shape to follow (instructor's MD_JSON mode, prompt-only JSON): the json_object reply, in the
  fence asked for (`asked_json_block`). A ReAct prompt (an `Action Input:` format) is not such a
  request.
A function tool with `strict: true` is held to the same strict rules (`check_strict_function`,
called by `validate`), its messages naming the function. Tool calls are left as they are: the
format applies to content. A malformed `response_format`
is a ValueError naming it; a pydantic class is a TypeError pointing to `.parse()`, as in the SDK.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache

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
        return {"type": "json_object", "shape": prompt_shape(messages)}
    return {"type": "json_schema", "json_schema": _check_json_schema(value.get("json_schema"))}


def asked_json_block(messages: list[dict]) -> dict | None:
    """The json_object format (fenced) a request without `response_format` asks for in its text, or None."""
    texts = [_ends(m["content"]).lower() for m in messages
             if m.get("role") in ("system", "developer", "user") and isinstance(m.get("content"), str)]
    asked = any("```json" in t or ("json" in t and ("code block" in t or "codeblock" in t))
                for t in texts)
    if not asked or any("action input:" in t for t in texts):
        return None
    shape = prompt_shape(messages)
    return None if shape is None else {"type": "json_object", "shape": shape, "fence": True}


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
    _check_valid(name, schema)
    if strict:
        _check_strict(name, schema)
    return {"name": name, "schema": schema, "strict": bool(strict)}


def _check_valid(name: str, schema: Mapping, prefix: str | None = None) -> None:
    """Refuse a schema that is not a valid JSON Schema, naming where and what is wrong."""
    prefix = f"Invalid schema for response_format '{name}': " if prefix is None else prefix
    problem = _schema_problem(json.dumps(schema, default=dict))
    if problem is not None:
        raise ValueError(prefix + problem)


@lru_cache(maxsize=256)
def _schema_problem(text: str) -> str | None:
    """Where and what is wrong with the JSON Schema written as `text`, or None when it is valid;
    remembered, as an agent sends the same tools with every request (checking a schema against
    the metaschema costs milliseconds)."""
    from mockllm.protocol.jsonschema_loader import load_jsonschema

    jsonschema = load_jsonschema()  # the IRI grammar deferred: the first check stays quick
    exceptions, validators = jsonschema.exceptions, jsonschema.validators
    schema = json.loads(text)
    validator = validators.validator_for(schema, default=validators.Draft202012Validator)
    error = exceptions.best_match(validator(validator.META_SCHEMA).iter_errors(schema))
    if error is None:
        return None
    return f"In context={tuple(str(p) for p in error.absolute_path)!r}, {error.message}."


_KEYS_SAID = re.compile(r"(?i)\b(?:keys?|fields?|properties|attributes)\b([^.\n]{0,300})")
_QUOTED = re.compile(r"[`\"'“‘]([A-Za-z_][\w-]{0,63})[`\"'”’]")
_BARE = re.compile(r"[:：]\s*([A-Za-z_][\w-]*(?:\s*(?:,|\band\b|、)\s*[A-Za-z_][\w-]*)+)")
_MAX_TRIES = 200
"""How many '{' of a message are tried as the start of a JSON object."""
_MAX_SCANNED = 32_768
"""How much of a message's start and of its end is read for the shape it asks for (format
instructions are short; a long document between them is not read)."""


def prompt_shape(messages: list[dict]) -> dict | None:
    """The JSON schema the system and user messages ask a json_object reply to follow, or None."""
    texts = [_ends(m["content"]) for m in messages if m.get("role") in ("system", "developer", "user")
             and isinstance(m.get("content"), str)]
    found = [value for text in texts for value in _json_objects(text)]
    schemas = [v for v in found if isinstance(v.get("properties"), Mapping)
               and all(isinstance(p, Mapping) for p in v["properties"].values())]
    if schemas:
        return schemas[-1]
    examples = [v for v in found if v and "properties" not in v]
    if examples:
        return _schema_of(examples[-1])
    keys = [key for text in texts for key in _named_keys(text)]
    if not keys:
        return None
    keys = list(dict.fromkeys(keys))
    return {"type": "object", "properties": {k: _schema_of_name(k) for k in keys}, "required": keys}


def _ends(text: str) -> str:
    """A message's start and end (`_MAX_SCANNED` characters of each), or all of a short one."""
    return text if len(text) <= 2 * _MAX_SCANNED else f"{text[:_MAX_SCANNED]}\n{text[-_MAX_SCANNED:]}"


def _json_objects(text: str) -> list[dict]:
    """The JSON objects written in a text (each outermost one, at most `_MAX_TRIES` starts)."""
    import json

    decoder, out, start, tries = json.JSONDecoder(), [], text.find("{"), 0
    while start >= 0 and tries < _MAX_TRIES:
        tries += 1
        try:
            value, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            out.append(value)
        start = text.find("{", end)
    return out


def _named_keys(text: str) -> list[str]:
    """The keys a sentence names after 'keys'/'fields' (quoted, or listed after a colon)."""
    keys: list[str] = []
    for match in _KEYS_SAID.finditer(text):
        said = match.group(1)
        quoted = _QUOTED.findall(said)
        if quoted:
            keys += quoted
        elif (bare := _BARE.match(said.lstrip(" \t"))) or (bare := _BARE.search(said)):
            keys += [k for k in re.split(r"\s*(?:,|\band\b|、)\s*", bare.group(1)) if k]
    return keys[:32]


def _schema_of(example: object) -> dict:
    """A schema an example value is an instance of (its keys required, its values' types)."""
    if isinstance(example, dict):
        return {"type": "object", "properties": {str(k): _schema_of(v) for k, v in example.items()},
                "required": [str(k) for k in example]}
    if isinstance(example, list):
        return {"type": "array", "items": _schema_of(example[0]) if example else {}}
    kind = {bool: "boolean", int: "integer", float: "number", str: "string"}.get(type(example))
    return {"type": kind} if kind else {}


def _schema_of_name(key: str) -> dict:
    """The schema a named key suggests: a confidence is a number, `is_...` a boolean, an answer a
    number when the answer is one (else text), anything else text."""
    low = key.lower()
    if low in ("confidence", "probability", "certainty", "likelihood"):
        return {"type": "number", "minimum": 0, "maximum": 1}
    if low.startswith(("is_", "has_", "can_", "should_")):
        return {"type": "boolean"}
    from mockllm.reply.schema_values import ANSWER_NAMES

    if low in ANSWER_NAMES:
        return {"type": ["number", "string"]}
    return {"type": "string"}


def check_strict_function(field: str, function: Mapping) -> None:
    """Refuse a function tool with `strict: true` whose parameters break the strict rules.

    The API's checks and messages (HTTP 400) are those of a strict json_schema format, named by
    the function: "Invalid schema for function 'f': In context=(), 'additionalProperties' is
    required to be supplied and to be false." `strict` must be a bool (or None).
    """
    strict = function.get("strict")
    if strict is not None and not isinstance(strict, bool):
        raise type_error(f"{field}.strict", "True, False or None", strict)
    if strict:
        prefix = f"Invalid schema for function '{function['name']}': "
        schema = function.get("parameters")
        if schema is None:  # no parameters: a function that takes none
            return
        _check_valid(function["name"], schema, prefix)
        _check_strict(function["name"], schema, prefix)


def _check_strict(name: str, schema: Mapping, prefix: str | None = None) -> None:
    """Refuse a schema that breaks the API's strict-mode rules, with the API's message."""
    prefix = f"Invalid schema for response_format '{name}': " if prefix is None else prefix
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
    from mockllm.reply.schema_values import Facts

    fields = react_fields(content)
    answer = fields.get("final_answer") or (content.strip() if not fields else fields.get("thought", ""))
    step = {"thought": fields.get("thought"), "answer": answer}
    if "action" in fields:
        step.update(action=fields["action"], action_input=_action_input(fields.get("action_input", "{}")))
    return Facts(answer, question, step, today)


def formatted(response_format: dict, content: str, question: str, today: str) -> tuple[str, str]:
    """(the content written in the format, a note for x_mock saying what was done)."""
    import json

    from mockllm.reply.schema_values import build

    facts = facts_of(content, question, today)
    if response_format["type"] == "json_object":
        if facts.fields.get("action"):
            value = {key: facts.fields[key] for key in ("thought", "action", "action_input")}
            note = "response_format json_object: the ReAct step written as a JSON object"
        elif response_format.get("shape") is not None:
            value = build(response_format["shape"], facts)
            note = "response_format json_object: the answer written in the shape the prompt asks for"
        else:
            value = {"answer": facts.text}
            note = "response_format json_object: the answer written as {\"answer\": ...}"
        if response_format.get("fence"):
            return (f"```json\n{json.dumps(value, ensure_ascii=False, indent=2)}\n```",
                    "no response_format, but the prompt asks for JSON in a ```json code block: the "
                    "answer written there, in the shape the prompt asks for")
        return json.dumps(value, ensure_ascii=False), note
    spec = response_format["json_schema"]
    value = build(spec["schema"], facts)
    return (json.dumps(value, ensure_ascii=False),
            f"response_format json_schema {spec['name']!r}: content built from the schema and the answer")
