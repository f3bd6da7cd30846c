"""Degenerate replies: an empty reply, the question or the prompt echoed back, the tool's schema
copied as its arguments, an Action and a guessed Final Answer in one reply.

Small models do all of these (the `tiny` persona has them; see `mockllm.behaviour.tiny` for its
other patterns). Each text function takes (text, move, conv, ctx) and returns the new text, or
None when it does not apply; each `*_structured` / `*_args` variant acts on a tool-call reply.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mockllm.behaviour.quirks import (Output, QuirkContext, block, edit_arguments, guess_answer,
                                      invent_answer, invent_observation, tool_kind)
from mockllm.behaviour.quirks_layout import with_input

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation

ECHO_LIMIT = 8000
"""An echo stops after this many characters, as a real model's reply stops at its output limit."""


def _upto(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text`, or its first `limit` characters cut at the end of a line."""
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0]


def empty_reply(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """Nothing at all: an empty reply."""
    # real: smollm2-135m/date_plus3/C/t0.7/s1/step5, smollm2-135m/calc_100_8/C/t0.7/s1/step1
    return "" if text else None


def empty_reply_structured(out: Output, move: "Move", conv: "Conversation",
                           ctx: QuirkContext) -> Output | None:
    """An empty content and no tool calls."""
    return Output("", ())


def echo_question(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """The question written back instead of an answer."""
    # real: smollm2-135m/calc_17_5_3/C/t0.7/s1/step3 ("Question: What is (17 + 5) * 3?"),
    # smollm2-135m/weather_compare/A/t0.0/snone/step2 ("The question is:\n\n..."),
    # smollm2-135m/order_a1004_amount/A/t0.7/s1/step1 (the question alone, first)
    question = _upto(conv.question.strip())
    if not question:
        return None
    return ctx.pick((question, f"Question: {question}", f"The question is:\n\n{question}"), "echo")


def echo_question_structured(out: Output, move: "Move", conv: "Conversation",
                             ctx: QuirkContext) -> Output | None:
    """The question written back as content, instead of a tool call or an answer."""
    text = echo_question("", move, conv, ctx)
    return None if text is None else Output(text, ())


def echo_prompt(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """The system prompt written back, then the question, as if continuing a document."""
    # seen with chat models behind text-completion wrappers (LangChain "Could not parse LLM
    # output: <|system|> Answer the following questions..."); not in the SmolLM2 replies
    if not conv.system.strip():
        return None
    return _upto(f"{conv.system.strip()}\n\nQuestion: {conv.question.strip()}\nThought:")


def echo_prompt_structured(out: Output, move: "Move", conv: "Conversation",
                           ctx: QuirkContext) -> Output | None:
    """The system prompt and the question written back as content."""
    text = echo_prompt("", move, conv, ctx)
    return None if text is None else Output(text, ())


def tool_schema(move: "Move", conv: "Conversation") -> str:
    """The JSON schema of the move's tool, as a model copies it from the tool list."""
    spec = next((tool for tool in conv.tools if tool.name == move.action), None)
    params = [str(name) for name in (spec.parameters if spec and spec.parameters
                                     else tuple(move.action_input or {}))]
    schema = {"type": "object", "properties": {name: {"type": "string"} for name in params},
              "required": params}
    return json.dumps(schema, ensure_ascii=False)


def schema_copy(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """The tool's schema as the Action Input, in place of the values."""
    if move.action is None:
        return None
    schema = tool_schema(move, conv)
    return with_input(text, lambda value: schema) or \
        f"Thought: {move.thought}\nAction: {move.action}\nAction Input: {schema}"


def schema_copy_args(out: Output, move: "Move", conv: "Conversation",
                     ctx: QuirkContext) -> Output | None:
    """The tool's schema as the tool call's arguments."""
    if move.action is None:
        return None
    return edit_arguments(out, lambda source: tool_schema(move, conv))


def _guessed(move: "Move", conv: "Conversation", ctx: QuirkContext) -> str:
    """A final answer written before any observation: remembered, copied, or invented."""
    guessed = guess_answer(move, conv, ctx)
    if guessed is not None:
        return guessed[1]
    values = tuple(conv.example_values)
    if conv.has_example and values:
        return values[-1]
    value = invent_observation(move.action, move.action_input, conv, ctx)
    return invent_answer(tool_kind(move.action, conv), value, conv)


def action_and_answer(text: str, move: "Move", conv: "Conversation",
                      ctx: QuirkContext) -> str | None:
    """An Action, then at once a Final Answer, with no Observation between them."""
    # real: smollm2-135m/date_plus3/C/t0.7/s1/step2, smollm2-135m/zh_order/A/t0.0/snone/step1
    if move.action is None:
        return None
    head = text.rstrip() if "Action Input" in text else block(move.thought, move.action,
                                                              move.action_input)
    return f"{head}\nThought: I now know the final answer\nFinal Answer: {_guessed(move, conv, ctx)}"
