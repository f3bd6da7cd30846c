"""Tokens, cost and a token budget: what a run spends, and a loop that stops before it spends too much.

Built in lesson 07 (Context and budget). `UsageMeter` records the `usage` of every model call,
`cost` prices it with an illustrative price table, `run_within_budget` is the loop with the
budget guard, and `budgeted_agent` is the lesson-04 agent with all of lesson 07 switched on:
truncated observations, summarised old steps, cut replies retried (see `solutions.context`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

from solutions.agent import Trace, TraceStep, check_arguments, run_step
from solutions.context import (CUT_REPLY, MAX_OBSERVATION_CHARS, cut_reply, summarise_history,
                               truncating_tools)
from solutions.parsing import parse_step
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, ToolRegistry


@dataclass(frozen=True)
class Usage:
    """The tokens of one model call, read from its `usage`, and why its reply ended."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None

    @property
    def total_tokens(self) -> int:
        """Prompt and completion tokens together: what the call is billed for."""
        return self.prompt_tokens + self.completion_tokens


def usage_of(response: Any) -> Usage:
    """The Usage of a chat completion (zeros when the client reports none). Built in lesson 07 (Context and budget)."""
    usage = getattr(response, "usage", None)
    choices = getattr(response, "choices", None) or [None]
    return Usage(getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0,
                 getattr(choices[0], "finish_reason", None))


class UsageMeter:
    """A client that passes each call on to `client` and records its Usage. Built in lesson 07 (Context and budget).

    Use it wherever a client goes: `run_agent(question, UsageMeter(client))`. Streamed calls
    (`stream=True`) are passed on but not counted: their usage comes in the last chunk.
    """

    def __init__(self, client: Any) -> None:
        """Wrap `client`, an OpenAI-style client with .chat.completions.create."""
        if not hasattr(client, "chat"):
            raise TypeError("client must be an OpenAI-style client with .chat.completions.create "
                            f"(e.g. MockLLM()), got {type(client).__name__}")
        self.client = client
        self.calls: list[Usage] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        """Call the wrapped client with `request`, record the response's usage, return the response."""
        response = self.client.chat.completions.create(**request)
        if not request.get("stream"):
            self.calls.append(usage_of(response))
        return response

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens of every call so far."""
        return sum(call.prompt_tokens for call in self.calls)

    @property
    def completion_tokens(self) -> int:
        """Completion tokens of every call so far."""
        return sum(call.completion_tokens for call in self.calls)

    @property
    def total_tokens(self) -> int:
        """All the tokens of every call so far."""
        return sum(call.total_tokens for call in self.calls)


@dataclass(frozen=True)
class Price:
    """A price in US dollars per million tokens, for input (prompt) and output (completion) tokens."""

    input: float
    output: float


PRICES = {"small model": Price(input=0.15, output=0.60), "large model": Price(input=2.50, output=10.00)}
"""Illustrative prices (USD per million tokens) of a small and a large model: real prices differ
between providers and change often, so read your provider's price list before you trust a figure."""


def cost(usage: Any, price: Price) -> float:
    """The price in US dollars of `usage` (a Usage, a UsageMeter or an API usage). Built in lesson 07 (Context and budget)."""
    return (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1_000_000


def run_within_budget(take_step: Callable[[], TraceStep], meter: UsageMeter, max_steps: int,
                      token_budget: int | None) -> tuple[list[TraceStep], str]:
    """Take steps until a final answer, `max_steps` steps, or `token_budget` tokens spent. Built in lesson 07 (Context and budget).

    Returns the steps and the stop reason: "answered", "step_limit" or "token_budget".
    """
    steps = []
    for _ in range(max_steps):
        # Before each call: a call, once made, is paid for, prompt tokens included.
        if token_budget is not None and meter.total_tokens >= token_budget:
            return steps, "token_budget"
        step = take_step()
        steps.append(step)
        if step.final_answer is not None:
            return steps, "answered"
    return steps, "step_limit"


@dataclass
class ContextWindow:
    """What one run sends and how it reads cut replies. Built in lesson 07 (Context and budget).

    Once a call has used `summarise_after` tokens, every later call is sent the history with all
    but the last `keep_last` steps summarised. A reply cut by max_tokens is not used: the model is
    told so, and the next call gets twice the max_tokens.
    """

    summarise_after: int | None = None
    keep_last: int = 2
    options: dict = field(default_factory=dict)  # run_step's: model, parse, stop, max_tokens
    summarising: bool = False
    was_cut: bool = False

    def step(self, client: Any, messages: list[dict], tools: ToolRegistry) -> TraceStep:
        """Run one step on the history to send; copy what it adds into `messages`, the whole history."""
        parse = self.options.get("parse", parse_step)
        sent = summarise_history(messages, self.keep_last, parse) if self.summarising else list(messages)
        before = len(sent)
        options = dict(self.options)
        if self.was_cut and options.get("max_tokens"):
            options["max_tokens"] *= 2  # retry the cut reply with more room
        step = run_step(client, sent, tools, cut_reply=cut_reply, **options)
        messages.extend(sent[before:])
        self.was_cut = step.error == CUT_REPLY
        if self.summarise_after is not None and step.tokens >= self.summarise_after:
            self.summarising = True
        return step


def budgeted_agent(question: str, client: Any, tools: ToolRegistry | None = None, max_steps: int = 8,
                   *, token_budget: int | None = None,
                   max_observation_chars: int | None = MAX_OBSERVATION_CHARS,
                   summarise_after: int | None = None, keep_last: int = 2,
                   system_prompt: str | None = None, **options: Any) -> Trace:
    """Answer `question` like run_agent, within a token budget and a small context. Built in lesson 07 (Context and budget).

    `options` go to run_step (model, parse, stop, max_tokens). None switches a feature off:
    no budget, no truncation, no summary.
    """
    tools = BASIC_TOOLS if tools is None else tools
    check_arguments(question, client, tools, max_steps)
    check_limits(token_budget=token_budget, max_observation_chars=max_observation_chars,
                 summarise_after=summarise_after, keep_last=keep_last)
    if system_prompt is None:
        system_prompt = build_system_prompt(tools)
    if max_observation_chars is not None:
        tools = truncating_tools(tools, max_observation_chars)
    messages = [{"role": "system", "content": system_prompt},
                {"role": "user", "content": f"Question: {question}"}]
    meter, window = UsageMeter(client), ContextWindow(summarise_after, keep_last, options)
    steps, reason = run_within_budget(lambda: window.step(meter, messages, tools), meter,
                                      max_steps, token_budget)
    answer = steps[-1].final_answer if reason == "answered" else None
    return Trace(question, steps, answer, reason, messages)


def check_limits(**limits: Any) -> None:
    """Raise a TypeError or ValueError naming the first of budgeted_agent's limits that is out of range."""
    for name, value in limits.items():
        optional = name != "keep_last"  # the others may be None: the feature is off
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            kinds = "an int or None" if optional else "an int"
            raise TypeError(f"{name} must be {kinds}, got {type(value).__name__}")
        lowest = 0 if name in ("keep_last", "max_observation_chars") else 1
        if value < lowest:
            raise ValueError(f"{name} must be at least {lowest}, got {value}")
