"""Run `python -m mockllm serve` in a child process, for tests, benchmarks and notebooks.

    with ServerProcess("--persona", "sloppy") as server:
        client = openai.OpenAI(base_url=server.url, api_key="any")
        ...
    # stopped with SIGTERM on leaving the block; server.returncode is 0 after a clean stop

The port is picked by the system (`--port 0`); the URL comes from the server's first line.
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile

START_TIMEOUT = 30.0
"""Seconds to wait for the `listening on ...` line before giving up."""


class ServerProcess:
    """A mock server in a child process, bound to 127.0.0.1 on a free port."""

    def __init__(self, *options: str, host: str = "127.0.0.1") -> None:
        self.command = [sys.executable, "-m", "mockllm", "serve", "--host", host, "--port", "0",
                        *options]
        self.process: subprocess.Popen | None = None
        self.url = ""
        self.returncode: int | None = None
        self.log = None

    def start(self) -> ServerProcess:
        """Start the server and wait for its first line; raise RuntimeError if it does not come."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.log = tempfile.TemporaryFile(mode="w+")  # the server's stderr, never a full pipe
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=self.log,
                                        text=True, env=env)
        line = _first_line(self.process, START_TIMEOUT)
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"the mock server did not start: {line!r} {self.errors()[-2000:]}")
        self.url = line.split()[-1]
        return self

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        """Send `sig`, wait for the exit (kill after `timeout` s) and return the exit code."""
        process = self.process
        if process is None:
            raise RuntimeError("the server was never started")
        if process.poll() is None:
            process.send_signal(sig)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()
        self.returncode = process.returncode
        return self.returncode

    def errors(self) -> str:
        """What the server wrote to stderr so far (tracebacks of HTTP 500s, start-up errors)."""
        self.log.seek(0)
        return self.log.read()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        if self.process is not None and self.returncode is None:
            self.stop()


def _first_line(process: subprocess.Popen, timeout: float) -> str:
    """The child's first line of output, or '' if none comes within `timeout` seconds."""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            return ""
    return process.stdout.readline().strip()
