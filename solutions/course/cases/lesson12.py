"""Cases for lesson 12 (Tool calls in practice): `cap_result`."""
from __future__ import annotations

import json
import re
from typing import Any

from solutions.course.exercises import Case, Cause, Exercise, returns

_MARKER = re.compile(r"\n\[cut ([\d,]+) of ([\d,]+) characters\]$")
_LONGEST = len("\n[cut 1,000,000 of 1,000,000 characters]")  # the marker of the cases' longest text
SENT: list[Any] = []
"""The result the current case passes, a copy of it and the limit (set by its setup, read by the causes)."""


def _text_of(result: Any) -> str:
    """The result as the tool message carries it: the text, or the JSON of another value."""
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)


def _sending(result: Any, limit: int) -> Any:
    """A setup that passes (result, limit) and keeps the result and a copy of it."""
    def setup() -> tuple[tuple, dict]:
        SENT[:] = [result, json.loads(json.dumps(result)) if not isinstance(result, str) else result, limit]
        return (result, limit), {}
    return setup


def _as_text(value: Any, text: str, limit: int) -> bool:
    """Whether `value` is `text` cut as text: a prefix of it and the marker, within `limit`, not far under it."""
    found = _MARKER.search(value) if isinstance(value, str) else None
    if not found or len(value) > limit:
        return False
    kept = value[:found.start()]
    cut, total = (int(n.replace(",", "")) for n in found.groups())
    return text.startswith(kept) and total == len(text) and cut == len(text) - len(kept) \
        and len(kept) >= limit - _LONGEST


def _as_json(value: Any, text: str, limit: int) -> bool:
    """Whether `value` is JSON of at most `limit` characters: {"truncated": true, "total_characters", "head"}."""
    if not isinstance(value, str) or len(value) > limit:
        return False
    try:
        shown = json.loads(value)
    except ValueError:
        return False
    return isinstance(shown, dict) and shown.get("truncated") is True \
        and shown.get("total_characters") == len(text) and isinstance(shown.get("head"), str) \
        and text.startswith(shown["head"]) and len(shown["head"]) >= (limit - 80) // 2


def _unchanged(result: Any, limit: int, label: str, hint: str) -> Case:
    """A case: a result that fits comes back as its text, unchanged."""
    text = _text_of(result)
    return Case(setup=_sending(result, limit), expected=text, label=label, hint=hint,
                says=f"{text!r}, unchanged" if len(text) < 60 else f"the {len(text):,} characters unchanged")


def _cut(result: Any, limit: int, label: str, hint: str, as_json: bool = False) -> Case:
    """A case: a result too long comes back cut, as text with the marker or as the JSON envelope."""
    text = _text_of(result)
    test = _as_json if as_json else _as_text
    says = (f'a JSON object of at most {limit} characters: {{"truncated": true, "total_characters": '
            f'{len(text)}, "head": <the start of the text>}}' if as_json else
            f"at most {limit} characters: the start of the text, then '\\n[cut N of {len(text):,} "
            "characters]', N the characters left out")
    return Case(setup=_sending(result, limit), expect=lambda value: test(value, text, limit), says=says,
                label=label, hint=hint)


_ERROR = json.dumps({"error": "order lookup failed", "detail": "timeout " * 40})
_DOCS = json.dumps([{"id": n, "title": f"Doc {n}", "text": 'He said "returns" \\ 30 days. ' * 3}
                    for n in range(12)])
