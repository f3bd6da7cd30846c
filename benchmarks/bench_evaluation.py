"""Benchmark lesson 10's evaluation: the full sweep, and one persona's episodes per second.

Run:  python benchmarks/bench_evaluation.py
The sweep runs the guarded agent of lesson 05 against the mock, one fresh mock and world per
episode, without a progress bar, in this one process (one core). It prints the full sweep's
size and best time (the lesson promises about a second), and the episodes per second with the
diligent persona alone: a figure to compare machines and changes, not a goal (it depends on the
machine more than on the code; one slower machine read 1,218 with nothing else running).
"""
from __future__ import annotations

import time

from mockllm import personas
from solutions.evaluation.dataset import EVAL_SET
from solutions.evaluation.sweep import VARIANTS, sweep

ROUNDS = 5


def best_time(names: list[str]) -> tuple[int, float]:
    """(episodes, best seconds of ROUNDS) of the sweep over `names`."""
    best, size = float("inf"), 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        size = len(sweep(EVAL_SET, names, progress=False))
        best = min(best, time.perf_counter() - start)
    return size, best


def main() -> None:
    """Time the full sweep and the diligent persona's sweep; print sizes, times and rates."""
    names = list(personas())
    size, seconds = best_time(names)
    assert size == len(EVAL_SET) * len(names) * len(VARIANTS)
    print(f"evaluation sweep: {len(EVAL_SET)} questions x {len(names)} personas x {len(VARIANTS)} "
          f"prompt variants = {size:,} episodes in {seconds:.2f} s (best of {ROUNDS}), "
          f"{size / seconds:,.0f} episodes/s")
    size, seconds = best_time(["diligent"])
    print(f"diligent persona alone: {size} episodes in {seconds * 1000:.0f} ms (best of {ROUNDS}), "
          f"{size / seconds:,.0f} episodes/s on one core")


if __name__ == "__main__":
    main()
