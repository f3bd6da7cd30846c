"""A Responses API `input` (and `instructions`) read as the chat messages the mock already reads.

    "What is 2 + 2?"                                    -> one user message
    {"role": "user"|"system"|"developer"|"assistant",   -> a message of that role; its content a
     "content": "..." or [{"type": "input_text", ...}]}    str or text parts (input_text,
                                                           output_text, refusal), joined
    {"type": "function_call", "call_id", "name",        -> a tool call of the assistant message
     "arguments"}                                          before it (or of a new one)
    {"type": "function_call_output", "call_id",         -> a tool message answering that call
     "output": "..." or text parts}

`instructions` comes first, as a system message, then the `history` (the conversation of the
`previous_response_id`, whose last calls the input's first items may answer). Bad input raises
ValueError or TypeError naming the field (`input[2].call_id`) and what is accepted, the API's
400; the items are read in one pass.
"""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.fields import show, type_error, value_error

ITEM_TYPES = ("message", "function_call", "function_call_output")
ROLES = ("user", "system", "developer", "assistant")
TEXT_PARTS = {"input_text": "text", "output_text": "text", "refusal": "refusal"}
"""The content part types the mock reads, and the key that holds each one's text."""
_ITEM_SHAPE = ("{'role': 'user', 'content': '...'}, {'type': 'function_call', 'call_id': ..., "
               "'name': ..., 'arguments': '...'} or {'type': 'function_call_output', "
               "'call_id': ..., 'output': '...'}")


def input_messages(items: object, instructions: str | None = None,
                   history: tuple[dict, ...] = ()) -> list[dict]:
    """The chat messages that `instructions`, `history` and `input` (a str or items) say."""
    messages = [{"role": "system", "content": instructions}] if instructions else []
    messages += history
    pending: dict[str, None] = {}  # the call ids of the function calls not answered yet, in order
    if history and history[-1].get("tool_calls"):  # a copy: the input's calls may join it
        messages[-1] = {**history[-1], "tool_calls": list(history[-1]["tool_calls"])}
        pending = dict.fromkeys(call["id"] for call in history[-1]["tool_calls"])
    if isinstance(items, str):
        if pending:
            raise _unanswered("'input'", next(iter(pending)))
        return [*messages, {"role": "user", "content": items}]
    if not isinstance(items, (list, tuple)):
        raise type_error("input", f"a str or a list of items such as {_ITEM_SHAPE}", items)
    if not items:
        raise value_error("input", items, "a str or a list of at least one item")
    for index, item in enumerate(items):
        field = f"input[{index}]"
        if not isinstance(item, Mapping) and callable(getattr(item, "model_dump", None)):
            item = item.model_dump(exclude_none=True)  # an output item of a response, as it is
        if not isinstance(item, Mapping):
            raise type_error(field, f"an item such as {_ITEM_SHAPE}", item)
        kind = item.get("type", "message")
        if kind == "function_call_output":
            messages.append(_output(field, item, pending))
            continue
        if pending and (kind != "function_call" or messages[-1]["role"] == "tool"):
            raise _unanswered(f"'{field}'", next(iter(pending)))
        if kind == "function_call":
            pending[_call(field, item, messages)] = None
        elif kind == "message":
            messages.append(_message(field, item))
        else:
            raise value_error(f"{field}.type", kind, ", ".join(repr(t) for t in ITEM_TYPES)
                              + " (the mock serves text messages and function tools)")
    if pending:
        raise _unanswered("'input'", next(iter(pending)))
    return messages


def _unanswered(where: str, call_id: str) -> ValueError:
    """The 400 for a function call that no function_call_output item answers in time."""
    return ValueError(f"Invalid {where}: no function_call_output item answers the function call "
                      f"{call_id!r} (no tool output found for it); run the tool and add "
                      "{'type': 'function_call_output', 'call_id': ..., 'output': '...'} for each "
                      "call, right after the calls.")


def _message(field: str, item: Mapping) -> dict:
    """A message item as a chat message {'role', 'content'}."""
    role = item.get("role")
    if role is None:
        raise ValueError(f"Missing required parameter: '{field}.role'. Accepted roles: "
                         f"{', '.join(ROLES)}.")
    if role not in ROLES:
        raise value_error(f"{field}.role", role, ", ".join(ROLES))
    if "content" not in item:
        raise ValueError(f"Missing required parameter: '{field}.content'.")
    return {"role": str.__str__(role), "content": _text(f"{field}.content", item["content"])}


def _text(field: str, content: object) -> str:
    """Content given as a str or a list of text parts, as one str (parts joined by newlines)."""
    if isinstance(content, str):
        return str.__str__(content)
    if not isinstance(content, (list, tuple)):
        raise type_error(field, "a str or a list of {'type': 'input_text', 'text': '...'} parts",
                         content)
    texts = []
    for index, part in enumerate(content):
        kind = part.get("type") if isinstance(part, Mapping) else None
        key = TEXT_PARTS.get(kind)
        if key is None:
            raise value_error(f"{field}[{index}]", part, "{'type': 'input_text', 'text': '...'} "
                              "(text parts only: input_text, output_text, refusal; the mock "
                              "reads no images, files or audio)")
        if not isinstance(part.get(key), str):
            raise type_error(f"{field}[{index}].{key}", "a str", part.get(key))
        texts.append(part[key])
    return "\n".join(texts)


def _string(field: str, item: Mapping, key: str) -> str:
    """The non-empty str `item[key]`, or the 400 for a missing or wrong one."""
    value = item.get(key)
    if value is None:
        raise ValueError(f"Missing required parameter: '{field}.{key}'.")
    if not isinstance(value, str) or (key != "arguments" and not value):
        raise type_error(f"{field}.{key}", "a non-empty str" if key != "arguments"
                         else "a JSON string (use json.dumps)", value)
    return str.__str__(value)


def _call(field: str, item: Mapping, messages: list[dict]) -> str:
    """Add a function_call item to the assistant message before it, or as a new one; its call_id."""
    call = {"id": _string(field, item, "call_id"), "type": "function",
            "function": {"name": _string(field, item, "name"),
                         "arguments": _string(field, item, "arguments")}}
    last = messages[-1] if messages else None
    if last is not None and last["role"] == "assistant":
        last.setdefault("tool_calls", []).append(call)
    else:
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    return call["id"]


def _output(field: str, item: Mapping, pending: dict[str, None]) -> dict:
    """A function_call_output item as a tool message; it answers one of the `pending` calls."""
    call_id = _string(field, item, "call_id")
    if call_id not in pending:
        raise ValueError(f"Invalid '{field}.call_id': {show(call_id)} answers no function_call "
                         "item before it (no tool call found for this output); a "
                         "function_call_output follows the function_call items it answers, "
                         "with the same call_id.")
    del pending[call_id]
    if "output" not in item:
        raise ValueError(f"Missing required parameter: '{field}.output'.")
    return {"role": "tool", "tool_call_id": call_id,
            "content": _text(f"{field}.output", item["output"])}


def opening(request: dict) -> dict:
    """{'model', 'messages'} of a Responses request body, unchecked and never raising: the
    instructions and the input as messages, enough for the server to name the conversation."""
    from mockllm.protocol.responses_store import known

    items, instructions = request.get("input"), request.get("instructions")
    messages = [{"role": "system", "content": instructions}] if instructions else []
    messages += known(request.get("previous_response_id"))
    if isinstance(items, str):
        messages.append({"role": "user", "content": items})
    elif isinstance(items, list):
        messages += items
    return {"model": request.get("model"), "messages": messages}
