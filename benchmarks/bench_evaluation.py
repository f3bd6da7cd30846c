"""Benchmark lesson 10's full sweep: every question x every persona x every prompt variant.

Run:  python benchmarks/bench_evaluation.py
The sweep runs the guarded agent of lesson 05 against the mock, one fresh mock and world per
episode, without a progress bar. The lesson promises it finishes in about a second; this prints
its size, the best of a few rounds and the episodes per second.
"""
from __future__ import annotations

import time

from mockllm import personas
from solutions.evaluation.dataset import EVAL_SET
from solutions.evaluation.sweep import VARIANTS, sweep

ROUNDS = 3


def main() -> None:
    """Time the full sweep ROUNDS times and print the best round."""
    names = personas()
    size = len(EVAL_SET) * len(names) * len(VARIANTS)
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        runs = sweep(EVAL_SET, names, progress=False)
        best = min(best, time.perf_counter() - start)
        assert len(runs) == size
    print(f"evaluation sweep: {len(EVAL_SET)} questions x {len(names)} personas x {len(VARIANTS)} "
          f"prompt variants = {size:,} episodes in {best:.2f} s (best of {ROUNDS}), "
          f"{size / best:,.0f} episodes/s")


if __name__ == "__main__":
    main()
