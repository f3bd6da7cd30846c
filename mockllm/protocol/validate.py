"""Request checks that fail like a real API's HTTP 400: a ValueError or TypeError naming the field.

Nothing here raises IndexError or KeyError from inside: every malformed input gets a message that
says which field is wrong and what is accepted.
"""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.fields import check_name, is_int, show, type_error, value_error
from mockllm.protocol.jsonvalue import check_json
from mockllm.protocol.model_specs import check_reasoning_params

ROLES = ("system", "developer", "user", "assistant", "tool")
_PLAIN_ROLES = frozenset(ROLES) - {"tool"}
TOOL_CHOICES = ("none", "auto", "required")
MAX_STOP = 4
_MAPS = (dict, Mapping)  # dict first: an exact type check is much faster than the ABC's
_MESSAGE_SHAPE = "a dict like {'role': 'user', 'content': '...'}"
_PART_SHAPE = "{'type': 'text', 'text': '...'}"
_CALL_SHAPE = "{'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments': '...'}}"
_TOOL_SHAPE = "{'type': 'function', 'function': {'name': ..., 'description': ..., 'parameters': {...}}}"
_MESSAGE_KEYS = frozenset({"role", "content", "name", "tool_calls", "tool_call_id", "refusal"})
_CHOICE_SHAPE = "{'type': 'function', 'function': {'name': <an offered tool>}}"


class Request:
    """A checked request: messages with str content, `stop` as a tuple, and the other options.

    `max_tokens` is the limit, whichever keyword gave it; `extras` holds the options that change
    the reply beyond the classic ones (they join the completion id only when given, so the ids
    of classic requests never change). `plain` is [role, content, role, content, ...] of the
    messages when every one is a plain {'role', 'content'} dict (the common case), else None:
    read while checking them, it spares the token count, the digest and the reading a pass over
    the dicts.
    """

    __slots__ = ("model", "messages", "temperature", "stop", "max_tokens", "tools", "tool_choice",
                 "stream", "include_usage", "response_format", "logprobs", "top_logprobs",
                 "parallel_tool_calls", "extras", "plain", "seed", "reasoning_effort", "prompt",
                 "cache")

    def __init__(self, model: str, messages: list[dict], temperature: float, stop: tuple[str, ...],
                 max_tokens: int | None, tools: list | None, tool_choice: object, stream: bool,
                 include_usage: bool = False, response_format: dict | None = None,
                 logprobs: bool = False, top_logprobs: int = 0, parallel_tool_calls: bool = True,
                 extras: tuple = ()) -> None:
        self.model, self.messages, self.temperature, self.stop = model, messages, temperature, stop
        self.max_tokens, self.tools, self.tool_choice, self.stream = max_tokens, tools, tool_choice, stream
        self.include_usage, self.response_format = include_usage, response_format
        self.logprobs, self.top_logprobs = logprobs, top_logprobs
        self.parallel_tool_calls, self.extras = parallel_tool_calls, extras
        self.plain: list[str] | None = None
        self.seed: int | None = None  # the sampler's seed (mockllm.behaviour.sampling)
        self.reasoning_effort: str | None = None  # a reasoning model's (model_specs)
        self.prompt: tuple | None = None  # (hash state, prompt tokens): completion.measure_prompt
        self.cache: object = None  # the client's caching.PromptCache, set by the client


def validate_request(model: object, messages: object, params: Mapping[str, object]) -> Request:
    """Check the request (`params`: the keywords check_params returned) and return a Request."""
    if not isinstance(model, str) or not model:
        raise type_error("model", "a non-empty model name such as 'mock-react'", model)
    get = params.get
    stream = get("stream", False)
    if not isinstance(stream, bool):
        raise type_error("stream", "True or False", stream)
    if get("n", 1) != 1:
        raise value_error("n", params["n"], "1 (the mock returns exactly one choice)")
    if "stream_options" in params and not stream:
        raise ValueError("Invalid value for 'stream_options': the 'stream_options' parameter is only "
                         "allowed when 'stream' is enabled.")
    if "top_logprobs" in params and not get("logprobs"):
        raise ValueError("Invalid value for 'top_logprobs': top_logprobs requires logprobs=True.")
    tools = check_tools(get("tools"))
    if "parallel_tool_calls" in params and tools is None:
        raise ValueError("Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only "
                         "allowed when 'tools' are specified.")
    check_reasoning_params(model, params)
    checked, plain = _checked_messages(messages)
    request = Request(model, checked, get("temperature", 1.0), check_stop(get("stop")),
                      _max_tokens(params), tools, check_tool_choice(get("tool_choice"), tools), stream)
    request.plain, request.seed = plain, get("seed")
    request.reasoning_effort = get("reasoning_effort")
    if "stream_options" in params:
        request.include_usage = bool(params["stream_options"].get("include_usage"))
    if not _EXTRAS.isdisjoint(params):
        _extras(request, params)
    if "response_format" not in params and tools is None and checked and _mentions_fence(checked):
        from mockllm.protocol.formats import asked_json_block

        request.response_format = asked_json_block(checked)
    return request


