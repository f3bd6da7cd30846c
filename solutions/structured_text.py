"""Read a structured-mode reply that came without tool calls: the text fallback.

Built in lesson 06 (Structured tool calls). Offered tools, a model normally calls them through
`tool_calls` and answers in plain text. Some models and servers do neither cleanly: they write the
call as JSON in the content (`{"name": "get_weather", "arguments": {...}}`), or answer in the
ReAct format of lesson 03 because the provider has no tool calling. `read_content` turns such a
reply into the lesson-03 `Step`:

- a JSON call in the content is an action (its arguments are validated like any call's);
- ReAct fields (`Action:`, `Final Answer:`) are read by `solutions.parsing.parse_step`;
- anything else is the final answer, as plain text is in structured mode;
- an empty reply, or ReAct fields that do not parse, is an error the program sends back.
"""
from __future__ import annotations

import json
import re
from typing import Any

from solutions.arguments import decode_arguments
from solutions.parsing import Step, parse_step

EMPTY_REPLY = ("Error: your reply was empty. Call one of the tools, or reply with the answer "
               "as plain text.")
"""What the program sends back after a reply with no content and no tool calls."""
_REACT_FIELD = re.compile(r"(?im)^[ \t*>#`]*+(?:thought|action|action[ _]input|final[ _]answer)[ \t*]*+[:：]")
_FENCE = re.compile(r"(?m)^[ \t]*+```[\w-]*+[ \t]*+$")


def read_content(content: str | None) -> Step:
    """Turn the content of a reply without tool calls into a Step; never raises. Built in lesson 06 (Structured tool calls)."""
    text = content if isinstance(content, str) else ""
    if not text.strip():
        return Step(error=EMPTY_REPLY, raw=text)
    call = call_in_content(text)
    if call is not None:
        return Step(action=call[0], action_input=call[1], raw=text)
    step = parse_step(text)
    if step.error is None or has_react_fields(text):
        return step  # a ReAct step, or ReAct fields that need the corrective message
    return Step(final_answer=text.strip(), raw=text)


def has_react_fields(text: str) -> bool:
    """True when a line of `text` starts with a ReAct field (Thought, Action, Action Input, Final Answer)."""
    return _REACT_FIELD.search(text) is not None


def call_in_content(text: str) -> tuple[str, dict] | None:
    """(tool name, arguments) of a tool call written as JSON in `text`, or None when there is none.

    The shapes real servers produce: {"name": ..., "arguments": {...}} (arguments possibly a JSON
    string), {"name": ..., "parameters": {...}}, and either one inside
    {"type": "function", "function": {...}}. Only the first JSON object of the text is read.
    """
    body = _FENCE.sub("", text)
    start = body.find("{")
    if start < 0:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(body, start)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict) and isinstance(value.get("function"), dict):
        value = value["function"]
    if not (isinstance(value, dict) and isinstance(value.get("name"), str) and value["name"].strip()):
        return None
    given: Any = value.get("arguments", value.get("parameters", {}))
    arguments, problem = decode_arguments(given if given is not None else {})
    return value["name"].strip(), arguments if problem is None else {}  # the schema check says what is missing
