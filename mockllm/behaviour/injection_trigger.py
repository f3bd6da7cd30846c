"""The gullible persona's trigger: the latest observation holds an instruction it obeys."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mockllm.behaviour.injection import find
from mockllm.behaviour.quirks import last_observation
from mockllm.behaviour.triggers import Trigger

if TYPE_CHECKING:
    from mockllm.reading.conversation import Conversation


@dataclass(frozen=True)
class ObservationInstructs(Trigger):
    """Fires when the latest observation holds an instruction naming an offered tool, an address
    or a link (`mockllm.behaviour.injection.RULE`)."""

    def fires(self, conv: "Conversation", seed: int, persona: str, quirk: str) -> bool:
        """True when the latest observation holds an instruction the model can obey."""
        return find(last_observation(conv), conv.tools) is not None

    def describe(self) -> str:
        """The rulebook phrase."""
        return "the latest observation holds an instruction naming an offered tool, an address or a link"
