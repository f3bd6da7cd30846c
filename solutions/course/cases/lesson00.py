"""Cases for lesson 00 (Welcome): `ask`, one question sent to a chat model."""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, Callable

from mockllm import RateLimitError
from solutions.course.exercises import Case, Cause, Exercise, returns

Setup = Callable[[], tuple[tuple, dict]]
SYSTEM = "You are a terse assistant."
SYSTEM_LINE = "You are a terse assistant.\n"
QUESTION = "What is (17 + 5) * 3?"
PADDED = "  What is (17 + 5) * 3?\n"


class EchoClient:
    """A fake OpenAI-style client that records each request and replies with it as JSON.

    The reply text is `{"call": n, "model": ..., "messages": [...]}`, so a case can check the
    exact request from the value `ask` returns.
    """

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> SimpleNamespace:
        """Record the request; answer with its JSON as the message content."""
        self.requests.append(request)
        content = json.dumps({"call": len(self.requests), **request}, ensure_ascii=False,
                             default=str)
        message = SimpleNamespace(role="assistant", content=content)
        choice = SimpleNamespace(index=0, message=message, finish_reason="stop")
        return SimpleNamespace(choices=[choice])


def _echo(question: Any, **kwargs: Any) -> Setup:
    """Setup: a fresh EchoClient and `question`, with keyword arguments for `ask`."""
    def setup() -> tuple[tuple, dict]:
        return (EchoClient(), question), dict(kwargs)
    return setup


def _scripted(replies: list[str], question: str = "Hi!") -> Setup:
    """Setup: a scripted mock client replaying `replies`."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM

        return (MockLLM.from_script(list(replies)), question), {}
    return setup


def _failing(kind: str = "rate_limit") -> Setup:
    """Setup: a scripted client whose first call fails with a simulated `kind` error."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM

        return (MockLLM.from_script(["Never sent."], failures={1: kind}), "Hi!"), {}
    return setup


