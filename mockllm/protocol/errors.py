"""Errors the mock raises, named like the openai SDK's so the same `except` clauses work for both."""
from __future__ import annotations

from collections.abc import Mapping

FAILURE_KINDS = ("rate_limit", "timeout")
"""The kinds accepted in `MockLLM(failures={call_number: kind})`."""


class MockAPIError(Exception):
    """Base of the simulated API failures; `.call` is the 1-based number of the failing call."""

    status_code: int | None = None

    def __init__(self, message: str, *, call: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.call = call


class RateLimitError(MockAPIError):
    """Simulated HTTP 429: too many requests; a real client waits and retries."""

    status_code = 429


class APITimeoutError(MockAPIError):
    """Simulated timeout: the request took too long and was abandoned; retrying may succeed."""


class ScriptExhaustedError(RuntimeError):
    """A scripted client was asked for more replies than its script holds.

    A RuntimeError rather than a ValueError (the request itself is fine) or a MockAPIError (a
    retry loop must not retry it): the script has simply run out.
    """


def check_failures(failures: object) -> dict[int, str]:
    """Check `failures=` ({call number: kind}) and return it as a new dict (ValueError/TypeError)."""
    if failures is None:
        return {}
    accepted = f"a dict {{call number (int from 1): kind}} with kinds {', '.join(FAILURE_KINDS)}"
    if not isinstance(failures, Mapping):
        raise TypeError(f"Invalid type for 'failures': expected {accepted}, got {failures!r:.60}.")
    for call, kind in failures.items():
        if not isinstance(call, int) or isinstance(call, bool) or call < 1:
            raise ValueError(f"Invalid value for 'failures': call number {call!r}. Accepted: {accepted}.")
        if kind not in FAILURE_KINDS:
            raise ValueError(f"Invalid value for 'failures[{call}]': {kind!r}. "
                             f"Accepted: {', '.join(FAILURE_KINDS)}.")
    return dict(failures)


def simulated_failure(kind: str, call: int) -> MockAPIError:
    """Return the error that `failures={call: kind}` asks for, with a message saying why."""
    origin = f"this client was created with failures={{{call}: {kind!r}}}"
    if kind == "rate_limit":
        return RateLimitError(
            f"Simulated rate limit on call {call} ({origin}). A real API answers HTTP 429 when "
            "requests come too fast: wait a little and retry, with a limit on the retries.",
            call=call,
        )
    if kind == "timeout":
        return APITimeoutError(
            f"Simulated timeout on call {call} ({origin}). A real request can hang and be "
            "abandoned: retry it, with a limit on the retries.",
            call=call,
        )
    raise ValueError(f"unknown failure kind {kind!r}; accepted: {', '.join(FAILURE_KINDS)}")
