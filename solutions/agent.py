"""The ReAct loop: ask the model, run its action, feed back the observation, repeat.

Built in lesson 04 (The loop). The trace display lives in `solutions.course.display`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from solutions.course.display import trace_html, trace_text
from solutions.parsing import Step, parse_step
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, ToolRegistry


@dataclass
class TraceStep:
    """One step of a run: what the model wrote and what the world answered."""

    thought: str | None = None
    action: str | None = None
    action_input: dict = field(default_factory=dict)
    observation: str | None = None
    final_answer: str | None = None
    error: str | None = None  # the corrective message sent back after a format error
    raw_reply: str = ""
    tokens: int = 0
    explanation: dict = field(default_factory=dict)  # the mock's x_mock, {} for other clients
    messages_sent: list[dict] | None = field(default=None, repr=False, compare=False)  # None: not recorded


@dataclass
class Trace:
    """A whole run: the question, every step, the answer and why the loop stopped."""

    question: str
    steps: list[TraceStep]
    final_answer: str | None
    stop_reason: str  # "answered" | "step_limit" | ...
    messages: list[dict] = field(default_factory=list)

    @property
    def total_tokens(self) -> int:
        """Tokens used by all the model calls of the run."""
        return sum(step.tokens for step in self.steps)

    def __str__(self) -> str:
        """The readable text form of the trace."""
        return trace_text(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Show the text form in IPython."""
        printer.text(trace_text(self))

    def _repr_html_(self) -> str:
        """Show the trace as HTML cards in Jupyter."""
        return trace_html(self)


def run_agent(
    question: str,
    client: Any,
    tools: ToolRegistry | None = None,
    max_steps: int = 5,
    *,
    system_prompt: str | None = None,
    model: str = "mock-react",
    parse: Callable[[str], Step] = parse_step,
    stop: list[str] | None = None,
    max_tokens: int | None = None,
) -> Trace:
    """Answer `question` in at most `max_steps` model calls. Built in lesson 04 (The loop)."""
    if tools is None:
        tools = BASIC_TOOLS
    check_arguments(question, client, tools, max_steps)
    if system_prompt is None:
        system_prompt = build_system_prompt(tools)
    messages = [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": f"Question: {question}"},
    ]
    steps = []
    for _ in range(max_steps):
        step = run_step(client, messages, tools, model=model, parse=parse,
                        stop=stop, max_tokens=max_tokens)
        steps.append(step)
        if step.final_answer is not None:
            return Trace(question, steps, step.final_answer, "answered", messages)
    # The model never gave a final answer: the step limit ends the run.
    return Trace(question, steps, None, "step_limit", messages)


def run_step(
    client: Any,
    messages: list[dict],
    tools: ToolRegistry,
    *,
    model: str = "mock-react",
    parse: Callable[[str], Step] = parse_step,
    stop: list[str] | None = None,
    max_tokens: int | None = None,
    cut_reply: Callable[[str], Step] | None = None,
) -> TraceStep:
    """Call the model once and grow `messages` with the result. Built in lesson 04 (The loop).

    `cut_reply` (lesson 07) reads a reply that max_tokens cut off; None parses it like any other.
    """
    options = {}  # only send the options that were given, as a real API expects
    if stop is not None:
        options["stop"] = stop
    if max_tokens is not None:
        options["max_tokens"] = max_tokens
    sent = list(messages)  # the exact messages of this call, kept in the step for the trace viewer
    response = client.chat.completions.create(model=model, messages=messages, **options)
    reply = response.choices[0].message.content or ""
    messages.append({"role": "assistant", "content": reply})  # keep the whole history
    if cut_reply is not None and response.choices[0].finish_reason == "length":
        parsed = cut_reply(reply)  # cut off by max_tokens: not the whole reply
    else:
        parsed = parse(reply)  # a Step: thought, action, action_input, final_answer or error

    observation = None
    if parsed.error is not None:
        # Not in the format: send the correction once, the next step is the retry.
        messages.append({"role": "user", "content": parsed.error})
    elif parsed.final_answer is None and parsed.action is not None:
        # The tool runs here, in our program. The registry never raises: unknown tools
        # and tool errors come back as text the model can read.
        observation = tools.run(parsed.action, parsed.action_input)
        # A `user` message, because the observation comes from the world, not the model.
        messages.append({"role": "user", "content": f"Observation: {observation}"})

    return TraceStep(
        thought=parsed.thought,
        action=parsed.action,
        action_input=parsed.action_input,
        observation=observation,
        final_answer=parsed.final_answer if parsed.error is None else None,  # no answer on errors
        error=parsed.error,
        raw_reply=reply,
        tokens=response.usage.total_tokens if response.usage is not None else 0,
        explanation=explanation_of(response),
        messages_sent=sent,
    )


def explanation_of(response: Any) -> dict:
    """The mock's `x_mock` explanation of a response, or {} for clients without one."""
    explanation = getattr(response, "x_mock", None)
    if explanation is None:  # an openai object keeps unknown fields in model_extra
        explanation = (getattr(response, "model_extra", None) or {}).get("x_mock")
    return dict(explanation) if isinstance(explanation, dict) else {}


def check_arguments(question: Any, client: Any, tools: Any, max_steps: Any) -> None:
    """Raise a clear TypeError or ValueError when `run_agent` gets bad arguments."""
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    if not question.strip():
        raise ValueError("question must not be empty")
    if not hasattr(client, "chat"):
        raise TypeError("client must be an OpenAI-style client with .chat.completions.create "
                        f"(e.g. MockLLM()), got {type(client).__name__}")
    if not isinstance(tools, ToolRegistry):
        raise TypeError(f"tools must be a ToolRegistry or None, got {type(tools).__name__}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int):
        raise TypeError(f"max_steps must be an int, got {type(max_steps).__name__}")
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
