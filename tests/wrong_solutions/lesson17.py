"""Wrong solutions of lesson 17's exercises (pass_hat_k, wilson_interval)."""
from __future__ import annotations

from math import comb, factorial, sqrt

from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("17")


def _counts_ok(n: int, c: int, k: int) -> None:
    """The counts checked as the exercise asks (for the wrong solutions whose fault is elsewhere)."""
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"bad counts n={n}, c={c}, k={k}")


# ---------------------------------------------------------------- pass_hat_k

@CATALOGUE.wrong("pass_hat_k", fault="c / n**k, the rate divided by a power of n",
                 says="not a power such as c / n**k")
def hat_rate_over_power(n, c, k):
    _counts_ok(n, c, k)
    return c / n ** k


@CATALOGUE.wrong("pass_hat_k", fault="(c / n) ** k: the k runs drawn with replacement",
                 says="draws with replacement")
def hat_with_replacement(n, c, k):
    _counts_ok(n, c, k)
    return (c / n) ** k


@CATALOGUE.wrong("pass_hat_k", fault="pass@k (at least one right) instead of pass^k (all right)",
                 says="is pass@k (at least one right)")
def hat_is_pass_at_k(n, c, k):
    _counts_ok(n, c, k)
    return 1 - comb(n - c, k) / comb(n, k)


@CATALOGUE.wrong("pass_hat_k", fault="integer division: comb(c, k) // comb(n, k)",
                 says="not with integer division (//)")
def hat_integer_division(n, c, k):
    _counts_ok(n, c, k)
    return comb(c, k) // comb(n, k)


@CATALOGUE.wrong("pass_hat_k", fault="binomials from factorials in floats: overflows for a large n",
                 says="a float overflow")
def hat_float_factorials(n, c, k):
    _counts_ok(n, c, k)
    if k > c:
        return 0.0
    def choose(a, b):
        return factorial(a) / factorial(b) / factorial(a - b)
    return choose(c, k) / choose(n, k)


@CATALOGUE.wrong("pass_hat_k", fault="k > n not checked: C(n, k) is 0, a ZeroDivisionError",
                 says="raises ZeroDivisionError where ValueError is expected")
def hat_k_above_n(n, c, k):
    if not 0 <= c <= n or k < 1:
        raise ValueError("bad counts")
    return comb(c, k) / comb(n, k)


@CATALOGUE.wrong("pass_hat_k", fault="k > n answered 0.0 instead of refused",
                 says="k = 4 runs cannot be drawn from n = 3")
def hat_k_above_n_is_zero(n, c, k):
    if not 0 <= c <= n or k < 1:
        raise ValueError("bad counts")
    return comb(c, k) / comb(n, k) if k <= n else 0.0


@CATALOGUE.wrong("pass_hat_k", fault="c > n accepted: a 'chance' above 1",
                 says="c = 4 successes of n = 3 runs is not a count")
def hat_c_above_n(n, c, k):
    if not 1 <= k <= n:
        raise ValueError("bad k")
    return comb(c, k) / comb(n, k)


@CATALOGUE.wrong("pass_hat_k", fault="k = 0 accepted: C(c, 0) / C(n, 0) is 1.0",
                 says="k = 0 draws nothing")
def hat_k_zero(n, c, k):
    if not 0 <= c <= n or k > n:
        raise ValueError("bad counts")
    return comb(c, k) / comb(n, k)


# ---------------------------------------------------------------- wilson_interval

def _wilson_parts(successes, runs, z):
    """(centre, half) of Wilson's interval, with true division."""
    p = successes / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    return centre, z * sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator


def _checked(successes, runs):
    if runs < 1 or not 0 <= successes <= runs:
        raise ValueError("bad counts")


@CATALOGUE.wrong("wilson_interval", fault="the Wald interval p ± z*sqrt(p(1-p)/n), clamped",
                 says="(Wald) collapses to (1.0, 1.0)")
def wilson_is_wald(successes, runs, z=1.96):
    _checked(successes, runs)
    p = successes / runs
    half = z * sqrt(p * (1 - p) / runs)
    return max(0.0, p - half), min(1.0, p + half)


@CATALOGUE.wrong("wilson_interval", fault="integer division: successes // runs",
                 says="not integer division (//")
def wilson_integer_division(successes, runs, z=1.96):
    _checked(successes, runs)
    p = successes // runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@CATALOGUE.wrong("wilson_interval", fault="not clamped to [0, 1]: -2.8e-17 for 0 of 10",
                 says="clamp to [0, 1]")
def wilson_unclamped(successes, runs, z=1.96):
    _checked(successes, runs)
    centre, half = _wilson_parts(successes, runs, z)
    return centre - half, centre + half


@CATALOGUE.wrong("wilson_interval", fault="1.96 written into the formula: the z given is ignored",
                 says="use the z given")
def wilson_fixed_z(successes, runs, z=1.96):
    _checked(successes, runs)
    centre, half = _wilson_parts(successes, runs, 1.96)
    return max(0.0, centre - half), min(1.0, centre + half)


@CATALOGUE.wrong("wilson_interval", fault="no runs not checked: a ZeroDivisionError",
                 says="no runs is no data")
def wilson_no_runs(successes, runs, z=1.96):
    if not 0 <= successes <= runs:
        raise ValueError("bad counts")
    centre, half = _wilson_parts(successes, runs, z)
    return max(0.0, centre - half), min(1.0, centre + half)


@CATALOGUE.wrong("wilson_interval", fault="more successes than runs accepted",
                 says="11 successes of 10 runs is not a count")
def wilson_too_many(successes, runs, z=1.96):
    if runs < 1 or successes < 0:
        raise ValueError("bad counts")
    centre, half = _wilson_parts(successes, runs, z)
    return max(0.0, centre - half), min(1.0, centre + half)


@CATALOGUE.wrong("wilson_interval", fault="(high, low): the ends swapped",
                 says="the lower end first")
def wilson_swapped(successes, runs, z=1.96):
    _checked(successes, runs)
    centre, half = _wilson_parts(successes, runs, z)
    return min(1.0, centre + half), max(0.0, centre - half)


@CATALOGUE.wrong("wilson_interval", fault="a list [low, high] instead of a tuple",
                 says="return a tuple (low, high)")
def wilson_list(successes, runs, z=1.96):
    _checked(successes, runs)
    centre, half = _wilson_parts(successes, runs, z)
    return [max(0.0, centre - half), min(1.0, centre + half)]


