"""respond(): decide the next move, let the persona's quirks act on it, render it, explain it.

    move = decide(conv)  ->  move quirks  ->  render (text or tool_calls)  ->  text quirks

A plain chat request (`mockllm.reply.plain`: no tool, no ReAct format) is answered in prose: its
move goes to no move quirk (they act on tool calls), and it is rendered as tool-call mode renders
an answer, the content alone, with the text quirks' tool-call variants.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Mapping, Sequence

from mockllm._hash import stable_id
from mockllm.behaviour.personas import QUIRKS, Entry, active_entries, entry_state, get_persona
from mockllm.brain.context import Move
from mockllm.brain.policy import decide
from mockllm.behaviour.quirks import Output, QuirkContext
from mockllm.reading.conversation import Conversation
from mockllm.reading.history import built
from mockllm.reading.recent import Recent
from mockllm.reply.dspy_render import render_dspy
from mockllm.reply.plain import latest_question, plain_chat, plain_move
from mockllm.reply.render import render_text, render_tool_calls
from mockllm.behaviour.triggers import Always, Otherwise


@dataclass(frozen=True)
class Reply:
    """What the model says: text content and/or tool calls, and why (`explanation` -> x_mock)."""

    content: str | None
    tool_calls: tuple[dict, ...]
    explanation: dict


class _Run:
    """The quirks of one reply: applies the entries in order and records what fired or not."""

    def __init__(self, conv: Conversation, seed: int, persona: str | None,
                 temperature: float, plain: bool = False) -> None:
        self.conv, self.seed, self.persona, self.temperature = conv, seed, persona, temperature
        self.plain = plain  # a plain chat: no tool is offered, so no variant may call one
        self.fired: list[str] = []
        self.suppressed: list[dict] = []

    def _context(self, entry: Entry) -> QuirkContext:
        """The context a quirk function receives."""
        return QuirkContext(seed=self.seed, persona=self.persona or "", quirk=entry.quirk,
                            step=self.conv.step, question=self.conv.question,
                            temperature=self.temperature, params=entry.params)

    def _try(self, entry: Entry, apply: Callable, applies: Callable | None, *args: object) -> object | None:
        """Run `apply(*args, context)` for one entry if its trigger fires; record it; return the
        new value.

        A suppressed entry only needs to know whether it would have changed anything: its
        `applies(*args, params)` test answers that when it has one, without running `apply`.
        """
        state, by = entry_state(entry, self.conv, self.seed, self.persona)
        if state == "off":
            return None
        if state == "suppressed" and applies is not None:
            result = applies(*args, entry.params) or None
        else:
            result = apply(*args, self._context(entry))
        if result is None:
            return None
        if state == "suppressed":
            self.suppressed.append({"quirk": entry.quirk, "by": by})
            return None
        self.fired.append(entry.quirk)
        return result

    def moves(self, move: Move, entries: Sequence[Entry]) -> Move:
        """Apply the move-level quirks in order."""
        for entry in entries:
            quirk = QUIRKS[entry.quirk]
            move = self._try(entry, quirk.apply, quirk.applies, move, self.conv) or move
        return move

    def texts(self, out: Output, move: Move, entries: Sequence[Entry], structured: bool) -> Output:
        """Apply the text-level quirks in order (their structured variants when `structured`:
        in tool-call mode and in plain chat, where the content is the answer alone)."""
        for entry in entries:
            quirk = QUIRKS[entry.quirk]
            if structured:
                if quirk.structured is not None:
                    apply = _no_call(quirk.structured) if self.plain else quirk.structured
                    out = self._try(entry, apply, None, out, move, self.conv) or out
                continue
            text = self._try(entry, quirk.apply, quirk.applies, out.content or "", move, self.conv)
            if text is not None:
                out = built(Output, content=text, tool_calls=out.tool_calls)
        return out


@lru_cache(maxsize=64)
def _no_call(variant: Callable) -> Callable:
    """A quirk's tool-call variant that does not apply where it would write a tool call."""
    def apply(out: Output, move: Move, conv: Conversation, context: QuirkContext) -> Output | None:
        result = variant(out, move, conv, context)
        return None if result is None or result.tool_calls else result
    return apply


