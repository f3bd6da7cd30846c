"""The frozen clock: in the offline world, today is always 2025-03-14 unless you say otherwise."""
from __future__ import annotations

from datetime import date, datetime

TODAY = date(2025, 3, 14)


def parse_date(value: date | str, field: str = "date") -> date:
    """Return `value` as a date; accept a date or a 'YYYY-MM-DD' string, else raise ValueError."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{field} must be a 'YYYY-MM-DD' string, got {type(value).__name__}")
    text = value.strip()
    shaped = (len(text) == 10 and text[4] == "-" and text[7] == "-"
              and (text[:4] + text[5:7] + text[8:]).isdigit() and text.isascii())
    if shaped:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{field} {value!r} is not a real calendar date") from None
    raise ValueError(f"{field} must be YYYY-MM-DD (for example 2025-03-14), got {value!r}")


class Clock:
    """A clock that always says the same day: inject it instead of calling datetime.now()."""

    __slots__ = ("_today",)

    def __init__(self, today: date | str = TODAY) -> None:
        """Freeze the clock at `today` (a date or 'YYYY-MM-DD'; default 2025-03-14)."""
        object.__setattr__(self, "_today", parse_date(today, "today"))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Clock is frozen; create a new Clock('YYYY-MM-DD') instead")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Clock is frozen")

    def today(self) -> date:
        """Return the frozen date."""
        return self._today

    def iso(self) -> str:
        """Return the frozen date as 'YYYY-MM-DD'."""
        return self._today.isoformat()

    def __repr__(self) -> str:
        return f"Clock({self.iso()!r})"

    def __reduce__(self) -> tuple:
        return (Clock, (self.iso(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Clock):
            return NotImplemented
        return self._today == other._today

    def __hash__(self) -> int:
        return self._today.toordinal()


FROZEN = Clock()
