"""pass@k and pass^k: from c successes in n runs of a question, the chance that k runs succeed.

Built in lesson 17 (Variance). pass@k is the chance that at least one of k runs drawn from the n
succeeds (Chen et al., 2021, for code); pass^k the chance that all k do (Yao et al., 2024, for
agents), the reliability a user who asks k times needs. Both are unbiased estimators that draw
the k runs without replacement, computed with exact integers (`math.comb`), never factorials in
floats.
"""
from __future__ import annotations

from math import comb
from typing import Callable, Mapping


def check_ints(**counts: object) -> None:
    """Raise a TypeError naming the first of `counts` that is not an int (a bool is no count)."""
    for name, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int (a count of runs), got {value!r}")


MAX_RUNS = 100_000
"""The most runs of one question the estimators take: `comb` of larger counts can take seconds."""


def check_counts(n: int, c: int, k: int) -> None:
    """Raise a clear error unless n, c and k are ints with 0 <= c <= n <= MAX_RUNS and 1 <= k <= n."""
    check_ints(n=n, c=c, k=k)
    if not 1 <= n <= MAX_RUNS:
        raise ValueError(f"n is the number of runs of one question, from 1 to {MAX_RUNS:,}, got {n}")
    if not 0 <= c <= n:
        raise ValueError(f"c counts the runs that succeeded, from 0 to n={n}, got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be from 1 to n={n}: k runs are drawn from the n made; got k={k} "
                         f"(make at least k runs)")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The chance that at least one of k runs drawn from n (c of them right) is right. Built in lesson 17 (Variance)."""
    check_counts(n, c, k)
    return 1 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The chance that all k runs drawn from n (c of them right) are right: pass^k. Built in lesson 17 (Variance)."""
    check_counts(n, c, k)
    return comb(c, k) / comb(n, k)


def over_set(successes: Mapping[str, int], n: int, k: int,
             estimator: Callable[[int, int, int], float]) -> float:
    """The mean of `estimator(n, c, k)` over the questions' success counts. Built in lesson 17 (Variance)."""
    if not successes:
        raise ValueError("no questions: a mean over nothing is no data")
    return sum(estimator(n, c, k) for c in successes.values()) / len(successes)
