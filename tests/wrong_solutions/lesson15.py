"""Wrong solutions of lesson 15's exercise (allowed_recipients)."""
from __future__ import annotations

import re
import unicodedata

from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("15")

ADDRESS = re.compile(r"[A-Za-z0-9._%+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})")
FIRST_ADDRESS = re.compile(r"[\w.%+-]+@([\w-]+(?:\.[\w-]+)+)")


def _pieces(action_input, fields=("to", "cc", "bcc"), split=True):
    """The recipients of the call, split at , and ; unless `split` is false (assumes strings or lists)."""
    pieces = []
    for name in fields:
        value = action_input.get(name)
        if value is None:
            continue
        for text in [value] if isinstance(value, str) else value:
            pieces += [p.strip() for p in re.split(r"[,;]", text)] if split else [text.strip()]
    return pieces


def _allowed(piece, domains, addresses):
    """The reference's test of one piece: a plain address on an allowed domain, or allowed itself."""
    match = ADDRESS.fullmatch(piece)
    return match is not None and (match.group(1).lower() in {d.lower() for d in domains}
                                  or piece.lower() in {a.lower() for a in addresses})


def _safely(test):
    """`test` run on the pieces of a well-formed call; False for any other input, as the reference does."""
    def decide(action_input, allowed_domains, allowed_addresses=()):
        if not isinstance(action_input, dict):
            return False
        for value in (action_input.get(name) for name in ("to", "cc", "bcc")):
            if value is not None and not (isinstance(value, str) or (
                    isinstance(value, list) and all(isinstance(v, str) for v in value))):
                return False
        return test(action_input, allowed_domains, allowed_addresses)
    return decide


@CATALOGUE.wrong("allowed_recipients", fault="matches the domain with endswith",
                 says="test equality, not endswith or in")
@_safely
def domain_endswith(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input)
    return bool(pieces) and all(
        bool(ADDRESS.fullmatch(p)) and (any(p.lower().endswith(d.lower()) for d in allowed_domains)
                                        or p.lower() in {a.lower() for a in allowed_addresses})
        for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="looks for an allowed domain anywhere in the address",
                 says="test equality, not endswith or in")
@_safely
def domain_substring(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input)
    return bool(pieces) and all(any(d.lower() in p.lower() for d in allowed_domains)
                                or p.lower() in {a.lower() for a in allowed_addresses} for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="compares domains with their case",
                 says="compare the domain and the address in lower case")
@_safely
def case_kept(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input)
    return bool(pieces) and all(
        bool(ADDRESS.fullmatch(p)) and (ADDRESS.fullmatch(p).group(1) in allowed_domains or p in allowed_addresses)
        for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="counts the domain of an allowed address as allowed",
                 says="li.wei@example.com is allowed, not its whole domain")
@_safely
def address_domains_allowed(action_input, allowed_domains, allowed_addresses=()):
    domains = [*allowed_domains, *(a.rpartition("@")[2] for a in allowed_addresses)]
    pieces = _pieces(action_input)
    return bool(pieces) and all(_allowed(p, domains, ()) for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="searches a display name for the first address in it",
                 says="a display name or angle brackets hide the address")
@_safely
def first_address_found(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input)
    found = [FIRST_ADDRESS.search(p) for p in pieces]
    return bool(pieces) and all(m is not None and _allowed(m.group(0), allowed_domains, allowed_addresses)
                                for m in found)


@CATALOGUE.wrong("allowed_recipients", fault="takes the domain after the last @ of a field it never splits",
                 says="split it at commas and semicolons (SEPARATOR) and check every one")
@_safely
def field_not_split(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input, split=False)
    return bool(pieces) and all(p.rpartition("@")[2].strip().lower() in {d.lower() for d in allowed_domains}
                                or p.lower() in {a.lower() for a in allowed_addresses} for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="checks a field of several addresses as one address",
                 says="split it at commas and semicolons (SEPARATOR), strip each, check each")
@_safely
def field_as_one_address(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input, split=False)
    return bool(pieces) and all(_allowed(p, allowed_domains, allowed_addresses) for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="folds accented letters to ASCII before comparing",
                 says="do not fold accents or look-alike letters away")
@_safely
def accents_folded(action_input, allowed_domains, allowed_addresses=()):
    folded = [unicodedata.normalize("NFKD", p).encode("ascii", "ignore").decode() for p in _pieces(action_input)]
    return bool(folded) and all(_allowed(p, allowed_domains, allowed_addresses) for p in folded)


@CATALOGUE.wrong("allowed_recipients", fault="takes the domain after the last @ without checking the address",
                 says="two @ signs: not a plain address")
@_safely
def last_at_sign(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input)
    return bool(pieces) and all("@" in p and " " not in p and (
        p.rpartition("@")[2].rstrip(".").lower() in {d.lower() for d in allowed_domains}
        or p.lower() in {a.lower() for a in allowed_addresses}) for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="allows a call with no recipient (all() of nothing)",
                 says="no recipient at all: there is nothing to check, so deny")
@_safely
def nothing_is_allowed(action_input, allowed_domains, allowed_addresses=()):
    return all(_allowed(p, allowed_domains, allowed_addresses) for p in _pieces(action_input))


@CATALOGUE.wrong("allowed_recipients", fault="reads only the to field, not cc and bcc",
                 says="read cc and bcc too")
@_safely
def only_to(action_input, allowed_domains, allowed_addresses=()):
    pieces = _pieces(action_input, fields=("to",))
    return bool(pieces) and all(_allowed(p, allowed_domains, allowed_addresses) for p in pieces)


@CATALOGUE.wrong("allowed_recipients", fault="raises on a field that is not a string or a list of strings",
                 says="deny, do not raise")
def raises_on_odd_fields(action_input, allowed_domains, allowed_addresses=()):
    pieces = []
    for name in ("to", "cc", "bcc"):
        value = action_input.get(name)  # AttributeError when the input is no dict
        if value is None:
            continue
        for text in [value] if isinstance(value, str) else list(value):  # TypeError on 42
            pieces += [p.strip() for p in re.split(r"[,;]", text)]  # TypeError on None in a list
    return bool(pieces) and all(_allowed(p, allowed_domains, allowed_addresses) for p in pieces)
