"""Planning families of lesson 11 (Long tasks): a plan of tool steps, a new plan after a surprise,
one short sum per product line and a report written from totals already found.

Each is recognised only by its own opening words ('Make a plan', 'Make a new plan', 'Add up the
amounts of each product line', 'Write the weekly report from these totals'), so no other
question changes family.
"""
from __future__ import annotations

import datetime as dt
import re

from mockllm.brain.context import Ctx, Move
from mockllm.brain.knowledge import all_dates, last_quarter_months
from mockllm.brain.order_families import _line_totals

OPENINGS = {
    "replan": r"^\s*make a new plan\b",
    "plan": r"^\s*make a plan\b",
    "line_sums": r"^\s*add up the amounts of each product line\b",
    "report_text": r"^\s*write the weekly report from these totals\b",
}
_OPENINGS = {family: re.compile(pattern, re.I) for family, pattern in OPENINGS.items()}
_LINE = re.compile(r"(?m)^\s*+([A-Za-z][\w ]{0,40}?)\s*+:\s*+(\d[\d., ]*+)$")
_TOTAL = re.compile(r"([A-Za-z][\w ]{0,40}?): (\d+(?:\.\d+)?) CNY")
_STEP = re.compile(r"(?m)^\s*+(\d{1,3})\.\s++(.+)$")
_SPAN = re.compile(r"(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})")


def planning_family(question: str) -> str | None:
    """The planning family a question opens with, or None."""
    return next((f for f, p in _OPENINGS.items() if p.match(question)), None)


def _numbered(steps: list[str]) -> str:
    """Steps as a numbered list, one a line."""
    return "\n".join(f"{n}. {step}" for n, step in enumerate(steps, 1))


def _orders_step(start: str, end: str) -> str:
    """The plan step that lists the orders of a date range."""
    return f"List the orders placed from {start} to {end}."


def plan(ctx: Ctx) -> Move:
    """A numbered plan of tool steps: the report task's months, sums and report; else one step."""
    task = re.sub(r"(?is)^\s*make a plan\b[^:\n]*:?", "", ctx.conv.question).strip()
    if not re.search(r"last quarter|product lines?|sales by", task, re.I):
        return ctx.final("plan", _numbered([task or ctx.conv.question]),
                         "The task needs one step.")
    today = ctx.today("I need today's date to plan which months last quarter covers.")
    steps = [_orders_step(start, end) for start, end in last_quarter_months(today)]
    steps += ["Add up the amounts of each product line, cancelled orders dropped (calculator).",
              "Write the weekly report from these totals."]
    return ctx.final("plan", _numbered(steps), f"Today is {today}; the plan has {len(steps)} "
                     "steps: the three months, the sums, the report.")


def _halves(step: str) -> list[str]:
    """A date-range step split into two halves, or the step itself when it has no range."""
    dates = all_dates(step)
    if len(dates) < 2 or dates[0] >= dates[1]:
        return [step]
    start, end = dt.date.fromisoformat(dates[0]), dt.date.fromisoformat(dates[1])
    middle = start + (end - start) // 2
    return [_orders_step(start.isoformat(), middle.isoformat()),
            _orders_step((middle + dt.timedelta(days=1)).isoformat(), end.isoformat())]


def replan(ctx: Ctx) -> Move:
    """A new plan: the step that surprised the plan split in two halves, then the steps left."""
    q = ctx.conv.question
    failed = re.search(r"(?im)^\s*failed step:\s*(.+)$", q)
    rest = q[q.lower().find("remaining steps:"):] if "remaining steps:" in q.lower() else ""
    steps = (_halves(failed.group(1).strip()) if failed else []) + \
        [m.group(2).strip() for m in _STEP.finditer(rest)]
    if not steps:
        return ctx.final("replan", "1. Report what went wrong.", "Nothing is left to plan.")
    return ctx.final("replan", _numbered(steps), "The failed step may work on a shorter range, "
                     "so I split it in two halves and keep the steps left.")


def line_sums(ctx: Ctx) -> Move:
    """Each 'Line: a, b, c' of the question added up with the calculator: 'Line: total CNY'."""
    rows = [{"line": m.group(1).strip(), "amount": amount}
            for m in _LINE.finditer(ctx.conv.question)
            for amount in re.findall(r"\d+(?:\.\d+)?", m.group(2))]
    if not rows:
        return ctx.final("no_amounts", "I found no amounts to add up.")
    totals = _line_totals(ctx, rows)
    return ctx.final("answer", "; ".join(f"{line}: {total} CNY" for line, total in totals.items())
                     + ".", "Every product line is added up.")


def report_text(ctx: Ctx) -> Move:
    """The weekly report written from the totals the question gives (no tool needed)."""
    q = ctx.conv.question
    totals = [(line.strip(), amount) for line, amount in _TOTAL.findall(q)]
    if not totals:
        return ctx.final("no_totals", "I need the totals to write the report.")
    span = _SPAN.search(q)
    head = f"Weekly sales report, {span.group(1)} to {span.group(2)}" if span else \
        "Weekly sales report"
    best = max(totals, key=lambda t: float(t[1]))
    lines = "\n".join(f"- {line}: {amount} CNY" for line, amount in totals)
    return ctx.final("answer", f"{head}\n{lines}\nLargest product line: {best[0]}.",
                     "The totals are given; I only write them up.")


HANDLERS = {"plan": plan, "replan": replan, "line_sums": line_sums, "report_text": report_text}
