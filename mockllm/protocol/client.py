"""`MockLLM`: an offline client shaped like `openai.OpenAI()` for `chat.completions.create`
and `responses.create` (the Responses API, read as the chat request it means: `responses`).

One request flows one way: check the keywords (`params`) and the request (`validate`) -> maybe
a simulated failure -> the next scripted reply, or read the conversation and respond as the
persona -> make the reply obey `tool_choice` and `response_format` (`tool_choice`, `formats`)
-> apply stop / max_tokens, count usage, add logprobs (`completion`) -> the response, or a
`Stream` of chunks (`stream`). Scripted replies are replayed as written: `tool_choice` and
`response_format` do not rewrite them (stop and max_tokens still apply).
"""
from __future__ import annotations

from functools import lru_cache

from mockllm.behaviour.sampling import sampling_seed
from mockllm.protocol.caching import PromptCache
from mockllm.protocol.completion import CREATED, Draft, build_completion, measure_prompt
from mockllm.protocol.errors import ScriptExhaustedError, check_failures, simulated_failure
from mockllm.protocol.model_specs import spec_of
from mockllm.protocol.options import check_clock, check_persona, check_quirks, check_seed
from mockllm.protocol.params import check_params
from mockllm.protocol.responses import Responses
from mockllm.protocol.types import ChatCompletion
from mockllm.protocol.validate import Request, validate_request

__all__ = ["MockLLM", "Chat", "Completions", "CREATED"]


