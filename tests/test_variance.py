"""Lesson 17's reference code: pass@k and pass^k, Wilson intervals and the gate over repeated runs."""
from __future__ import annotations

from itertools import combinations

import pytest

from solutions.evaluation.gate import RegressionError
from solutions.evaluation.intervals import (difference_interval, interval_verdict, repeated_gate,
                                            wilson_interval)
from solutions.evaluation.passk import over_set, pass_at_k, pass_hat_k


def by_enumeration(n: int, c: int, k: int) -> tuple[float, float]:
    """(pass@k, pass^k) by drawing every k of n runs (the first c right): the estimators' meaning."""
    draws = list(combinations(range(n), k))
    right = [sum(run < c for run in draw) for draw in draws]
    return sum(r > 0 for r in right) / len(draws), sum(r == k for r in right) / len(draws)


@pytest.mark.parametrize("n", range(1, 9))
def test_the_estimators_are_the_share_of_all_draws(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            at, hat = by_enumeration(n, c, k)
            assert pass_at_k(n, c, k) == pytest.approx(at, abs=1e-12)
            assert pass_hat_k(n, c, k) == pytest.approx(hat, abs=1e-12)


def test_large_n_stays_exact_and_finite() -> None:
    assert pass_hat_k(5000, 4999, 2500) == pytest.approx(0.5)
    assert pass_at_k(5000, 1, 2500) == pytest.approx(0.5)


@pytest.mark.parametrize("args", [(3, 2, 4), (3, 2, 0), (3, 4, 1), (3, -1, 1), (0, 0, 1)])
def test_counts_that_are_not_counts_are_refused(args: tuple) -> None:
    with pytest.raises(ValueError):
        pass_hat_k(*args)
    with pytest.raises(ValueError):
        pass_at_k(*args)


@pytest.mark.parametrize("args", [(3.0, 2, 1), (3, True, 1), (3, 2, "1")])
def test_counts_of_the_wrong_type_are_refused(args: tuple) -> None:
    with pytest.raises(TypeError, match="must be an int"):
        pass_hat_k(*args)


def test_over_set_is_the_mean_over_questions() -> None:
    assert over_set({"a": 4, "b": 0}, 4, 2, pass_hat_k) == 0.5
    with pytest.raises(ValueError, match="no questions"):
        over_set({}, 4, 1, pass_at_k)


def test_wilson_stays_in_0_1_and_holds_the_rate() -> None:
    for runs in range(1, 120):
        for successes in range(runs + 1):
            low, high = wilson_interval(successes, runs)
            rate = successes / runs  # the ends meet the rate at 0 and at runs, up to float rounding
            assert 0.0 <= low <= rate + 1e-12 and rate - 1e-12 <= high <= 1.0
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0


def test_wilson_narrows_with_more_runs_and_widens_with_z() -> None:
    width = [high - low for low, high in (wilson_interval(9 * m, 10 * m) for m in (1, 4, 16))]
    assert width[0] > width[1] > width[2]
    assert wilson_interval(5, 10, 2.576)[0] < wilson_interval(5, 10)[0]


def test_the_difference_interval_is_antisymmetric() -> None:
    low, high = difference_interval((344, 380), (336, 380))
    back = difference_interval((336, 380), (344, 380))
    assert (low, high) == pytest.approx((-back[1], -back[0]))
    assert low < 336 / 380 - 344 / 380 < high


def test_the_verdict_and_the_gate() -> None:
    assert interval_verdict((344, 380), (336, 380)) == "unclear"
    assert interval_verdict((380, 380), (370, 380)) == "worse"
    assert interval_verdict((370, 380), (380, 380)) == "better"
    repeated_gate((344, 380), (336, 380))
    repeated_gate((370, 380), (380, 380))
    with pytest.raises(RegressionError, match="380/380 to 370/380"):
        repeated_gate((380, 380), (370, 380))
    assert interval_verdict((36, 38), (33, 38)) == "unclear"  # one run each: too few to tell


def test_counts_too_large_for_exact_binomials_are_refused_with_the_limit_named() -> None:
    from solutions.evaluation.intervals import MAX_INTERVAL_RUNS, wilson_interval
    from solutions.evaluation.passk import MAX_RUNS, pass_at_k, pass_hat_k

    for estimator in (pass_at_k, pass_hat_k):
        assert 0 <= estimator(MAX_RUNS, MAX_RUNS // 2, MAX_RUNS // 2) <= 1  # the largest taken
        with pytest.raises(ValueError, match=f"{MAX_RUNS:,}"):
            estimator(10**12, 10**11, 10**6)  # math.comb of these runs for minutes
    with pytest.raises(ValueError, match="overflows a float"):
        wilson_interval(10**300, 10**301)
    low, high = wilson_interval(MAX_INTERVAL_RUNS // 2, MAX_INTERVAL_RUNS)
    assert low < 0.5 < high
