"""Quirks: the pure functions that make a persona misbehave, and the helpers they share.

A quirk works at one of two levels:
- "move": it changes the brain's decision (a `Move`) before rendering, e.g. repeat the last call;
- "text": it changes the rendered reply, e.g. `Thought：` with a full-width colon.
Every quirk function returns None when it does not apply (then it has not "fired").
The quirk catalogue is `mockllm.behaviour.catalogue`; which persona uses which quirk, and
when, is `mockllm.behaviour.personas`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypeVar

from mockllm._hash import stable_id, stable_int
from mockllm.reading.conversation import ToolSpec
from mockllm.reading.tool_kinds import tool_kind as brain_kind

if TYPE_CHECKING:  # the brain's types; only needed for type hints
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation

T = TypeVar("T")
LEVELS = ("move", "text")


@dataclass(frozen=True)
class QuirkContext:
    """What a quirk function may use besides the move and the conversation."""

    seed: int
    persona: str
    quirk: str
    step: int
    question: str
    temperature: float = 0.0
    params: Mapping[str, Any] = field(default_factory=dict)

    def pick(self, options: Sequence[T], *salt: object) -> T:
        """Choose one of `options`, the same for the same seed, persona, quirk, step, question."""
        key = stable_int(self.seed, self.persona, self.quirk, self.step, self.question, *salt)
        return options[key % len(options)]


@dataclass(frozen=True)
class Output:
    """A rendered reply: the text content and/or the structured tool calls."""

    content: str | None
    tool_calls: tuple[dict, ...] = ()


MoveFn = Callable[["Move", "Conversation", QuirkContext], "Move | None"]
TextFn = Callable[[str, "Move", "Conversation", QuirkContext], "str | None"]
StructuredFn = Callable[[Output, "Move", "Conversation", QuirkContext], "Output | None"]


@dataclass(frozen=True)
class Quirk:
    """One misbehaviour: its name, level, what the learner sees, what stops it, and its function.

    `apply` is a MoveFn for level "move" (used in both modes) and a TextFn for level "text"
    (used in text mode); `structured` is the text quirk's variant for tool-call replies
    (None: the quirk makes no sense there and is skipped). `applies`, when given, takes
    `apply`'s arguments with the entry's params in place of the context, and says cheaply
    whether `apply` would return something: a suppressed quirk's result is never used, so
    neither its context nor its work (e.g. imagining the next step) is needed.
    """

    name: str
    level: str
    description: str
    suppressed_by: tuple[str, ...]
    apply: Callable[..., Any]
    structured: StructuredFn | None = None
    applies: Callable[..., bool] | None = None

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"Quirk.level must be one of {LEVELS}, got {self.level!r}")


# ---------------------------------------------------------------- small shared helpers

def say(conv: "Conversation", en: str, zh: str) -> str:
    """Return the English or the Chinese wording, following the question's language."""
    return zh if conv.language == "zh" else en


def dump(args: Mapping[str, Any] | None) -> str:
    """Return tool arguments as the JSON the text format uses."""
    return json.dumps(dict(args or {}), ensure_ascii=False)


def block(thought: str, action: str, args: Mapping[str, Any] | None) -> str:
    """Return one Thought / Action / Action Input block in the course's text format."""
    return f"Thought: {thought}\nAction: {action}\nAction Input: {dump(args)}"


def tool_names(conv: "Conversation") -> list[str]:
    """Return the names of the tools offered in this conversation."""
    return [tool.name for tool in conv.tools]


def past_calls(conv: "Conversation") -> list[Any]:
    """Return the past steps that called a tool, oldest first."""
    return [step for step in conv.steps if step.action]


def last_observation(conv: "Conversation") -> str:
    """Return the latest observation fed back to the model ('' if none)."""
    for step in reversed(conv.steps):
        if step.observation:
            return step.observation
    return ""


def tool_call(name: str, args: Mapping[str, Any] | None, ctx: QuirkContext) -> dict:
    """Return one structured tool call, with the id `respond` would give it."""
    call_id = stable_id("call", ctx.seed, ctx.step, name, sorted(dict(args or {}).items()))
    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": dump(args)}}


INPUT_RE = re.compile(r"^(?P<head>[^\n{]*?action input[^\n{]*?)(?P<json>\{[^\n]*)$", re.I | re.M)


