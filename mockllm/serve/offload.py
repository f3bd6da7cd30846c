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
process, so the answer never depends on it.
"""
from __future__ import annotations

import atexit
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from mockllm.serve.limits import OFFLOAD_BYTES

_SERVICE = None  # the second process's Service, made by `_start`


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

    def __init__(self, options: Mapping, threshold: int = OFFLOAD_BYTES) -> None:
        self.options = dict(options)
        self.threshold = threshold
        self.enabled = threshold > 0 and not self.options.get("failures")
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def takes(self, route: str, body: bytes) -> bool:
        """Whether this request goes to the second process."""
        return self.enabled and route == "/chat/completions" and len(body) >= self.threshold

    def answer(self, headers: Mapping, body: bytes) -> object | None:
        """The Answer from the second process, or None when it is broken (answer it here)."""
        try:
            future: Future = self._executor().submit(_answer, dict(headers), body)
            return future.result()
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
                atexit.register(self.close)
            return self._pool

    def close(self) -> None:
        """Stop the second process, if it runs."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
