"""The `jsonic` persona's patterns: a chat-tuned model that prefers JSON to the ReAct fields.

Shaped like the replies in public agent threads (LangChain's structured-chat and JSON agents,
smolagents, local OpenAI-compatible servers):
- a JSON-blob action, fenced or not, with or without an `Action:` label:
  ```json {"action": "calculator", "action_input": "2+2"} ```, and the final answer as
  {"action": "Final Answer", "action_input": "..."};
- call syntax as the action: `Action: get_weather(city="Beijing", date="2025-03-15")`;
- `Action: None` (or `N/A`, or `(no action needed)`) above its Final Answer;
- in tool-call mode, two failures real servers show: the call written as JSON in the content with
  no `tool_calls`, and `arguments` encoded twice (a JSON string holding the JSON object).
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mockllm.behaviour.quirks import Output, QuirkContext, edit_arguments

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation

__all__ = ["structured_only", "json_blob_action", "call_syntax", "action_none",
           "tool_call_in_content", "arguments_as_string"]


def structured_only(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> None:
    """In text mode this quirk does nothing: it is a tool-call (structured) mode failure."""
    return None


def _blob_input(move: "Move") -> Any:
    """The action_input of a blob: a single argument's value alone (as LangChain's agents write
    it for one-input tools), else the arguments object."""
    args = dict(move.action_input or {})
    return next(iter(args.values())) if len(args) == 1 else args


def json_blob_action(text: str, move: "Move", conv: "Conversation",
                     ctx: QuirkContext) -> str | None:
    """The action (or the final answer) as a JSON blob instead of the Action/Action Input fields."""
    if move.action is not None:
        blob = {"action": move.action, "action_input": _blob_input(move)}
    elif move.final_answer:
        blob = {"action": "Final Answer", "action_input": move.final_answer}
    else:
        return None
    fenced, labelled = ctx.pick(((True, True), (True, False), (False, True), (False, False)))
    body = json.dumps(blob, ensure_ascii=False, indent=2 if fenced else None)
    if fenced:
        body = f"```json\n{body}\n```"
    if labelled:
        body = ("Action:\n" if fenced else "Action: ") + body
    if not labelled and not fenced:
        return body  # the JSON alone, as JSON-mode chat models answer
    return f"Thought: {move.thought}\n{body}"


def _call(move: "Move", ctx: QuirkContext) -> str:
    """`tool("value")` for one argument (or `tool(name="value")`), `tool(a=1, b="x")` for more."""
    args = dict(move.action_input or {})
    if len(args) == 1 and ctx.pick(("positional", "keyword"), "call") == "positional":
        inner = json.dumps(next(iter(args.values())), ensure_ascii=False)
    else:
        inner = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}"
                          for key, value in args.items())
    return f"{move.action}({inner})"


def call_syntax(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """The action written as a function call, with no Action Input line."""
    if move.action is None:
        return None
    return f"Thought: {move.thought}\nAction: {_call(move, ctx)}"


def action_none(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """An `Action: None` (or `N/A`, or `(no action needed)`) line above the Final Answer."""
    if move.action is not None or not move.final_answer:
        return None
    line = ctx.pick(("Action: None", "Action: N/A\nAction Input: N/A",
                     "Action: (no action needed)"))
    return f"Thought: {move.thought}\n{line}\nFinal Answer: {move.final_answer}"


def tool_call_in_content(out: Output, move: "Move", conv: "Conversation",
                         ctx: QuirkContext) -> Output | None:
    """Tool-call mode: the call written as JSON in the content, and no `tool_calls` at all."""
    if move.action is None:
        return None
    args = dict(move.action_input or {})
    blob = ctx.pick(({"name": move.action, "arguments": args},
                     {"type": "function", "function": {"name": move.action, "parameters": args}}))
    return Output(json.dumps(blob, ensure_ascii=False), ())


def arguments_as_string(out: Output, move: "Move", conv: "Conversation",
                        ctx: QuirkContext) -> Output | None:
    """Tool-call mode: `arguments` encoded twice, a JSON string that holds the JSON object."""
    return edit_arguments(out, lambda source: json.dumps(source) if source.startswith("{") else None)
