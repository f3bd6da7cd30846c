"""Facts that go stale: each fact keeps the day it was saved and the day it expires.

Built in lesson 14 (Memory in practice). A fact is fresh before its `expires` day and stale from
that day on; a fact without one never expires. How long a fact holds is the program's choice, by
key (`FACT_TTL_DAYS`). A stale fact stays in the store, as history, but is kept out of the prompt:
the model would take it as true today. "Today" is the clock's day, never the wall clock's.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from mockllm.world import Clock
from solutions.memory.scoped import Fact

FACT_TTL_DAYS = {"current_city": 7, "last_city": 30}
"""Days each kind of fact holds after it is saved; a key not listed never expires."""


def is_stale(fact: Fact, today: dt.date) -> bool:
    """True when `fact` has expired by `today` (its expires day is today or earlier)."""
    return fact.expires is not None and dt.date.fromisoformat(fact.expires) <= today


def split_stale(facts: Iterable[Fact], clock: Clock) -> tuple[list[Fact], list[Fact]]:
    """(fresh, stale): `facts` cut by the clock's day, each list in the order given."""
    if not isinstance(clock, Clock):
        raise TypeError(f"clock must be a mockllm.world.Clock, got {type(clock).__name__}")
    fresh, stale = [], []
    for fact in facts:
        (stale if is_stale(fact, clock.today()) else fresh).append(fact)
    return fresh, stale
