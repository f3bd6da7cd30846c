"""The server's default limits, in one module that needs no server package: the command line
shows them in `--help` even where the `serve` extra is not installed."""
from __future__ import annotations

HEADER_TIMEOUT = 10.0
"""Seconds from a request's first byte to the end of its headers (then the connection is closed)."""
BODY_TIMEOUT = 30.0
"""Seconds a request's whole body may take to arrive after its headers (HTTP 408 after)."""
IDLE_TIMEOUT = 5.0
"""Seconds a connection may wait with no request under way (uvicorn's keep-alive default)."""
THREADS = 8
"""Worker threads answering requests at once; more wait for a free one."""
OFFLOAD_BYTES = 1024 * 1024
"""A chat completion body at least this large is answered in a second process (0: never)."""
TIMEOUT_HOLD_LIMIT = 30.0
"""The longest client read timeout a simulated timeout waits out (longer: HTTP 408 at once)."""
