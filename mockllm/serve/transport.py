"""An httpx2 transport that answers from the mock in process: no socket, no network.

The openai SDK builds a real HTTP request; the transport hands its method, path, headers and body
to the core (`core.Service.handle`, the same code the server runs) and turns the Answer into an
`httpx2.Response` (for every path the core serves: chat completions, responses, models). Two
cases differ from the server, as a real connection differs from a status code: a simulated
timeout is raised as `httpx2.ReadTimeout` (the SDK turns it into `openai.APITimeoutError`, after
its own retries), and an unexpected exception of the mock propagates with its traceback instead
of becoming an HTTP 500.
"""
from __future__ import annotations

from collections.abc import Callable

import httpx2

from mockllm.serve.core import Service


def handler(service: Service) -> Callable[[httpx2.Request], httpx2.Response]:
    """Return the function that answers one httpx2 request with `service`."""
    from mockllm.protocol.errors import APITimeoutError

    def answer(request: httpx2.Request) -> httpx2.Response:
        result = service.handle(request.method, request.url.path, request.headers, request.read())
        if isinstance(result.error, APITimeoutError):
            raise httpx2.ReadTimeout(str(result.error), request=request)
        if result.status >= 500 and result.error is not None:
            raise result.error
        return httpx2.Response(result.status, headers=result.headers, content=result.body,
                               request=request)

    return answer


def mock_transport(service: Service) -> httpx2.MockTransport:
    """A transport for `httpx2.Client` and `httpx2.AsyncClient` that answers from `service`."""
    return httpx2.MockTransport(handler(service))
