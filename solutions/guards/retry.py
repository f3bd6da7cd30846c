"""Retry rate limits and timeouts with exponential backoff, within a budget. Built in lesson 05 (Failure clinic).

The policy follows the openai SDK's own (which already retries twice by default): wait 0.5 s,
then 1 s, 2 s, ... at most 8 s, or what the server's `retry-after` header asks (up to 60 s).
The SDK also shortens each wait by a random 0-25 % ("jitter", so that many clients do not retry
in step); here the waits are exact, so that runs repeat. The sleep is a parameter: tests and
notebooks pass one that records the wait instead of waiting.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable

from mockllm import APITimeoutError, RateLimitError

FIRST_DELAY = 0.5    # seconds before the first retry
MAX_DELAY = 8.0      # the longest wait between two tries
MAX_RETRY_AFTER = 60.0  # a longer retry-after is not honoured: the run gives up instead
TRANSIENT = ("RateLimitError", "APITimeoutError", "APIConnectionError", "InternalServerError")
"""Class names of the errors worth a retry, the mock's and openai's (found without importing openai)."""


class RetriesExhausted(Exception):
    """Every try of one request failed; `.stop_reason` is 'retries_exhausted'. Built in lesson 05 (Failure clinic)."""

    stop_reason = "retries_exhausted"


@dataclass(frozen=True)
class Retry:
    """One failed try: the error's class name and the wait before the next try."""

    error: str
    delay: float


def is_transient(error: BaseException) -> bool:
    """True for a rate limit, a timeout, a lost connection or a server error: a retry may work. Built in lesson 05 (Failure clinic)."""
    if isinstance(error, (RateLimitError, APITimeoutError)):
        return True
    if any(cls.__name__ in TRANSIENT for cls in type(error).__mro__):
        return True
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and (status in (408, 409, 429) or status >= 500)


def backoff_delay(retry: int, retry_after: float | None = None) -> float:
    """Seconds to wait before retry number `retry` (0 first): retry-after when given, else 0.5 * 2**retry, at most 8. Built in lesson 05 (Failure clinic)."""
    if retry_after is not None and 0 < retry_after <= MAX_RETRY_AFTER:
        return retry_after
    return min(FIRST_DELAY * 2 ** min(retry, 16), MAX_DELAY)


def retry_after(error: BaseException) -> float | None:
    """The `retry-after` header of an API error's response, in seconds, or None."""
    headers = getattr(getattr(error, "response", None), "headers", None)
    try:
        return float(headers.get("retry-after")) if headers is not None else None
    except (TypeError, ValueError):
        return None


class RetryingClient:
    """A client whose `chat.completions.create` retries transient errors, `max_retries` times a request. Built in lesson 05 (Failure clinic)."""

    def __init__(self, client: Any, max_retries: int = 3,
                 sleep: Callable[[float], Any] = time.sleep) -> None:
        """Wrap `client`; `sleep(seconds)` is called for each wait (inject a recorder in tests)."""
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be an int >= 0, got {max_retries!r}")
        if not callable(sleep):
            raise TypeError(f"sleep must be callable, like time.sleep, got {type(sleep).__name__}")
        self.client, self.max_retries, self.sleep = client, max_retries, sleep
        self.retries: list[Retry] = []  # every failed try of this client, in order
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        """Send the request; on a transient error wait and retry; RetriesExhausted after the budget."""
        for retry in range(self.max_retries + 1):
            try:
                return self.client.chat.completions.create(**request)
            except Exception as error:
                if not is_transient(error):
                    raise  # a bad request or a bug: retrying would fail the same way
                if retry == self.max_retries:
                    self.retries.append(Retry(type(error).__name__, 0.0))
                    raise RetriesExhausted(f"{self.max_retries + 1} tries failed; last: {error}") from error
                delay = backoff_delay(retry, retry_after(error))
                self.retries.append(Retry(type(error).__name__, delay))
                self.sleep(delay)
        raise AssertionError("unreachable")  # the loop always returns or raises
