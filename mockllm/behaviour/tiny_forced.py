"""What the `tiny` persona does when `tool_choice` forces a tool call: an off-task call.

A model too small to choose a tool, made to call one ('required', or a named function), calls
one that has nothing to do with the question (for a named function: that one) with arguments
it makes up, not taken from the question.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mockllm.behaviour.quirks import (Output, QuirkContext, family_kind, tool_call, tool_kind,
                                      tool_names)
from mockllm.behaviour.triggers import Trigger

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation


@dataclass(frozen=True)
class ToolCallsForced(Trigger):
    """Fires when `tool_choice` forces a call ('required' or a named function)."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the request forces a tool call."""
        return bool(conv.forced)

    def describe(self) -> str:
        """The rulebook phrase."""
        return "tool calls forced (tool_choice 'required' or a named function)"


_MADE_UP: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("expression", ("2 + 2", "10 * 10", "1 + 1")),
    ("city", ("Paris", "New York", "Tokyo")), ("location", ("Paris", "New York")),
    ("date", ("2023-01-01", "2024-12-25")), ("day", (7, 1)),
    ("order", ("12345", "A0001")), ("id", ("12345", "1")),
    ("query", ("hello", "information")), ("text", ("hello",)), ("to", ("user@example.com",)),
)
"""Made-up values by (a word of) a parameter's name; any other parameter gets 'example'."""


def made_up_arguments(parameters: tuple[str, ...], ctx: QuirkContext) -> dict[str, Any]:
    """Arguments for these parameters invented from their names alone, not from the question."""
    args: dict[str, Any] = {}
    for name in parameters:
        low = str(name).lower()
        options = next((values for word, values in _MADE_UP if word in low), ("example",))
        args[name] = ctx.pick(options, "argument", name)
    return args


def _off_task(move: "Move", conv: "Conversation", ctx: QuirkContext) -> str:
    """A forced tool that the question does not need (the only one, for a named function)."""
    names = [name for name in tool_names(conv) if name in conv.forced] or list(conv.forced)
    wanted = family_kind(move.family) or (tool_kind(move.action, conv) if move.action else None)
    others = [name for name in names if name != move.action and tool_kind(name, conv) != wanted]
    with_arguments = [name for name in others if any(t.name == name and t.parameters for t in conv.tools)]
    return ctx.pick(with_arguments or others or names, "tool")


def off_task_call(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """Text mode: no tool call can be forced there."""
    return None


def off_task_call_structured(out: Output, move: "Move", conv: "Conversation",
                             ctx: QuirkContext) -> Output | None:
    """One call, forced: a tool off the question's task, with made-up arguments."""
    if not conv.forced:
        return None
    name = _off_task(move, conv, ctx)
    spec = next((tool for tool in conv.tools if tool.name == name), None)
    args = made_up_arguments(spec.parameters if spec is not None else (), ctx)
    return Output(None, (tool_call(name, args, ctx),))