CAP_CASES = (
    _unchanged("2025-03-14", 100, "cap_result('2025-03-14', 100)", "a result within the limit comes back unchanged"),
    _unchanged("x" * 100, 100, "cap_result('x' * 100, 100)",
               "exactly `limit` characters fits: cut only when len(text) > limit"),
    _unchanged("晴" * 100, 100, "cap_result('晴' * 100, 100)",
               "count characters, len(text), not bytes: 100 Chinese characters are 300 bytes but fit in 100"),
    _cut("x" * 1000, 100, "cap_result('x' * 1000, 100)",
         "the limit holds the marker too: keep limit - len(marker) characters, then the marker"),
    _cut("Beijing, 2025-03-15: dust storm. " * 30, 120, "cap_result(<990 characters of weather>, 120)",
         "the marker says how many characters were left out and of how many: they add up with what is kept"),
    _cut("天气晴朗" * 100, 100, "cap_result('天气晴朗' * 100, 100)",
         "count characters, not bytes: the total is 400 characters (1,200 bytes)"),
    _cut("z" * 1_000_000, 2000, "cap_result('z' * 1_000_000, 2000)",
         "a megabyte must be quick: slice once (text[:keep]), do not shorten a character at a time"),
    _cut(_ERROR, 120, "cap_result(<a JSON error of 355 characters>, 120)",
         "a JSON result cut in the middle is no longer JSON: return the JSON object "
         '{"truncated": true, "total_characters": ..., "head": <its start>} within the limit', as_json=True),
    _cut(_DOCS, 300, "cap_result(<a JSON list of documents, with quotes and backslashes>, 300)",
         "json.dumps escapes quotes and backslashes, so the head takes more room in JSON than in the "
         "text: measure the JSON you return, and shorten the head until it fits", as_json=True),
    _unchanged({"city": "Beijing", "high": 9}, 100, "cap_result({'city': 'Beijing', 'high': 9}, 100)",
               "a result that is not a str is sent as JSON: json.dumps(result, ensure_ascii=False)"),
    _unchanged(66, 100, "cap_result(66, 100)", "a number is sent as its JSON text, '66'"),
    _unchanged(None, 100, "cap_result(None, 100)", "None is sent as JSON: 'null'"),
    _cut([{"id": f"A10{n:02d}", "status": "shipped"} for n in range(40)], 200,
         "cap_result(<a list of 40 orders, as Python objects>, 200)",
         "a long list is JSON once written: return the JSON object {\"truncated\": true, ...}, and "
         "leave the list itself as it was (do not del or pop its items)", as_json=True),
    Case(("2025-03-14", 10), raises=ValueError, match="limit",
         hint="a limit under 80 leaves no room for the marker: raise ValueError naming limit"),
    Case(("2025-03-14", True), raises=ValueError, match="limit",
         hint="True is not a limit (bool is an int in Python): raise ValueError naming limit"),
    Case(("2025-03-14", "100"), raises=ValueError, match="limit",
         hint="the limit must be an int: raise ValueError naming limit"),
)


def _no_marker(value: Any) -> bool:
    """True when a cut text says nothing of the cut."""
    text = _text_of(SENT[0]) if SENT else ""
    return isinstance(value, str) and value != text and text.startswith(value)


def _mutated(value: Any) -> bool:
    """True when the result passed in was changed by the call."""
    return bool(SENT) and not isinstance(SENT[0], str) and SENT[0] != SENT[1]


def _counts_bytes(value: Any) -> bool:
    """True when the marker's total is the UTF-8 bytes of the text, not its characters."""
    found = _MARKER.search(value) if isinstance(value, str) and SENT else None
    text = _text_of(SENT[0]) if SENT else ""
    return bool(found) and int(found.group(2).replace(",", "")) == len(text.encode()) != len(text)


def _json_broken(value: Any) -> bool:
    """True when a JSON result came back cut into text that no longer parses."""
    text = _text_of(SENT[0]) if SENT else ""
    if not (isinstance(value, str) and value != text and len(text) > SENT[2] and _parses(text)):
        return False
    return not _parses(value)


def _parses(text: str) -> bool:
    """Whether `text` is JSON."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _python_repr(value: Any) -> bool:
    """True when a result that is not a str came back as str(result), Python's repr."""
    return bool(SENT) and not isinstance(SENT[0], str) and value == str(SENT[0]) != _text_of(SENT[0])


def _json_over(value: Any) -> bool:
    """True when a JSON envelope came back longer than the case's limit."""
    if not (isinstance(value, str) and SENT and len(value) > SENT[2] and _parses(value)):
        return False
    return isinstance(json.loads(value), dict) and json.loads(value).get("truncated") is True


CAP_CAUSES = (
    returns(str, "returns something that is not a str: a tool message's content is text; write a "
                 "result that is not a str as JSON (json.dumps)"),
    Cause(_python_repr, "a result that is not a str is sent as JSON: json.dumps(result, "
                        "ensure_ascii=False), not str(result), which writes Python ('None', single quotes)"),
    Cause(_mutated, "the result passed in was changed: build the text you return, and leave the "
                    "caller's list or dict as it was"),
    Cause(_json_broken, "a JSON result was cut into text that no longer parses: return the JSON object "
                        '{"truncated": true, "total_characters": N, "head": <its start>} instead'),
    Cause(_json_over, "the JSON object is longer than the limit: json.dumps escapes quotes and "
                      "backslashes, so the head takes more room in JSON than in the text; measure the JSON "
                      "you return, and shorten the head until it fits"),
    Cause(_no_marker, "cut without a marker: the model cannot tell that the result is incomplete; add "
                      "'\\n[cut N of M characters]'"),
    Cause(_counts_bytes, "counts bytes: count characters, len(text), not len(text.encode())"),
)
EXERCISES = [
    Exercise(name="cap_result", lesson="12", reference="solutions.tool_calls:cap_result",
             cases=CAP_CASES, causes=CAP_CAUSES,
             show=lambda value: repr(value) if not isinstance(value, str) or len(value) < 200
             else f"<{len(value):,} characters: {value[:60]!r} ... {value[-60:]!r}>"),
]
