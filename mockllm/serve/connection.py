"""uvicorn's HTTP/1.1 protocol (h11) with the two limits it lacks: an idle limit from the moment a
connection opens, and a deadline for a request's headers.

uvicorn closes a keep-alive connection `timeout_keep_alive` seconds after its last response, but a
connection that never sends a byte, or sends its headers a byte a second, stays open forever. Here
a new connection is under the same idle limit as a kept-alive one, and once the first byte of a
request arrives, its request line and headers must all be there within `header_timeout` seconds;
else the connection is closed, with one log line. The body's deadline is the app's (`app.py`).
"""
from __future__ import annotations

import asyncio
import functools
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from mockllm.serve.limits import HEADER_TIMEOUT

log = logging.getLogger("mockllm.serve")


class GuardedH11Protocol(H11Protocol):
    """H11Protocol with an idle limit on new connections and a deadline for the headers."""

    def __init__(self, *args: object, header_timeout: float = HEADER_TIMEOUT,
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self._headers_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive,
                                                            self.timeout_keep_alive_handler)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        reading_headers = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if reading_headers and self._headers_timer is None:
            self._headers_timer = self.loop.call_later(self.header_timeout, self._headers_late)
        elif not reading_headers:
            self._cancel_headers_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_headers_timer()
        super().connection_lost(exc)

    def _cancel_headers_timer(self) -> None:
        if self._headers_timer is not None:
            self._headers_timer.cancel()
            self._headers_timer = None

    def _headers_late(self) -> None:
        """Close a connection whose request headers are still incomplete."""
        self._headers_timer = None
        if self.transport.is_closing():
            return
        peer = "%s:%d" % self.client if self.client else "?"
        log.warning("client %s sent no complete request headers within %g s: connection closed",
                    peer, self.header_timeout)
        self.timeout_keep_alive_handler()


def guarded_protocol(header_timeout: float = HEADER_TIMEOUT) -> functools.partial:
    """The protocol factory for `uvicorn.Config(http=...)`."""
    return functools.partial(GuardedH11Protocol, header_timeout=header_timeout)
