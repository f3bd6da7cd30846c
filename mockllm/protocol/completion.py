"""Build the response: apply stop and max_tokens, give tool calls ids, count usage, add logprobs.

`build_completion` turns a reply (text content and/or tool calls) into the ChatCompletion that
`create()` returns. Token counts come from `mockllm.protocol.tokens`; ids are stable hashes of
the request (its messages hashed as `mockllm.protocol.digest` resumes them, then the rest), so
the same request always gets the same response. `measure_prompt`, before the model is asked,
counts the prompt and refuses one over the model's context window (`model_specs`). The usage
details are the API's: `prompt_tokens_details.cached_tokens` from the client's prompt cache
(`caching`), `completion_tokens_details.reasoning_tokens` for a reasoning model, whose hidden
tokens are spent first from `max_completion_tokens`.
"""
from __future__ import annotations

from functools import lru_cache

from mockllm.protocol.caching import MIN_TOKENS
from mockllm.protocol.digest import finish_id, messages_state
from mockllm.protocol.model_specs import check_window, reasoning_tokens
from mockllm.protocol.tokens import _count, count_tokens, truncate_tokens
from mockllm.protocol.types import (
    ChatCompletion, ChatCompletionMessage, ChatCompletionMessageToolCall, Choice, CompletionTokensDetails,
    CompletionUsage, Function, PromptTokensDetails,
)
from mockllm.protocol.validate import Request

CREATED = 1741910400
"""`created` of every response: 2025-03-14T00:00:00Z, the world's frozen "today" (or the clock's)."""
SYSTEM_FINGERPRINT = "fp_mockllm_1"
PER_MESSAGE_TOKENS = 4
"""Prompt tokens each message costs besides its content (role and separators)."""
REPLY_PRIMING_TOKENS = 3
"""Prompt tokens that start the assistant's reply."""


class Draft:
    """A reply as the protocol layer reshapes it: `content` and `tool_calls` (openai-shaped dicts)."""

    __slots__ = ("content", "tool_calls")

    def __init__(self, content: str | None, tool_calls: tuple[dict, ...]) -> None:
        self.content = content
        self.tool_calls = tool_calls


@lru_cache(maxsize=1)
def _stable_int() -> object:
    """`mockllm._hash.stable_int`, imported on first use: `import mockllm` stays fast."""
    from mockllm._hash import stable_int
    return stable_int


def apply_stop(text: str, stops: tuple[str, ...]) -> tuple[str, str | None]:
    """Cut `text` before the earliest stop sequence; return the text and the stop that cut it."""
    cut, used = len(text), None
    for stop in stops:
        position = text.find(stop)
        if position != -1 and (used is None or position < cut):
            cut, used = position, stop
    return text[:cut], used


def _limit_text(content: str, request: Request, limit: int | None) -> tuple[str, str, str | None, bool]:
    """Apply stop, then the `limit` in tokens: (content, finish_reason, stop_applied, truncated)."""
    text, used = apply_stop(content, request.stop)
    if limit is not None and count_tokens(text) > limit:
        return truncate_tokens(text, limit), "length", None, True
    return text, "stop", used, False


def _call_tokens(call: dict) -> int:
    """Count the tokens of one tool call: its name and its arguments."""
    return count_tokens(call["function"]["name"]) + count_tokens(call["function"]["arguments"])


def _limit_calls(calls: list[dict], budget: int | None) -> tuple[list[dict], bool]:
    """Keep the tool calls that fit in `budget` tokens; cut the arguments of the one that overflows."""
    if budget is None:
        return calls, False
    kept = []
    for call in calls:
        cost = _call_tokens(call)
        if cost > budget:
            name = call["function"]["name"]
            cut = truncate_tokens(call["function"]["arguments"], max(0, budget - count_tokens(name)))
            kept.append({**call, "function": {"name": name, "arguments": cut}})
            return kept, True
        kept.append(call)
        budget -= cost
    return kept, False


