"""A simulated failure over HTTP, so that the openai SDK raises its own class for it.

- The SDK's retries of a failed call are that call again, and fail the same way: it retries HTTP
  408, 409, 429, 5xx and timeouts by itself (`max_retries`, 2 by default) and says which try a
  request is in `x-stainless-retry-count`. So `failures={3: "rate_limit"}` reaches the caller's
  code as `openai.RateLimitError` whatever `max_retries` is, after the SDK's tries, like a rate
  limit that outlasts them; the caller's own next request is the next call.
- A rate limit is HTTP 429 with `retry-after: 1` (whole seconds, as the API sends it) and
  `retry-after-ms: 10`, which the SDK reads first: its retries wait 10 ms each, not seconds.
- A timeout is what a hung request is to the client: its read timeout passing. The SDK sends it
  in `x-stainless-read-timeout`; when it is at most TIMEOUT_HOLD_LIMIT seconds, the server holds
  the answer (an HTTP 408) until HOLD_MARGIN past it, the client gives up, and the SDK raises
  `openai.APITimeoutError`. A longer timeout (the SDK's default is 600 s) is not waited out: the
  408 comes at once, and the SDK raises `openai.APIStatusError` with `status_code` 408.
"""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.errors import (APITimeoutError, MockAPIError, RateLimitError, retry_headers,
                                     simulated_failure)
from mockllm.serve.answer import Answer, error_answer
from mockllm.serve.limits import TIMEOUT_HOLD_LIMIT

RETRY_COUNT_HEADER = "x-stainless-retry-count"
"""The header in which the openai SDKs number their tries of one request (0 the first)."""
READ_TIMEOUT_HEADER = "x-stainless-read-timeout"
"""The header in which the openai SDKs send their read timeout, in seconds."""
HOLD_MARGIN = 0.2
"""Seconds the answer to a simulated timeout is held past the client's read timeout."""


def repeated_failure(client: object, headers: Mapping) -> MockAPIError | None:
    """The failure of `client`'s last call again, when `headers` say this is the SDK's retry of
    it; else None (the request is a call of its own)."""
    tries = headers.get(RETRY_COUNT_HEADER, "0")
    if not (tries.isascii() and tries.isdigit() and int(tries) > 0):
        return None
    call = client.calls
    kind = client.failures.get(call)
    return simulated_failure(kind, call) if kind is not None else None


def simulated_answer(error: Exception, headers: Mapping) -> Answer | None:
    """HTTP 429 for a simulated rate limit, 408 (held, see the module) for a simulated timeout,
    None for any other exception."""
    message = getattr(error, "message", str(error))
    if isinstance(error, RateLimitError):
        return error_answer(429, message, "requests", code="rate_limit_exceeded",
                            headers=retry_headers(), error=error)
    if not isinstance(error, APITimeoutError):
        return None
    answer = error_answer(408, message, "timeout", code="timeout", headers=retry_headers(),
                          error=error)
    timeout = read_timeout(headers)
    if timeout is not None and timeout <= TIMEOUT_HOLD_LIMIT:
        answer.hold = timeout + HOLD_MARGIN
    return answer


def read_timeout(headers: Mapping) -> float | None:
    """The client's read timeout in seconds, from READ_TIMEOUT_HEADER; None when absent or not
    a number above 0."""
    try:
        seconds = float(headers.get(READ_TIMEOUT_HEADER, ""))
    except ValueError:
        return None
    return seconds if 0 < seconds < float("inf") else None
