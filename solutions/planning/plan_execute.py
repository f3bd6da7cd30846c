"""Plan-and-Execute: a planner writes the steps, an executor runs each as a short ReAct loop,
and a replanner rewrites the rest of the plan when a step surprises it.

Built in lesson 11 (Long tasks). The executor hands each step the data the earlier steps found
(the orders listed, the totals added up), as a person would pass on their notes.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from solutions.agent import Trace, run_agent
from solutions.planning.checkpoints import (amounts_by_line, amounts_text, kept_orders,
                                            line_totals, order_rows, totals_text)
from solutions.tools import Tool, ToolRegistry

PLAN_PROMPT = ("Make a plan for this task, one numbered step per line, each step a short "
               "question one tool can answer: {task}")
REPLAN_PROMPT = ("Make a new plan for the rest of the task, one numbered step per line.\n"
                 "Task: {task}\nFailed step: {step}\nIt returned: {result}\n"
                 "Remaining steps:\n{remaining}")
_NUMBERED = re.compile(r"(?m)^\s*(\d{1,3})[.)]\s+(.+?)\s*$")


def plan_steps(text: str | None) -> list[str]:
    """The steps of a numbered plan, in order ('1. List ...' -> 'List ...')."""
    return [m.group(2) for m in _NUMBERED.finditer(text or "")]


def numbered(steps: list[str]) -> str:
    """Steps as a numbered list."""
    return "\n".join(f"{n}. {step}" for n, step in enumerate(steps, 1))


@dataclass
class PlanRun:
    """A Plan-and-Execute run: the first plan, every executed step, the replans, the answer."""

    task: str
    plan: list[str]
    planner_traces: list[Trace] = field(default_factory=list)
    executed: list[tuple[str, Trace]] = field(default_factory=list)
    replans: list[tuple[str, str, list[str]]] = field(default_factory=list)  # (step, result, plan)
    answer: str | None = None

    @property
    def steps(self) -> int:
        """Model calls of the planner, the replanner and the executor."""
        return sum(len(t.steps) for t in self.planner_traces) + \
            sum(len(t.steps) for _, t in self.executed)

    @property
    def total_tokens(self) -> int:
        """Tokens of all the model calls."""
        return sum(t.total_tokens for t in self.planner_traces) + \
            sum(t.total_tokens for _, t in self.executed)


def _notes(executed: list[tuple[str, Trace]]) -> tuple[list[dict], dict[str, str]]:
    """The orders listed and the totals found by the steps run so far."""
    rows, totals = [], {}
    for _, trace in executed:
        for step in trace.steps:
            if step.action == "query_orders":
                rows += order_rows(step.observation or "")
        totals.update(line_totals(trace.final_answer or ""))
    return rows, totals


def with_data(step: str, executed: list[tuple[str, Trace]]) -> str:
    """The step's question, with the data it needs from the steps before it."""
    rows, totals = _notes(executed)
    if re.match(r"(?i)add up", step) and rows:
        return step + "\n" + amounts_text(amounts_by_line(kept_orders(rows)))
    if re.match(r"(?i)write", step) and totals:
        dates = sorted(row["date"] for row in rows)
        span = f" ({dates[0]} to {dates[-1]})" if dates else ""
        return f"{step.rstrip('.')}{span}: " + totals_text(totals)
    return step


def surprise(trace: Trace) -> str | None:
    """What makes a step's result a surprise, or None: its last tool call failed, it stopped
    without an answer, or it listed no orders. An error the step recovered from is no surprise."""
    observed = [s.observation.strip() for s in trace.steps if s.observation]
    if observed and observed[-1].lower().startswith("error"):
        return observed[-1]
    if trace.stop_reason != "answered":
        return f"the step stopped without an answer ({trace.stop_reason})"
    if re.match(r"(?i)list the orders", trace.question) and re.search(r"\bThere were 0 orders\b",
                                                                      trace.final_answer or ""):
        return "no orders in that range"
    return None


def plan_and_execute(task: str, client: Any, tools: ToolRegistry, *, max_steps: int = 15,
                     max_replans: int = 2) -> PlanRun:
    """Plan, run each step as a short loop, replan when a step surprises the plan."""
    for name, value, least in (("max_steps", max_steps, 1), ("max_replans", max_replans, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
    planner = run_agent(PLAN_PROMPT.format(task=task), client, tools, 4)
    run = PlanRun(task, plan_steps(planner.final_answer), [planner])
    todo = list(run.plan)
    while todo:
        step = todo.pop(0)
        trace = run_agent(with_data(step, run.executed), client, tools, max_steps)
        run.executed.append((step, trace))
        problem = surprise(trace)
        if problem and len(run.replans) < max_replans:
            replanner = run_agent(REPLAN_PROMPT.format(task=task, step=step, result=problem,
                                                       remaining=numbered(todo)), client, tools, 4)
            run.planner_traces.append(replanner)
            todo = plan_steps(replanner.final_answer)
            run.replans.append((step, problem, list(todo)))
    run.answer = run.executed[-1][1].final_answer if run.executed else None
    return run


def capped_orders(tools: ToolRegistry, limit: int = 45) -> ToolRegistry:
    """The same tools, but query_orders refuses a range holding more than `limit` orders."""
    original = tools["query_orders"]

    def query_orders(start_date: str, end_date: str) -> str:
        listing = original.function(start_date=start_date, end_date=end_date)
        count = len(order_rows(listing))
        if count > limit:
            return (f"Error: too many orders ({count}, at most {limit}); "
                    "ask for a shorter date range.")
        return listing

    capped = dataclasses.replace(original, function=query_orders)
    return ToolRegistry([capped if t.name == "query_orders" else t for t in tools])
