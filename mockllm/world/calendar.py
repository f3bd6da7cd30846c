"""The learner's calendar around 2025-03-14 (appointments from 2025-03-13 to 2025-03-21)."""
from __future__ import annotations

from datetime import date as _date

from .clock import parse_date

# (date, start, end, title, note or "")  -- 2025-03-16 and the morning of 2025-03-18 are free.
_EVENTS: tuple[tuple[str, str, str, str, str], ...] = (
    ("2025-03-13", "09:30", "10:00", "Team stand-up", ""),
    ("2025-03-13", "15:00", "16:00", "Supplier call", "Zhang Min"),
    ("2025-03-14", "09:30", "10:00", "Team stand-up", ""),
    ("2025-03-14", "14:00", "15:00", "Quarterly sales review", "meeting room 2"),
    ("2025-03-14", "19:00", "21:00", "Dinner with parents", ""),
    ("2025-03-15", "07:30", "08:30", "Dentist", "Dr. Chen"),
    ("2025-03-15", "12:30", "13:30", "Lunch with Li Wei", ""),
    ("2025-03-17", "08:00", "09:00", "Yoga class", ""),
    ("2025-03-17", "09:30", "10:00", "Team stand-up", ""),
    ("2025-03-17", "16:00", "17:00", "Weekly report due", ""),
    ("2025-03-18", "14:00", "15:30", "Product line planning", "Books and Toys"),
    ("2025-03-19", "07:00", "08:00", "Flight to Shanghai", "MU5101"),
    ("2025-03-19", "13:00", "17:00", "Warehouse visit", "Shanghai"),
    ("2025-03-20", "09:00", "10:00", "Customer service training", ""),
    ("2025-03-21", "09:30", "10:00", "Team stand-up", ""),
    ("2025-03-21", "18:30", "20:00", "Book club", "The True Story of Ah Q"),
)


def events(date: _date | str) -> list[dict]:
    """Return the appointments of one day (YYYY-MM-DD), earliest first; [] if none."""
    day = parse_date(date, "date").isoformat()
    return [
        {"date": d, "start": start, "end": end, "title": title, "note": note}
        for d, start, end, title, note in sorted(_EVENTS)
        if d == day
    ]


def format_event(event: dict) -> str:
    """Render one event as '07:30-08:30 Dentist (Dr. Chen)'."""
    note = f" ({event['note']})" if event["note"] else ""
    return f"{event['start']}-{event['end']} {event['title']}{note}"


def calendar_text(date: _date | str) -> str:
    """Return one day's appointments as a line of text, or an 'Error: ...' line (never raises)."""
    try:
        day = parse_date(date, "date").isoformat()
    except (TypeError, ValueError) as exc:
        return f"Error: {exc}"
    found = events(day)
    if not found:
        return f"{day}: no events."
    return f"{day}: " + "; ".join(format_event(event) for event in found)
