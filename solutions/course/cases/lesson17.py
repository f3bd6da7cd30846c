"""Cases for lesson 17 (Variance): `pass_hat_k` (all k of k runs right) and `wilson_interval`."""
from __future__ import annotations

import math
from typing import Any

from solutions.course.exercises import Case, Cause, Exercise, returns

# ---------------------------------------------------------------- pass_hat_k(n, c, k)


def _close(expected: float) -> Any:
    """A predicate: a float (not a bool) within 1e-9 of `expected`."""
    return lambda value: isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)


def _hat(n: int, c: int, k: int, expected: float, hint: str) -> Case:
    """A case: pass_hat_k(n, c, k) is `expected` (to 1e-9)."""
    return Case(args=(n, c, k), expect=_close(expected), says=f"{expected!r}", hint=hint)


def _refused(args: tuple, hint: str) -> Case:
    """A case: pass_hat_k(*args) raises ValueError."""
    return Case(args=args, raises=ValueError, hint=hint)


WITHOUT_REPLACEMENT = ("the k runs are drawn from the n made, without replacement: C(c, k) / C(n, k) "
                       "(math.comb); (c/n)**k draws with replacement, as if the same run could "
                       "count twice, and 1 - C(n-c, k) / C(n, k) is pass@k (at least one right), "
                       "not pass^k (all k right)")
PASS_HAT_K_CASES = (
    _hat(10, 10, 3, 1.0, "all 10 runs succeeded, so any 3 of them do: pass^3 is 1.0; pass^k is "
         "C(c, k) / C(n, k), not a power such as c / n**k"),
    _hat(10, 0, 1, 0.0, "no run succeeded: pass^1 is 0.0"),
    _hat(10, 5, 1, 0.5, "pass^1 is c / n, 5 of 10: 0.5; divide with /, not with integer "
         "division (//), which floors it to 0"),
    _hat(10, 5, 2, 10 / 45, "pass^2 with 5 right of 10 is C(5, 2) / C(10, 2) = 10/45 = 0.222...: "
         + WITHOUT_REPLACEMENT),
    _hat(5, 4, 5, 0.0, "k = 5 runs drawn from 5 with only 4 right: they cannot all be right, "
         "pass^5 is 0.0 (C(4, 5) is 0); " + WITHOUT_REPLACEMENT),
    _hat(20, 17, 5, 6188 / 15504, "C(17, 5) / C(20, 5) = 6188/15504 = 0.399...: keep the full "
         "precision (no round())"),
    _hat(2000, 1999, 1000, 0.5, "n = 2000: factorials in floats overflow (2000! has 5,736 digits, "
         "a float holds up to about 1.8e308): use math.comb, exact integers, and divide once; "
         "C(1999, 1000) / C(2000, 1000) is 1000/2000 = 0.5"),
    _refused((3, 2, 4), "k = 4 runs cannot be drawn from n = 3: raise ValueError saying that k must "
             "be at most n (make at least k runs), not 0 or a ZeroDivisionError"),
    _refused((3, 2, 0), "k = 0 draws nothing: raise ValueError, k is from 1 to n"),
    _refused((3, 4, 1), "c = 4 successes of n = 3 runs is not a count: raise ValueError, c is "
             "from 0 to n (else pass^1 comes out 4/3, above 1)"),
    _refused((0, 0, 1), "n = 0 runs is no data: raise ValueError (k = 1 cannot be drawn from none)"),
)
PASS_HAT_K_CAUSES = (
    Cause(lambda exc: isinstance(exc, OverflowError), "a float overflow: factorials of a large n in "
          "floats are too large (2000! has 5,736 digits); use math.comb, exact integers", raised=True),
    Cause(lambda exc: isinstance(exc, ZeroDivisionError), "a division by zero: C(n, k) is 0 when k > "
          "n; check the counts first and raise ValueError (k must be at most n)", raised=True),
    returns((int, float), "return the chance as a float from 0 to 1"),
)

