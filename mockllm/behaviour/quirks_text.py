"""Text-level quirks: they change the rendered reply (format drift, broken JSON, invented text).

Each function takes (text, move, conv, ctx) and returns the new text, or None if it does not
apply. The `*_args` variants take the structured Output and break a tool call's `arguments`.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Mapping

from mockllm.behaviour.quirks import (Output, QuirkContext, block, dump, edit_arguments, edit_input,
                                      invent_answer, invent_observation, say, tool_kind)
from mockllm.brain.policy import decide
from mockllm.reading.conversation import PastStep
from mockllm.behaviour.tiny import tiny_prose

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation

FIELD_RE = re.compile(r"^(?P<name>Thought|Action Input|Action|Final Answer|Observation)"
                      r"(?P<colon>[:：])", re.I | re.M)


# ---------------------------------------------------------------- missing rules (diligent)

def prose_only_applies(text: str, move: "Move", conv: "Conversation", params: Mapping) -> bool:
    """Whether prose_only changes the reply (a cheap test: it writes nothing)."""
    return params.get("style") == "tiny" or move.action is not None or bool(move.final_answer)


def prose_only(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """Answer in plain prose with no Thought/Action/Final Answer fields."""
    if not prose_only_applies(text, move, conv, ctx.params):
        return None
    if ctx.params.get("style") == "tiny":
        return tiny_prose(move, conv, ctx)
    if move.action is None:
        return move.final_answer or None
    return say(conv, f"{move.thought} I will use the {move.action} tool with "
                     f"{dump(move.action_input)} and then answer.",
               f"{move.thought}我会用 {move.action} 工具，参数是 {dump(move.action_input)}，然后再回答。")


def prose_only_structured(out: Output, move: "Move", conv: "Conversation",
                          ctx: QuirkContext) -> Output | None:
    """A small model answers in content instead of calling a tool (only tiny's style)."""
    if ctx.params.get("style") != "tiny":
        return None
    return Output(tiny_prose(move, conv, ctx), ())


def _imagine(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> tuple[str, "Move"]:
    """An invented observation for the move's call, and the brain's next move if it were real."""
    value = invent_observation(move.action, move.action_input, conv, ctx)
    past = PastStep(move.action, dict(move.action_input or {}), value, text)
    return value, decide(replace(conv, steps=conv.steps + (past,), step=conv.step + 1))


def fake_observation_applies(text: str, move: "Move", conv: "Conversation",
                             params: Mapping) -> bool:
    """Whether fake_observation changes the reply (a cheap test: it imagines nothing)."""
    return move.action is not None and "observation:" not in text.lower()


def fake_observation(text: str, move: "Move", conv: "Conversation",
                     ctx: QuirkContext) -> str | None:
    """Continue past the Action with an invented Observation and a Final Answer built on it."""
    if not fake_observation_applies(text, move, conv, ctx.params):
        return None
    value, nxt = _imagine(text, move, conv, ctx)
    answer = nxt.final_answer if nxt.action is None and nxt.final_answer else \
        invent_answer(tool_kind(move.action, conv), value, conv)
    done = say(conv, "I now know the final answer", "我现在知道最终答案了")
    return f"{text.rstrip()}\nObservation: {value}\nThought: {done}\nFinal Answer: {answer}"


def _imagined_next(text: str, move: "Move", conv: "Conversation",
                   ctx: QuirkContext) -> "Move | None":
    """The brain's next call, as if the invented observation had come back (None if it answers)."""
    nxt = _imagine(text, move, conv, ctx)[1]
    same = nxt.action == move.action and dict(nxt.action_input or {}) == dict(move.action_input or {})
    return None if nxt.action is None or same else nxt


def multi_action_applies(text: str, move: "Move", conv: "Conversation", params: Mapping) -> bool:
    """Whether multi_action changes the reply (a cheap test: it imagines nothing)."""
    return move.action is not None


def multi_action(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """Write a second Thought/Action/Action Input block: its next step, on an imagined result."""
    if not multi_action_applies(text, move, conv, ctx.params):
        return None
    nxt = _imagined_next(text, move, conv, ctx) or replace(
        move, thought=say(conv, "Let me make sure.", "我再确认一下。"))
    return f"{text.rstrip()}\n\n{block(nxt.thought, nxt.action, nxt.action_input)}"


# ---------------------------------------------------------------- format drift (sloppy)

def chatter_before(text: str, move: "Move", conv: "Conversation",
                   ctx: QuirkContext) -> str | None:
    """Put a friendly sentence before the fields."""
    lead = ctx.pick(say(conv, "Sure! Let me work through this.|Of course! Here is my next step:"
                              "|Great question, let me think.", "好的，我来一步一步处理。|没问题，让我想一想。")
                    .split("|"))
    return f"{lead}\n\n{text}"


def chatter_after(text: str, move: "Move", conv: "Conversation",
                  ctx: QuirkContext) -> str | None:
    """Add a sentence after the fields."""
    if move.action is None:
        options = say(conv, "I hope this helps!|Let me know if you have any other questions.",
                      "希望对你有帮助！|还有问题请随时问我。")
    else:
        options = say(conv, "I will wait for the result.|Let me know if you need anything else!",
                      "我等待结果。|然后我再继续。")
    return f"{text.rstrip()}\n\n{ctx.pick(options.split('|'))}"


def markdown_fields(text: str, move: "Move", conv: "Conversation",
                    ctx: QuirkContext) -> str | None:
    """Decorate field names with markdown: `**Thought:**`."""
    style = ctx.pick(("**{name}{colon}**", "**{name}**{colon}"))
    new = FIELD_RE.sub(lambda m: style.format(name=m["name"], colon=m["colon"]), text)
    return new if new != text else None


def lowercase_fields(text: str, move: "Move", conv: "Conversation",
                     ctx: QuirkContext) -> str | None:
    """Write field names in lower case: `thought:`, `action input:`."""
    new = FIELD_RE.sub(lambda m: m["name"].lower() + m["colon"], text)
    return new if new != text else None


def fullwidth_json(source: str) -> str:
    """Rewrite JSON with full-width punctuation: curly quotes, `：`, `，` and `（）` in values."""
    out: list[str] = []
    in_string = escaped = False
    for ch in source:
        if in_string:
            if escaped or ch == "\\":
                escaped = not escaped and ch == "\\"
                out.append(ch)
            elif ch == '"':
                in_string = False
                out.append("”")
            else:
                out.append({"(": "（", ")": "）"}.get(ch, ch))
        elif ch == '"':
            in_string = True
            out.append("“")
        elif ch == " " and out and out[-1] in "：，":
            continue
        else:
            out.append({":": "：", ",": "，"}.get(ch, ch))
    return "".join(out)


def fullwidth_punctuation(text: str, move: "Move", conv: "Conversation",
                          ctx: QuirkContext) -> str | None:
    """Use full-width punctuation: `Thought：`, and JSON like {“city”：“Beijing”}."""
    new = re.sub(FIELD_RE.pattern + r"[ \t]*", lambda m: m["name"] + "：", text, flags=re.I | re.M)
    new = edit_input(new, fullwidth_json) or new
    return new if new != text else None


def _single_quotes(source: str) -> str | None:
    """JSON with single quotes."""
    return source.replace('"', "'") if '"' in source else None


def _trailing_comma(source: str) -> str | None:
    """JSON with a comma before the closing brace."""
    return source[:-1].rstrip() + ",}" if source.endswith("}") and source != "{}" else None


def _unclosed_brace(source: str) -> str | None:
    """JSON without its closing brace."""
    return source[:-1] if source.endswith("}") and source != "{}" else None


def json_single_quotes(text: str, move: "Move", conv: "Conversation",
                       ctx: QuirkContext) -> str | None:
    """Action Input written with single quotes: {'city': 'Beijing'}."""
    return edit_input(text, _single_quotes)


def json_trailing_comma(text: str, move: "Move", conv: "Conversation",
                        ctx: QuirkContext) -> str | None:
    """Action Input with a trailing comma: {"city": "Beijing",}."""
    return edit_input(text, _trailing_comma)


def json_unclosed_brace(text: str, move: "Move", conv: "Conversation",
                        ctx: QuirkContext) -> str | None:
    """Action Input without the closing brace: {"city": "Beijing"."""
    return edit_input(text, _unclosed_brace)


def json_trailing_prose(text: str, move: "Move", conv: "Conversation",
                        ctx: QuirkContext) -> str | None:
    """Prose after the JSON on the Action Input line: {"city": "Beijing"} I will wait."""
    tail = say(conv, " I will wait for the result.", " 然后等待结果。")
    return edit_input(text, lambda source: source + tail)


def json_single_quotes_args(out: Output, move: "Move", conv: "Conversation",
                            ctx: QuirkContext) -> Output | None:
    """Tool-call arguments with single quotes."""
    return edit_arguments(out, _single_quotes)


def json_trailing_comma_args(out: Output, move: "Move", conv: "Conversation",
                             ctx: QuirkContext) -> Output | None:
    """Tool-call arguments with a trailing comma."""
    return edit_arguments(out, _trailing_comma)


def json_unclosed_brace_args(out: Output, move: "Move", conv: "Conversation",
                             ctx: QuirkContext) -> Output | None:
    """Tool-call arguments without the closing brace."""
    return edit_arguments(out, _unclosed_brace)


def chinese_final_marker(text: str, move: "Move", conv: "Conversation",
                         ctx: QuirkContext) -> str | None:
    """Write the final marker in Chinese: `最终答案：`."""
    new = re.sub(r"^Final Answer\s*[:：]\s*", "最终答案：", text, flags=re.I | re.M)
    return new if new != text else None
