"""Run calls under limits of CPU time, so that no exercise case can hang a notebook.

`solutions.course.check` runs the cases of an exercise through `run_each(calls, case_seconds,
total_seconds)`, and `run_limited(call, seconds)` runs a single call.

**The clock is CPU time.** A case is stopped when it has *worked* for `case_seconds` (the CPU
time of the process or thread running it), not when that much time has passed: on a laptop
busy with a video call and other notebooks, a correct function gets a small share of a core,
and waits longer, without working more, so it gets the same verdict as on an idle machine. A
case that waits without working (`time.sleep(60)`, a blocked read) is stopped by the wall
clock after `WALL_FACTOR` times its limit.

Two runners:

- **fork** (Linux): the calls run one after another in a forked child process, which inherits
  everything the notebook defined (no pickling of your function), gets an address-space limit of
  `MEMORY_HEADROOM` bytes above the notebook's own, and is killed when the call it is running is
  out of time (a child that dies mid-call is replaced for the calls after it). It bounds
  everything: a Python loop, one long C-level operation such as `2 ** 10 ** 10`, a huge
  allocation (which fails with MemoryError). Side effects of the call stay in the child. Its
  CPU time is read from `/proc/<pid>/stat` (the wall clock where that is missing).
- **thread** (macOS, Windows, or wherever fork is missing): the call runs in this thread; a
  watchdog thread raises `CaseTimeout` in it when it is out of time (`PyThreadState_SetAsyncExc`),
  and again every `RETRY_SECONDS` if the code swallows it. Its clock is the CPU time of this
  thread where the platform gives it (`time.pthread_getcpuclockid`), else of this process. It
  interrupts Python code at its next bytecode, which covers `while True: pass` and a loop with no
  step limit. Its limits: a single long C-level operation (`2 ** 10 ** 10` written in your own
  code, `time.sleep(60)`) runs to its end before the interruption lands; a loop that catches
  BaseException and carries on is never stopped; there is no memory limit. The course's cases are
  built so that none of them makes a wrong solution do such work (see
  `solutions/course/cases/lesson01.py`).

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
WALL_FACTOR = 5.0                 # a call that waits without working is stopped after this many times its CPU limit
POLL_SECONDS = 0.02               # how often the CPU time of a running call is read
RUNNERS = ("fork", "thread")
DEFAULT_RUNNER = "fork" if sys.platform.startswith("linux") and hasattr(os, "fork") else "thread"


class CaseTimeout(BaseException):
    """Raised inside a call that ran past its deadline (thread runner); not an Exception on purpose."""


@dataclass(frozen=True)
class Outcome:
    """How a limited call ended: kind "done" (with its value), "timeout" or "crashed" (with detail).

    A timeout's detail says which limit ran out: "case" (the call's own) or "total" (the run's).
    """

    kind: str
    value: Any = None
    detail: str = ""


def run_limited(call: Callable[[], Any], seconds: float, runner: str = DEFAULT_RUNNER) -> Outcome:
    """Run `call()` for at most `seconds` of CPU time; with the fork runner its value must be picklable.

    An exception escaping `call` becomes Outcome("crashed", detail="Type: message").
    """
    outcomes = run_each([call], seconds, runner=runner)
    return outcomes[0] if outcomes else Outcome("timeout", detail="case")


def run_each(calls: Sequence[Callable[[], Any]], case_seconds: float,
             total_seconds: float | None = None, runner: str = DEFAULT_RUNNER) -> list[Outcome]:
    """Run the calls one after another, each for at most `case_seconds` of CPU time, all of them
    for at most `total_seconds` (None: no total limit).

    Returns one Outcome per call run: the list ends early after a timeout, or when no time is
    left for the next call. The fork runner runs them all in one child (a new one after a crash),
    so a check costs one fork, not one per case; their side effects stay in the child.
    """
    if runner not in RUNNERS:
        raise ValueError(f"runner must be one of {', '.join(RUNNERS)}, got {runner!r}")
    run = _in_child if runner == "fork" else _in_thread
    return run(list(calls), _Budget(case_seconds, total_seconds))


class _Budget:
    """The time left to the calls of one `run_each`: CPU seconds per call and in total, and the
    wall-clock backstop of WALL_FACTOR times each."""

    def __init__(self, case_seconds: float, total_seconds: float | None) -> None:
        """A budget of `case_seconds` per call and `total_seconds` (or no limit) for all."""
        self.case = case_seconds
        self.total = float("inf") if total_seconds is None else total_seconds
        self.cpu_spent = self.wall_spent = 0.0

    def start(self, cpu: Callable[[], float]) -> "_Deadline | None":
        """The deadline of the next call, timed by the clock `cpu`; None when no time is left."""
        seconds = min(self.case, self.total - self.cpu_spent)
        wall = min(self.case, self.total - self.wall_spent / WALL_FACTOR) * WALL_FACTOR
        if seconds <= 0 or wall <= 0:
            return None
        limit = "case" if seconds >= self.case and wall >= self.case * WALL_FACTOR else "total"
        return _Deadline(self, seconds, wall, cpu, limit)


class _Deadline:
    """When one call is out of time: after `seconds` of the clock `cpu`, or `wall` seconds."""

    def __init__(self, budget: _Budget, seconds: float, wall: float, cpu: Callable[[], float],
                 limit: str) -> None:
        """Start timing now."""
        self.budget, self.seconds, self.wall, self.cpu, self.limit = budget, seconds, wall, cpu, limit
        self.cpu_start, self.wall_start = cpu(), time.monotonic()

    def left(self) -> float:
        """Seconds before the first of the two limits runs out (at most; <= 0 when it has)."""
        return min(self.seconds - (self.cpu() - self.cpu_start),
                   self.wall - (time.monotonic() - self.wall_start))

    def finish(self) -> None:
        """Charge the time this call used to the budget."""
        self.budget.cpu_spent += self.cpu() - self.cpu_start
        self.budget.wall_spent += time.monotonic() - self.wall_start

    def timeout(self) -> Outcome:
        """The Outcome of a call stopped by this deadline."""
        return Outcome("timeout", detail=self.limit)


# ---------------------------------------------------------------- fork runner

_LENGTH = 8  # bytes of the length that goes before each pickled Outcome in the pipe


def _in_child(calls: list[Callable[[], Any]], budget: _Budget) -> list[Outcome]:
    """Run the calls in forked children (one, or a new one after each crash)."""
    outcomes: list[Outcome] = []
    while len(outcomes) < len(calls):
        finished = _one_child(calls, len(outcomes), budget, outcomes)
        if finished:
            break
    return outcomes


def _one_child(calls: list[Callable[[], Any]], start: int, budget: _Budget,
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
    reader, died, clock = _Frames(read_end), False, _cpu_clock(pid)
    try:
        for _index in range(start, len(calls)):
            deadline = budget.start(clock)
            if deadline is None:
                return True
            frame = reader.next(deadline)
            deadline.finish()
            if frame is None:
                outcomes.append(deadline.timeout())
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


def _cpu_clock(pid: int) -> Callable[[], float]:
    """A clock of the CPU seconds process `pid` has used, from /proc (the wall clock without it)."""
    path, tick, last = f"/proc/{pid}/stat", os.sysconf("SC_CLK_TCK"), 0.0

    def read() -> float:
        nonlocal last
        try:
            with open(path, "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            last = (int(fields[11]) + int(fields[12])) / tick  # utime + stime, in ticks
        except (OSError, IndexError, ValueError):  # gone (reaped) or unreadable: time stands still
            pass
        return last

    try:
        open(path, "rb").close()
    except OSError:
        return time.monotonic
    return read


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

    def next(self, deadline: _Deadline) -> bytes | None:
        """The next frame; b"" when the pipe closes first, None when the deadline passes first."""
        ended = self._fill(_LENGTH, deadline)
        wanted = _LENGTH + int.from_bytes(self.buffer[:_LENGTH], "big")
        ended = ended or self._fill(wanted, deadline)
        if ended:
            return None if ended == "late" else b""
        frame = bytes(self.buffer[_LENGTH:wanted])
        del self.buffer[:wanted]
        return frame

    def _fill(self, size: int, deadline: _Deadline) -> str:
        """Read until `size` bytes are buffered: "" then, else "late" or "closed"."""
        while len(self.buffer) < size:
            remaining = deadline.left()
            if remaining <= 0:
                return "late"
            if not select.select([self.fd], [], [], min(remaining, POLL_SECONDS))[0]:
                continue
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

def _in_thread(calls: list[Callable[[], Any]], budget: _Budget) -> list[Outcome]:
    """Each call here, under a watchdog; stop at the first timeout."""
    outcomes: list[Outcome] = []
    clock = _thread_clock(threading.get_ident())
    for call in calls:
        deadline = budget.start(clock)
        if deadline is None:
            break
        outcome = _one_in_thread(call, deadline)
        deadline.finish()
        outcomes.append(outcome)
        if outcome.kind == "timeout":
            break
    return outcomes


def _thread_clock(thread_id: int) -> Callable[[], float]:
    """A clock of the CPU seconds the thread has used (of this process where threads have none)."""
    try:
        clock_id = time.pthread_getcpuclockid(thread_id)
        time.clock_gettime(clock_id)
    except (AttributeError, OSError):
        return time.process_time
    return lambda: time.clock_gettime(clock_id)


def _one_in_thread(call: Callable[[], Any], deadline: _Deadline) -> Outcome:
    """Run `call` here while a watchdog raises CaseTimeout in this thread at the deadline."""
    target, finished = threading.get_ident(), threading.Event()

    def watch() -> None:
        while (left := deadline.left()) > 0:
            if finished.wait(min(left, POLL_SECONDS)):
                return
        while not finished.is_set():
            _raise_in(target, CaseTimeout)
            finished.wait(RETRY_SECONDS)

    watcher = threading.Thread(target=watch, name="case-deadline", daemon=True)
    outcome = deadline.timeout()
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
