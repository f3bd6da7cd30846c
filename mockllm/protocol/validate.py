"""Request checks that fail like a real API's HTTP 400: a ValueError or TypeError naming the field.

Nothing here raises IndexError or KeyError from inside: every malformed input gets a message that
says which field is wrong and what is accepted.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

ROLES = ("system", "developer", "user", "assistant", "tool")
_PLAIN_ROLES = frozenset(ROLES) - {"tool"}
TOOL_CHOICES = ("none", "auto", "required")
MAX_STOP = 4
_MAPS = (dict, Mapping)  # dict first: an exact type check is much faster than the ABC's
_TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_MESSAGE_SHAPE = "a dict like {'role': 'user', 'content': '...'}"
_PART_SHAPE = "{'type': 'text', 'text': '...'}"
_CALL_SHAPE = "{'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments': '...'}}"
_TOOL_SHAPE = "{'type': 'function', 'function': {'name': ..., 'description': ..., 'parameters': {...}}}"
_CHOICE_SHAPE = "{'type': 'function', 'function': {'name': <an offered tool>}}"


class Request:
    """A checked request: messages with str content, `stop` as a tuple, and the other options."""

    __slots__ = ("model", "messages", "temperature", "stop", "max_tokens", "tools", "tool_choice",
                 "stream")

    def __init__(self, **values: object) -> None:
        for name in self.__slots__:
            setattr(self, name, values[name])


def _show(value: object) -> str:
    """Return a short repr of `value` for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def type_error(field: str, expected: str, value: object) -> TypeError:
    """Build the TypeError for a field of the wrong type."""
    got = f"{type(value).__name__} {_show(value)}"
    return TypeError(f"Invalid type for '{field}': expected {expected}, got {got}.")


def value_error(field: str, value: object, accepted: str) -> ValueError:
    """Build the ValueError for a field with a wrong value."""
    return ValueError(f"Invalid value for '{field}': {_show(value)}. Accepted: {accepted}.")


def _is_int(value: object) -> bool:
    """True for ints that are not bools."""
    return isinstance(value, int) and not isinstance(value, bool)


def validate_request(
    *, model: object, messages: object, temperature: object, stop: object, max_tokens: object,
    tools: object, tool_choice: object, stream: object, n: object,
) -> Request:
    """Check every request field and return a Request, or raise ValueError/TypeError."""
    if not isinstance(model, str) or not model:
        raise type_error("model", "a non-empty model name such as 'mock-react'", model)
    if not isinstance(stream, bool):
        raise type_error("stream", "True or False", stream)
    if n is not None and not _is_int(n):
        raise type_error("n", "an int (the mock accepts only n=1)", n)
    if n is not None and n != 1:
        raise value_error("n", n, "1 (the mock returns exactly one choice)")
    return Request(
        model=model, messages=check_messages(messages), temperature=check_temperature(temperature),
        stop=check_stop(stop), max_tokens=check_max_tokens(max_tokens), tools=check_tools(tools),
        tool_choice=check_tool_choice(tool_choice, tools), stream=stream,
    )


def check_temperature(temperature: object) -> float:
    """Return the temperature as a float (1.0 when None, like the real default)."""
    if temperature is None:
        return 1.0
    if not isinstance(temperature, (int, float)) or isinstance(temperature, bool):
        raise type_error("temperature", "a number from 0 to 2", temperature)
    if not 0 <= temperature <= 2:
        raise value_error("temperature", temperature, "a number from 0 to 2")
    return float(temperature)


def check_max_tokens(max_tokens: object) -> int | None:
    """Return max_tokens (None for no limit) after checking it is a positive int."""
    if max_tokens is None:
        return None
    if not _is_int(max_tokens):
        raise type_error("max_tokens", "a positive int", max_tokens)
    if max_tokens < 1:
        raise value_error("max_tokens", max_tokens, "a positive int (at least 1)")
    return max_tokens


def check_stop(stop: object) -> tuple[str, ...]:
    """Return the stop sequences as a tuple (empty for none)."""
    accepted = f"a str or a list of up to {MAX_STOP} non-empty strings"
    if stop is None:
        return ()
    if isinstance(stop, str):
        if not stop:
            raise value_error("stop", stop, accepted)
        return (stop,)
    if not isinstance(stop, (list, tuple)):
        raise type_error("stop", accepted, stop)
    if len(stop) > MAX_STOP:
        raise value_error("stop", stop, f"at most {MAX_STOP} stop sequences")
    for index, item in enumerate(stop):
        if not isinstance(item, str):
            raise type_error(f"stop[{index}]", "a non-empty str", item)
        if not item:
            raise value_error(f"stop[{index}]", item, "a non-empty str")
    return tuple(stop)


