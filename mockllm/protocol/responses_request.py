"""A Responses API request read as the chat-completions request the mock already answers.

`read_request(params)` checks the keywords (`responses_params`), turns `instructions` and `input`
into messages (`responses_input`), the flat function tools into chat's nested ones, `tool_choice`
into chat's shape, `max_output_tokens` into `max_tokens` and `text.format` into `response_format`,
and validates the result as chat completions do (`validate.validate_request`). So the personas,
the reading and the brain are the same for both APIs; only the shapes differ. `echo` keeps what
the Response repeats back (instructions, tools, tool_choice, text, ...); `previous_response_id`
puts the conversation that response ended before the input (`responses_store`).
"""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.fields import check_name, show, type_error, value_error
from mockllm.protocol.params import check_params as check_chat_params
from mockllm.protocol.responses_input import input_messages
from mockllm.protocol.responses_params import check_params
from mockllm.protocol.validate import Request, validate_request

TOOL_SHAPE = ("{'type': 'function', 'name': ..., 'description': ..., 'parameters': {...}, "
              "'strict': bool}")
CHOICE_SHAPE = "'none', 'auto', 'required' or {'type': 'function', 'name': <an offered tool>}"
FORMAT_TYPES = ("text", "json_object", "json_schema")
_RENAMED = (("'response_format.json_schema", "'text.format"), ("'response_format", "'text.format"),
            ("'messages'", "'input'"), ("'max_tokens'", "'max_output_tokens'"),
            ("'max_completion_tokens'", "'max_output_tokens'"), ("'reasoning_effort'", "'reasoning.effort'"),
            ("].function.", "]."))
"""Chat completions' field names, as the Responses API names them, in the errors passed on."""


class ResponsesRequest:
    """A checked Responses request: the chat `Request` it reads as, `stream`, `echo`, and what
    to keep for a later `previous_response_id`: `store`, and the messages after the instructions
    (`chat.messages[first:]`)."""

    __slots__ = ("chat", "stream", "echo", "store", "first")

    def __init__(self, chat: Request, stream: bool, echo: dict, store: bool, first: int) -> None:
        self.chat, self.stream, self.echo = chat, stream, echo
        self.store, self.first = store, first


def read_request(params: Mapping[str, object]) -> ResponsesRequest:
    """Check a `responses.create()` call's keywords and return what the mock answers."""
    given = check_params(params)
    for name, example in (("model", "model='mock-react'"), ("input", "input='What is 2 + 2?'")):
        if name not in given:
            raise ValueError(f"Missing required parameter: '{name}'. Give it, e.g. {example}.")
    stream = given.get("stream", False)
    if not isinstance(stream, bool):
        raise type_error("stream", "True or False", stream)
    history = ()
    if "previous_response_id" in given:
        from mockllm.protocol.responses_store import recall

        history = recall(given["previous_response_id"])
    messages = input_messages(given["input"], given.get("instructions"), history)
    tools = check_tools(given.get("tools"))
    chat = {name: given[name] for name in ("temperature", "top_p") if name in given}
    if tools:
        chat["tools"] = [_chat_tool(tool) for tool in tools]
        if "parallel_tool_calls" in given:
            chat["parallel_tool_calls"] = given["parallel_tool_calls"]
    choice = check_tool_choice(given.get("tool_choice"), tools)
    if tools and choice is not None:
        chat["tool_choice"] = choice if isinstance(choice, str) else {
            "type": "function", "function": {"name": choice["name"]}}
    if "max_output_tokens" in given:  # it bounds a reasoning model's hidden tokens too
        chat["max_completion_tokens"] = given["max_output_tokens"]
    effort = given.get("reasoning", {}).get("effort") if isinstance(given.get("reasoning"), Mapping) else None
    if effort is not None:
        chat["reasoning_effort"] = effort
    text = check_text(given.get("text"))
    if text["format"]["type"] != "text":
        chat["response_format"] = _response_format(text["format"])
    try:
        request = validate_request(given["model"], messages, check_chat_params(chat))
    except (ValueError, TypeError) as error:
        raise _renamed(error) from None
    return ResponsesRequest(request, stream, _echo(given, tools, text), given.get("store", True),
                            1 if given.get("instructions") else 0)


def _echo(given: dict, tools: list[dict] | None, text: dict) -> dict:
    """What the Response repeats of the request (the API's defaults where it gave nothing)."""
    return {"instructions": given.get("instructions"), "tools": tools or [],
            "tool_choice": given.get("tool_choice", "auto"), "text": text,
            "parallel_tool_calls": given.get("parallel_tool_calls", True),
            "max_output_tokens": given.get("max_output_tokens"),
            "previous_response_id": given.get("previous_response_id"),
            **{name: given[name] for name in ("metadata", "temperature", "top_p", "user",
                                              "max_tool_calls", "top_logprobs", "truncation",
                                              "reasoning") if name in given}}