def _mentions_fence(messages: list[dict]) -> bool:
    """Whether the first or the last message mentions a code fence or block: where a prompt asks
    for JSON in one (the system message, or the request's last words); a cheap test before the
    reading in `formats.asked_json_block`."""
    for message in (messages[0], messages[-1]):
        content = message.get("content")
        if isinstance(content, str) and ("```" in content or "ode block" in content
                                         or "odeblock" in content):
            return True
    return False


_EXTRA_ORDER = ("logprobs", "parallel_tool_calls", "response_format", "top_logprobs")
_EXTRAS = frozenset(_EXTRA_ORDER)
"""The keywords that change a reply beyond the classic ones (they join the completion id)."""


def _extras(request: Request, params: Mapping[str, object]) -> None:
    """Set the request's response_format, logprobs and parallel_tool_calls, and its `extras`."""
    if "response_format" in params:
        from mockllm.protocol.formats import check_response_format

        request.response_format = check_response_format(params["response_format"], request.messages)
    request.logprobs = bool(params.get("logprobs"))
    request.top_logprobs = params.get("top_logprobs", 0)
    request.parallel_tool_calls = params.get("parallel_tool_calls", True)
    request.extras = tuple((name, params[name]) for name in _EXTRA_ORDER if name in params)


def _max_tokens(params: Mapping[str, object]) -> int | None:
    """The token limit from max_tokens or max_completion_tokens (None: no limit)."""
    limit = params.get("max_completion_tokens")
    if limit is not None and params.get("max_tokens", limit) != limit:
        raise ValueError("Give max_tokens or max_completion_tokens, not two different values.")
    return params.get("max_tokens") if limit is None else limit


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


def _plain_parts(messages: list | tuple) -> list[str] | None:
    """[role, content, ...] of the messages when every one is a {'role', 'content'} dict with str
    content and a role but 'tool'; else None."""
    parts: list[str] = []
    try:
        for m in messages:
            if type(m) is not dict or len(m) != 2:
                return None
            role, content = m["role"], m["content"]
            if type(content) is not str or type(role) is not str or role not in _PLAIN_ROLES:
                return None
            parts += (role, content)
    except KeyError:  # two keys, but not 'role' and 'content'
        return None
    return parts


def _checked_messages(messages: object) -> tuple[list[dict], list[str] | None]:
    """`check_messages`, and the plain parts of the messages (None unless all are plain)."""
    if not isinstance(messages, (list, tuple)):
        raise type_error("messages", f"a list of messages, each {_MESSAGE_SHAPE}", messages)
    if not messages:
        raise value_error("messages", messages, "a list of at least one message")
    plain = _plain_parts(messages)
    if plain is not None:
        return list(messages), plain  # the common case: nothing to change, no tool calls to pair up
    checked = [_check_message(f"messages[{index}]", message) for index, message in enumerate(messages)]
    _check_tool_replies(checked)
    return checked, None


def check_messages(messages: object) -> list[dict]:
    """Return copies of the messages with text content, after checking their shape and order."""
    return _checked_messages(messages)[0]


