"""Errors the mock raises, named like the openai SDK's so the same `except` clauses work for both.

When the program has imported `openai`, a simulated failure is raised as a class that is both the
mock's and openai's (`isinstance(error, openai.RateLimitError)` and `mockllm.RateLimitError`
both hold), carrying a fake HTTP response like the SDK's: status 429 and the `retry-after` and
`retry-after-ms` headers the server sends (`retry_headers()`) for a rate limit, and a request
for a timeout. Without openai they are plain mockllm classes:
mockllm never imports openai itself (code that writes `except openai.RateLimitError` has
imported it already). Bad requests are not API errors here: they raise ValueError/TypeError
naming the field, where the real API answers HTTP 400 (`openai.BadRequestError`). Three bad
requests that the API names by a `code` raise a `BadRequestError`, which is a ValueError too (and
an `openai.BadRequestError` once openai is imported): a prompt over the model's context window
(`ContextLengthExceededError`, code `context_length_exceeded`) and, for a reasoning model, a
parameter it does not take (`UnsupportedParameterError`, `unsupported_parameter`) or a value it
does not take (`UnsupportedValueError`, `unsupported_value`). Their `.code` and `.param` are the
API's, and the server sends them in its 400.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping

RETRY_AFTER_SECONDS = "1"
"""The `retry-after` header of a simulated failure: whole seconds, as the API sends it."""
RETRY_AFTER_MS = "10"
"""Its `retry-after-ms` header, which the openai SDK reads first: its own retries wait 10 ms."""
_URL = "https://mockllm.local/v1/chat/completions"

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


class BadRequestError(MockAPIError, ValueError):
    """A bad request the API answers with HTTP 400 and names by a `code` (and the `param` at fault).

    A ValueError, as every bad request to the mock is; `code` and `param` are class attributes
    of each kind below, so the error can be made again from its message alone.
    """

    status_code = 400
    code: str | None = None
    param: str | None = None
    _openai_name = "BadRequestError"


class ContextLengthExceededError(BadRequestError):
    """The prompt (with the completion asked for) is longer than the model's context window."""

    code = "context_length_exceeded"
    param = "messages"


class UnsupportedParameterError(BadRequestError):
    """A parameter the model does not take (a reasoning model and `max_tokens` or `stop`)."""

    code = "unsupported_parameter"

    def __init__(self, message: str, *, call: int | None = None, param: str | None = None) -> None:
        super().__init__(message, call=call)
        if param is not None:
            self.param = param


class UnsupportedValueError(UnsupportedParameterError):
    """A value the model does not take (a reasoning model and a temperature other than 1)."""

    code = "unsupported_value"


class ScriptExhaustedError(RuntimeError):
    """A scripted client was asked for more replies than its script holds.

    A RuntimeError rather than a ValueError (the request itself is fine) or a MockAPIError (a
    retry loop must not retry it): the script has simply run out.
    """


def retry_headers() -> dict[str, str]:
    """The headers that say how long to wait before retrying a simulated failure."""
    return {"retry-after": RETRY_AFTER_SECONDS, "retry-after-ms": RETRY_AFTER_MS}


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
        return _raised(RateLimitError)(
            f"Simulated rate limit on call {call} ({origin}). A real API answers HTTP 429 when "
            "requests come too fast: wait a little and retry, with a limit on the retries.",
            call=call,
        )
    if kind == "timeout":
        return _raised(APITimeoutError)(
            f"Simulated timeout on call {call} ({origin}). A real request can hang and be "
            "abandoned: retry it, with a limit on the retries.",
            call=call,
        )
    raise ValueError(f"unknown failure kind {kind!r}; accepted: {', '.join(FAILURE_KINDS)}")


_OPENAI_CLASSES: dict[tuple[type, type], type] = {}


def _raised(cls: type[MockAPIError]) -> type[MockAPIError]:
    """The class to raise for `cls`: also a subclass of openai's namesake when openai is loaded."""
    openai = sys.modules.get("openai")
    name = getattr(cls, "_openai_name", cls.__name__)
    base = getattr(openai, name, None) if openai is not None else None
    if not (isinstance(base, type) and issubclass(base, Exception)):
        return cls
    key = (cls, base)
    if key not in _OPENAI_CLASSES:
        _OPENAI_CLASSES[key] = type(cls.__name__, (cls, base), {
            "__init__": _openai_init, "__module__": cls.__module__, "__qualname__": cls.__qualname__,
            "__reduce__": _reduce, "__doc__": cls.__doc__, "_openai_base": base,
        })
    return _OPENAI_CLASSES[key]


def _openai_init(self: MockAPIError, message: str, *, call: int | None = None,
                 param: str | None = None) -> None:
    """Initialise the openai side (a fake request and response), then the mock's fields."""
    httpx = _httpx()
    request = httpx.Request("POST", _URL)
    openai_base = type(self)._openai_base
    bad = isinstance(self, BadRequestError)
    if bad and param is not None:
        self.param = param
    if self.status_code is None:  # APITimeoutError(request)
        openai_base.__init__(self, request)
    else:
        body = {"error": {"message": message, "type": "invalid_request_error" if bad else "requests",
                          "param": self.param if bad else None,
                          "code": self.code if bad else "rate_limit_exceeded"}}
        headers = {"x-request-id": f"req_mock_{call}", **({} if bad else retry_headers())}
        response = httpx.Response(self.status_code, headers=headers, json=body, request=request)
        openai_base.__init__(self, message, response=response, body=body["error"])
    self.args = (message,)
    self.message = message
    self.call = call
    if bad:  # openai's __init__ read code and param from the body: the mock's own, again
        self.code, self.param = body["error"]["code"], body["error"]["param"]


def _reduce(self: MockAPIError) -> tuple:
    """Pickle as the plain mockllm class (the combined class exists only in this process)."""
    plain = type(self).__mro__[1]
    return (_rebuild, (plain, self.message, self.call, getattr(self, "param", None)))


def _rebuild(cls: type, message: str, call: int | None, param: str | None = None) -> MockAPIError:
    """Recreate a pickled simulated failure as the plain mockllm class."""
    error = cls(message, call=call)
    if param is not None:
        error.param = param
    return error


def raise_bad_request(cls: type[BadRequestError], message: str, param: str | None = None) -> None:
    """Raise `cls` (an openai.BadRequestError too when openai is loaded) with `message`."""
    error = _raised(cls)(message) if param is None else _raised(cls)(message, param=param)
    raise error


def _httpx() -> object:
    """The httpx module openai itself uses (`httpx2` for the pinned SDK, else `httpx`)."""
    exceptions = sys.modules.get("openai._exceptions")
    module = getattr(exceptions, "httpx2", None) or getattr(exceptions, "httpx", None)
    if module is None:
        try:
            import httpx2 as module
        except ImportError:
            import httpx as module
    return module
