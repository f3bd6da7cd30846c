"""Personas are data: a table of quirks, each with a trigger and the rules that suppress it.

`QUIRKS` (in `mockllm.behaviour.catalogue`, re-exported here) says what each misbehaviour does
and what stops it by default; `PERSONAS` says which persona has which quirk and when it fires.
The rulebook (lesson 00) is generated from these two tables, so it can never disagree with what
the mock model does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from mockllm.behaviour.catalogue import CORRECTIONS, QUIRKS, RULES, check_suppressor  # noqa: F401
from mockllm.behaviour.injection import RULE as INJECTION_RULE
from mockllm.behaviour.triggers import (AfterSteps, AfterToolCall, Always, AnyOf, AtStep,
                                        ChineseQuestion, Otherwise, FirstToolCall, ForcedSteps,
                                        ObservationHasInstruction,
                                        OneIn, Rotating, RuleMissing, Trigger)

from mockllm.behaviour.tiny_forced import ToolCallsForced
from mockllm.behaviour.tiny_told import AfterCorrection

if TYPE_CHECKING:
    from mockllm.reading.conversation import Conversation


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
            check_suppressor(name)

    @property
    def suppressors(self) -> tuple[str, ...]:
        """The rules and corrections that suppress this entry."""
        return QUIRKS[self.quirk].suppressed_by if self.suppressed_by is None else self.suppressed_by


@dataclass(frozen=True)
class Persona:
    """A named behaviour: a description, whether it guesses without a tool, and its entries."""

    name: str
    description: str
    guesses: bool
    entries: tuple[Entry, ...]


def _group(name: str, size: int) -> Callable[..., Rotating]:
    """A maker of the triggers of one rotating group: one pattern of the group per reply."""
    return lambda *slots: Rotating(name, slots, size)


_json = _group("json", 8)            # sloppy breaks the JSON on one reply in two, one way at a time
_wrap = _group("wrap", 10)           # sloppy fences its JSON, or puts it in inline code
_tiny = _group("tiny", 12)           # tiny shows one of its usual patterns per reply
_rare = _group("tiny_rare", 36)      # tiny's rarer patterns, on top of (and replacing) the usual
_told = lambda *slots: AfterCorrection("tiny_told", slots, 10)  # noqa: E731  tiny, once told
_jsonic = _group("jsonic", 8)        # jsonic: a blob, a call, or pretty JSON (or Action: None)
_tool_mode = _group("tool_mode", 6)  # jsonic's tool-call failures


_NO_STOP = "Only stop=['Observation:'] or cutting the reply at 'Observation:' removes it."
_BARE = "Only for a tool of at most one argument, which can take the bare value."
_TOLD_NOTE = "Once told its reply did not work, it writes the fields for the rest of the run."
_TINY = {"style": "tiny"}
_ON_TOP = "On top of (and replacing) its usual pattern. Never at the API's default temperature, 1."
PERSONAS: dict[str, Persona] = {p.name: p for p in (
    Persona("diligent", "Well-behaved when the prompt is complete; each missing rule shows.", False, (
        Entry("prose_only", RuleMissing("format"), note="A format correction fixes it too."),
        Entry("fake_observation", RuleMissing("no_observation"), ("no_observation",)),
        Entry("multi_action", RuleMissing("one_action")),
        Entry("extra_call", RuleMissing("stop_when_enough")))),
    Persona("sloppy", "Right decisions, drifting format: chatter, markdown, full-width "
            "punctuation, broken JSON, loose layout.", True, (
        Entry("fullwidth_punctuation", AnyOf((ChineseQuestion(), OneIn(3)))),
        Entry("input_not_json", OneIn(12), note=_BARE, params={"single": True}),
        Entry("json_single_quotes", _json(0)), Entry("json_trailing_comma", _json(1)),
        Entry("json_unclosed_brace", _json(2)), Entry("json_trailing_prose", _json(3)),
        Entry("input_fenced", _wrap(0)), Entry("input_inline_code", _wrap(1)),
        Entry("chinese_final_marker", ChineseQuestion()),
        Entry("lowercase_fields", OneIn(3)), Entry("markdown_fields", OneIn(3)),
        Entry("bold_field_lines", OneIn(8), note="Not on top of markdown field names."),
        Entry("field_spacing", OneIn(8)),
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
        Entry("obey_injection", ObservationHasInstruction(obeyable=True),
              note=f"{INJECTION_RULE} No prompt rule helps: the defence belongs in your code."),)),
    Persona("forgetful", "Fine on short tasks, loses the thread on long ones.", False, (
        Entry("lose_thread", AfterSteps(8), note="The cure is shorter stages."),)),
    Persona("tiny", "Like a real 135M-parameter model: rarely follows the format.", True, (
        Entry("prose_only", _tiny(0, 1, 2), (), "Often answers from its own knowledge.", _TINY),
        Entry("identical_reply", _tiny(3, 4), ()), Entry("missing_action_input", _tiny(5, 6), ()),
        Entry("copy_example", _tiny(7), (), "Only when the prompt has a worked example."),
        Entry("template_echo", _tiny(8), ()), Entry("repeat_phrase", _tiny(9), ()),
        Entry("whole_trajectory", _tiny(10), ()), Entry("missing_thought", _tiny(11), ()),
        Entry("json_cut_in_string", _rare(0), ()), Entry("schema_copy", _rare(1), ()),
        Entry("action_and_answer", _rare(2), ()), Entry("echo_question", _rare(3), ()),
        Entry("echo_prompt", _rare(4), ()), Entry("empty_reply", _rare(5), ()),
        Entry("same_reply_to_correction", _told(*range(8)), (), _ON_TOP),
        Entry("copy_placeholders", _told(8), (), _ON_TOP), Entry("restate_rules", _told(9), (), _ON_TOP),
        Entry("off_task_call", ToolCallsForced(), (), "On top of (and replacing) any other pattern."),
        Entry("prose_only", Otherwise(), (), "A small model is almost never clean.", _TINY))),
    Persona("jsonic", "A chat-tuned model that prefers JSON: JSON-blob actions, call syntax, "
            "`Action: None` when it answers, pretty-printed JSON; in tool-call mode, now and then "
            "the call as JSON in the content, or its arguments encoded twice.", False, (
        Entry("json_blob_action", _jsonic(0, 1, 2), note=_TOLD_NOTE),
        Entry("call_syntax", _jsonic(3, 4), note=_TOLD_NOTE),
        Entry("multiline_json", _jsonic(5), note="Read the input up to the next field, not to "
              "the end of its line."),
        Entry("action_none", _jsonic(3, 4, 5), note="Only when it answers."),
        Entry("tool_call_in_content", _tool_mode(0), note="Look for a JSON call in the content "
              "when tool_calls is empty."),
        Entry("arguments_as_string", _tool_mode(1), note="Decode again when the first "
              "json.loads gives a string."))),
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
    """Persona name -> a one-line description naming its quirks (each once)."""
    return {name: f"{p.description} Quirks: {', '.join(dict.fromkeys(e.quirk for e in p.entries))}."
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
