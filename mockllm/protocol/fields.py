"""The errors a bad request gets: a TypeError or ValueError that names the field, like an API's 400."""
from __future__ import annotations

import re

_API_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a function or schema name, as the API accepts it


def show(value: object) -> str:
    """Return a short repr of `value` for an error message (at most 60 characters)."""
    text = repr(value) if type(value) is not str or len(value) <= 200 else repr(value[:200])
    return text if len(text) <= 60 else text[:57] + "..."


def type_error(field: str, expected: str, value: object) -> TypeError:
    """Build the TypeError for a field of the wrong type."""
    got = f"{type(value).__name__} {show(value)}"
    return TypeError(f"Invalid type for '{field}': expected {expected}, got {got}.")


def value_error(field: str, value: object, accepted: str) -> ValueError:
    """Build the ValueError for a field with a wrong value."""
    return ValueError(f"Invalid value for '{field}': {show(value)}. Accepted: {accepted}.")


def is_int(value: object) -> bool:
    """True for ints that are not bools."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """True for ints and floats that are not bools."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_name(field: str, name: object) -> None:
    """Reject a function or schema name the API refuses (1 to 64 letters, digits, '_' or '-')."""
    if not isinstance(name, str) or not _API_NAME.fullmatch(name):
        raise value_error(field, name, "1 to 64 letters, digits, '_' or '-'")
