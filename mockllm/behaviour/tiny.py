"""The `tiny` persona's patterns: how a very small real model (SmolLM2-135M) answers a ReAct prompt.

Each pattern paraphrases failures seen in real replies: prose with no fields, an Action with no
Action Input, the worked example's values copied, the prompt's template line echoed, the same
reply again at temperature 0, a phrase repeated until max_tokens, a whole trajectory in one reply.
What it does once told that its reply did not work is in `tiny_told`; what it does when
`tool_choice` forces a call, in `tiny_forced`.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from mockllm.behaviour.quirks import (Output, QuirkContext, block, guess_answer, invent_observation,
                                      past_calls, tool_call, tool_names)

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation

REPEATS = 400  # enough for any realistic max_tokens to cut the reply (finish_reason "length")


def _some_tool(move: "Move", conv: "Conversation") -> str | None:
    """The tool the move names, else the last one called, else the first one offered."""
    calls = past_calls(conv)
    names = tool_names(conv)
    return move.action or (calls[-1].action if calls else None) or (names[0] if names else None)


def _example_thought(tool: str, move: "Move", conv: "Conversation") -> str:
    """With a worked example in the prompt, small models copy its thought word for word."""
    return f"I should compute this with the {tool}." if conv.has_example else move.thought


def tiny_prose(move: "Move", conv: "Conversation", ctx: QuirkContext) -> str:
    """Prose with no fields: a remembered (invented) answer, a plan, or polite filler."""
    guessed = guess_answer(move, conv, ctx)
    if guessed is not None:
        answer = guessed[1]
    elif move.action is None and move.final_answer:
        answer = move.final_answer
    else:
        answer = f"The answer is {ctx.pick(('125', '42', '22'), 'value')}."
    tool = _some_tool(move, conv) or "calculator"
    return ctx.pick((
        f"I think I remember the answer.\n{answer}",
        f'When writing the thought, I will first use the "{tool}" tool. '
        f"Then I will write the final answer.",
        f"The answer to the question is: {answer}\n\nI'm here to help. "
        f"Let me know if you have any other questions.",
    ), "prose")


def missing_action_input(text: str, move: "Move", conv: "Conversation",
                         ctx: QuirkContext) -> str | None:
    """An Action line and nothing after it: no Action Input."""
    tool = _some_tool(move, conv)
    if tool is None:
        return None
    return f"Thought: {_example_thought(tool, move, conv)}\nAction: {tool}"


def copy_example(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Use the worked example's values (e.g. '45 * 3 - 10', '125') instead of the question's."""
    values = tuple(conv.example_values)
    if not conv.has_example or not values:
        return None
    if move.action is None:
        return replace(move, final_answer=values[-1])
    keys = list(move.action_input or {})
    if not keys:
        return None
    copied = {key: values[i % len(values)] for i, key in enumerate(keys)}
    return replace(move, thought=_example_thought(move.action, move, conv), action_input=copied)


_TEMPLATE_LINES = {field: re.compile(rf"(?m)^[^\S\n]*{field}:[^\n]*")  # one pass each, no backtracking
                   for field in ("Thought", "Action Input", "Action")}


def _template_lines(conv: "Conversation") -> list[str]:
    """The prompt's own format lines ('Action: the tool to use, one of [...]'), or the usual ones."""
    found = {field: m.group(0).strip() for field, pattern in _TEMPLATE_LINES.items()
             if (m := pattern.search(conv.system))}
    names = ", ".join(tool_names(conv))
    return [found.get("Thought", "Thought: think about what to do next"),
            found.get("Action", f"Action: the tool to use, one of [{names}]"),
            found.get("Action Input", "Action Input: the input for the tool, as a JSON object")]


def template_echo(text: str, move: "Move", conv: "Conversation",
                  ctx: QuirkContext) -> str | None:
    """Echo the prompt's format template instead of filling it in."""
    lead = ctx.pick(("", "The answer to the question is: \n"))
    return lead + "\n".join(_template_lines(conv))


def identical_reply(text: str, move: "Move", conv: "Conversation",
                    ctx: QuirkContext) -> str | None:
    """At temperature 0, send exactly the previous reply again."""
    if ctx.temperature > 0 or not conv.steps or not conv.steps[-1].reply.strip():
        return None
    previous = conv.steps[-1].reply
    return previous if previous != text else None


def identical_reply_structured(out: Output, move: "Move", conv: "Conversation",
                               ctx: QuirkContext) -> Output | None:
    """At temperature 0, repeat the previous tool call (or content) unchanged."""
    if ctx.temperature > 0 or not conv.steps:
        return None
    previous = conv.steps[-1]
    if previous.action:
        new = Output(None, (tool_call(previous.action, previous.action_input, ctx),))
    elif previous.reply.strip():
        new = Output(previous.reply, ())
    else:
        return None
    return new if new != out else None


def _short(text: str, limit: int = 80) -> str:
    """At most `limit` characters of `text`, cut at a space: a phrase repeated 400 times stays small."""
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:") + " ..."


def repeat_phrase(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """Repeat one phrase again and again, until max_tokens cuts the reply."""
    topic = _short(conv.question.strip().rstrip("?？")) or "your question"
    phrase = ctx.pick(("I'm here to assist you. I'll do my best to assist you.",
                       "The error: could not parse your reply.",
                       f"I'll provide a response about {topic}."), "phrase")
    return "\n\n".join([phrase] * REPEATS)


def repeat_phrase_structured(out: Output, move: "Move", conv: "Conversation",
                             ctx: QuirkContext) -> Output | None:
    """The repeated phrase as content, instead of a tool call."""
    return Output(repeat_phrase("", move, conv, ctx), ())


def whole_trajectory(text: str, move: "Move", conv: "Conversation",
                     ctx: QuirkContext) -> str | None:
    """Action, an invented Observation and a Final Answer, all in one reply."""
    if move.action is None:
        return None
    values = tuple(conv.example_values)
    value = values[-1] if conv.has_example and values else invent_observation(
        move.action, move.action_input, conv, ctx)
    head = block(_example_thought(move.action, move, conv), move.action, move.action_input)
    return (f"{head}\nObservation: {value}\n"
            f"Thought: I now know the final answer\nFinal Answer: {value}")


def whole_trajectory_structured(out: Output, move: "Move", conv: "Conversation",
                                ctx: QuirkContext) -> Output | None:
    """The whole trajectory written as content, instead of a tool call."""
    text = whole_trajectory("", move, conv, ctx)
    return None if text is None else Output(text, ())


def missing_thought(text: str, move: "Move", conv: "Conversation",
                    ctx: QuirkContext) -> str | None:
    """Chatter first, then the Action fields without their Thought line (tool calls only)."""
    if move.action is None:  # the real model almost never reached a clean Final Answer
        return None
    lines = text.splitlines()
    kept = [line for line in lines if not line.lower().startswith("thought")]
    if len(kept) == len(lines) or not kept:
        return None
    lead = ctx.pick(("You will receive this:", "Here is the next step:",
                     "The answer will be ready soon."), "lead")
    return lead + "\n\n" + "\n".join(kept)
