"""Write a `Move` as the model's reply: ReAct text, or OpenAI-style `tool_calls`.

Text mode:
    Thought: I need today's date first.
    Action: get_current_date
    Action Input: {}
or
    Thought: I now know the final answer.
    Final Answer: Today is 2025-03-14.

Structured mode: the action goes in `tool_calls`; a final answer is the plain content text.
The prompt's format decides the final label ('Answer:' where llama-index asks for it) and whether
a single input is written bare (`Action Input: (17 + 5) * 3`, as LangChain's template asks).
"""
from __future__ import annotations

import json

from mockllm.brain.context import Move
from mockllm.reading.conversation import Conversation

__all__ = ["render_text", "render_tool_calls", "action_input_json", "action_input_text"]

_TO_JSON = json.JSONEncoder(ensure_ascii=False).encode
"""`json.dumps(value, ensure_ascii=False)` without building an encoder at every call."""
_STRING = json.encoder.encode_basestring
"""How that encoder writes a str (non-ASCII kept as is)."""


def _flat_json(args: dict) -> str:
    """`_TO_JSON(args)` for the common input: str keys and str values, written directly."""
    if all([type(key) is str and type(value) is str for key, value in args.items()]):
        return "{" + ", ".join([f"{_STRING(key)}: {_STRING(value)}" for key, value in args.items()]) + "}"
    return _TO_JSON(args)


def action_input_json(move: Move) -> str:
    """The move's action input as JSON text (non-ASCII kept as is)."""
    return _flat_json(move.action_input) if move.action_input else "{}"


def action_input_text(move: Move, conv: Conversation) -> str:
    """The Action Input as the prompt asks for it: JSON, or a single value written bare."""
    args = move.action_input or {}
    if conv.input_style != "plain" or len(args) > 1:
        return action_input_json(move)
    value = next(iter(args.values()), "")
    return value if isinstance(value, str) else _TO_JSON(value)


def render_text(move: Move, conv: Conversation) -> str:
    """The reply content for a move.

    Text mode: the ReAct fields. Structured mode: the final answer as plain text, or for a tool
    call the thought alone (the content that may accompany `tool_calls`; the caller may drop it).
    """
    if conv.mode == "structured":
        return move.final_answer or "" if move.action is None else move.thought
    if move.action is not None:
        return (f"Thought: {move.thought}\nAction: {move.action}\n"
                f"Action Input: {action_input_text(move, conv)}")
    return f"Thought: {move.thought}\n{conv.final_marker}: {move.final_answer or ''}"


def render_tool_calls(move: Move, call_id: str) -> tuple[dict, ...]:
    """The `tool_calls` of a structured reply: one call for an action, none for an answer."""
    if move.action is None:
        return ()
    return ({"id": call_id, "type": "function",
             "function": {"name": move.action, "arguments": action_input_json(move)}},)
