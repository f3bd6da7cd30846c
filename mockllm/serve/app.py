"""The ASGI app of the OpenAI-compatible server: starlette in front of the shared core.

Starlette reads the request and writes the response; what to answer (`POST /v1/chat/completions`,
`POST /v1/responses`, `GET /v1/models`, or a 404 naming those) is decided by
`core.Service.handle`, the same code the in-process transport runs. That work (parsing the JSON,
reading the conversation, writing the reply) runs in a bounded pool of worker threads, never on
the event loop, so a large request does not hold up the small ones beside it. The body is read
with a limit (HTTP 413 above `core.MAX_BODY`) and a deadline (HTTP 408 when it is not all there
`body_timeout` seconds after the headers, and the connection is closed); a client that leaves
before its body is complete is logged in one line. A stream is sent as one server-sent event per
chunk, and an unexpected exception becomes an HTTP 500 in the API's error shape, logged with its
traceback: no request ends the server.
"""
from __future__ import annotations

import logging

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from mockllm.serve.answer import Answer, error_answer
from mockllm.serve.core import MAX_BODY, Service, too_large
from mockllm.serve.limits import BODY_TIMEOUT, THREADS

DRAIN_LIMIT = 8 * MAX_BODY
"""Past MAX_BODY the rest of a body is read and dropped up to this size, so the client gets its 413."""
log = logging.getLogger("mockllm.serve")


class Endpoint:
    """The ASGI endpoint behind every path: read, ask the core (in a worker thread), respond."""

    def __init__(self, service: Service, body_timeout: float = BODY_TIMEOUT,
                 threads: int = THREADS) -> None:
        self.service = service
        self.body_timeout = body_timeout
        self.threads = threads
        self._limiter: anyio.CapacityLimiter | None = None  # made in the loop that uses it

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            with anyio.fail_after(self.body_timeout):
                body = await read_body(request)
        except TimeoutError:
            log.warning("%s sent no complete body within %g s: answered 408, connection closed",
                        _client(request), self.body_timeout)
            await to_response(timed_out(self.body_timeout))(scope, receive, send)
            return
        except ClientDisconnect:
            log.warning("%s disconnected before sending the whole body of %s %s",
                        _client(request), request.method, request.url.path)
            return
        if body is None:
            answer = too_large()
        else:
            if self._limiter is None:
                self._limiter = anyio.CapacityLimiter(self.threads)
            answer = await anyio.to_thread.run_sync(
                self.service.handle, request.method, request.url.path, request.headers, body,
                limiter=self._limiter)
        if answer.status >= 500 and answer.error is not None:
            log.error("error answering %s %s", request.method, request.url.path,
                      exc_info=answer.error)
        if answer.hold:  # a simulated timeout: sent after the client's read timeout has passed
            await anyio.sleep(answer.hold)
        await to_response(answer)(scope, receive, send)


async def read_body(request: Request) -> bytes | None:
    """The request body, or None when it is larger than MAX_BODY bytes."""
    parts, size = [], 0
    async for piece in request.stream():
        size += len(piece)
        if size <= MAX_BODY:
            parts.append(piece)
        elif size > DRAIN_LIMIT:
            break
    return None if size > MAX_BODY else b"".join(parts)


def timed_out(seconds: float) -> Answer:
    """HTTP 408 for a body that did not arrive in time; the connection is closed after it."""
    answer = error_answer(408, f"The request body did not arrive within {seconds:g} s.",
                          "timeout", code="timeout")
    answer.headers["connection"] = "close"
    return answer


def _client(request: Request) -> str:
    """'client HOST:PORT', as the log names a connection."""
    peer = request.client
    return f"client {peer.host}:{peer.port}" if peer else "a client"


def to_response(answer: Answer) -> Response:
    """The starlette response of an Answer: a stream of events, or the whole body at once."""
    if answer.headers.get("content-type", "").startswith("text/event-stream"):
        async def events() -> object:
            for chunk in answer.chunks:
                yield chunk

        return StreamingResponse(events(), status_code=answer.status, headers=answer.headers)
    return Response(answer.body, status_code=answer.status, headers=answer.headers)


async def _server_error(request: Request, error: Exception) -> Response:
    """HTTP 500 in the API's shape for an exception outside the core (e.g. a broken upload)."""
    log.error("error reading %s %s", request.method, request.url.path, exc_info=error)
    return to_response(error_answer(500, f"The server failed: {type(error).__name__}",
                                    "server_error"))


def create_app(service: Service, body_timeout: float = BODY_TIMEOUT,
               threads: int = THREADS) -> Starlette:
    """The ASGI app answering every path and method through `service`, in `threads` threads."""
    return Starlette(routes=[Route("/{path:path}", Endpoint(service, body_timeout, threads))],
                     exception_handlers={Exception: _server_error})
