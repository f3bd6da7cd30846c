"""A regression gate over repeated runs: Wilson intervals on the success rates, and on their difference.

Built in lesson 17 (Variance). Lesson 10's gate compares one run with the baseline and a fixed
tolerance; here each side is s successes in N runs (every question run n times), and a change is
"worse" only when the whole 95% interval of the difference lies below 0 (Newcombe's method: the
difference's interval built from the two Wilson intervals), "better" when it lies above, and
"unclear" otherwise: more runs, not a looser tolerance, settle it.
"""
from __future__ import annotations

from math import sqrt

from solutions.evaluation.gate import RegressionError
from solutions.evaluation.passk import check_ints

MAX_INTERVAL_RUNS = 10**15
"""The most runs `wilson_interval` takes: beyond, runs squared overflows a float."""
Z_95 = 1.96
"""The normal quantile of a two-sided 95% interval, to two places (as it is usually written)."""


def wilson_interval(successes: int, runs: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a success rate, clamped to [0, 1]. Built in lesson 17 (Variance)."""
    check_ints(successes=successes, runs=runs)
    if not 1 <= runs <= MAX_INTERVAL_RUNS:
        raise ValueError(f"runs must be from 1 to {MAX_INTERVAL_RUNS:,} (no runs is no data, not a "
                         f"rate; more overflows a float); got {runs}")
    if not 0 <= successes <= runs:
        raise ValueError(f"successes must be from 0 to runs={runs}, got {successes}")
    p = successes / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(before: tuple[int, int], after: tuple[int, int],
                        z: float = Z_95) -> tuple[float, float]:
    """The interval of after's rate minus before's, each (successes, runs) (Newcombe, 1998). Built in lesson 17 (Variance)."""
    (s1, n1), (s2, n2) = before, after
    low1, high1 = wilson_interval(s1, n1, z)
    low2, high2 = wilson_interval(s2, n2, z)
    p1, p2 = s1 / n1, s2 / n2
    return (p2 - p1 - sqrt((p2 - low2) ** 2 + (high1 - p1) ** 2),
            p2 - p1 + sqrt((high2 - p2) ** 2 + (p1 - low1) ** 2))


def interval_verdict(before: tuple[int, int], after: tuple[int, int], z: float = Z_95) -> str:
    """'worse' or 'better' when the difference's interval excludes 0, else 'unclear'. Built in lesson 17 (Variance)."""
    low, high = difference_interval(before, after, z)
    if high < 0:
        return "worse"
    return "better" if low > 0 else "unclear"


def repeated_gate(before: tuple[int, int], after: tuple[int, int], z: float = Z_95) -> None:
    """Raise RegressionError when the change is worse beyond doubt at this z. Built in lesson 17 (Variance)."""
    if interval_verdict(before, after, z) == "worse":
        low, high = difference_interval(before, after, z)
        raise RegressionError(f"success rate dropped from {before[0]}/{before[1]} to {after[0]}/"
                              f"{after[1]}: the difference is {low:+.1%} to {high:+.1%}, below 0")
