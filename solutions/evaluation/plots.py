"""Plots of a sweep: one metric per persona, a bar per prompt variant, as SVG that is the same on every run.

Built in lesson 10 (Evaluation). matplotlib draws on a `Figure` (no global pyplot state); the
SVG is saved without a date and with a fixed hash salt, so a stored notebook compares exactly.
"""
from __future__ import annotations

import io

import matplotlib
from IPython.display import SVG
from matplotlib.figure import Figure

from solutions.evaluation.harness import Metrics
from solutions.evaluation.sweep import RATES

LABELS = {"success_rate": "success rate", "average_steps": "average steps",
          "tool_success": "tool-call success rate", "tokens": "tokens", "step_limit_hits": "step-limit hits"}
"""How each metric is named on an axis."""


def svg_of(figure: Figure) -> SVG:
    """The figure as an SVG image whose bytes do not change between runs. Built in lesson 10 (Evaluation)."""
    with matplotlib.rc_context({"svg.hashsalt": "lesson-10", "svg.fonttype": "none"}):
        text = io.StringIO()
        figure.savefig(text, format="svg", metadata={"Date": None})
    return SVG(text.getvalue())


def plot_metric(cells: dict[tuple[str, str], Metrics], metric: str = "success_rate",
                title: str = "") -> SVG:
    """A grouped bar chart of `metric`: personas along the x axis, one bar per variant. Built in lesson 10 (Evaluation)."""
    if metric not in LABELS:
        raise ValueError(f"unknown metric {metric!r}; metrics: {', '.join(LABELS)}")
    personas = list(dict.fromkeys(persona for persona, _ in cells))
    variants = list(dict.fromkeys(variant for _, variant in cells))
    figure = Figure(figsize=(8, 3.4))
    axes = figure.add_subplot()
    width = 0.8 / max(len(variants), 1)
    for number, variant in enumerate(variants):
        offset = (number - (len(variants) - 1) / 2) * width
        bars = [(i + offset, getattr(cells[p, variant], metric)) for i, p in enumerate(personas)
                if (p, variant) in cells and getattr(cells[p, variant], metric) is not None]
        axes.bar([x for x, _ in bars], [value for _, value in bars], width, label=variant)  # no data: no bar
    axes.set_xticks(range(len(personas)), personas, rotation=20)
    axes.set(ylabel=LABELS[metric], title=title or f"{LABELS[metric]} by persona and prompt")
    if metric in RATES:
        axes.set_ylim(0, 1.05)
    axes.grid(axis="y", alpha=0.3)
    axes.legend(fontsize="small", loc="lower left")
    figure.tight_layout()
    return svg_of(figure)
