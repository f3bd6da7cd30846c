"""Run one call under a time limit, so that no exercise case can hang a notebook.

`solutions.course.check` runs the cases of an exercise through `run_each(calls, seconds_for)`, and
`run_limited(call, seconds)` runs a single call. Two runners:

- **fork** (Linux): the calls run one after another in a forked child process, which inherits
  everything the notebook defined (no pickling of your function), gets an address-space limit of
  `MEMORY_HEADROOM` bytes above the notebook's own, and is killed at the deadline of the call it
  is running (a child that dies mid-call is replaced for the calls after it). It bounds
  everything: a Python loop, one long C-level operation such as `2 ** 10 ** 10`, a huge
  allocation (which fails with MemoryError). Side effects of the call stay in the child.
- **thread** (macOS, Windows, or wherever fork is missing): the call runs in this thread; a
  watchdog thread raises `CaseTimeout` in it at the deadline (`PyThreadState_SetAsyncExc`), and
  again every `RETRY_SECONDS` if the code swallows it. It interrupts Python code at its next
  bytecode, which covers `while True: pass` and a loop with no step limit. Its limits: a single
  long C-level operation (`2 ** 10 ** 10` written in your own code, `time.sleep(60)`) runs to its
  end before the interruption lands; a loop that catches BaseException and carries on is never
  stopped; there is no memory limit. The course's cases are built
  so that none of them makes a wrong solution do such work (see `solutions/course/cases/lesson01.py`).

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
from typing import Any, Callable, Sequence

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
    outcomes = run_each([call], lambda _index: seconds, runner)
    return outcomes[0] if outcomes else Outcome("timeout")


def run_each(calls: Sequence[Callable[[], Any]], seconds_for: Callable[[int], float],
             runner: str = DEFAULT_RUNNER) -> list[Outcome]:
    """Run the calls one after another, call i for at most `seconds_for(i)` seconds (asked as it starts).

    Returns one Outcome per call run: the list ends early after a timeout, or when `seconds_for`
    gives no time left. The fork runner runs them all in one child (a new one after a crash), so a
    check costs one fork, not one per case; their side effects stay in the child.
    """
    if runner not in RUNNERS:
        raise ValueError(f"runner must be one of {', '.join(RUNNERS)}, got {runner!r}")
    run = _in_child if runner == "fork" else _in_thread
    return run(list(calls), seconds_for)


# ---------------------------------------------------------------- fork runner

_LENGTH = 8  # bytes of the length that goes before each pickled Outcome in the pipe


def _in_child(calls: list[Callable[[], Any]], seconds_for: Callable[[int], float]) -> list[Outcome]:
    """Run the calls in forked children (one, or a new one after each crash)."""
    outcomes: list[Outcome] = []
    while len(outcomes) < len(calls):
        finished = _one_child(calls, len(outcomes), seconds_for, outcomes)
        if finished:
            break
    return outcomes


def _one_child(calls: list[Callable[[], Any]], start: int, seconds_for: Callable[[int], float],
               outcomes: list[Outcome]) -> bool:
    """Run calls[start:] in one child, appending to `outcomes`; True when nothing more is to run."""
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns about forking a threaded process
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child_main(calls[start:], write_end)
    os.close(write_end)
    reader, died = _Frames(read_end), False
    try:
        for index in range(start, len(calls)):
            seconds = seconds_for(index)
            if seconds <= 0:
                return True
            frame = reader.next(time.monotonic() + seconds)
            if frame is None:
                outcomes.append(Outcome("timeout"))
                return True
            if not frame:  # the pipe closed before a whole Outcome came: the child died
                died = True
                break
            outcomes.append(pickle.loads(frame))
        else:
            return True
    finally:
        os.close(read_end)
        status = _reap(pid)
    if died:
        how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else "no result"
        outcomes.append(Outcome("crashed", detail=f"the process running the case died ({how})"))
    return False


def _child_main(calls: list[Callable[[], Any]], write_end: int) -> None:
    """In the child: limit memory, run each call, send each pickled Outcome, exit at once."""
    try:
        _limit_memory()
        for call in calls:
            try:
                outcome = Outcome("done", call())
            except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
                outcome = Outcome("crashed", detail=f"{type(exc).__name__}: {exc}")
            try:
                data = pickle.dumps(outcome)
            except Exception as exc:  # a value that cannot travel back
                data = pickle.dumps(Outcome("crashed", detail=f"result not picklable ({exc})"))
            view = memoryview(len(data).to_bytes(_LENGTH, "big") + data)
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


class _Frames:
    """Reads length-prefixed frames from a pipe, each under a deadline."""

    def __init__(self, fd: int) -> None:
        """Frames from the read end `fd`."""
        self.fd, self.buffer = fd, bytearray()

    def next(self, deadline: float) -> bytes | None:
        """The next frame; b"" when the pipe closes first, None when the deadline passes first."""
        ended = self._fill(_LENGTH, deadline)
        wanted = _LENGTH + int.from_bytes(self.buffer[:_LENGTH], "big")
        ended = ended or self._fill(wanted, deadline)
        if ended:
            return None if ended == "late" else b""
        frame = bytes(self.buffer[_LENGTH:wanted])
        del self.buffer[:wanted]
        return frame

    def _fill(self, size: int, deadline: float) -> str:
        """Read until `size` bytes are buffered: "" then, else "late" or "closed"."""
        while len(self.buffer) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.fd], [], [], remaining)[0]:
                return "late"
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return "closed"
            self.buffer += chunk
        return ""


def _reap(pid: int) -> int:
    """Kill the child if it still runs, wait for it and return its exit status."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return os.waitpid(pid, 0)[1]


# ---------------------------------------------------------------- thread runner

def _in_thread(calls: list[Callable[[], Any]], seconds_for: Callable[[int], float]) -> list[Outcome]:
    """Each call here, under a watchdog; stop at the first timeout."""
    outcomes: list[Outcome] = []
    for index, call in enumerate(calls):
        seconds = seconds_for(index)
        outcome = _one_in_thread(call, seconds) if seconds > 0 else None
        if outcome is None:
            break
        outcomes.append(outcome)
        if outcome.kind == "timeout":
            break
    return outcomes


def _one_in_thread(call: Callable[[], Any], seconds: float) -> Outcome:
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
