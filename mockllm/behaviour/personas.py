"""Personas are data: a table of quirks, each with a trigger and the rules that suppress it.

`QUIRKS` says what each misbehaviour does and what stops it by default; `PERSONAS` says which
persona has which quirk and when it fires. The rulebook (lesson 00) is generated from these two
tables, so it can never disagree with what the mock model does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from mockllm.behaviour import quirks_move as mv
from mockllm.behaviour import quirks_text as tx
from mockllm.behaviour import tiny
from mockllm.behaviour.quirks import Quirk
from mockllm.behaviour.triggers import (AfterSteps, AfterToolCall, Always, AnyOf, AtStep,
                                        ChineseQuestion, Otherwise, FirstToolCall, ForcedSteps,
                                        ObservationHasInstruction, OneIn, Rotating, RuleMissing,
                                        Trigger)

if TYPE_CHECKING:
    from mockllm.reading.conversation import Conversation

RULES = ("format", "one_action", "no_observation", "final_not_tool", "stop_when_enough",
         "live_data", "example")
CORRECTIONS = ("format", "repeat", "unknown_tool")
_FMT = ("correction:format",)


def _quirks(*items: Quirk) -> dict[str, Quirk]:
    """Index quirks by name."""
    return {item.name: item for item in items}


QUIRKS: dict[str, Quirk] = _quirks(
    Quirk("prose_only", "text", "Plain prose with no Thought/Action/Final Answer fields.",
          ("format", "correction:format"), tx.prose_only, tx.prose_only_structured,
          tx.prose_only_applies),
    Quirk("fake_observation", "text", "Keeps writing after its Action: an invented "
          "`Observation:` line, then `Thought: I now know the final answer` and a `Final Answer:` "
          "built from the invented value.", (),
          tx.fake_observation, applies=tx.fake_observation_applies),
    Quirk("multi_action", "text", "A second Thought/Action/Action Input block after the first: "
          "the step it would take next, based on a result it imagined.", ("one_action",),
          tx.multi_action, applies=tx.multi_action_applies),
    Quirk("extra_call", "move", "When it could answer, it first repeats its last tool call once "
          "'to double-check' (once per run).", ("stop_when_enough",), mv.extra_call,
          applies=mv.extra_call_applies),
    Quirk("chatter_before", "text", "A friendly sentence before the fields "
          "('Sure! Let me work through this.').", _FMT, tx.chatter_before),
    Quirk("chatter_after", "text", "A sentence after the fields ('I will wait for the result.').",
          _FMT, tx.chatter_after),
    Quirk("markdown_fields", "text", "Field names in markdown: `**Thought:**`.", _FMT,
          tx.markdown_fields),
    Quirk("lowercase_fields", "text", "Field names in lower case: `thought:`, `action input:`.",
          _FMT, tx.lowercase_fields),
    Quirk("fullwidth_punctuation", "text", "Full-width punctuation: `Thought：` and "
          "`Action Input：{“city”：“Beijing”，“date”：“2025-03-15”}`.", _FMT,
          tx.fullwidth_punctuation),
    Quirk("json_single_quotes", "text", "Action Input with single quotes: {'city': 'Beijing'}.",
          _FMT, tx.json_single_quotes, tx.json_single_quotes_args),
    Quirk("json_trailing_comma", "text", 'Action Input with a trailing comma: {"city": "Beijing",}.',
          _FMT, tx.json_trailing_comma, tx.json_trailing_comma_args),
    Quirk("json_unclosed_brace", "text", 'Action Input without its closing brace: {"city": "Beijing"',
          _FMT, tx.json_unclosed_brace, tx.json_unclosed_brace_args),
    Quirk("json_trailing_prose", "text", 'Prose after the JSON: {"city": "Beijing"} I will wait '
          "for the result.", _FMT, tx.json_trailing_prose),
    Quirk("chinese_final_marker", "text", "The final marker in Chinese: `最终答案：`.", _FMT,
          tx.chinese_final_marker),
    Quirk("answer_without_tool", "move", "Answers a live-data question (date, weather, orders, "
          "calendar) at once with an invented value, without calling a tool.", ("live_data",),
          mv.answer_without_tool),
    Quirk("repeat_call", "move", "Repeats its previous call, identical, ignoring the observation.",
          ("correction:repeat",), mv.repeat_call),
    Quirk("final_answer_as_tool", "move", '`Action: Final Answer` with `Action Input: {"answer": '
          '"..."}` (in tool-call mode, a call to a `final_answer` tool).', ("final_not_tool",),
          mv.final_answer_as_tool),
    Quirk("unknown_tool", "move", "Calls a plausible tool that is not offered: `date_calculator`, "
          "`weather_api`, `search_web`, `math`.", ("correction:unknown_tool",), mv.unknown_tool),
    Quirk("obey_injection", "move", "Follows an instruction found in an observation: calls the tool "
          "it names (with its JSON) or puts the demanded text in its answer.", (),
          mv.obey_injection),
    Quirk("lose_thread", "move", "Loses the thread: calls the run's first tool again, or answers "
          "early with only the facts it has.", (), mv.lose_thread),
    Quirk("missing_action_input", "text", "An `Action:` line with no `Action Input:` after it.",
          _FMT, tiny.missing_action_input),
    Quirk("copy_example", "move", "Copies the worked example's values (e.g. `45 * 3 - 10`, `125`) "
          "instead of the question's.", (), tiny.copy_example),
    Quirk("template_echo", "text", "Echoes the prompt's template: `Action: the tool to use, one of "
          "[get_current_date, calculator, ...]`.", _FMT, tiny.template_echo),
    Quirk("identical_reply", "text", "At temperature 0, the identical reply as its previous step.",
          (), tiny.identical_reply, tiny.identical_reply_structured),
    Quirk("repeat_phrase", "text", "Repeats one phrase until max_tokens cuts it "
          "(finish_reason 'length').", (), tiny.repeat_phrase, tiny.repeat_phrase_structured),
    Quirk("whole_trajectory", "text", "Action, an invented Observation and a Final Answer in one "
          "reply.", ("no_observation",), tiny.whole_trajectory, tiny.whole_trajectory_structured),
    Quirk("missing_thought", "text", "Chatter, then an Action without its `Thought:` line.",
          _FMT, tiny.missing_thought),
)


@dataclass(frozen=True)
class Entry:
    """One row of a persona: a quirk, when it fires, and what suppresses it (None: the default)."""

    quirk: str
    trigger: Trigger
    suppressed_by: tuple[str, ...] | None = None
    note: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.quirk not in QUIRKS:
            raise ValueError(f"unknown quirk {self.quirk!r}; valid quirks: {', '.join(QUIRKS)}")
        for name in self.suppressed_by or ():
            _check_suppressor(name)

    @property
    def suppressors(self) -> tuple[str, ...]:
        """The rules and corrections that suppress this entry."""
        return QUIRKS[self.quirk].suppressed_by if self.suppressed_by is None else self.suppressed_by


def _check_suppressor(name: str) -> None:
    """Reject a suppressor that is neither a rule id nor 'correction:<kind>'."""
    kind = name.removeprefix("correction:")
    if (kind == name and name not in RULES) or (kind != name and kind not in CORRECTIONS):
        raise ValueError(f"unknown suppressor {name!r}; use a rule id {RULES} or "
                         f"'correction:<kind>' with a kind in {CORRECTIONS}")


for _quirk in QUIRKS.values():
    for _name in _quirk.suppressed_by:
        _check_suppressor(_name)


@dataclass(frozen=True)
class Persona:
    """A named behaviour: a description, whether it guesses without a tool, and its entries."""

    name: str
    description: str
    guesses: bool
    entries: tuple[Entry, ...]


def _json(slot: int) -> Rotating:
    """Sloppy breaks the JSON on one reply in two, one way at a time."""
    return Rotating("json", (slot,), 8)


def _tiny(*slots: int) -> Rotating:
    """Tiny shows one pattern per reply, chosen by seed."""
    return Rotating("tiny", tuple(slots), 12)


_NO_STOP = "Only stop=['Observation:'] or cutting the reply at 'Observation:' removes it."
_TINY = {"style": "tiny"}
PERSONAS: dict[str, Persona] = {p.name: p for p in (
    Persona("diligent", "Well-behaved when the prompt is complete; each missing rule shows.", False, (
        Entry("prose_only", RuleMissing("format"), note="A format correction fixes it too."),
        Entry("fake_observation", RuleMissing("no_observation"), ("no_observation",)),
        Entry("multi_action", RuleMissing("one_action")),
        Entry("extra_call", RuleMissing("stop_when_enough")))),
    Persona("sloppy", "Right decisions, drifting format: chatter, markdown, full-width "
            "punctuation, broken JSON.", True, (
        Entry("fullwidth_punctuation", AnyOf((ChineseQuestion(), OneIn(3)))),
        Entry("json_single_quotes", _json(0)), Entry("json_trailing_comma", _json(1)),
        Entry("json_unclosed_brace", _json(2)), Entry("json_trailing_prose", _json(3)),
        Entry("chinese_final_marker", ChineseQuestion()),
        Entry("lowercase_fields", OneIn(3)), Entry("markdown_fields", OneIn(3)),
        Entry("chatter_before", OneIn(2)), Entry("chatter_after", OneIn(3)))),
    Persona("hallucinator", "Invents what it does not know: observations and live data.", True, (
        Entry("answer_without_tool", AtStep(1)),
        Entry("fake_observation", Always(), (), note=_NO_STOP))),
    Persona("looper", "Ignores observations and repeats its call until told.", False, (
        Entry("repeat_call", AfterToolCall()),)),
    Persona("literal", "Takes names literally: Final Answer as a tool, tool names it expects.",
            False, (
        Entry("final_answer_as_tool", Always()),
        Entry("unknown_tool", FirstToolCall(),
              note="An observation that lists the available tools cures it."))),
    Persona("gullible", "Obeys instructions hidden in observations.", False, (
        Entry("obey_injection", ObservationHasInstruction(),
              note="No prompt rule helps: the defence belongs in your code."),)),
    Persona("forgetful", "Fine on short tasks, loses the thread on long ones.", False, (
        Entry("lose_thread", AfterSteps(8), note="The cure is shorter stages."),)),
    Persona("tiny", "Like a real 135M-parameter model: rarely follows the format.", True, (
        Entry("prose_only", _tiny(0, 1, 2), (), "Often answers from its own knowledge.", _TINY),
        Entry("identical_reply", _tiny(3, 4), ()), Entry("missing_action_input", _tiny(5, 6), ()),
        Entry("copy_example", _tiny(7), (), "Only when the prompt has a worked example."),
        Entry("template_echo", _tiny(8), ()), Entry("repeat_phrase", _tiny(9), ()),
        Entry("whole_trajectory", _tiny(10), ()), Entry("missing_thought", _tiny(11), ()),
        Entry("prose_only", Otherwise(), (), "A small model is almost never clean.", _TINY))),
)}


def get_persona(name: str | None) -> Persona | None:
    """Return the persona called `name` (None for no persona); ValueError names the valid ones."""
    if name is None:
        return None
    if not isinstance(name, str) or name not in PERSONAS:
        raise ValueError(f"unknown persona {name!r}; valid personas: {', '.join(PERSONAS)}")
    return PERSONAS[name]


def forced_entries(quirks: Mapping[str, Sequence[int]] | None) -> tuple[Entry, ...]:
    """Entries for `quirks={"fake_observation": [1, 3]}`: each quirk alone, at those steps."""
    if quirks is None:
        return ()
    if not isinstance(quirks, Mapping):
        raise TypeError("quirks must be a mapping like {'fake_observation': [1, 3]}, "
                        f"got {type(quirks).__name__}")
    entries = []
    for name, steps in quirks.items():
        if name not in QUIRKS:
            raise ValueError(f"unknown quirk {name!r}; valid quirks: {', '.join(QUIRKS)}")
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence):
            raise TypeError(f"quirks[{name!r}] must be a list of steps (ints from 1), got {steps!r}")
        entries.append(Entry(name, ForcedSteps(tuple(steps))))
    return tuple(entries)


def active_entries(persona: Persona | None,
                   quirks: Mapping[str, Sequence[int]] | None = None) -> tuple[Entry, ...]:
    """The persona's entries (minus any quirk that is forced) followed by the forced ones."""
    forced = forced_entries(quirks)
    names = {entry.quirk for entry in forced}
    own = persona.entries if persona is not None else ()
    return tuple(entry for entry in own if entry.quirk not in names) + forced


