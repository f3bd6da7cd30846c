"""Cases for lesson 15 (Exfiltration): `allowed_recipients`."""
from __future__ import annotations

from typing import Any

from solutions.course.exercises import Case, Cause, Exercise

DOMAINS = ["shop.example"]
ADDRESSES = ["li.wei@example.com"]


def _case(action_input: Any, expected: bool, hint: str, domains: list | None = None,
          addresses: list | None = None) -> Case:
    """A case: allowed_recipients(action_input, domains, addresses) returns `expected`."""
    domains = DOMAINS if domains is None else domains
    addresses = ADDRESSES if addresses is None else addresses
    return Case(args=(action_input, domains, addresses), expected=expected, hint=hint,
                label=f"allowed_recipients({action_input!r}, {domains!r}, {addresses!r})")


RECIPIENT_CASES = (
    _case({"to": "ann@shop.example"}, True, "an address on an allowed domain is allowed: True"),
    _case({"to": "li.wei@example.com"}, True, "an allowed address is allowed, even when its domain "
          "(example.com) is not: compare the whole address with allowed_addresses too"),
    _case({"to": "Ann@SHOP.Example"}, True, "addresses have no case here: compare the domain and the "
          "address in lower case (.lower() on both sides)"),
    _case({"to": "ann@shop.example"}, True, "the allowed lists have no case either: lower-case them "
          "too (lowered_names does)", domains=["Shop.Example"]),
    _case({"to": "x@evil.example"}, False, "a domain that is not allowed: False"),
    _case({"to": "x@example.com"}, False, "li.wei@example.com is allowed, not its whole domain: "
          "x@example.com is someone else"),
    _case({"to": "x@evil-shop.example"}, False, "the domain must equal an allowed one: "
          "'evil-shop.example' ends with 'shop.example' and holds it, yet it is another domain; "
          "test equality, not endswith or in"),
    _case({"to": "x@shop.example.evil.example"}, False, "the domain is 'shop.example.evil.example', "
          "which evil.example owns; 'shop.example' inside it means nothing: compare the whole domain"),
    _case({"to": "li.wei@example.com <x@evil.example>"}, False, "a display name or angle brackets "
          "hide the address the mail goes to: deny anything that is not a plain address "
          "(ADDRESS.fullmatch), do not search the field for the first address"),
    _case({"to": "ann@shop.example; bob@shop.example"}, True, "one field may hold several "
          "addresses: split it at commas and semicolons (SEPARATOR), strip each, check each"),
    _case({"to": "x@evil.example, ann@shop.example"}, False, "one field may hold several addresses: "
          "split it at commas and semicolons (SEPARATOR) and check every one; the last @ of the field "
          "names only the last address"),
    _case({"to": ["ann@shop.example", "bob@shop.example"]}, True, "a field may be a list of strings: "
          "check every address of every string"),
    _case({"to": ["ann@shop.example", "x@evil.example"]}, False, "a field may be a list of strings: "
          "one address not allowed denies the email"),
    _case({"to": "x@sh\u00f6p.example"}, False, "'sh\u00f6p.example' is another domain, which someone "
          "else can own: do not fold accents or look-alike letters away; a plain address is ASCII "
          "(ADDRESS), so refuse it"),
    _case({"to": "x@evil.example@shop.example"}, False, "two @ signs: not a plain address, and a "
          "mailer may read it otherwise than your check; deny what ADDRESS.fullmatch refuses, do not "
          "take the text after the last @"),
    _case({"to": "x@shop.example."}, False, "a trailing dot is not the plain form the lists hold: "
          "ADDRESS.fullmatch refuses it, so deny"),
    _case({}, False, "no recipient at all: there is nothing to check, so deny (all() of nothing is "
          "True: test that you found at least one address)"),
    _case({"to": ""}, False, "an empty field holds no address: deny"),
    _case({"to": "ann@shop.example", "bcc": "x@evil.example"}, False, "read cc and bcc too: a hidden "
          "copy is a recipient like any other"),
    _case({"to": "ann@shop.example", "cc": "x@evil.example"}, False, "read cc and bcc too: a copy is "
          "a recipient like any other"),
    _case({"to": 42}, False, "a field that is neither a string nor a list of strings: deny, do not "
          "raise (a check on outgoing mail that crashes lets it out, or stops all mail)"),
    _case({"to": ["ann@shop.example", None]}, False, "a list with something that is not a string: "
          "deny, do not raise"),
    _case("x@evil.example", False, "the call's input is not a dict: deny, do not raise"),
)
RECIPIENT_CAUSES = (
    Cause(lambda value: not isinstance(value, bool), "returns something that is not a bool: return True "
          "or False"),
)


EXERCISES = [
    Exercise(name="allowed_recipients", lesson="15", reference="solutions.safety.egress:allowed_recipients",
             cases=RECIPIENT_CASES, causes=RECIPIENT_CAUSES),
]
