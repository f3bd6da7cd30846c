"""Triggers: when a persona's quirk fires. Deterministic, and each one can describe itself."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mockllm._hash import stable_int
from mockllm.behaviour.injection import instruction_source
from mockllm.behaviour.quirks import tool_names
from mockllm.behaviour.quirks_move import find_instruction

if TYPE_CHECKING:
    from mockllm.reading.conversation import Conversation


class Trigger:
    """Base class: `fires(conv, seed, persona, quirk)` says whether the quirk fires now."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the quirk should fire on this reply."""
        raise NotImplementedError

    def describe(self) -> str:
        """A short phrase for the rulebook, e.g. '1 in 3 replies (seeded)'."""
        raise NotImplementedError

    def blocked_by(self, conv: "Conversation") -> str | None:
        """The prompt rule that keeps this trigger from firing, if any (for the explanation)."""
        return None


def _positive(value: int, name: str) -> None:
    """Reject anything but a positive int."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")


@dataclass(frozen=True)
class Always(Trigger):
    """Fires on every reply."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """Always true."""
        return True

    def describe(self) -> str:
        """The rulebook phrase."""
        return "always"


@dataclass(frozen=True)
class Otherwise(Trigger):
    """The persona's fallback: fires only when none of its other entries changed the reply."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """False in the normal pass; `respond` runs fallback entries in a pass of their own."""
        return False

    def describe(self) -> str:
        """The rulebook phrase."""
        return "when no other pattern changed the reply"


def has_prompt(conv: "Conversation") -> bool:
    """Whether the request has a prompt that could teach a rule: a system prompt (or instructions)
    that is not blank, or rules read from one."""
    return bool(conv.rules) or bool(conv.system) and not conv.system.isspace()


@dataclass(frozen=True)
class RuleMissing(Trigger):
    """Fires when there is a system prompt and it lacks the rule `rule`.

    These quirks exist to show what each rule of the prompt does; a request with no system
    prompt has no rule to teach, and the model then behaves as a capable model does.
    """

    rule: str

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the request has a prompt and the prompt lacks the rule."""
        return self.rule not in conv.rules and has_prompt(conv)

    def describe(self) -> str:
        """The rulebook phrase."""
        return f"a system prompt without the {self.rule} rule"

    def blocked_by(self, conv: "Conversation") -> str | None:
        """The rule, when the prompt has it."""
        return self.rule if self.rule in conv.rules else None


@dataclass(frozen=True)
class OneIn(Trigger):
    """Fires on about one reply in `n`: a stable hash of seed, persona, quirk, step, question."""

    n: int

    def __post_init__(self) -> None:
        _positive(self.n, "OneIn.n")

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the stable hash of this reply is a multiple of n."""
        return stable_int(seed, persona, quirk, conv.step, conv.question) % self.n == 0

    def describe(self) -> str:
        """The rulebook phrase."""
        return f"1 in {self.n} replies (seeded)"


@dataclass(frozen=True)
class Rotating(Trigger):
    """One pattern of a group per reply: fires when the group's hash lands in `slots` of `size`."""

    group: str
    slots: tuple[int, ...]
    size: int

    def __post_init__(self) -> None:
        _positive(self.size, "Rotating.size")
        if not self.slots or any(not 0 <= slot < self.size for slot in self.slots):
            raise ValueError(f"Rotating.slots must be in range(0, {self.size}), got {self.slots}")

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the group's hash for this reply lands in one of the slots."""
        key = stable_int(seed, persona, self.group, conv.step, conv.question)
        return key % self.size in self.slots

    def describe(self) -> str:
        """The rulebook phrase."""
        share = f"{len(self.slots)} in {self.size} replies"
        return f"{share} (seeded, one {self.group} pattern per reply)"


@dataclass(frozen=True)
class FromStep(Trigger):
    """Fires from step `n` on (steps count from 1)."""

    n: int

    def __post_init__(self) -> None:
        _positive(self.n, "FromStep.n")

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True from step n on."""
        return conv.step >= self.n

    def describe(self) -> str:
        """The rulebook phrase."""
        return f"from step {self.n}"


@dataclass(frozen=True)
class AtStep(Trigger):
    """Fires on step `n` only."""

    n: int

    def __post_init__(self) -> None:
        _positive(self.n, "AtStep.n")

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True on step n."""
        return conv.step == self.n

    def describe(self) -> str:
        """The rulebook phrase."""
        return f"at step {self.n}"


@dataclass(frozen=True)
class AfterSteps(Trigger):
    """Fires once more than `n` replies have been asked for (step > n)."""

    n: int

    def __post_init__(self) -> None:
        _positive(self.n, "AfterSteps.n")

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True once step > n."""
        return conv.step > self.n

    def describe(self) -> str:
        """The rulebook phrase."""
        return f"after {self.n} steps"


@dataclass(frozen=True)
class FirstToolCall(Trigger):
    """Fires until the model has called one of the offered tools."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True while no past step called an offered tool."""
        offered = set(tool_names(conv))
        return not any(step.action in offered for step in conv.steps)

    def describe(self) -> str:
        """The rulebook phrase."""
        return "first tool call"


@dataclass(frozen=True)
class AfterToolCall(Trigger):
    """Fires once the model has called a tool at least once."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True once some past step called a tool."""
        return any(step.action for step in conv.steps)

    def describe(self) -> str:
        """The rulebook phrase."""
        return "from the second tool call on"


@dataclass(frozen=True)
class ChineseQuestion(Trigger):
    """Fires when the question is in Chinese."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the question is in Chinese."""
        return conv.language == "zh"

    def describe(self) -> str:
        """The rulebook phrase."""
        return "Chinese question"


@dataclass(frozen=True)
class ObservationHasInstruction(Trigger):
    """Fires when the latest observation holds an instruction ('ignore your instructions ...');
    with `obeyable`, only one that names an offered tool, an address or a link
    (`mockllm.behaviour.injection.RULE`): one the model can carry out."""

    obeyable: bool = False

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the latest observation (before the first one, the remembered facts) holds one."""
        tools = conv.tools if self.obeyable else None
        return find_instruction(instruction_source(conv)[1], tools) is not None

    def describe(self) -> str:
        """The rulebook phrase."""
        if self.obeyable:
            return ("the latest observation (before the first one, a remembered fact) holds an "
                    "instruction naming an offered tool, an address or a link")
        return "observation holds an instruction"


@dataclass(frozen=True)
class AnyOf(Trigger):
    """Fires when any of its parts fires."""

    parts: tuple[Trigger, ...]

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when any part fires."""
        return any(part.fires(conv, seed, persona, quirk) for part in self.parts)

    def describe(self) -> str:
        """The rulebook phrase."""
        return ", else ".join(part.describe() for part in self.parts)


@dataclass(frozen=True)
class ForcedSteps(Trigger):
    """Fires at the chosen steps only (`respond(..., quirks={"name": [1, 3]})`)."""

    steps: tuple[int, ...]

    def __post_init__(self) -> None:
        for step in self.steps:
            _positive(step, "forced quirk step")

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True at the forced steps."""
        return conv.step in self.steps

    def describe(self) -> str:
        """The rulebook phrase."""
        return "forced at step " + ", ".join(str(step) for step in self.steps)
