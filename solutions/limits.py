"""Run one call under a time limit, so that no exercise case can hang a notebook.

`solutions.check` runs every case through `run_limited(call, seconds)`. Two runners:

- **fork** (Linux): the call runs in a forked child process, which inherits everything the
  notebook defined (no pickling of your function), gets an address-space limit of
  `MEMORY_HEADROOM` bytes above the notebook's own, and is killed at the deadline. It bounds
  everything: a Python loop, one long C-level operation such as `2 ** 10 ** 10`, a huge
  allocation (which fails with MemoryError). Side effects of the call stay in the child.
- **thread** (macOS, Windows, or wherever fork is missing): the call runs in this thread; a
  watchdog thread raises `CaseTimeout` in it at the deadline (`PyThreadState_SetAsyncExc`), and
  again every `RETRY_SECONDS` if the code swallows it. It interrupts Python code at its next
  bytecode, which covers `while True: pass` and a loop with no step limit. Its limits: a single
  long C-level operation (`2 ** 10 ** 10` written in your own code, `time.sleep(60)`) runs to its
  end before the interruption lands; a loop that catches BaseException and carries on is never
  stopped; there is no memory limit. The course's cases are built
  so that none of them makes a wrong solution do such work (see `solutions/cases/lesson01.py`).

macOS gets the thread runner because forking a process that may hold Objective-C runtime state
is unsafe there (the reason `multiprocessing` stopped forking on macOS).
"""
from __future__ import annotations

import ctypes
import os
import pickle
import select
import signal
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable

MEMORY_HEADROOM = 2 * 1024 ** 3   # bytes a forked case may allocate beyond the notebook's own
RETRY_SECONDS = 0.05              # how often the thread runner re-raises a swallowed timeout
RUNNERS = ("fork", "thread")
DEFAULT_RUNNER = "fork" if sys.platform.startswith("linux") and hasattr(os, "fork") else "thread"


class CaseTimeout(BaseException):
    """Raised inside a call that ran past its deadline (thread runner); not an Exception on purpose."""


@dataclass(frozen=True)
class Outcome:
    """How a limited call ended: kind "done" (with its value), "timeout" or "crashed" (with detail)."""

    kind: str
    value: Any = None
    detail: str = ""


def run_limited(call: Callable[[], Any], seconds: float, runner: str = DEFAULT_RUNNER) -> Outcome:
    """Run `call()` for at most `seconds`; with the fork runner its value must be picklable.

    An exception escaping `call` becomes Outcome("crashed", detail="Type: message").
    """
    if runner not in RUNNERS:
        raise ValueError(f"runner must be one of {', '.join(RUNNERS)}, got {runner!r}")
    if seconds <= 0:
        return Outcome("timeout")
    return _in_child(call, seconds) if runner == "fork" else _in_thread(call, seconds)


# ---------------------------------------------------------------- fork runner

def _in_child(call: Callable[[], Any], seconds: float) -> Outcome:
    """Fork; the child runs `call` and pickles its outcome into a pipe; kill it at the deadline."""
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns about forking a threaded process
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child_main(call, write_end)
    os.close(write_end)
    try:
        data = _read_until(read_end, time.monotonic() + seconds)
    finally:
        os.close(read_end)
        status = _reap(pid)
    if data is None:
        return Outcome("timeout")
    try:
        return pickle.loads(data)
    except Exception:  # nothing, or half a message: the child died while working
        died = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else "no result"
        return Outcome("crashed", detail=f"the process running the case died ({died})")


def _child_main(call: Callable[[], Any], write_end: int) -> None:
    """In the child: limit memory, run the call, send the pickled Outcome, exit at once."""
    try:
        _limit_memory()
        try:
            outcome = Outcome("done", call())
        except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
            outcome = Outcome("crashed", detail=f"{type(exc).__name__}: {exc}")
        try:
            data = pickle.dumps(outcome)
        except Exception as exc:  # a value that cannot travel back
            data = pickle.dumps(Outcome("crashed", detail=f"result not picklable ({exc})"))
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
    finally:
        os._exit(0)  # no atexit handlers, no flushing of the notebook's streams


def _limit_memory() -> None:
    """Cap the child's address space at its current size plus MEMORY_HEADROOM (best effort)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = used + MEMORY_HEADROOM
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass


def _read_until(read_end: int, deadline: float) -> bytes | None:
    """Read the pipe to its end; None when the deadline passes first."""
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([read_end], [], [], remaining)[0]:
            return None
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int) -> int:
    """Kill the child if it still runs, wait for it and return its exit status."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return os.waitpid(pid, 0)[1]


# ---------------------------------------------------------------- thread runner

def _in_thread(call: Callable[[], Any], seconds: float) -> Outcome:
    """Run `call` here while a watchdog raises CaseTimeout in this thread at the deadline."""
    target, finished = threading.get_ident(), threading.Event()

    def watch() -> None:
        if finished.wait(seconds):
            return
        while not finished.is_set():
            _raise_in(target, CaseTimeout)
            finished.wait(RETRY_SECONDS)

    watcher = threading.Thread(target=watch, name="case-deadline", daemon=True)
    outcome = Outcome("timeout")
    try:
        try:
            watcher.start()
            outcome = Outcome("done", call())
        except Exception as exc:  # reported like the fork runner does; KeyboardInterrupt goes on
            outcome = Outcome("crashed", detail=f"{type(exc).__name__}: {exc}")
        finally:
            _stop(watcher, finished, target)
    except CaseTimeout:
        pass
    return outcome


def _stop(watcher: threading.Thread, finished: threading.Event, target: int) -> None:
    """Stop the watchdog for good, even if a last CaseTimeout lands meanwhile, and clear it."""
    while True:
        try:
            finished.set()
            if watcher.is_alive():
                watcher.join()
            break
        except CaseTimeout:
            continue
    _raise_in(target, None)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Schedule `exc` in the thread (None clears a pending one); a no-op outside CPython."""
    api = getattr(ctypes, "pythonapi", None)
    if api is not None:
        api.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                      ctypes.py_object(exc) if exc is not None else None)