def check_messages(messages: object) -> list[dict]:
    """Return copies of the messages with text content, after checking their shape and order."""
    if not isinstance(messages, (list, tuple)):
        raise type_error("messages", f"a list of messages, each {_MESSAGE_SHAPE}", messages)
    if not messages:
        raise value_error("messages", messages, "a list of at least one message")
    if all(type(m) is dict and len(m) == 2 and type(m.get("content")) is str
           and m.get("role") in _PLAIN_ROLES for m in messages):
        return list(messages)  # the common case: nothing to change, no tool calls to pair up
    checked = [_check_message(f"messages[{index}]", message) for index, message in enumerate(messages)]
    _check_tool_replies(checked)
    return checked


def _check_message(field: str, message: object) -> dict:
    """Check one message and return it, or a copy whose content is a str (or None)."""
    if type(message) is dict and len(message) == 2 and type(message.get("content")) is str:
        if message.get("role") in _PLAIN_ROLES:
            return message  # the common case, checked quickly: nothing to change
    if not isinstance(message, _MAPS) and callable(getattr(message, "model_dump", None)):
        message = message.model_dump(exclude_none=True)  # a response message appended as is
    if not isinstance(message, _MAPS):
        raise type_error(field, _MESSAGE_SHAPE, message)
    if "role" not in message:
        raise ValueError(f"Missing required field '{field}.role'. Accepted roles: {', '.join(ROLES)}.")
    role = message["role"]
    if role not in ROLES:
        raise value_error(f"{field}.role", role, ", ".join(ROLES))
    checked = dict(message)
    if role == "assistant" and message.get("tool_calls") is not None:
        checked["tool_calls"] = _check_tool_calls(f"{field}.tool_calls", message["tool_calls"])
    checked["content"] = _check_content(field, message, bool(checked.get("tool_calls")))
    if role == "tool" and not (isinstance(message.get("tool_call_id"), str) and message["tool_call_id"]):
        raise ValueError(f"Missing required field '{field}.tool_call_id': a 'tool' message must give "
                         "the id of the tool call it answers, e.g. {'role': 'tool', 'tool_call_id': "
                         "call.id, 'content': '...'}.")
    if message.get("name") is not None and not isinstance(message["name"], str):
        raise type_error(f"{field}.name", "a str", message["name"])
    return checked


def _check_content(field: str, message: Mapping, has_tool_calls: bool) -> str | None:
    """Return the message content as a str (text parts joined by newlines)."""
    content = message.get("content")
    if content is None:
        if has_tool_calls:
            return None
        raise ValueError(f"Missing required field '{field}.content'. Every message needs text content; "
                         "only an assistant message with tool_calls may have content None.")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise type_error(f"{field}.content", f"a str or a list of {_PART_SHAPE} parts", content)
    texts = []
    for index, part in enumerate(content):
        if not (isinstance(part, _MAPS) and part.get("type") == "text" and isinstance(part.get("text"), str)):
            raise value_error(f"{field}.content[{index}]", part, f"{_PART_SHAPE} (text parts only)")
        texts.append(part["text"])
    return "\n".join(texts)


def _check_tool_calls(field: str, calls: object) -> list[dict]:
    """Check an assistant message's tool_calls and return plain dict copies."""
    if not isinstance(calls, (list, tuple)):
        raise type_error(field, "a list of tool calls", calls)
    checked = []
    for index, call in enumerate(calls):
        where = f"{field}[{index}]"
        if not (isinstance(call, _MAPS) and isinstance(call.get("function"), _MAPS)):
            raise type_error(where, _CALL_SHAPE, call)
        if not isinstance(call.get("id"), str) or not call["id"]:
            raise ValueError(f"Missing required field '{where}.id': the id the 'tool' message answers.")
        function = call["function"]
        if not isinstance(function.get("name"), str):
            raise type_error(f"{where}.function.name", "a str", function.get("name"))
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            raise type_error(f"{where}.function.arguments", "a JSON string (use json.dumps)", arguments)
        checked.append({"id": call["id"], "type": "function",
                        "function": {"name": function["name"], "arguments": function["arguments"]}})
    return checked