def _live(question: str, persona: str = "diligent") -> Setup:
    """Setup: a live mock client with `persona` and seed 0."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM

        return (MockLLM(persona=persona, seed=0), question), {}
    return setup


def _sent(value: Any) -> dict:
    """The request an EchoClient received, read back from the text `ask` returned ({} if none)."""
    try:
        sent = json.loads(value)
    except (TypeError, ValueError):
        return {}
    return sent if isinstance(sent, dict) else {}


def _case(setup: Setup, label: str, test: Callable[[Any], bool], says: str, hint: str) -> Case:
    """A case built from a setup, a predicate on the returned text and words for the report."""
    return Case(setup=setup, label=label, expect=test, says=says, hint=hint)


ASK_CASES = (
    _case(_scripted(["Hello! How can I help?"]),
          "ask(MockLLM.from_script(['Hello! How can I help?']), 'Hi!')",
          lambda v: v == "Hello! How can I help?", "'Hello! How can I help?' (the reply text)",
          "return response.choices[0].message.content, the text itself"),
    _case(_echo(QUESTION), f"ask(EchoClient(), {QUESTION!r})",
          lambda v: _sent(v).get("messages", [{}])[-1].get("content") == QUESTION,
          "the user message's content is the question, unchanged",
          "send the question as it is, with no 'Question:' prefix (the agent adds one in lesson 04)"),
    _case(_echo("Hi!"), "ask(EchoClient(), 'Hi!')",
          lambda v: _sent(v).get("messages") == [{"role": "user", "content": "Hi!"}],
          "messages == [{'role': 'user', 'content': 'Hi!'}]",
          "with no system, send exactly one message, the user's question, in a list made "
          "afresh on every call (a list kept between calls still holds the earlier questions)"),
    _case(_echo(PADDED), f"ask(EchoClient(), {PADDED!r})",
          lambda v: _sent(v).get("messages", [{}])[-1].get("content") == PADDED,
          "the question exactly as given, its spaces and line break included",
          "send the question unchanged: no .strip(), the caller decides what the question is"),
    _case(_echo(""), "ask(EchoClient(), '')",
          lambda v: _sent(v).get("messages") == [{"role": "user", "content": ""}],
          "messages == [{'role': 'user', 'content': ''}]: '' is a str, so it is sent",
          "raise TypeError only when question is not a str: an empty text is still a str, and "
          "ask sends it as it is"),
    _case(_echo("Hi!", system=SYSTEM), f"ask(EchoClient(), 'Hi!', system={SYSTEM!r})",
          lambda v: _sent(v).get("messages") == [{"role": "system", "content": SYSTEM},
                                                 {"role": "user", "content": "Hi!"}],
          "messages == [system message, user message], in that order",
          "put {'role': 'system', 'content': system} first, then the user message"),
    _case(_echo("Hi!", system=SYSTEM_LINE), f"ask(EchoClient(), 'Hi!', system={SYSTEM_LINE!r})",
          lambda v: _sent(v).get("messages", [{}])[0] == {"role": "system", "content": SYSTEM_LINE},
          "the system message's content is system exactly, its final line break included",
          "send system unchanged, as the question: no .strip()"),
    _case(_echo("Hi!", system=""), "ask(EchoClient(), 'Hi!', system='')",
          lambda v: _sent(v).get("messages") == [{"role": "system", "content": ""},
                                                 {"role": "user", "content": "Hi!"}],
          "messages == [{'role': 'system', 'content': ''}, user message]: '' is not None",
          "test `system is not None`, not `if system:`: an empty text is still a system prompt"),
    _case(_echo("Hi!", system=None), "ask(EchoClient(), 'Hi!', system=None)",
          lambda v: [m.get("role") for m in _sent(v).get("messages", [])] == ["user"],
          "no system message when system is None",
          "add the system message only when system is not None"),
    _case(_echo("Hi!"), "ask(EchoClient(), 'Hi!')",
          lambda v: _sent(v).get("model") == "mock-react", "model='mock-react' by default",
          "pass model=model to create(); its default is 'mock-react'"),
    _case(_echo("Hi!", model="gpt-4o-mini"), "ask(EchoClient(), 'Hi!', model='gpt-4o-mini')",
          lambda v: _sent(v).get("model") == "gpt-4o-mini", "model='gpt-4o-mini' sent to create()",
          "pass the model argument on to create(), do not hard-code it"),
    _case(_echo("Hi!"), "ask(EchoClient(), 'Hi!')",
          lambda v: _sent(v).get("call") == 1, "exactly one create() call",
          "call client.chat.completions.create once per question, and return that response's "
          "text (each call is a request, billed and answered anew)"),
    _case(_scripted(["First reply.", "Second reply."]),
          "ask(MockLLM.from_script(['First reply.', 'Second reply.']), 'Hi!')",
          lambda v: v == "First reply.", "'First reply.' (one call, its reply)",
          "call create() once and return that reply's content"),
    _case(_scripted(["", "Second reply."]), "ask(MockLLM.from_script(['', 'Second reply.']), 'Hi!')",
          lambda v: v == "", "'' (the one reply, empty as it is)",
          "call create() once and return its content even when it is empty: asking again is a "
          "second request (retries are lesson 05's business, with a budget)"),
    _case(_scripted(["Thought: I need the date.\nAction: get_current_date\nAction Input: {}"]),
          "ask(MockLLM.from_script(['Thought: ...\\nAction: get_current_date\\n...']), 'Hi!')",
          lambda v: v == "Thought: I need the date.\nAction: get_current_date\nAction Input: {}",
          "the reply text exactly as the model wrote it, line breaks included",
          "return the content unchanged: parsing it is lesson 03's job"),
    _case(_live("What is the capital of France?"),
          "ask(MockLLM(persona='diligent', seed=0), 'What is the capital of France?')",
          lambda v: isinstance(v, str) and "Paris" in v, "a str mentioning Paris",
          "call client.chat.completions.create(model=model, messages=messages) and return the content"),
    Case(setup=_echo(42), raises=TypeError, match="question", label="ask(EchoClient(), 42)",
         hint="check isinstance(question, str) first; raise TypeError naming 'question' (do "
              "not convert it with str(): 42 is not a question)"),
    Case(setup=_echo(None), raises=TypeError, match="question", label="ask(EchoClient(), None)",
         hint="a missing question is an error too: TypeError, not a request with content None"),
    Case(setup=_echo(b"Hi!"), raises=TypeError, match="question", label="ask(EchoClient(), b'Hi!')",
         hint="bytes are not a str either: raise TypeError naming 'question' (do not decode them)"),
    Case(setup=_failing(), raises=RateLimitError,
         label="ask(MockLLM.from_script([...], failures={1: 'rate_limit'}), 'Hi!')",
         hint="let the client's error reach the caller: no try/except around create(); an error "
              "turned into a text (or a retry) would look like the model's reply"),
)

ASK_CAUSES = (
    Cause(lambda exc: type(exc).__name__ == "ScriptExhaustedError", "asks the scripted client for "
          "more replies than it holds: call client.chat.completions.create once per question and "
          "return that response's text", raised=True),
    Cause(lambda v: hasattr(v, "choices"), "returns the whole response: return "
          "response.choices[0].message.content, the reply text"),
    Cause(lambda v: hasattr(v, "content") and not isinstance(v, str), "returns the message "
          "object: return its .content (response.choices[0].message.content), the reply text"),
    returns(str, "returns something that is not a str: return the reply text, "
            "response.choices[0].message.content"),
)

EXERCISES = [
    Exercise(name="ask", lesson="00", reference="solutions.chat:ask", cases=ASK_CASES,
             causes=ASK_CAUSES),
]
