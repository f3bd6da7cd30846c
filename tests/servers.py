"""Start and stop the servers the tests run on 127.0.0.1 (JupyterLab, the course's lab)."""
from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

START_SECONDS = 90  # JupyterLab's start on a busy two-core machine
ROOT = Path(__file__).resolve().parents[1]


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


@contextlib.contextmanager
def jupyterlab(module: str, home: Path, root: Path, *options: str) -> Iterator[tuple[str, str]]:
    """(base URL, token) of `python -m module` (a JupyterLab) on 127.0.0.1 serving `root`, with
    its own config, data, runtime, workspaces and settings folders under `home`; its whole process
    group is stopped at the end, even when a check fails."""
    token, port = secrets.token_hex(16), free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", module, "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               "--ServerApp.port_retries=0", *options]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = home / "lab.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{base}/api/status?token={token}", process, log)
        yield base, token
    finally:
        stop(process, base, token)


def hold(headers: dict, body: bytes) -> None:
    """A second process's task that never answers in time (tests/test_server_load.py)."""
    time.sleep(600)
