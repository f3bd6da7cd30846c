"""Tool calls in practice: strict schemas, every call of a reply answered, results capped in size.

Built in lesson 12 (Tool calls in practice), the follow-up of lesson 06 (`solutions.structured`).
`strict_schema` makes a tool's parameters follow the rules of the API's strict mode;
`cap_result` keeps a tool's result within a number of characters, the marker included, and a
JSON result valid JSON; `tool_loop` is lesson 06's loop with those two pieces and
`parallel_tool_calls`, answering every call of a reply with its own `tool` message.
"""
from __future__ import annotations

import json
from typing import Any

from solutions.agent import Trace, check_arguments, explanation_of
from solutions.arguments import decode_arguments
from solutions.structured import StructuredStep, ToolCall, assistant_message, structured_prompt, tool_messages
from solutions.tools import Tool, ToolRegistry

MIN_LIMIT = 80
"""The smallest cap `cap_result` accepts: room for its marker, or for a JSON result's envelope."""
MARKER = "\n[cut {cut:,} of {total:,} characters]"
"""What `cap_result` writes after the part of a text result it keeps."""


def cap_result(result: Any, limit: int) -> str:
    """A tool's result as text of at most `limit` characters, saying what was cut. Built in lesson 12 (Tool calls in practice)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < MIN_LIMIT:
        raise ValueError(f"limit must be an int of at least {MIN_LIMIT} (room for the marker), got {limit!r}")
    text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)
    if len(text) <= limit:
        return text
    if text.lstrip()[:1] in ("{", "[") and decode_json(text):
        return capped_json(text, limit)  # a JSON result stays JSON: cut, it would not parse
    keep = limit - len(MARKER.format(cut=len(text), total=len(text)))  # the longest marker fits
    return text[:keep] + MARKER.format(cut=len(text) - keep, total=len(text))


def decode_json(text: str) -> bool:
    """Whether `text` is one JSON value."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def capped_json(text: str, limit: int) -> str:
    """A JSON text too long for `limit`, as a JSON object of at most `limit` characters: how long the
    result was and its start, as a string."""
    def envelope(head: str) -> str:
        return json.dumps({"truncated": True, "total_characters": len(text), "head": head},
                          ensure_ascii=False)
    keep = max(0, limit - len(envelope("")))
    shown = envelope(text[:keep])
    # Escaping (\" and \\) makes the head longer in JSON: drop as many characters as it overflows,
    # which removes at least as many from the JSON text, so one correction always fits.
    return shown if len(shown) <= limit else envelope(text[:max(0, keep - (len(shown) - limit))])


def strict_schema(tool: Tool) -> dict:
    """The tool's `tools=` entry in strict mode: closed objects, every property required, the
    optional ones a union with null. Built in lesson 12 (Tool calls in practice)."""
    entry = tool.schema()
    parameters = tool.parameters
    required = set(parameters.get("required", ()))
    properties = {}
    for name, spec in parameters.get("properties", {}).items():
        if name not in required:  # optional: the model sends null when it has no value
            kind = spec.get("type", "string")
            spec = {**spec, "type": [*(kind if isinstance(kind, list) else [kind]), "null"]}
        properties[name] = spec
    strict = {"type": "object", "properties": properties, "required": list(properties),
              "additionalProperties": False}
    return {**entry, "function": {**entry["function"], "parameters": strict, "strict": True}}


def tool_loop(
    question: str,
    client: Any,
    tools: ToolRegistry,
    max_steps: int = 5,
    *,
    limit: int = 2000,
    parallel: bool | None = None,
    strict: bool = False,
    model: str = "mock-react",
) -> Trace:
    """Answer `question` with tool calls, every call of a reply answered and every result capped at
    `limit` characters; `parallel` is sent as `parallel_tool_calls` (None: not sent), `strict`
    sends the schemas in strict mode. Built in lesson 12 (Tool calls in practice)."""
    check_arguments(question, client, tools, max_steps)
    options: dict[str, Any] = {"tools": [strict_schema(tool) for tool in tools] if strict else tools.schemas()}
    if parallel is not None:
        options["parallel_tool_calls"] = parallel
    messages = [{"role": "system", "content": structured_prompt()}, {"role": "user", "content": question}]
    steps = []
    for _ in range(max_steps):
        response = client.chat.completions.create(model=model, messages=messages, **options)
        message = response.choices[0].message
        messages.append(assistant_message(message))
        step = StructuredStep(thought=(message.content or "").strip() or None, raw_reply=message.content or "",
                              tokens=response.usage.total_tokens, explanation=explanation_of(response))
        steps.append(step)
        if not message.tool_calls:
            step.final_answer = (message.content or "").strip()
            return Trace(question, steps, step.final_answer, "answered", messages)
        answers = [{**answer, "content": cap_result(answer["content"], limit)}
                   for answer in tool_messages(message.tool_calls, tools)]
        messages.extend(answers)
        record_calls(step, [(call.id, call.function.name, call.function.arguments) for call in message.tool_calls],
                     [answer["content"] for answer in answers])
    return Trace(question, steps, None, "step_limit", messages)


def record_calls(step: StructuredStep, calls: list[tuple[str, str, str]], observations: list[str]) -> None:
    """Fill `step.calls` from (id, name, arguments) and the observations; the first also as the step's action."""
    for (call_id, name, arguments), observation in zip(calls, observations):
        action_input, problem = decode_arguments(arguments)
        step.calls.append(ToolCall(call_id, name, arguments, action_input if problem is None else {}, observation))
    first = step.calls[0]
    step.action, step.action_input, step.observation = first.action, first.action_input, first.observation

