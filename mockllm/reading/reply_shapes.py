"""Read the reply shapes chat-tuned models write instead of the ReAct fields.

Part of reading an assistant reply (see `mockllm.reading.replies`), so that the mock understands
its own quirks when they come back in the history:
- a JSON blob as the action: `{"action": "calculator", "action_input": "2+2"}` (LangChain's
  structured-chat format, fenced or not, with or without an `Action:` label), or the tool-call
  JSON a model leaves in the content: `{"name": "get_weather", "arguments": {...}}`;
- call syntax: `get_weather(city="Beijing", date="2025-03-15")`;
- an action that means "none": `Action: None`, `Action: N/A`, `Action: (no action needed)`.
Every reader here is one linear pass: no nested quantifiers, no recursion on nested JSON.
"""
from __future__ import annotations

import json
import re
from itertools import islice
from typing import Callable

__all__ = ["read_blob", "call_arguments", "is_no_action", "json_string", "MAX_DEPTH"]

_NAME = r'"([^"\\\n]{1,200})"'  # a tool name: short, no escapes
_ACTION_KEY = re.compile(r'"(?:action|tool_name)"\s*:\s*' + _NAME)
_NAME_KEY = re.compile(r'"name"\s*:\s*' + _NAME)
_INPUT_KEY = re.compile(r'"(?:action_input|tool_input|tool_arguments|arguments|parameters)"\s*:\s*')
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"')  # possessive: one linear pass, no backtracking
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"?|[{}\[\]]')  # a whole string, or a bracket
_SCALAR = re.compile(r"[^,}\n]{0,200}")
_KWARG = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)\s*=\s*(\"(?:[^\"\\]|\\.)*+\"|'[^']*'|[^,]*)")
_NO_ACTION = {"none", "n/a", "na", "null", "nothing", "no action", "no tool", "-"}
MAX_DEPTH = 32
"""JSON in a blob nested deeper than this is not read (no real tool call nests so deep)."""
MAX_ARGS = 64
"""Keyword arguments after the first 64 of a call are not read."""


def is_no_action(line: str) -> bool:
    """True for an Action line that names no tool: 'None', 'N/A', '(no action needed)'."""
    text = line.strip().strip("*_`'\".").lower()
    head = text.split("(", 1)[0].strip()
    return text.startswith(("(", "no action")) or head in _NO_ACTION


def _object_end(text: str, start: int) -> int:
    """The index of the `}` closing the `{` at `start` (strings skipped whole); -1 if it is not
    closed or nests deeper than MAX_DEPTH. One pass over the brackets, no recursion."""
    depth = 0
    for token in _TOKEN.finditer(text, start):
        char = token.group(0)
        if char in ("{", "["):
            depth += 1
            if depth > MAX_DEPTH:
                return -1
        elif char in ("}", "]"):
            depth -= 1
            if depth == 0:
                return token.start() if char == "}" else -1
    return -1


def json_string(literal: str) -> str:
    """The text of a JSON string literal (quotes included); its raw inside if it does not decode."""
    try:
        return json.loads(literal)
    except ValueError:
        return literal[1:-1]


def _value_at(text: str, start: int, parse: Callable[[str], dict | str]) -> dict | str:
    """The JSON value that starts at `start`: a string, an object (read by `parse`), or a scalar."""
    first = text[start:start + 1]
    if first == '"':
        found = _JSON_STRING.match(text, start)
        return json_string(found.group(0)) if found else text[start + 1:].split("\n", 1)[0]
    if first == "{":
        end = _object_end(text, start)
        return parse(text[start:end + 1]) if end > start else {}
    scalar = _SCALAR.match(text, start).group(0).strip()
    return "" if scalar in ("null", "") else scalar


def read_blob(text: str, parse: Callable[[str], dict | str]) -> tuple[str | None, dict | str] | None:
    """(tool name, its input) of a JSON-blob action in `text`; (None, {}) for a Final Answer blob.

    None when `text` holds no blob: that needs a name key ("action", "tool_name", or else "name")
    and an input key ("action_input", "arguments", "parameters", ...). `parse` reads an object.
    """
    if '"' not in text:
        return None
    key = _ACTION_KEY.search(text) or _NAME_KEY.search(text)
    if key is None:
        return None
    found = _INPUT_KEY.search(text, key.end()) or _INPUT_KEY.search(text, 0, key.start())
    if found is None:
        return None
    name = json_string(f'"{key.group(1)}"').strip()
    if re.fullmatch(r"(?i)final[ _]?answer", name):
        return None, {}
    return name, _value_at(text, found.end(), parse)


def _kwarg_value(raw: str) -> object:
    """One keyword argument's value: a quoted string, a number or true/false, else the raw text."""
    if raw[:1] == '"':
        return json_string(raw)
    if raw[:1] == "'":
        return raw.strip("'")
    if raw and len(raw) <= 40 and raw[:1] not in "[{":
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


def call_arguments(text: str) -> dict | None:
    """`city="Beijing", date="2025-03-15"` -> {"city": "Beijing", "date": "2025-03-15"}; None if
    the text holds no keyword arguments."""
    if "=" not in text:
        return None
    found = islice(_KWARG.finditer(text.strip()), MAX_ARGS)
    args = {m.group(1): _kwarg_value(m.group(2).strip()) for m in found}
    return args or None