def call_id(seed: int, step: int, move: Move) -> str:
    """The id of a structured tool call: stable for the same seed, step, tool and arguments."""
    return stable_id("call", seed, step, move.action, sorted(dict(move.action_input or {}).items()))


def _final_tool(move: Move, conv: Conversation) -> Move:
    """A final answer as a call to the offered `final_answer` tool (smolagents' way to answer)."""
    tool = next((t for t in conv.tools if t.name.lower().replace("-", "_") == "final_answer"), None)
    if tool is None or move.action is not None:
        return move
    key = tool.parameters[0] if tool.parameters else "answer"
    return replace(move, action=tool.name, action_input={key: move.final_answer or ""})


def render(move: Move, conv: Conversation, seed: int, plain: bool = False) -> Output:
    """Render a move as ReAct text (text mode), as tool calls / plain content (structured), or as
    the answer alone (`plain` chat, where no tool is offered and so the move is an answer)."""
    if conv.dspy is not None:  # a DSPy adapter's prompt: its fields, in its layout
        return Output(render_dspy(move, conv.dspy, conv.question), ())
    if plain and move.action is None:
        return Output(move.final_answer or "", ())
    if conv.mode == "structured":
        move = _final_tool(move, conv)
    if conv.mode != "structured" or move.action is None:
        return built(Output, content=render_text(move, conv), tool_calls=())
    return Output(None, tuple(render_tool_calls(move, call_id(seed, conv.step, move))))


def _completed(content: str | None, opening: str) -> str | None:
    """The reply without the opening the prompt already holds ('Thought:'): its continuation."""
    if not opening or not content:
        return content
    for prefix in (opening, opening.rstrip()):
        if content.startswith(prefix):
            return content[len(prefix):]
    return content


_LEVELS = Recent(64)
"""A persona's entries split by level, by its (constant) entry table."""


def _split(entries: tuple[Entry, ...]) -> tuple[tuple[Entry, ...], ...]:
    """The entries split by level: (move quirks, text quirks, the fallback run as always)."""
    return (tuple(e for e in entries if QUIRKS[e.quirk].level == "move"),
            tuple(e for e in entries if QUIRKS[e.quirk].level == "text"),
            tuple(replace(e, trigger=Always()) for e in entries if isinstance(e.trigger, Otherwise)))


def _levels(entries: tuple[Entry, ...], constant: bool) -> tuple[tuple[Entry, ...], ...]:
    """`_split(entries)`, kept for a persona's own table (`constant`), which never changes."""
    return _LEVELS.of(entries, _split) if constant else _split(entries)


def respond(conv: Conversation, *, persona: str | None, seed: int = 0,
            quirks: Mapping[str, Sequence[int]] | None = None,
            temperature: float | None = 0.0) -> Reply:
    """The mock model's reply to `conv` as `persona` (None: only the forced `quirks`)."""
    spec = get_persona(persona)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {seed!r}")
    constant = spec is not None and quirks is None
    entries = spec.entries if constant else active_entries(spec, quirks)
    guesses = spec.guesses if spec else False
    plain = plain_chat(conv)
    if plain:  # a chat model answers the latest user message
        conv = latest_question(conv)
    brain = plain_move(conv, guesses) if plain else decide(conv, guesses=guesses)
    run = _Run(conv, seed, persona, float(temperature or 0.0), plain)
    moves, texts, fallback = _levels(entries, constant)
    structured = plain or conv.mode == "structured"
    move = brain if plain else run.moves(brain, moves)
    out = run.texts(render(move, conv, seed, plain), move, texts, structured)
    if fallback and not run.fired:  # nothing else changed this reply: the persona's fallback
        out = run.texts(out, move, fallback, structured)
    out = built(Output, content=_completed(out.content, conv.opening), tool_calls=out.tool_calls)
    explanation = {"source": "policy", "persona": persona, "seed": seed, "step": conv.step,
                   "family": brain.family, "rule": brain.rule,
                   "quirks_fired": run.fired, "quirks_suppressed": run.suppressed}
    if conv.dspy is not None:
        explanation["prompt_format"] = f"dspy-{conv.dspy.adapter}"
    elif plain:
        explanation["prompt_format"] = "plain"  # no tool, no format asked: a chat model's prose
    return built(Reply, content=out.content, tool_calls=tuple(out.tool_calls), explanation=explanation)