def check_tools(tools: object) -> list[dict] | None:
    """Check `tools=` (function tools, in the Responses API's flat shape) and return them."""
    if tools is None:
        return None
    if not isinstance(tools, (list, tuple)):
        raise type_error("tools", f"a list of function tools, each {TOOL_SHAPE}", tools)
    return [_check_tool(f"tools[{index}]", tool) for index, tool in enumerate(tools)]


def _check_tool(field: str, tool: object) -> dict:
    """One function tool, as the Response echoes it: type, name, description, parameters, strict."""
    if not isinstance(tool, Mapping):
        raise type_error(field, TOOL_SHAPE, tool)
    kind = tool.get("type")
    if kind != "function":
        raise value_error(f"{field}.type", kind, "'function' (the mock serves function tools "
                                                 "only: no web_search, file_search, "
                                                 "code_interpreter, mcp or other built-in tools)")
    if "name" not in tool:
        nested = " (not chat completions' {'type': 'function', 'function': {...}})" \
            if "function" in tool else ""
        raise ValueError(f"Missing required parameter: '{field}.name'. A Responses API function "
                         f"tool is flat{nested}: {TOOL_SHAPE}.")
    check_name(f"{field}.name", tool["name"])
    checked = {"type": "function", "name": tool["name"]}
    for key, kind, expected in (("description", str, "a str"), ("parameters", Mapping, "a JSON "
                                "schema dict"), ("strict", bool, "True or False")):
        value = tool.get(key)
        if value is not None and not isinstance(value, kind):
            raise type_error(f"{field}.{key}", expected, value)
        if value is not None:
            checked[key] = value
    return checked


def _chat_tool(tool: dict) -> dict:
    """A flat Responses function tool in chat completions' nested shape."""
    function = {key: value for key, value in tool.items() if key != "type"}
    return {"type": "function", "function": function}


def check_tool_choice(choice: object, tools: list[dict] | None) -> object:
    """Check `tool_choice=`: 'none', 'auto', 'required' or one offered function by name."""
    if choice is None or choice in ("none", "auto"):
        return choice
    if choice != "required":
        if not (isinstance(choice, Mapping) and choice.get("type") == "function"):
            raise value_error("tool_choice", choice, CHOICE_SHAPE + " (the mock serves function "
                                                                   "tools only)")
        names = [tool["name"] for tool in tools or ()]
        if choice.get("name") not in names:
            raise value_error("tool_choice.name", choice.get("name"), "the name of an offered "
                              f"tool: {', '.join(names) or 'none is offered'}")
    if not tools:
        raise ValueError(f"Invalid value for 'tool_choice': {show(choice)} asks for a tool call, "
                         "but no tools are given; add tools=[...].")
    return choice


def check_text(text: object) -> dict:
    """Check `text=` ({'format': {...}, 'verbosity': ...}); return it as the Response echoes it."""
    if text is None:
        return {"format": {"type": "text"}, "verbosity": "medium"}
    if not isinstance(text, Mapping):
        raise type_error("text", "a dict such as {'format': {'type': 'text'}}", text)
    fmt = text.get("format", {"type": "text"})
    if not isinstance(fmt, Mapping):
        raise type_error("text.format", "a dict such as {'type': 'json_schema', 'name': ..., "
                                        "'schema': {...}}", fmt)
    if fmt.get("type") not in FORMAT_TYPES:
        raise value_error("text.format.type", fmt.get("type"),
                          ", ".join(repr(kind) for kind in FORMAT_TYPES))
    verbosity = text.get("verbosity", "medium")
    if verbosity not in ("low", "medium", "high"):
        raise value_error("text.verbosity", verbosity, "'low', 'medium', 'high'")
    return {"format": dict(fmt), "verbosity": verbosity}


def _response_format(fmt: dict) -> dict:
    """A Responses `text.format` as chat completions' `response_format`."""
    if fmt["type"] == "json_object":
        return {"type": "json_object"}
    spec = {key: fmt[key] for key in ("name", "description", "schema", "strict") if key in fmt}
    return {"type": "json_schema", "json_schema": spec}


def _renamed(error: Exception) -> Exception:
    """The error of chat completions' checks, naming the Responses API's fields."""
    message = str(error)
    for chat, responses in _RENAMED:
        message = message.replace(chat, responses)
    return type(error)(message)
