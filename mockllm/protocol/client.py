"""`MockLLM`: an offline client shaped like `openai.OpenAI()` for `chat.completions.create`.

One request flows one way: validate -> maybe a simulated failure -> the next scripted reply, or
read the conversation and respond as the persona -> apply stop / max_tokens -> the response.
"""
from __future__ import annotations

from functools import lru_cache

from mockllm.protocol.errors import ScriptExhaustedError, check_failures, simulated_failure
from mockllm.protocol.tokens import _count, count_tokens, truncate_tokens
from mockllm.protocol.types import (
    ChatCompletion, ChatCompletionMessage, ChatCompletionMessageToolCall, Choice, CompletionUsage,
    Function, Stream, stream_chunks,
)
from mockllm.protocol.validate import (
    Request, check_persona, check_quirks, check_seed, validate_request,
)

CREATED = 1741910400
"""`created` of every response: 2025-03-14T00:00:00Z, the world's frozen "today" (or the clock's)."""
_EPOCH_ORDINAL = 719163  # date(1970, 1, 1).toordinal()
SYSTEM_FINGERPRINT = "fp_mockllm_1"
PER_MESSAGE_TOKENS = 4
"""Prompt tokens each message costs besides its content (role and separators)."""
REPLY_PRIMING_TOKENS = 3
"""Prompt tokens that start the assistant's reply."""
IGNORED_OPTIONS = frozenset({
    "audio", "extra_body", "extra_headers", "extra_query", "frequency_penalty", "function_call",
    "functions", "logit_bias", "logprobs", "metadata", "modalities", "parallel_tool_calls",
    "prediction", "presence_penalty", "prompt_cache_key", "reasoning_effort", "response_format",
    "safety_identifier", "seed", "service_tier", "store", "stream_options", "timeout",
    "top_logprobs", "top_p", "user", "verbosity", "web_search_options",
})
"""Parameters of openai's `create()` that the mock accepts and ignores."""


class MockLLM:
    """A deterministic, offline chat model with openai's `client.chat.completions.create(...)`.

    Its only mutable state is the call counter `calls`: it counts the well-formed `create()`
    calls (requests rejected by validation never reach the model and are not counted). It
    decides which call raises a simulated failure (`failures={3: "rate_limit"}`) and, in
    scripted mode, which reply comes next. Everything else is a pure function of the request.
    `clock` (a `mockllm.world.Clock`) only sets the `created` day of responses: the model
    learns the date from tools, as a real one does. `persona=None` means no persona quirks,
    only the ones forced with `quirks={name: [step, ...]}`.
    """

    def __init__(self, persona: str = "diligent", seed: int = 0,
                 quirks: dict[str, list[int]] | None = None,
                 failures: dict[int, str] | None = None, clock: object = None) -> None:
        self._setup(persona=check_persona(persona), seed=check_seed(seed),
                    quirks=check_quirks(quirks), failures=failures, clock=clock, script=None)

    @classmethod
    def from_script(cls, script: object, *, failures: dict[int, str] | None = None,
                    clock: object = None) -> MockLLM:
        """Return a client that replays `script` (a list, or a .json/.yaml path) in order."""
        from mockllm.protocol.script import load_script

        client = cls.__new__(cls)
        client._setup(persona=None, seed=0, quirks=None, failures=failures, clock=clock,
                      script=load_script(script))
        return client

    def _setup(self, *, persona: str | None, seed: int, quirks: dict | None, failures: object,
               clock: object, script: tuple | None) -> None:
        """Store the checked options; the counter starts at 0."""
        self.persona = persona
        self.seed = seed
        self.quirks = quirks
        self.failures = check_failures(failures)
        self.clock = clock
        self._created = _created(clock)
        self._script = script
        self._calls = 0
        self.chat = Chat(self)

    @property
    def calls(self) -> int:
        """How many well-formed `create()` calls this client has received so far."""
        return self._calls

    def __repr__(self) -> str:
        if self._script is not None:
            return f"MockLLM.from_script(<{len(self._script)} replies>, calls={self._calls})"
        return f"MockLLM(persona={self.persona!r}, seed={self.seed}, calls={self._calls})"

    def _complete(self, request: Request) -> ChatCompletion | Stream:
        """Run one checked request through the pipeline."""
        self._calls += 1
        call = self._calls
        if call in self.failures:
            raise simulated_failure(self.failures[call], call)
        if self._script is not None:
            from mockllm.protocol.script import script_explanation

            step = call - sum(1 for failed in self.failures if failed < call)  # failed calls use no reply
            reply, explanation = self._scripted(step), script_explanation(step, self.seed)
            id_parts: tuple = ("script", step)
        else:
            reply = self._respond(request)
            explanation, id_parts = reply.explanation, ("policy", self.persona, self.seed, self.quirks)
        completion = build_completion(request, reply, explanation, id_parts, self._created)
        return Stream(stream_chunks(completion)) if request.stream else completion

    def _scripted(self, step: int) -> object:
        """Return scripted reply number `step` (1-based), or raise ScriptExhaustedError."""
        from mockllm.protocol.script import exhausted_message

        if step > len(self._script):
            raise ScriptExhaustedError(exhausted_message(len(self._script)))
        return self._script[step - 1]

    def _respond(self, request: Request) -> object:
        """Policy mode: read the conversation and let the persona respond."""
        read_conversation, respond = _policy()
        tools = None if request.tool_choice == "none" else request.tools
        conversation = read_conversation(request.messages, tools)
        return respond(conversation, persona=self.persona, seed=self.seed, quirks=self.quirks,
                       temperature=request.temperature)