def read_prompt(messages: list[dict], tools: list | None,
                plain: list[str] | None = None) -> tuple[object, int]:
    """(hash state, prompt tokens) of the request, in one pass over the messages.

    The state is a SHA-1 hash of every message (`mockllm.protocol.digest`: faster than hashing
    their repr, as deterministic), the caller's to finish;
    the tokens are each message's content plus a fixed overhead, and the tools as JSON.
    `plain` (`Request.plain`) gives the messages' roles and contents already read, when all are
    plain: then no pass over the messages is needed.
    """
    tools_tokens = count_tokens(_tools_json()(tools)) if tools else 0
    if plain is not None:
        total = (REPLY_PRIMING_TOKENS + PER_MESSAGE_TOKENS * (len(plain) // 2)
                 + sum(map(_count, plain[1::2])) + tools_tokens)
        return messages_state(plain, max(0, len(plain) - 4)), total
    parts, total, cut = [], REPLY_PRIMING_TOKENS + tools_tokens, 0
    last_two = len(messages) - 2
    for index, message in enumerate(messages):
        if index == last_two:
            cut = len(parts)  # the digest resumes from the conversation before these two
        text = message["content"] or ""
        parts += (message["role"], text)
        total += PER_MESSAGE_TOKENS + (_count(text) if type(text) is str else count_tokens(text))
        if len(message) > 2:
            rest = sorted((key, value) for key, value in message.items() if key not in ("role", "content"))
            parts.append(repr(rest))
            if message.get("tool_calls"):
                total += sum(_call_tokens(call) for call in message["tool_calls"])
    return messages_state(parts, cut), total


@lru_cache(maxsize=1)
def _tools_json() -> object:
    """The encoder that writes the tools as the token count sees them (built once, on first use)."""
    import json

    return json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str).encode


def _shape(request: Request, reply: object, completion_id: str, keep_ids: bool,
           limit: int | None) -> tuple:
    """Give the tool calls ids and apply the limits: (content, calls, finish, stop, cut).

    Ids are `call_` + a hash of the completion id and the call's index; with `keep_ids` (scripts)
    an id the script gives is kept. `limit` is the tokens the reply may have (None: no limit).
    """
    stable_int = _stable_int()
    calls = [{**call, "id": (keep_ids and call.get("id")) or f"call_{stable_int(completion_id, index):016x}"}
             for index, call in enumerate(reply.tool_calls)]
    if not calls:
        content, finish, stop_used, truncated = _limit_text(reply.content or "", request, limit)
        return content, [], finish, stop_used, truncated
    content = reply.content
    budget = None if limit is None else limit - count_tokens(content or "")
    calls, truncated = _limit_calls(calls, budget)
    return content, calls, "length" if truncated else "tool_calls", None, truncated


