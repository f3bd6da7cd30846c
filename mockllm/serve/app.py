"""The ASGI app of the OpenAI-compatible server: starlette in front of the shared core.

Starlette reads the request and writes the response; what to answer is decided by
`core.Service.handle`, the same code the in-process transport runs. The body is read with a
limit (HTTP 413 above `core.MAX_BODY`), a stream is sent as one server-sent event per chunk, and
an unexpected exception becomes an HTTP 500 in the API's error shape, logged with its traceback:
no request ends the server.
"""
from __future__ import annotations

import logging

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from mockllm.serve.answer import Answer, error_answer
from mockllm.serve.core import MAX_BODY, Service, too_large

DRAIN_LIMIT = 8 * MAX_BODY
"""Past MAX_BODY the rest of a body is read and dropped up to this size, so the client gets its 413."""
log = logging.getLogger("mockllm.serve")


class Endpoint:
    """The ASGI endpoint behind every path: read, ask the core, respond."""

    def __init__(self, service: Service) -> None:
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        body = await read_body(request)
        if body is None:
            answer = too_large()
        else:
            answer = self.service.handle(request.method, request.url.path, request.headers, body)
        if answer.status >= 500 and answer.error is not None:
            log.error("error answering %s %s", request.method, request.url.path,
                      exc_info=answer.error)
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


def create_app(service: Service) -> Starlette:
    """The ASGI app answering every path and method through `service`."""
    return Starlette(routes=[Route("/{path:path}", Endpoint(service))],
                     exception_handlers={Exception: _server_error})