def _check_tool_replies(messages: list[dict]) -> None:
    """Check that every tool call is answered by a 'tool' message right after it, and only then."""
    open_ids: list[str] = []
    answer = "add one {'role': 'tool', 'tool_call_id': id, 'content': result} per call"
    for index, message in enumerate(messages):
        role = message["role"]
        if role == "tool":
            if message["tool_call_id"] not in open_ids:
                raise ValueError(f"Invalid 'messages[{index}]': a 'tool' message must answer a tool call "
                                 f"of the assistant message before it; tool_call_id "
                                 f"{message['tool_call_id']!r} matches none of the open ids {open_ids}.")
            open_ids.remove(message["tool_call_id"])
            continue
        if open_ids:
            raise ValueError(f"Invalid 'messages[{index}]': the tool calls {open_ids} have no 'tool' "
                             f"message answering them; {answer} right after the assistant message.")
        if role == "assistant" and message.get("tool_calls"):
            open_ids = [call["id"] for call in message["tool_calls"]]
    if open_ids:
        raise ValueError(f"Invalid 'messages': the tool calls {open_ids} of the last assistant message "
                         f"have no 'tool' message answering them; run the tools and {answer}.")


def check_tools(tools: object) -> list | None:
    """Check `tools=` (None, or a non-empty list of function tools) and return it."""
    if tools is None:
        return None
    if not isinstance(tools, (list, tuple)):
        raise type_error("tools", f"None or a non-empty list of {_TOOL_SHAPE}", tools)
    if not tools:
        raise value_error("tools", tools, "None (no tools) or a non-empty list of tools")
    for index, tool in enumerate(tools):
        field = f"tools[{index}]"
        if not (isinstance(tool, _MAPS) and tool.get("type") == "function"
                and isinstance(tool.get("function"), _MAPS)):
            raise value_error(field, tool, _TOOL_SHAPE)
        function = tool["function"]
        name = function.get("name")
        if not isinstance(name, str) or not _TOOL_NAME.fullmatch(name):
            raise value_error(f"{field}.function.name", name, "1 to 64 letters, digits, '_' or '-'")
        if not isinstance(function.get("description", ""), str):
            raise type_error(f"{field}.function.description", "a str", function["description"])
        if not isinstance(function.get("parameters", {}), _MAPS):
            raise type_error(f"{field}.function.parameters", "a JSON schema dict", function["parameters"])
    return list(tools)


def check_tool_choice(tool_choice: object, tools: object) -> object:
    """Check `tool_choice=`: None, 'none', 'auto', 'required' or one offered function by name."""
    if tool_choice is None:
        return None
    accepted = f"'none', 'auto', 'required' or {_CHOICE_SHAPE}"
    if tools is None:
        raise ValueError(f"Invalid value for 'tool_choice': {_show(tool_choice)}. tool_choice is only "
                         "allowed when tools= is given.")
    if isinstance(tool_choice, str):
        if tool_choice not in TOOL_CHOICES:
            raise value_error("tool_choice", tool_choice, accepted)
        return tool_choice
    names = [tool["function"]["name"] for tool in tools]
    function = tool_choice.get("function") if isinstance(tool_choice, _MAPS) else None
    if not (isinstance(function, _MAPS) and tool_choice.get("type") == "function"
            and function.get("name") in names):
        raise value_error("tool_choice", tool_choice, f"{accepted}; offered tools: {', '.join(names)}")
    return tool_choice


def _names(table: object) -> list[str]:
    """Return the names in a table: a mapping's keys, or items' `.name` (or the items)."""
    items = table.keys() if isinstance(table, _MAPS) else table
    return [getattr(item, "name", item) for item in items]


def check_persona(persona: object) -> str | None:
    """Check a persona name against `mockllm.personas()` (None: no persona, only forced quirks)."""
    if persona is None:
        return None
    from mockllm.behaviour.personas import personas

    names = _names(personas())
    if not isinstance(persona, str):
        raise type_error("persona", f"a persona name, one of {', '.join(names)}", persona)
    if persona not in names:
        raise value_error("persona", persona, f"{', '.join(names)} (see mockllm.personas())")
    return persona


def check_quirks(quirks: object) -> dict[str, tuple[int, ...]] | None:
    """Check `quirks=` (None, or {quirk name: steps}) against `mockllm.personas.QUIRKS`."""
    if quirks is None:
        return None
    from mockllm.behaviour.personas import QUIRKS

    names = _names(QUIRKS)
    if not isinstance(quirks, _MAPS):
        raise type_error("quirks", "None or a dict {quirk name: [step, ...]}", quirks)
    checked = {}
    for name, steps in quirks.items():
        if name not in names:
            raise value_error("quirks", name, f"quirk names {', '.join(names)}")
        if not (isinstance(steps, (list, tuple, range)) and all(_is_int(s) and s >= 1 for s in steps)):
            raise type_error(f"quirks[{name!r}]", "a list of step numbers (ints from 1)", steps)
        checked[name] = tuple(steps)
    return checked


def check_seed(seed: object) -> int:
    """Check that the seed is an int and return it."""
    if not _is_int(seed):
        raise type_error("seed", "an int", seed)
    return seed