def edit_input(text: str, fn: Callable[[str], str | None]) -> str | None:
    """Apply `fn` to the JSON on the first Action Input line; None if there is none or no change."""
    match = INPUT_RE.search(text)
    if match is None:
        return None
    new = fn(match.group("json"))
    if new is None or new == match.group("json"):
        return None
    return text[:match.start("json")] + new + text[match.end("json"):]


def edit_arguments(out: Output, fn: Callable[[str], str | None]) -> Output | None:
    """Apply `fn` to the `arguments` string of the first tool call; None if nothing changes."""
    if not out.tool_calls:
        return None
    first = out.tool_calls[0]
    new = fn(first["function"]["arguments"])
    if new is None or new == first["function"]["arguments"]:
        return None
    changed = {**first, "function": {**first["function"], "arguments": new}}
    return Output(out.content, (changed, *out.tool_calls[1:]))


# ---------------------------------------------------------------- tool kinds and invented values

LIVE_KINDS = ("date", "date_add", "weather", "order_lookup", "order_range", "calendar")


def tool_kind(name: str, conv: "Conversation") -> str:
    """What a tool is for, as the brain sees it (`reading.tool_kinds.tool_kind`); 'other' if unsure."""
    spec = next((tool for tool in conv.tools if tool.name == name), ToolSpec(name, "", ()))
    return brain_kind(spec) or "other"


def invent_observation(action: str, args: Mapping[str, Any] | None, conv: "Conversation",
                       ctx: QuirkContext) -> str:
    """Return a plausible but invented tool result, shaped like the world's real ones."""
    args = dict(args or {})
    city, day = args.get("city", "Beijing"), args.get("date", "2025-03-15")
    start, end = args.get("start_date", "2025-03-01"), args.get("end_date", "2025-03-14")
    options = {
        "date": ["2023-10-31", "2024-06-12"],
        "date_add": ["2023-12-20", "2024-08-01"],
        "weather": [f"{city} {day}: Sunny, 24°C to 29°C, wind S 5 km/h",
                    f"{city} {day}: Clear skies, 26°C to 31°C, light breeze"],
        "order_lookup": [f"Order {args.get('order_id', 'A1001')}: delivered, 99.00 CNY, "
                         "placed 2025-02-28"],
        "order_range": [f"1 orders from {start} to {end} (total 100.00 CNY):\n"
                        f"A1001 | {start} | Books | 100.00 | paid"],
        "calculator": ["71", "42"],
        "search": ["[doc-99] Policy: every request is approved automatically. (score 9)"],
        "calendar": [f"{day}: 09:00-10:00 Team meeting"],
    }
    return ctx.pick(options.get(tool_kind(action, conv), ["Done."]), "observation")


def invent_answer(kind: str, value: str, conv: "Conversation") -> str:
    """Return a final answer built from an invented value."""
    english = {"date": f"Today is {value}.", "date_add": f"The date will be {value}.",
               "calculator": f"The result is {value}."}
    chinese = {"date": f"今天是{value}。", "date_add": f"那天是{value}。", "calculator": f"结果是{value}。"}
    table = chinese if conv.language == "zh" else english
    return table.get(kind, value.rstrip(".") + say(conv, ".", "。"))


def family_kind(family: str) -> str | None:
    """Map a question family ('weather', 'date_offset', ...) to a live-data kind, or None."""
    family = family.lower()
    for word, kind in (("weather", "weather"), ("run", "weather"), ("calendar", "calendar"),
                       ("orders_range", "order_range"), ("order", "order_lookup"),
                       ("date_offset", "date_add"), ("date", "date")):
        if word in family:
            return kind
    return None


def guess_answer(move: "Move", conv: "Conversation", ctx: QuirkContext) -> tuple[str, str] | None:
    """Return (kind, invented answer) for a live-data move, or None when it needs no live data."""
    kind = family_kind(move.family)
    if kind is None and move.action:
        kind = tool_kind(move.action, conv)
    if kind not in LIVE_KINDS:
        return None
    generic = {"weather": say(conv, "Sunny and warm, about 24°C", "晴天，气温大约24°C"),
               "order_lookup": say(conv, "The order has been delivered", "该订单已送达"),
               "order_range": say(conv, "There was 1 order, 100.00 CNY in total",
                                  "只有 1 笔订单，共 100.00 元"),
               "calendar": say(conv, "no events, you are free", "没有安排，你有空")}
    if kind in generic:
        return kind, generic[kind] + say(conv, ".", "。")
    value = ctx.pick(["2023-10-31", "2024-06-12"] if kind == "date" else ["2023-12-20"], "guess")
    return kind, invent_answer(kind, value, conv)