def _check_message(field: str, message: object) -> dict:
    """Check one message and return it, or a copy whose content is a str (or None)."""
    if type(message) is dict and len(message) == 2 and type(message.get("content")) is str:
        if type(message.get("role")) is str and message["role"] in _PLAIN_ROLES:
            return message  # the common case, checked quickly: nothing to change
    if not isinstance(message, _MAPS) and callable(getattr(message, "model_dump", None)):
        message = message.model_dump(exclude_none=True)  # a response message appended as is
    if not isinstance(message, _MAPS):
        raise type_error(field, _MESSAGE_SHAPE, message)
    if "role" not in message:
        raise ValueError(f"Missing required field '{field}.role'. Accepted roles: {', '.join(ROLES)}.")
    role = message["role"]
    if not isinstance(role, str):
        raise type_error(f"{field}.role", f"a str, one of {', '.join(ROLES)}", role)
    role = str.__str__(role)  # a str enum member (class Role(str, Enum)) is read as its value
    if role not in ROLES:
        raise value_error(f"{field}.role", role, ", ".join(ROLES))
    checked = dict(message)
    checked["role"] = role
    if role == "assistant" and message.get("tool_calls") is not None:
        checked["tool_calls"] = _check_tool_calls(f"{field}.tool_calls", message["tool_calls"])
    checked["content"] = _check_content(field, message, bool(checked.get("tool_calls")))
    if role == "tool" and not (isinstance(message.get("tool_call_id"), str) and message["tool_call_id"]):
        raise ValueError(f"Missing required field '{field}.tool_call_id': a 'tool' message must give "
                         "the id of the tool call it answers, e.g. {'role': 'tool', 'tool_call_id': "
                         "call.id, 'content': '...'}.")
    if message.get("name") is not None and not isinstance(message["name"], str):
        raise type_error(f"{field}.name", "a str", message["name"])
    for key in message:
        if type(key) is not str:
            raise type_error(field, "a dict with str keys such as 'role' and 'content'", key)
        if key not in _MESSAGE_KEYS:
            checked[key] = check_json(f"{field}.{key}", message[key])
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
        return content if type(content) is str else str.__str__(content)
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
    return [_check_tool(f"tools[{index}]", tool) for index, tool in enumerate(tools)]


def _check_tool(field: str, tool: object) -> object:
    """Check one function tool; return it, or a copy whose schema keys are the strings JSON sends."""
    if not (isinstance(tool, _MAPS) and tool.get("type") == "function"
            and isinstance(tool.get("function"), _MAPS)):
        raise value_error(field, tool, _TOOL_SHAPE)
    function = tool["function"]
    name = function.get("name")
    check_name(f"{field}.function.name", name)
    if not isinstance(function.get("description", ""), str):
        raise type_error(f"{field}.function.description", "a str", function["description"])
    parameters = function.get("parameters", {})
    if not isinstance(parameters, _MAPS):
        raise type_error(f"{field}.function.parameters", "a JSON schema dict", parameters)
    sent = check_json(f"{field}.function.parameters", parameters)
    if "strict" in function:  # strict: true holds the schema to the API's strict rules
        from mockllm.protocol.formats import check_strict_function

        checked = {**function, "parameters": sent} if "parameters" in function else function
        check_strict_function(f"{field}.function", checked)
    if sent is parameters:
        return tool
    return {**tool, "function": {**function, "parameters": sent}}


def check_tool_choice(tool_choice: object, tools: object) -> object:
    """Check `tool_choice=`: None, 'none', 'auto', 'required' or one offered function by name."""
    if tool_choice is None:
        return None
    accepted = f"'none', 'auto', 'required' or {_CHOICE_SHAPE}"
    if tools is None:
        raise ValueError(f"Invalid value for 'tool_choice': {show(tool_choice)}. tool_choice is only "
                         "allowed when tools= is given.")
    if isinstance(tool_choice, str):
        if tool_choice not in TOOL_CHOICES:
            raise value_error("tool_choice", tool_choice, accepted)
        return tool_choice
    if not isinstance(tool_choice, _MAPS):
        raise type_error("tool_choice", f"a str or a dict: {accepted}", tool_choice)
    names = [tool["function"]["name"] for tool in tools]
    function = tool_choice.get("function")
    if not (isinstance(function, _MAPS) and tool_choice.get("type") == "function"
            and function.get("name") in names):
        raise value_error("tool_choice", tool_choice, f"{accepted}; offered tools: {', '.join(names)}")
    return tool_choice
