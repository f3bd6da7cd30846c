"""Start and stop the servers the tests run on 127.0.0.1 (JupyterLab, the course's lab)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

START_SECONDS = 90  # JupyterLab's start on a busy two-core machine


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen, log: Path) -> None:
    """Return once `url` answers 200; fail with the server's log if it exits or takes too long."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"JupyterLab did not answer within {START_SECONDS} s:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen, base: str, token: str) -> None:
    """Shut the server down with its kernels; then end its whole process group, whatever is left."""
    try:  # the server's own shutdown stops the kernels it started, in their own sessions
        request = urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST")
        urllib.request.urlopen(request, timeout=5).close()
        process.wait(15)
    except Exception:  # refused, timed out or still running: the signals below end it
        pass
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue
