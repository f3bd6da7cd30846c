"""`tool_choice=` and `parallel_tool_calls=` honoured after the model replied, as the API does.

The model (the brain and the persona) decides as usual; this step then makes the reply obey:

- `"none"`: the tools are hidden from the model, so it answers (done before it replies);
- `"required"`: a reply without a tool call becomes a call to the offered tool that best fits the
  question (most words shared with its name and description; the first tool on a tie or when
  none fits), with arguments built from the tool's schema and the question;
- `{"type": "function", "function": {"name": X}}`: the reply becomes one call to X (the model's
  own call to X is kept when it made one). The API then reports `finish_reason: "stop"`, not
  `"tool_calls"`, and so does the mock;
- `parallel_tool_calls=False`: at most one call (the first);
- a function with `strict: true`: its arguments always fit its schema, as the API's constrained
  decoding guarantees. Arguments that do not (a persona's broken JSON, arguments encoded twice, a
  copied schema, a missing or extra key) are read leniently as lesson 03's reader reads an Action
  Input, and kept when that fits; else they are built from the schema and the question.
Each change is said in `x_mock["adjusted"]`. Arguments are built deterministically by
`mockllm.reply.schema_values`: for a tool of no kind the world knows (a response model, as
instructor's and langchain's structured outputs send), from the model's answer when it answered
instead of calling (its `answer` is the computed result); else from the question.
"""
from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> set[str]:
    """The lower-case words of `text` (longer than two letters, or any CJK character)."""
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2 or not w.isascii()}


def best_tool(tools: list, question: str) -> dict:
    """The offered tool sharing the most words with the question (the first on a tie)."""
    wanted = _words(question.replace("_", " "))
    best, score = tools[0], 0
    for tool in tools:
        function = tool["function"]
        text = f"{function['name'].replace('_', ' ')} {function.get('description') or ''}"
        shared = len(wanted & _words(text))
        if shared > score:
            best, score = tool, shared
    return best


def _response_model(function: dict) -> bool:
    """Whether a function is no tool of a kind the world knows: a response model to fill in."""
    from mockllm.reading.system_prompt import ToolSpec
    from mockllm.reading.tool_kinds import tool_kind

    properties = (function.get("parameters") or {}).get("properties")
    names = tuple(properties) if isinstance(properties, dict) else ()
    return tool_kind(ToolSpec(function["name"], str(function.get("description") or ""), names)) is None


def forced_call(tool: dict, question: str, today: str, content: str | None = None) -> dict:
    """A call to `tool` whose arguments fit its parameters schema: a response model's from the
    model's answer (`content`) when it gave one, else from the question."""
    import json

    from mockllm.protocol.formats import facts_of
    from mockllm.reply.schema_values import Facts, build

    function = tool["function"]
    schema = function.get("parameters") or {"type": "object", "properties": {}}
    facts = (facts_of(content, question, today) if _from_answer(tool, content)
             else Facts(question, question, {}, today))
    arguments = build({"type": "object", **schema} if "type" not in schema else schema, facts)
    return {"id": None, "type": "function",
            "function": {"name": function["name"], "arguments": json.dumps(arguments, ensure_ascii=False)}}


def _from_answer(tool: dict, content: str | None) -> bool:
    """Whether a forced call's arguments are built from the model's answer (else the question)."""
    return bool(content and content.strip()) and _response_model(tool["function"])


def _source(tool: dict, content: str | None) -> str:
    """What a forced call's arguments are built from, for x_mock's note."""
    return "its answer" if _from_answer(tool, content) else "the question"


def apply_tool_choice(tool_choice: object, parallel: bool, tools: list | None, content: str | None,
                      calls: tuple, question: str, today: str) -> tuple[str | None, tuple, list[str]]:
    """(content, tool calls, notes) of the reply after tool_choice, parallel_tool_calls and strict."""
    content, calls, notes = _chosen(tool_choice, parallel, tools, content, calls, question, today)
    strict = {t["function"]["name"]: t["function"].get("parameters") or {} for t in tools or ()
              if t["function"].get("strict") is True}
    if strict and calls:
        calls = tuple(_strict_call(call, strict, question, today, notes) for call in calls)
    return content, calls, notes


def _strict_call(call: dict, strict: dict, question: str, today: str, notes: list[str]) -> dict:
    """A call whose arguments fit its function's schema when that function is strict."""
    import json

    from mockllm.reading.replies import parse_input

    name, arguments = call["function"]["name"], call["function"]["arguments"]
    if name not in strict or _fits(strict[name], arguments):
        return call
    repaired = parse_input(arguments) if isinstance(arguments, str) else arguments
    if isinstance(repaired, dict) and _fits(strict[name], repaired):
        fixed, how = json.dumps(repaired, ensure_ascii=False), "read leniently"
    else:
        tool = {"type": "function", "function": {"name": name, "parameters": strict[name]}}
        fixed, how = forced_call(tool, question, today)["function"]["arguments"], "built from the question"
    notes.append(f"strict function {name!r}: arguments {arguments!r} do not fit its schema; {how} "
                 f"as {fixed}")
    return {**call, "function": {**call["function"], "arguments": fixed}}


def _fits(schema: dict, arguments: object) -> bool:
    """Whether `arguments` (JSON text or a dict) is a JSON object valid against `schema`."""
    import json

    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            return False
    return isinstance(arguments, dict) and _strict_validator(json.dumps(schema, sort_keys=True)).is_valid(arguments)


@lru_cache(maxsize=64)
def _strict_validator(schema_json: str) -> object:
    """The jsonschema validator of a strict function's parameters (given as JSON text, to be cached)."""
    import json

    from mockllm.protocol.jsonschema_loader import load_jsonschema

    jsonschema = load_jsonschema()
    schema = json.loads(schema_json)
    return jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema)


def _chosen(tool_choice: object, parallel: bool, tools: list | None, content: str | None,
            calls: tuple, question: str, today: str) -> tuple[str | None, tuple, list[str]]:
    """(content, tool calls, notes) of the reply after tool_choice and parallel_tool_calls."""
    notes: list[str] = []
    if isinstance(tool_choice, dict):
        name = tool_choice["function"]["name"]
        own = [call for call in calls if call["function"]["name"] == name]
        answer = None if calls else content  # the model's answer, when it gave one instead of calls
        if not own or len(calls) > 1:
            tool = next(t for t in tools if t["function"]["name"] == name)
            notes.append(f"tool_choice names {name!r}: " + (
                "the model's own call to it kept, its other calls dropped" if own else
                "the model did not call it, so the reply is a call to it with arguments from "
                + _source(tool, answer)))
        return None, (own[0] if own else forced_call(tool, question, today, answer),), notes
    if tool_choice == "required" and not calls:
        tool = best_tool(tools, question)
        notes.append(f"tool_choice='required': the model answered instead of calling a tool, so the reply "
                     f"is a call to {tool['function']['name']!r} (the offered tool that best fits the "
                     "question) with arguments from " + _source(tool, content))
        return None, (forced_call(tool, question, today, content),), notes
    if not parallel and len(calls) > 1:
        notes.append(f"parallel_tool_calls=False: only the first of the model's {len(calls)} calls kept")
        calls = calls[:1]
    return content, calls, notes