@lru_cache(maxsize=1)
def _policy() -> tuple:
    """(read_conversation, respond), imported on first use, as is all of the policy."""
    from mockllm.reading.conversation import read_conversation
    from mockllm.reply.respond import respond
    return read_conversation, respond


@lru_cache(maxsize=1)
def _hashing() -> tuple:
    """(stable_id, stable_int, hashlib.blake2b), imported on first use: `import mockllm` stays fast."""
    import hashlib
    from mockllm._hash import stable_id, stable_int
    return stable_id, stable_int, hashlib.blake2b


def _created(clock: object) -> int:
    """Return the `created` timestamp: midnight UTC of the clock's day (CREATED without a clock)."""
    if clock is None:
        return CREATED
    if not callable(getattr(clock, "today", None)):
        raise TypeError(f"Invalid type for 'clock': expected None or a mockllm.world.Clock, "
                        f"got {clock!r:.60}.")
    return (clock.today().toordinal() - _EPOCH_ORDINAL) * 86400


class Completions:
    """`client.chat.completions`: the one endpoint the mock serves."""

    def __init__(self, client: MockLLM) -> None:
        self._client = client

    def create(
        self, *, model: str, messages: list, temperature: float | None = None,
        stop: str | list[str] | None = None, max_tokens: int | None = None,
        tools: list[dict] | None = None, tool_choice: str | dict | None = None,
        stream: bool = False, n: int | None = None, max_completion_tokens: int | None = None,
        **options: object,
    ) -> ChatCompletion | Stream:
        """Return a ChatCompletion (or, with stream=True, a Stream of chunks) for `messages`."""
        _check_options(options)
        if max_completion_tokens is not None:
            if max_tokens is not None and max_tokens != max_completion_tokens:
                raise ValueError("Give max_tokens or max_completion_tokens, not two different values.")
            max_tokens = max_completion_tokens
        request = validate_request(
            model=model, messages=messages, temperature=temperature, stop=stop,
            max_tokens=max_tokens, tools=tools, tool_choice=tool_choice, stream=stream, n=n,
        )
        return self._client._complete(request)


class Chat:
    """`client.chat`: holds `completions`."""

    def __init__(self, client: MockLLM) -> None:
        self.completions = Completions(client)