# ---------------------------------------------------------------- wilson_interval(successes, runs, z)


def _interval(expected: tuple[float, float]) -> Any:
    """A predicate: a pair of floats within 1e-9 of `expected`, each inside [0, 1]."""
    def ok(value: Any) -> bool:
        if not isinstance(value, tuple) or len(value) != 2:
            return False
        return all(_close(want)(got) and 0.0 <= got <= 1.0 for got, want in zip(value, expected))
    return ok


def _wilson(args: tuple, expected: tuple[float, float], hint: str) -> Case:
    """A case: wilson_interval(*args) is `expected`, clamped to [0, 1]."""
    return Case(args=args, expect=_interval(expected), hint=hint,
                says=f"({expected[0]!r}, {expected[1]!r}), both inside [0, 1]")


FORMULA = ("p = successes / runs; centre = (p + z*z / (2*runs)) / (1 + z*z / runs); half = z * "
           "sqrt(p*(1 - p) / runs + z*z / (4*runs*runs)) / (1 + z*z / runs); (centre - half, "
           "centre + half)")
WILSON_CASES = (
    _wilson((10, 10), (0.7224598312333834, 1.0), "10 right of 10 is not certainty: Wilson's "
            "interval is (0.722, 1.0); the textbook p ± z*sqrt(p*(1 - p)/n) (Wald) collapses to "
            "(1.0, 1.0) at p = 1 and is too narrow for small n; " + FORMULA),
    _wilson((50, 100), (0.40382982859014716, 0.5961701714098528), "p is successes / runs = 0.5, a "
            "true division (/), not integer division (//, which gives 0); " + FORMULA),
    _wilson((0, 10), (0.0, 0.2775401687666166), "clamp to [0, 1]: in floats, centre - half comes out "
            "-2.8e-17 for 0 of 10, and a rate below 0 is no rate (max(0.0, ...))"),
    _wilson((5, 5), (0.5655085052479191, 1.0), "clamp to [0, 1]: in floats, centre + half comes out "
            "1.0000000000000002 for 5 of 5 (min(1.0, ...))"),
    _wilson((344, 380), (0.8716304810445303, 0.9307838481996162), "344 of 380: (0.872, 0.931); "
            "return (low, high), the lower end first; " + FORMULA),
    _wilson((1, 10, 2.576), (0.011850253795349652, 0.5072584430276902), "use the z given (2.576 "
            "is a 99% interval), not 1.96 written into the formula"),
    Case(args=(0, 0), raises=ValueError, hint="no runs is no data, not a rate: raise ValueError "
         "(runs must be at least 1), not a ZeroDivisionError"),
    Case(args=(11, 10, 3.0), raises=ValueError, hint="11 successes of 10 runs is not a count: raise "
         "ValueError (successes is from 0 to runs), not an interval above 1"),
    Case(args=(-1, 10), raises=ValueError, hint="-1 successes is not a count: raise ValueError "
         "(successes is from 0 to runs)"),
)
WILSON_CAUSES = (
    Cause(lambda exc: isinstance(exc, ZeroDivisionError), "a division by zero: no runs (runs = 0) is "
          "no data; raise ValueError saying runs must be at least 1", raised=True),
    Cause(lambda value: not isinstance(value, tuple) or len(value) != 2,
          "return a tuple (low, high) of two floats"),
    Cause(lambda value: isinstance(value[0], (int, float)) and isinstance(value[1], (int, float))
          and value[0] > value[1], "the interval is (low, high): the lower end first"),
)


EXERCISES = [
    Exercise("pass_hat_k", "17", "solutions.evaluation.passk:pass_hat_k", PASS_HAT_K_CASES,
             causes=PASS_HAT_K_CAUSES),
    Exercise("wilson_interval", "17", "solutions.evaluation.intervals:wilson_interval", WILSON_CASES,
             causes=WILSON_CAUSES),
]
