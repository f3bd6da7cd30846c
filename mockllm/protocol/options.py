"""The options of `MockLLM(...)` itself: persona, seed, quirks and clock (not request fields)."""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.fields import is_int, type_error, value_error

_MAPS = (dict, Mapping)
_EPOCH_ORDINAL = 719163  # date(1970, 1, 1).toordinal()


def _names(table: object) -> list[str]:
    """Return the names in a table: a mapping's keys, or items' `.name` (or the items)."""
    items = table.keys() if isinstance(table, _MAPS) else table
    return [getattr(item, "name", item) for item in items]


def check_persona(persona: object) -> str | None:
    """Check a persona name against `mockllm.personas()` (None: no persona, only forced quirks)."""
    if persona is None:
        return None
    from mockllm.behaviour.personas import PERSONAS

    if type(persona) is str and persona in PERSONAS:  # the common case: a known name
        return persona
    names = _names(PERSONAS)
    if not isinstance(persona, str):
        raise type_error("persona", f"a persona name, one of {', '.join(names)}", persona)
    if persona not in names:
        raise value_error("persona", persona, f"{', '.join(names)} (see mockllm.personas())")
    return persona


def check_quirks(quirks: object) -> dict[str, tuple[int, ...]] | None:
    """Check `quirks=` (None, or {quirk name: steps}) against `mockllm.personas.QUIRKS`."""
    if quirks is None:
        return None
    from mockllm.behaviour.personas import QUIRKS

    names = _names(QUIRKS)
    if not isinstance(quirks, _MAPS):
        raise type_error("quirks", "None or a dict {quirk name: [step, ...]}", quirks)
    checked = {}
    for name, steps in quirks.items():
        if name not in names:
            raise value_error("quirks", name, f"quirk names {', '.join(names)}")
        if not (isinstance(steps, (list, tuple, range)) and all(is_int(s) and s >= 1 for s in steps)):
            raise type_error(f"quirks[{name!r}]", "a list of step numbers (ints from 1)", steps)
        checked[name] = tuple(steps)
    return checked


def check_seed(seed: object) -> int:
    """Check that the seed is an int and return it."""
    if not is_int(seed):
        raise type_error("seed", "an int", seed)
    return seed


def check_clock(clock: object) -> int | None:
    """Check `clock=` (None, or an object whose `today()` returns a date) and return its day.

    The day is given as seconds since 1970 at midnight UTC (the `created` of responses), or None
    without a clock.
    """
    if clock is None:
        return None
    expected = "None or a mockllm.world.Clock (an object whose today() returns a datetime.date)"
    if not callable(getattr(clock, "today", None)):
        raise type_error("clock", expected, clock)
    import datetime

    day = clock.today()
    if not isinstance(day, datetime.date):
        raise TypeError(f"Invalid type for 'clock': expected {expected}, but its today() returned "
                        f"{type(day).__name__} {day!r:.60}.")
    return (day.toordinal() - _EPOCH_ORDINAL) * 86400
