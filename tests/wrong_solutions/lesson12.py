"""Wrong solutions of lesson 12's exercise (cap_result)."""
from __future__ import annotations

import json

from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("12")
MARKER = "\n[cut {cut:,} of {total:,} characters]"


def _checked(limit) -> None:
    """The limit check every wrong solution below gets right."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 80:
        raise ValueError(f"limit must be an int of at least 80, got {limit!r}")


def _text(result) -> str:
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)


def _json_cap(text, limit):
    """The JSON envelope, right."""
    def envelope(head):
        return json.dumps({"truncated": True, "total_characters": len(text), "head": head}, ensure_ascii=False)
    keep = limit - len(envelope(""))
    shown = envelope(text[:keep])
    return shown if len(shown) <= limit else envelope(text[:keep - (len(shown) - limit)])


def _rest(text, limit):
    """What is right once the text is known: unchanged, the JSON envelope, or the start and the marker."""
    if len(text) <= limit:
        return text
    if _is_json(text):
        return _json_cap(text, limit)
    keep = limit - len(MARKER.format(cut=len(text), total=len(text)))
    return text[:keep] + MARKER.format(cut=len(text) - keep, total=len(text))


def _is_json(text) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return text.lstrip()[:1] in ("{", "[")


@CATALOGUE.wrong("cap_result", fault="cuts the text and says nothing of the cut",
                 says="cut without a marker")
def no_marker(result, limit):
    _checked(limit)
    text = _text(result)
    if len(text) <= limit:
        return text
    return _json_cap(text, limit) if _is_json(text) else text[:limit]


@CATALOGUE.wrong("cap_result", fault="keeps `limit` characters and adds the marker after them (lesson 07's rule): over the limit",
                 says="the limit holds the marker too")
def marker_over_the_limit(result, limit):
    _checked(limit)
    text = _text(result)
    if len(text) <= limit:
        return text
    if _is_json(text):
        return _json_cap(text, limit)
    return text[:limit] + MARKER.format(cut=len(text) - limit, total=len(text))


@CATALOGUE.wrong("cap_result", fault="measures the text in UTF-8 bytes, not characters",
                 says="counts bytes: count characters")
def counts_bytes(result, limit):
    _checked(limit)
    text = _text(result)
    size = len(text.encode())
    if size <= limit:
        return text
    if _is_json(text):
        return _json_cap(text, limit)
    keep = limit - len(MARKER.format(cut=size, total=size))
    return text[:keep] + MARKER.format(cut=size - keep, total=size)


@CATALOGUE.wrong("cap_result", fault="calls len() and slices the result as given: crashes on a number, None or a dict",
                 says="write a result that is not a str as JSON")
def only_strings(result, limit):
    _checked(limit)
    return _rest(result, limit)


@CATALOGUE.wrong("cap_result", fault="writes a result that is not a str with str(): Python's repr, not JSON",
                 says="a result that is not a str is sent as JSON")
def python_repr(result, limit):
    _checked(limit)
    return _rest(result if isinstance(result, str) else str(result), limit)


@CATALOGUE.wrong("cap_result", fault="cuts a JSON result like any text: what comes back no longer parses",
                 says="no longer parses")
def cuts_json_as_text(result, limit):
    _checked(limit)
    text = _text(result)
    if len(text) <= limit:
        return text
    keep = limit - len(MARKER.format(cut=len(text), total=len(text)))
    return text[:keep] + MARKER.format(cut=len(text) - keep, total=len(text))


@CATALOGUE.wrong("cap_result", fault="fits a JSON head without measuring the escaped JSON: quotes and backslashes push it over the limit",
                 says="measure the JSON you return")
def json_unmeasured(result, limit):
    _checked(limit)
    text = _text(result)
    if len(text) <= limit:
        return text
    if _is_json(text):
        empty = json.dumps({"truncated": True, "total_characters": len(text), "head": ""})
        return json.dumps({"truncated": True, "total_characters": len(text),
                           "head": text[:limit - len(empty)]}, ensure_ascii=False)
    return _rest(text, limit)


@CATALOGUE.wrong("cap_result", fault="makes a long list fit by deleting its items in place: the caller's list is changed",
                 says="the result passed in was changed")
def shortens_in_place(result, limit):
    _checked(limit)
    if isinstance(result, list):
        while len(result) > 1 and len(json.dumps(result, ensure_ascii=False)) > limit - 60:
            del result[-1]
    return _rest(_text(result), limit)


@CATALOGUE.wrong("cap_result", fault="drops one character at a time until text and marker fit: quadratic on a megabyte",
                 says="a megabyte must be quick", slow=True)
def one_at_a_time(result, limit):
    _checked(limit)
    text = _text(result)
    if len(text) <= limit:
        return text
    if _is_json(text):
        return _json_cap(text, limit)
    kept = text
    while len(kept) + len(MARKER.format(cut=len(text) - len(kept), total=len(text))) > limit:
        kept = kept[:-1]
    return kept + MARKER.format(cut=len(text) - len(kept), total=len(text))


@CATALOGUE.wrong("cap_result", fault="cuts a text of exactly `limit` characters (< for <=)",
                 says="exactly `limit` characters fits")
def cuts_at_the_limit(result, limit):
    _checked(limit)
    text = _text(result)
    if len(text) < limit:
        return text
    if _is_json(text):
        return _json_cap(text, limit)
    keep = limit - len(MARKER.format(cut=len(text), total=len(text)))
    return text[:keep] + MARKER.format(cut=len(text) - keep, total=len(text))


@CATALOGUE.wrong("cap_result", fault="accepts any limit: a tiny one leaves no room for the marker, True passes as 1",
                 says="raise ValueError naming limit")
def no_limit_check(result, limit):
    return _rest(_text(result), limit)
