"""What the `tiny` persona does once told its reply did not work, as the real 135M model did.

Three shapes seen when an agent answered SmolLM2-135M's malformed reply with a correction:
- the same reply to the same correction, over and over (greedy decoding repeats the context's
  continuation: 78% of its replies at temperature 0 were its previous reply again, 21% at 0.7);
- the correction's placeholders copied as written: `Action: <one tool name>`;
- the rules restated back as prose ("You should use only one action per reply and ...").
Each fires at temperature 0 only (the API's default, and the mock's, is 1).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mockllm.behaviour.quirks import QuirkContext
from mockllm.behaviour.triggers import Rotating

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation


def latest_correction(conv: "Conversation") -> str | None:
    """The text of the correction the latest message holds, or None when it holds none."""
    if conv.last_correction is None or not conv.steps:
        return None
    return conv.steps[-1].observation


@dataclass(frozen=True)
class AfterCorrection(Rotating):
    """Fires when the latest message is a correction and the group's hash lands in `slots`."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True after a correction, on the group's share of replies."""
        return latest_correction(conv) is not None and super().fires(conv, seed, persona, quirk)

    def describe(self) -> str:
        """The rulebook phrase."""
        return "after a correction: " + super().describe()


def same_reply_to_correction(text: str, move: "Move", conv: "Conversation",
                             ctx: QuirkContext) -> str | None:
    """At temperature 0, the previous reply again, byte for byte (so it gets the same correction)."""
    if ctx.temperature > 0 or not conv.steps:
        return None
    return conv.steps[-1].reply


_PLACEHOLDER = re.compile(r"(?i)\b(thought|action[ _]input|action|final[ _]answer)[ \t]*+[:：][ \t]*+"
                          r"(<[^<>\n]{1,200}>)")  # bounded: one pass, no backtracking
_FIELDS = {"thought": "Thought", "action": "Action", "action input": "Action Input"}


def placeholder_lines(correction: str) -> list[str]:
    """The correction's Thought / Action / Action Input lines that hold a placeholder, as written."""
    found: dict[str, str] = {}
    for match in _PLACEHOLDER.finditer(correction):
        field = match.group(1).lower().replace("_", " ")
        if field in _FIELDS and field not in found:
            found[field] = f"{_FIELDS[field]}: {match.group(2)}"
        if len(found) == len(_FIELDS):
            break
    if "action" not in found and "action input" not in found:
        return []
    return [found[field] for field in _FIELDS if field in found]


def copy_placeholders(text: str, move: "Move", conv: "Conversation",
                      ctx: QuirkContext) -> str | None:
    """At temperature 0, the correction's placeholder lines copied: `Action: <one tool name>`."""
    correction = latest_correction(conv)
    if ctx.temperature > 0 or correction is None:
        return None
    lines = placeholder_lines(correction)
    if not lines:
        return None
    lead = ctx.pick(("", "Here is my reply in the format:\n\n", "Sorry, here it is:\n"), "lead")
    return lead + "\n".join(lines)


_RULE_PROSE = (("format", "reply with a thought, an action and an action input"),
               ("one_action", "use only one action per reply"),
               ("no_observation", "never write an observation yourself"),
               ("final_not_tool", "never use the answer as a tool"),
               ("stop_when_enough", "stop when you have enough information"),
               ("live_data", "always use a tool for live data instead of guessing"))
"""Each rule of the prompt as the model says it back (no field name with a colon: plain prose)."""


def _joined(parts: list[str]) -> str:
    """'a, b and c'."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def restate_rules(text: str, move: "Move", conv: "Conversation",
                  ctx: QuirkContext) -> str | None:
    """At temperature 0, the prompt's rules said back as prose, and no step."""
    if ctx.temperature > 0 or latest_correction(conv) is None:
        return None
    rules = [prose for rule, prose in _RULE_PROSE if rule in conv.rules] or [_RULE_PROSE[0][1]]
    first = ctx.pick(range(len(rules)), "rules")
    rules = rules[first:first + 3]  # a few of them, as it remembers them
    lead = ctx.pick(("That's a very good observation. It is always a good idea to follow the rules.",
                     "Excellent, you've just reproduced the instructions correctly. Now, I'll just "
                     "have to remind you of them.",
                     "I was a bit too verbose, and I should have just replied with the requested "
                     "format."), "lead")
    return f"{lead}\n\nYou should {_joined(rules)}. I will do my best to follow these rules."
