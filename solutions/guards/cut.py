"""Cut a reply after its Action Input: whatever follows was written before any Observation existed.

Built in lesson 05 (Failure clinic). A model that keeps writing after its Action Input can only
guess what the tool will say: an invented `Observation:`, a second Thought and Action built on
it, or a Final Answer. The stop sequence `stop=["Observation:"]` stops the first of these at the
API; this cut removes all of them, whatever label the model used, on the program's side.
"""
from __future__ import annotations

from functools import lru_cache

from solutions.parsing import _balanced_end, _field_line

MEMO_LINE = 400
"""Lines up to this long have their field remembered: each rewrite reads the same few lines again."""


def field_line(line: str) -> tuple[str, str] | None:
    """(kind, rest of the line) when `line` starts a field, else None: lesson 03's reading, remembered. Built in lesson 05 (Failure clinic)."""
    return _remembered(line) if len(line) <= MEMO_LINE else _field_line(line)


_remembered = lru_cache(maxsize=4096)(_field_line)


def field_kind(line: str) -> str | None:
    """The field a line starts ('thought', 'action', 'action_input', 'observation', 'final_answer', ...), or None. Built in lesson 05 (Failure clinic)."""
    found = field_line(line)
    return found[0] if found else None


def json_end(text: str, start: int) -> int:
    """The index of the `}` that closes the `{` at `text[start]` (strings respected), or -1. Built in lesson 05 (Failure clinic)."""
    return _balanced_end(text, start)


def cut_after_action_input(text: str) -> str:
    """Return `text` up to the end of its first Action Input; unchanged when no Action comes first. Built in lesson 05 (Failure clinic)."""
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text  # nothing to cut: the parser reads a Final Answer up to the next field
    following = next((i for i in range(start + 1, len(lines)) if kinds[i]), len(lines))
    if following == len(lines) or kinds[following] != "action_input":
        return "\n".join(lines[:start + 1])  # no Action Input: keep up to the Action line
    end = next((i for i in range(following + 1, len(lines)) if kinds[i]), len(lines))
    field = "\n".join(lines[following:end])  # the Action Input, up to the next field line
    brace = field.find("{")
    if brace < 0:
        return "\n".join(lines[:following + 1])  # a one-line input
    close = json_end(field, brace)
    if close < 0:
        return "\n".join(lines[:end])  # the JSON never closes: keep the whole field
    return "\n".join([*lines[:following], field[:close + 1]])