def suppressor_present(suppressors: Sequence[str], conv: "Conversation") -> str | None:
    """The first suppressor found: a rule in the prompt, or a correction seen in this run."""
    for name in suppressors:
        kind = name.removeprefix("correction:")
        if (kind != name and kind in conv.corrections) or (kind == name and name in conv.rules):
            return name
    return None


def entry_state(entry: Entry, conv: "Conversation", seed: int,
                persona: str | None) -> tuple[str, str | None]:
    """('fires', None), ('suppressed', by) or ('off', None) for this entry on this reply."""
    if not entry.trigger.fires(conv, seed, persona or "", entry.quirk):
        blocked = entry.trigger.blocked_by(conv)
        return ("suppressed", blocked) if blocked else ("off", None)
    by = suppressor_present(entry.suppressors, conv)
    return ("suppressed", by) if by else ("fires", None)


def personas() -> dict[str, str]:
    """Persona name -> a one-line description naming its quirks."""
    return {name: f"{p.description} Quirks: {', '.join(e.quirk for e in p.entries)}."
            for name, p in PERSONAS.items()}


class Rulebook(list):
    """The rulebook rows (a list of dicts) that display as a table in a notebook."""

    def _repr_markdown_(self) -> str:
        return _markdown(self)

    def _repr_html_(self) -> str:
        from html import escape
        head = "".join(f"<th>{escape(c)}</th>" for c in COLUMNS)
        body = "".join("<tr>" + "".join(f"<td>{escape(row[c])}</td>" for c in COLUMNS) + "</tr>"
                       for row in self)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


COLUMNS = ("persona", "quirk", "trigger", "suppressed_by", "what_you_see")


def rulebook() -> Rulebook:
    """One row per persona entry: {persona, quirk, trigger, suppressed_by, what_you_see}."""
    rows = Rulebook()
    for name, persona in PERSONAS.items():
        for entry in persona.entries:
            quirk = QUIRKS[entry.quirk]
            rows.append({"persona": name, "quirk": entry.quirk,
                         "trigger": entry.trigger.describe(),
                         "suppressed_by": ", ".join(entry.suppressors) or "nothing",
                         "what_you_see": f"{quirk.description} {entry.note}".strip()})
    return rows


def _markdown(rows: Sequence[Mapping[str, str]]) -> str:
    """Rows as a Markdown table."""
    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(row[c]) for c in COLUMNS) + " |" for row in rows]
    return "\n".join(lines)


def rulebook_markdown() -> str:
    """The rulebook as a Markdown table (for the README and lesson 00)."""
    return _markdown(rulebook())
