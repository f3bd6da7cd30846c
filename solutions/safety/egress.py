"""An egress policy: an email goes out unasked only to the recipients a shop allows.

Built in lesson 15 (Exfiltration). A leak is a call whose arguments carry data out, so the policy
reads the arguments: `allowed_recipients` is true only when every address in `to`, `cc` and `bcc`
is a plain address whose domain (or whole address) is on the allowed lists. `egress_policy` turns
that into a policy for lesson 09's gate (`GatedTools`): an email tool's call to allowed recipients
is approved, an email to anyone else is denied, and every other dangerous call gets `otherwise`.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable

from solutions.safety.approval import POLICIES, ToolCall

RECIPIENT_FIELDS = ("to", "cc", "bcc")
"""The arguments of an email call that name recipients."""

SEPARATOR = re.compile(r"[,;]")
"""What separates several addresses in one field: a comma or a semicolon."""

ADDRESS = re.compile(r"[A-Za-z0-9._%+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})")
"""A plain address (ASCII only, no display name, no trailing dot); group 1 is its domain."""

EMAIL_TOOLS = ("send_email",)
"""The tools whose calls the egress policy reads as emails."""


def lowered_names(names: Any, what: str) -> frozenset[str]:
    """The names of an allowed list, trimmed and lower case; TypeError for one string or a non-list."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TypeError(f"{what} must be a list of strings such as ['shop.example'], got {names!r}")
    listed = list(names)
    if not all(isinstance(name, str) for name in listed):
        raise TypeError(f"{what} must hold strings only, got {listed!r}")
    return frozenset(name.strip().lower() for name in listed)


def allowed_recipients(action_input: Any, allowed_domains: Iterable[str],
                       allowed_addresses: Iterable[str] = ()) -> bool:
    """True when an email call names at least one recipient and every one is allowed. Built in lesson 15 (Exfiltration).

    Every address in `to`, `cc` and `bcc` (a string of addresses separated by commas or
    semicolons, or a list of such strings) must be a plain address (`ADDRESS`) whose domain, or
    the whole address, is allowed, ignoring case. Anything else denies: False, never an error.
    """
    domains = lowered_names(allowed_domains, "allowed_domains")
    addresses = lowered_names(allowed_addresses, "allowed_addresses")
    if not isinstance(action_input, dict):
        return False
    pieces: list[str] = []
    for name in RECIPIENT_FIELDS:
        value = action_input.get(name)
        if value is None:  # the field is not there
            continue
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            return False
        pieces += [piece.strip() for v in values for piece in SEPARATOR.split(v)]
    if not pieces:
        return False
    for piece in pieces:
        match = ADDRESS.fullmatch(piece)
        if match is None or (match.group(1).lower() not in domains and piece.lower() not in addresses):
            return False
    return True


def egress_policy(allowed_domains: Iterable[str], allowed_addresses: Iterable[str] = (), *,
                  otherwise: str = "ask", email_tools: Iterable[str] = EMAIL_TOOLS
                  ) -> Callable[[ToolCall], str]:
    """A policy for the gate: emails to allowed recipients "approve", other emails "deny", any
    other dangerous call `otherwise`. Built in lesson 15 (Exfiltration).

    A tool the policy does not know as an email tool (renamed, or new) gets `otherwise`: a name
    here can only approve less, never more.
    """
    if otherwise not in POLICIES:
        raise ValueError(f"otherwise must be one of {', '.join(POLICIES)}, got {otherwise!r}")
    domains, addresses = lowered_names(allowed_domains, "allowed_domains"), lowered_names(allowed_addresses, "allowed_addresses")
    emails = lowered_names(email_tools, "email_tools")

    def policy(call: ToolCall) -> str:
        if call.action.strip().lower() not in emails:
            return otherwise
        return "approve" if allowed_recipients(call.action_input, domains, addresses) else "deny"

    return policy
