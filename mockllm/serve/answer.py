"""What the core answers to one HTTP request, and the API's JSON error shape.

An error body is shaped as the OpenAI API sends it, so the openai SDK raises its own classes
(`BadRequestError` for 400, `NotFoundError` for 404, `RateLimitError` for 429, ...) with
`.message`, `.type`, `.param` and `.code` filled in:

    {"error": {"message": "...", "type": "invalid_request_error", "param": "messages", "code": null}}
"""
from __future__ import annotations

import json
import re

JSON = "application/json"
SSE = "text/event-stream; charset=utf-8"
_QUOTED = re.compile(r"'([^'\s]{1,200})'")  # the first quoted name in a message: the field


class Answer:
    """An HTTP answer: status, headers, the body as a list of pieces, and the mock's exception.

    `chunks` holds one piece for a JSON body and one per event for a stream. `error` is the
    exception the mock raised (or None): the in-process transport re-raises a simulated timeout
    as a timeout, as a real connection would, and lets an unexpected one propagate. `hold` is the
    seconds the server waits before sending it (a simulated timeout, `failures.py`), else 0.
    """

    __slots__ = ("status", "headers", "chunks", "error", "hold")

    def __init__(self, status: int, headers: dict[str, str], chunks: list[bytes],
                 error: BaseException | None = None, hold: float = 0.0) -> None:
        self.status = status
        self.headers = headers
        self.chunks = chunks
        self.error = error
        self.hold = hold

    @property
    def body(self) -> bytes:
        """The whole body as bytes."""
        return b"".join(self.chunks)

    def __repr__(self) -> str:
        return f"Answer(status={self.status}, {len(self.body)} bytes)"


def dumps(value: object) -> bytes:
    """Encode `value` as compact JSON in UTF-8 (ASCII escapes when a lone surrogate forbids UTF-8)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode("ascii")


def json_answer(status: int, value: object, headers: dict[str, str] | None = None,
                error: BaseException | None = None) -> Answer:
    """Return an Answer whose body is `value` as JSON."""
    return Answer(status, {"content-type": JSON, **(headers or {})}, [dumps(value)], error)


def error_answer(status: int, message: str, kind: str = "invalid_request_error", *,
                 param: str | None = None, code: str | None = None,
                 headers: dict[str, str] | None = None, error: BaseException | None = None) -> Answer:
    """Return an Answer in the API's error shape: {"error": {message, type, param, code}}."""
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return json_answer(status, body, headers, error)


def param_of(message: str) -> str | None:
    """Return the field a ValueError/TypeError message names (its first quoted name), or None."""
    match = _QUOTED.search(message)
    return match.group(1) if match else None


def bad_request(error: Exception) -> Answer:
    """HTTP 400 for a request the mock rejected with a ValueError or TypeError."""
    message = str(error)
    param = getattr(error, "param", None) or param_of(message)  # a BadRequestError names its own
    return error_answer(400, message, param=param, code=getattr(error, "code", None), error=error)