class MockLLM:
    """A deterministic, offline chat model with openai's `client.chat.completions.create(...)`
    and `client.responses.create(...)` (one model and one call counter behind both).

    Its only mutable state is the call counter `calls`: it counts the well-formed `create()`
    calls of both APIs (requests rejected by validation never reach the model and are not
    counted). It decides which call raises a simulated failure (`failures={3: "rate_limit"}`)
    and, in scripted mode, which reply comes next. Everything else is a pure function of the
    request (a `previous_response_id` names earlier messages the process keeps:
    `mockllm.protocol.responses_store`).
    `clock` (a `mockllm.world.Clock`) only sets the `created` day of responses (and the dates
    the protocol layer writes into forced tool arguments): the model learns the date from tools,
    as a real one does. `persona=None` means no persona quirks, only the ones forced with
    `quirks={name: [step, ...]}`.
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
        day = check_clock(clock)
        self.clock = clock
        self._created = CREATED if day is None else day
        self._today = _iso_day(self._created)
        self._script = script
        self._calls = 0
        self.prompt_cache = PromptCache()  # the prefixes this client was sent (protocol/caching.py)
        self.chat = Chat(self)
        self.responses = Responses(self)

    @property
    def calls(self) -> int:
        """How many well-formed `create()` calls this client has received so far."""
        return self._calls

    def __repr__(self) -> str:
        if self._script is not None:
            return f"MockLLM.from_script(<{len(self._script)} replies>, calls={self._calls})"
        return f"MockLLM(persona={self.persona!r}, seed={self.seed}, calls={self._calls})"

    def _complete(self, request: Request) -> object:
        """Run one checked request through the pipeline."""
        measure_prompt(request)  # a prompt over the context window never reaches the model
        request.cache = self.prompt_cache
        self._calls += 1
        call = self._calls
        if call in self.failures:
            raise simulated_failure(self.failures[call], call)
        adjusted: list[str] = []
        if self._script is not None:
            from mockllm.protocol.script import script_explanation

            step = call - sum(1 for failed in self.failures if failed < call)  # failed calls use no reply
            reply, explanation = self._scripted(step), script_explanation(step, self.seed)
            id_parts: tuple = ("script", step)
        elif spec_of(request.model).judge:  # the judge: mockllm/reply/judge.py
            from mockllm.reply.judge import judge_reply

            content, explanation = judge_reply(request.messages)  # a verdict: no tools, no format
            reply, id_parts = Draft(content, ()), ("judge",)
        else:
            reply, question = self._respond(request)
            explanation = reply.explanation
            id_parts = ("policy", self.persona, explanation["seed"], self.quirks)
            reply = self._obey(request, reply, question, adjusted)
        completion = build_completion(request, reply, explanation, id_parts, self._created, adjusted)
        if not request.stream:
            return completion
        from mockllm.protocol.stream import Stream, stream_chunks

        return Stream(stream_chunks(completion, request.include_usage))

    def _scripted(self, step: int) -> object:
        """Return scripted reply number `step` (1-based), or raise ScriptExhaustedError."""
        from mockllm.protocol.script import exhausted_message

        if step > len(self._script):
            raise ScriptExhaustedError(exhausted_message(len(self._script)))
        return self._script[step - 1]

    def _respond(self, request: Request) -> tuple[object, str]:
        """Policy mode: read the conversation and let the persona respond; (reply, question)."""
        read_conversation, respond = _policy()
        tools = None if request.tool_choice == "none" else request.tools
        conversation = read_conversation(request.messages, tools, request.plain, request.tool_choice)
        seed = sampling_seed(self.seed, request.seed, request.temperature)
        reply = respond(conversation, persona=self.persona, seed=seed, quirks=self.quirks,
                        temperature=request.temperature)
        return reply, conversation.question

    def _obey(self, request: Request, reply: object, question: str, adjusted: list[str]) -> object:
        """The reply made to obey tool_choice, parallel_tool_calls and response_format."""
        if request.tools is None and request.response_format is None:
            return reply
        content, calls, today = reply.content, tuple(reply.tool_calls), self._today
        if calls and ("parallel_tool_calls", True) in request.extras and not isinstance(request.tool_choice, dict):
            from mockllm.protocol.parallel import parallel_calls

            calls, notes = parallel_calls(request.messages, calls, lambda messages: tuple(
                self._respond(_with_messages(request, messages))[0].tool_calls))
            adjusted += notes
        if request.tools is not None and request.tool_choice != "none":
            from mockllm.protocol.tool_choice import apply_tool_choice

            content, calls, notes = apply_tool_choice(request.tool_choice, request.parallel_tool_calls,
                                                      request.tools, content, calls, question, today)
            adjusted += notes
        if reply.explanation.get("prompt_format") == "dspy-json":  # already the object asked for
            adjusted.append("DSPy JSONAdapter: the output fields written as one JSON object")
        elif request.response_format is not None and content is not None:
            from mockllm.protocol.formats import formatted

            content, note = formatted(request.response_format, content, question, today)
            adjusted.append(note)
        return Draft(content, calls)


def _with_messages(request: Request, messages: list[dict]) -> Request:
    """A copy of `request` with other messages (for `parallel_calls`' look ahead)."""
    import copy

    other = copy.copy(request)
    other.messages, other.plain = messages, None
    return other


def _iso_day(created: int) -> str:
    """The 'YYYY-MM-DD' of a `created` timestamp (midnight UTC)."""
    import datetime

    return datetime.date.fromordinal(719163 + created // 86400).isoformat()


@lru_cache(maxsize=1)
def _policy() -> tuple:
    """(read_conversation, respond), imported on first use, as is all of the policy."""
    from mockllm.reading.conversation import read_conversation
    from mockllm.reply.respond import respond
    return read_conversation, respond


class Completions:
    """`client.chat.completions`: chat completions (`client.responses` is the Responses API)."""

    def __init__(self, client: MockLLM) -> None:
        self._client = client

    def create(self, *, messages: list, model: str, **params: object) -> ChatCompletion | object:
        """Return a ChatCompletion (or, with stream=True, a Stream of chunks) for `messages`.

        Takes every keyword of openai's `create()` (`mockllm.protocol.params.PARAMETERS`):
        `temperature`, `seed`, `stop`, `max_tokens` / `max_completion_tokens`, `tools`, `tool_choice`,
        `parallel_tool_calls`, `response_format`, `logprobs`, `top_logprobs`, `stream`,
        `stream_options` and `n=1` shape the reply; the others are checked and accepted without
        effect. None and openai's NOT_GIVEN / omit mean "not given".
        """
        request = validate_request(model, messages, check_params(params))
        return self._client._complete(request)


class Chat:
    """`client.chat`: holds `completions`."""

    def __init__(self, client: MockLLM) -> None:
        self.completions = Completions(client)
