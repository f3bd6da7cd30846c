"""The sweep: every persona with every prompt variant over the evaluation set, with a progress bar.

Built in lesson 10 (Evaluation). Each variant differs from the full prompt by one part, so a
change in a metric has one cause: change one thing at a time.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from solutions.evaluation.harness import Metrics, Run, run_question, summarise
from solutions.progress import progress_bar
from solutions.prompt import DEFAULT_PARTS, without

VARIANTS: dict[str, tuple[str, ...]] = {
    "full prompt": DEFAULT_PARTS,
    "no live_data": without("live_data"),
    "no stop_when_enough": without("stop_when_enough"),
}
"""The prompt variants of the sweep: the full prompt, and the full prompt minus one rule."""
RATES = ("success_rate", "tool_success")
"""The metrics that are shares from 0 to 1, shown as percentages."""


def sweep(questions: Iterable[dict], personas: Iterable[str],
          variants: dict[str, Iterable[str]] | None = None, *, progress: bool = True,
          **options: Any) -> list[Run]:
    """One Run per question, persona and variant (variant by variant). Built in lesson 10 (Evaluation)."""
    items, names = list(questions), list(personas)
    chosen = {name: tuple(parts) for name, parts in (VARIANTS if variants is None else variants).items()}
    total = len(items) * len(names) * len(chosen)
    runs: list[Run] = []
    with progress_bar(total, "sweep", progress) as bar:
        for variant, parts in chosen.items():
            for persona in names:
                for item in items:
                    runs.append(run_question(item, persona, parts, variant=variant, **options))
                    bar.update()
    return runs


def grid(runs: Iterable[Run], measure: Callable[[Iterable[Run]], Metrics] = summarise
         ) -> dict[tuple[str, str], Metrics]:
    """The Metrics of each (persona, variant) by `measure`, in the order the runs came. Built in lesson 10 (Evaluation)."""
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.persona, run.variant), []).append(run)
    return {key: measure(group) for key, group in groups.items()}


def table(cells: dict[tuple[str, str], Metrics], metric: str = "success_rate") -> str:
    """One metric as a text table: a persona a line, a variant a column."""
    personas = list(dict.fromkeys(persona for persona, _ in cells))
    variants = list(dict.fromkeys(variant for _, variant in cells))
    width = max(len(v) for v in variants) + 2
    lines = [f"{metric:<14}" + "".join(f"{v:>{width}}" for v in variants)]
    for persona in personas:
        values = [getattr(cells[persona, v], metric) if (persona, v) in cells else None
                  for v in variants]
        lines.append(f"{persona:<14}" + "".join(f"{_cell(value, metric):>{width}}" for value in values))
    return "\n".join(lines)


def _cell(value: Any, metric: str) -> str:
    """A table cell: rates as percentages, other floats with one decimal, '-' for none."""
    if value is None:
        return "-"
    if metric in RATES:
        return f"{value:.0%}"
    return f"{value:.1f}" if isinstance(value, float) else f"{value:,}"
