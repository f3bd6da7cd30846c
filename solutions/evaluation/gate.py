"""The regression gate: a change may not lower any persona's success rate below the stored baseline.

Built in lesson 10 (Evaluation). The baseline is data, baseline.json: the success rate of each
persona with the guarded agent and the full prompt over the evaluation set. A test computes the
current rates and calls `gate`; a prompt or code change that makes a persona worse fails it.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING

from solutions.evaluation.dataset import read_json

if TYPE_CHECKING:
    from solutions.evaluation.harness import Metrics

BASELINE_FILE = "baseline.json"


class RegressionError(AssertionError):
    """A success rate fell below its baseline; the message names each persona, before and after."""


def load_baseline(text: str | None = None) -> dict[str, float]:
    """The stored success rate of each persona, from baseline.json (or `text`). Built in lesson 10 (Evaluation)."""
    where = f"{BASELINE_FILE} (of solutions.evaluation)" if text is None else "the baseline text"
    if text is None:
        text = resources.files("solutions.evaluation").joinpath(BASELINE_FILE).read_text("utf-8")
    data = read_json(text, where)
    rates = data.get("success_rate") if isinstance(data, dict) else None
    if not isinstance(rates, dict) or not rates:
        raise ValueError(f"{where} must hold 'success_rate': {{persona: a rate from 0 to 1}}, one "
                         f"persona at least; got {text[:80]!r}")
    check_rates(rates, f"{where}: the success_rate")
    return {str(persona): float(rate) for persona, rate in rates.items()}


def regressions(current: dict[str, float], baseline: dict[str, float],
                tolerance: float = 0.0) -> list[str]:
    """One line per persona whose rate fell more than `tolerance` below its baseline, or is missing. Built in lesson 10 (Evaluation)."""
    if not 0 <= tolerance < 1:
        raise ValueError(f"tolerance is a share from 0 to 1, got {tolerance!r}")
    check_rates(current, "the current success rate")
    check_rates(baseline, "the baseline success rate")
    if not baseline:
        raise ValueError("the baseline is empty: it would pass every change; store the rates first")
    found = []
    for persona, before in baseline.items():
        now = current.get(persona)
        if now is None:
            found.append(f"{persona}: not measured (baseline {before:.1%})")
        elif now < before - tolerance - 1e-9:
            found.append(f"{persona}: {now:.1%}, below its baseline {before:.1%}")
    return found


def check_rates(rates: dict, what: str) -> None:
    """Raise a ValueError naming the persona unless each rate is a number from 0 to 1 (NaN, an
    infinity or a bool would slip through the comparison: NaN < x is False; None is no data, a
    persona measured on no runs); `what` names the rates in the message ("the current success rate")."""
    if not isinstance(rates, dict):
        raise TypeError(f"{what} must be a dict {{persona: rate}}, got {type(rates).__name__}")
    for persona, rate in rates.items():
        if rate is None:  # summarise of no runs: no data, which must not pass as a rate
            raise ValueError(f"{what} of {persona!r} is None: no runs were measured (no data is "
                             "not a rate); run the evaluation set first")
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
            raise ValueError(f"{what} of {persona!r} must be a number from 0 to 1, got {rate!r}")


def gate(current: dict[str, float], baseline: dict[str, float] | None = None,
         tolerance: float = 0.0) -> None:
    """Raise RegressionError when a success rate fell below the baseline. Built in lesson 10 (Evaluation)."""
    found = regressions(current, load_baseline() if baseline is None else baseline, tolerance)
    if found:
        raise RegressionError("success rate dropped: " + "; ".join(found))


def baseline_text(current: dict[str, float], about: str) -> str:
    """The text of a baseline file for `current` rates (rounded to 4 places), to store after a reviewed improvement."""
    rates = {persona: round(rate, 4) for persona, rate in current.items()}
    return json.dumps({"about": about, "success_rate": rates}, ensure_ascii=False, indent=2) + "\n"


def verdict(before: Metrics, after: Metrics) -> str:
    """'better', 'worse' or 'same' for a change: the success rate decides, tokens break a tie. Built in lesson 10 (Evaluation)."""
    for metric in (before, after):
        if not (hasattr(metric, "success_rate") and hasattr(metric, "tokens")):
            raise TypeError(f"verdict compares two Metrics (from summarise), got {type(metric).__name__}")
        if metric.success_rate is None:
            raise ValueError("verdict needs runs on both sides: a Metrics of no runs has no success rate")
    if abs(after.success_rate - before.success_rate) > 1e-9:
        return "better" if after.success_rate > before.success_rate else "worse"
    if after.tokens != before.tokens:
        return "better" if after.tokens < before.tokens else "worse"
    return "same"