def build_completion(request: Request, reply: object, explanation: dict, id_parts: tuple,
                     created: int = CREATED, adjusted: list[str] | None = None) -> ChatCompletion:
    """Apply stop / max_tokens to `reply` and wrap it as a ChatCompletion with usage and x_mock.

    `adjusted` lists what the protocol layer changed in the model's reply (tool_choice,
    response_format); it becomes `x_mock["adjusted"]` when there is anything to say.
    """
    measured = request.prompt or measure_prompt(request)
    request.prompt = None  # the hash state is finished below: a second build measures again
    state, prompt = measured[0], measured[1]
    completion_id = "chatcmpl-" + finish_id(state, (*id_parts, request.model, request.temperature,
                                                    request.stop, request.max_tokens, request.tools,
                                                    request.tool_choice, *request.extras))
    keep_ids = explanation.get("source") == "script"
    thinking = reasoning_tokens(request.model, request.reasoning_effort, reply, _reply_tokens)
    limit = request.max_tokens
    if thinking and limit is not None and thinking >= limit:  # the reasoning spent the budget
        thinking, limit, reply = limit, 0, Draft("", ())
    elif thinking and limit is not None:
        limit -= thinking
    content, calls, finish, stop_used, truncated = _shape(request, reply, completion_id, keep_ids, limit)
    if limit == 0:
        finish, truncated = "length", True
    if finish == "tool_calls" and isinstance(request.tool_choice, dict):
        finish = "stop"  # what the API reports when tool_choice names the function
    tool_calls = [ChatCompletionMessageToolCall(id=call["id"], function=Function(**call["function"]))
                  for call in calls]
    completed = count_tokens(content or "") + (sum([_call_tokens(call) for call in calls]) if calls else 0)
    completed += thinking
    message = (ChatCompletionMessage(content=content, refusal=None, tool_calls=tool_calls) if tool_calls
               else ChatCompletionMessage(content=content, refusal=None))
    cached = 0 if request.cache is None or prompt <= MIN_TOKENS else _cached_tokens(request, prompt)
    usage = CompletionUsage(prompt_tokens=prompt, completion_tokens=completed,
                            total_tokens=prompt + completed,
                            completion_tokens_details=CompletionTokensDetails(reasoning_tokens=thinking),
                            prompt_tokens_details=PromptTokensDetails(cached_tokens=cached))
    logprobs = None
    if request.logprobs:
        from mockllm.protocol.logprobs import content_logprobs

        logprobs = content_logprobs(content, request.top_logprobs, completion_id)
    x_mock = {**explanation, "stop_applied": stop_used, "truncated": truncated}
    if adjusted:
        x_mock["adjusted"] = list(adjusted)
    return ChatCompletion(
        id=completion_id, created=created, model=request.model, system_fingerprint=SYSTEM_FINGERPRINT,
        choices=[Choice(finish_reason=finish, logprobs=logprobs, message=message)], usage=usage,
        x_mock=x_mock,
    )


def measure_prompt(request: Request) -> tuple[object, int]:
    """(hash state, prompt tokens) of `request`, kept on it for `build_completion`; a prompt (with
    the completion asked for) over the model's context window raises ContextLengthExceededError."""
    state, prompt = read_prompt(request.messages, request.tools, request.plain)
    check_window(request.model, prompt, request.max_tokens,
                 lambda: count_tokens(_tools_json()(request.tools)) if request.tools else 0)
    request.prompt = (state, prompt)
    return request.prompt


def _reply_tokens(reply: object) -> int:
    """The tokens of a whole reply, before any limit: its content and its tool calls."""
    return count_tokens(reply.content or "") + sum(_call_tokens(call) for call in reply.tool_calls)


def _cached_tokens(request: Request, prompt: int) -> int:
    """The request's cached prompt tokens from its client's cache (`caching`); a conversation of
    plain messages resumes the digests after all but its last two messages."""
    tools = _tools_json()(request.tools) if request.tools else ""
    plain, cut, head, whole = request.plain, 0, None, None
    if plain is not None and len(plain) >= 8:
        cut = len(plain) // 2 - 2
        head, whole = (request.model, tools, *plain[:2 * cut]), (request.model, tools, *plain)
    return request.cache.cached_tokens(request.model, lambda start: prompt_parts(request, start, tools),
                                       prompt, head, cut, whole, REPLY_PRIMING_TOKENS)


def prompt_parts(request: Request, start: int = 0, tools: str = "") -> list[tuple[bytes, str | None]]:
    """The prompt from message `start` on as the cache reads it (`caching.prefix_digests`): the
    tools (`tools`, their JSON, when `start` is 0), then each message's PER_MESSAGE_TOKENS markers,
    content and tool calls, then the reply's priming markers."""
    parts: list[tuple[bytes, str | None]] = []
    if tools and not start:
        parts.append((b"", tools))
    for message in request.messages[start:]:
        text = message["content"] or ""
        rest = repr(sorted((key, value) for key, value in message.items()
                           if key not in ("role", "content", "tool_calls"))) if len(message) > 2 else ""
        parts += [(message["role"].encode(), None), (rest.encode("utf-8", "surrogatepass"), None),
                  *[(b"", None)] * (PER_MESSAGE_TOKENS - 2), (b"", str(text))]
        for call in message.get("tool_calls") or ():
            parts += [(b"", call["function"]["name"]), (b"", call["function"]["arguments"])]
    parts += [(b"assistant", None)] * REPLY_PRIMING_TOKENS
    return parts
