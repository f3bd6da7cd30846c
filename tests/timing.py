"""Timing for the growth tests: how time grows with the input, never an absolute wall time.

The time measured is the CPU time of the calling thread (`time.thread_time`): what the code under
test costs, not how long the machine made it wait. Six busy loops beside the tests stretch wall
times tenfold at random; they barely move a thread's CPU time.
"""
from __future__ import annotations

import gc
import time
from typing import Any, Callable


def best_seconds(call: Callable[[], Any], repeats: int = 3,
                 setup: Callable[[], Any] | None = None) -> float:
    """The best of `repeats` CPU timings of `call()` in this thread, with the garbage collector paused meanwhile.

    `setup()`, when given, runs before each timing, outside it (e.g. emptying memos).

    The best of several, and no collection of the test session's heap inside a timing, so that
    a busy machine or a collection does not make one measurement look like worse growth.
    """
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeats):
            if setup is not None:
                setup()
            start = time.thread_time()
            call()
            best = min(best, time.thread_time() - start)
    finally:
        gc.enable()
    return best