def _check_options(options: dict) -> None:
    """Raise TypeError for a keyword openai's `create()` would not accept either (typos)."""
    unknown = sorted(set(options) - IGNORED_OPTIONS)
    if unknown:
        import difflib

        known = ["model", "messages", "temperature", "stop", "max_tokens", "tools", "tool_choice",
                 "stream", "n", "max_completion_tokens", *IGNORED_OPTIONS]
        close = difflib.get_close_matches(unknown[0], known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise TypeError(f"create() got an unexpected keyword argument {unknown[0]!r}{hint}")


def apply_stop(text: str, stops: tuple[str, ...]) -> tuple[str, str | None]:
    """Cut `text` before the earliest stop sequence; return the text and the stop that cut it."""
    cut, used = len(text), None
    for stop in stops:
        position = text.find(stop)
        if position != -1 and (used is None or position < cut):
            cut, used = position, stop
    return text[:cut], used


def _limit_text(content: str, request: Request) -> tuple[str, str, str | None, bool]:
    """Apply stop, then max_tokens: (content, finish_reason, stop_applied, truncated)."""
    text, used = apply_stop(content, request.stop)
    if request.max_tokens is not None and count_tokens(text) > request.max_tokens:
        return truncate_tokens(text, request.max_tokens), "length", None, True
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


def prompt_tokens(messages: list[dict], tools: list | None) -> int:
    """Count the request's tokens: each message's content plus a fixed overhead, and the tools."""
    total = REPLY_PRIMING_TOKENS
    for message in messages:
        text = message["content"] or ""
        total += PER_MESSAGE_TOKENS + (_count(text) if type(text) is str else count_tokens(text))
        if len(message) > 2 and message.get("tool_calls"):
            total += sum(_call_tokens(call) for call in message["tool_calls"])
    if tools:
        import json

        total += count_tokens(json.dumps(tools, ensure_ascii=False, sort_keys=True, default=str))
    return total


def messages_digest(messages: list[dict]) -> str:
    """Return a hex digest of the messages (faster than hashing their repr, same determinism)."""
    parts = []
    for message in messages:
        parts += (message["role"], message["content"] or "")
        if len(message) > 2:
            rest = sorted((key, value) for key, value in message.items() if key not in ("role", "content"))
            parts.append(repr(rest))
    text = "\x1f".join(parts)
    return _hashing()[2](text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _shape(request: Request, reply: object, completion_id: str, keep_ids: bool) -> tuple:
    """Give the tool calls ids and apply the limits: (content, calls, finish, stop, cut).

    Ids are `call_` + a hash of the completion id and the call's index; with `keep_ids` (scripts)
    an id the script gives is kept.
    """
    stable_int = _hashing()[1]
    calls = [{**call, "id": (keep_ids and call.get("id")) or f"call_{stable_int(completion_id, index):016x}"}
             for index, call in enumerate(reply.tool_calls)]
    if not calls:
        content, finish, stop_used, truncated = _limit_text(reply.content or "", request)
        return content, [], finish, stop_used, truncated
    content = reply.content
    budget = None if request.max_tokens is None else request.max_tokens - count_tokens(content or "")
    calls, truncated = _limit_calls(calls, budget)
    return content, calls, "length" if truncated else "tool_calls", None, truncated


def build_completion(request: Request, reply: object, explanation: dict, id_parts: tuple,
                     created: int = CREATED) -> ChatCompletion:
    """Apply stop / max_tokens to `reply` and wrap it as a ChatCompletion with usage and x_mock."""
    stable_id = _hashing()[0]
    completion_id = stable_id("chatcmpl", *id_parts, request.model, messages_digest(request.messages),
                              request.temperature, request.stop, request.max_tokens, request.tools,
                              request.tool_choice)
    keep_ids = explanation.get("source") == "script"
    content, calls, finish, stop_used, truncated = _shape(request, reply, completion_id, keep_ids)
    tool_calls = [ChatCompletionMessageToolCall(id=call["id"], function=Function(**call["function"]))
                  for call in calls]
    completed = count_tokens(content or "") + sum(_call_tokens(call) for call in calls)
    prompt = prompt_tokens(request.messages, request.tools)
    message = ChatCompletionMessage(content=content, tool_calls=tool_calls or None)
    usage = CompletionUsage(prompt_tokens=prompt, completion_tokens=completed,
                            total_tokens=prompt + completed)
    return ChatCompletion(
        id=completion_id, created=created, model=request.model, system_fingerprint=SYSTEM_FINGERPRINT,
        choices=[Choice(finish_reason=finish, message=message)], usage=usage,
        x_mock={**explanation, "stop_applied": stop_used, "truncated": truncated},
    )
