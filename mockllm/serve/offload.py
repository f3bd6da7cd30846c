"""Large requests answered in a process of their own, so the small ones beside them keep their pace.

Reading a conversation of several megabytes takes the mock about a second of Python work. In a
worker thread it still shares the interpreter's lock with every other request, so a small
request beside it waits its turn at each step. A reply is a pure function of the request (the
only state is the call counter behind `failures=`, see `sessions.py`), so a chat completion of
at least `OFFLOAD_BYTES` (`--offload-bytes`; 0 for never) can be answered by a second process running the same `Service`, on
another core. It is not done, and everything stays in the server's process, when:

- the server simulates failures (`failures=`): every call must reach the one counter;
- the request is a Responses one: `previous_response_id` reads the responses the server keeps.

The process is started (with `spawn`, safe beside threads) on the first large request and
stopped with the server; a large request that finds it broken is answered in the server's own
process, so the answer never depends on it. One that gets no answer within `WAIT_SECONDS` (a
process that never started: `spawn` runs the script that started the server again, so a script
calling `cli.serve()` needs the usual `if __name__ == "__main__":`) is answered here too, and the
second process is given up for the server's lifetime, with one warning in the log.
"""
from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from mockllm.serve.limits import OFFLOAD_BYTES

WAIT_SECONDS = 60.0
"""How long a large request waits for the second process before it is answered here."""
_SERVICE = None  # the second process's Service, made by `_start`
log = logging.getLogger("mockllm.serve")


def _start(options: dict) -> None:
    """In the second process: the Service that answers the large requests."""
    global _SERVICE
    from mockllm.serve.core import Service
    from mockllm.serve.sessions import Sessions, conversation_key

    _SERVICE = Service(Sessions(options, conversation_key))


def _answer(headers: dict, body: bytes) -> object:
    """In the second process: answer one chat completion."""
    return _SERVICE.complete(headers, body)


class Offload:
    """The second process, started when first needed; `answer` returns None when it cannot serve."""

    def __init__(self, options: Mapping, threshold: int = OFFLOAD_BYTES,
                 wait: float = WAIT_SECONDS, task: Callable = _answer) -> None:
        self.options = dict(options)
        self.threshold = threshold
        self.wait = wait
        self.task = task  # what the second process runs for a request (a test may hold it)
        self.enabled = threshold > 0 and not self.options.get("failures")
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        atexit.register(self.close)

    def takes(self, route: str, body: bytes) -> bool:
        """Whether this request goes to the second process."""
        return self.enabled and route == "/chat/completions" and len(body) >= self.threshold

    def answer(self, headers: Mapping, body: bytes) -> object | None:
        """The Answer from the second process, or None when it is broken (answer it here)."""
        try:
            future: Future = self._executor().submit(self.task, dict(headers), body)
            return future.result(timeout=self.wait)
        except TimeoutError:
            log.warning("the second process gave no answer within %g s: large requests are answered "
                        "in the server's process from now on", self.wait)
            self.enabled = False
            self.close(wait=False)
            return None
        except BrokenProcessPool:
            self.close()  # started again by the next large request
            return None
        except Exception:  # e.g. an answer that cannot be sent back: answered here instead
            return None

    def _executor(self) -> ProcessPoolExecutor:
        """The pool of one process, started on first use."""
        with self._lock:
            if self._pool is None:
                import multiprocessing

                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start, initargs=(self.options,))
            return self._pool

    def close(self, wait: bool = True) -> None:
        """Stop the second process, if it runs (`wait=False`: kill it, do not wait for its work)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        if not wait:
            for process in list((getattr(pool, "_processes", None) or {}).values()):  # a held process ends now
                process.kill()
        pool.shutdown(wait=wait, cancel_futures=True)
