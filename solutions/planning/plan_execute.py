"""Plan-and-Execute: a planner writes the steps, an executor runs each as a short ReAct loop,
and a replanner rewrites the rest of the plan when a step surprises it.

Built in lesson 11 (Long tasks). The executor hands each step the data the earlier steps found
(the orders listed, the totals added up), as a person would pass on their notes. Every run is
bounded (a plan of at most `max_plan_steps` steps, `max_replans` replans, `max_calls` model calls,
an optional `token_budget`) and ends with one of STOP_REASONS.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from solutions.agent import Trace, check_arguments, run_step
from solutions.budget import UsageMeter, check_limits, run_within_budget
from solutions.planning.checkpoints import (amounts_by_line, amounts_text, kept_orders,
                                            line_totals, order_rows, totals_text)
from solutions.prompt import build_system_prompt
from solutions.tools import ToolRegistry

PLAN_PROMPT = ("Make a plan for this task, one numbered step per line, each step a short "
               "question one tool can answer: {task}")
REPLAN_PROMPT = ("Make a new plan for the rest of the task, one numbered step per line.\n"
                 "Task: {task}\nFailed step: {step}\nIt returned: {result}\n"
                 "Remaining steps:\n{remaining}")
_NUMBERED = re.compile(r"(?m)^\s*(\d{1,3})[.)]\s+(.+?)\s*$")
PLANNER_STEPS = 4
"""Model calls the planner (and each replanner) has to write a plan."""
MAX_PLAN_STEPS = 20
"""Steps a plan may hold: a longer one (a planner that writes on and on) ends the run unrun."""
MAX_CALLS = 100
"""Model calls a whole run may make: planner, replanners and executor together."""
STOP_REASONS = ("answered", "no_plan", "plan_too_long", "replan_limit", "call_limit", "token_budget")
"""Why a run ended: the plan's last step answered; a plan without a numbered step; a plan longer
than max_plan_steps; a step surprised the plan with no replan left; max_calls model calls made;
token_budget tokens spent (lesson 07's name)."""


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
    answer: str | None = None   # the last step's answer, None unless the run is "answered"
    stop_reason: str = ""       # one of STOP_REASONS

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


class RunLimits:
    """The model calls and tokens a whole run may spend, counted on one meter for all its loops."""

    def __init__(self, client: Any, max_calls: int, token_budget: int | None = None) -> None:
        """Count the calls made through `client`; `token_budget` None leaves the tokens unbounded."""
        self.meter, self.max_calls, self.token_budget = UsageMeter(client), max_calls, token_budget

    def spent(self) -> str | None:
        """'call_limit' or 'token_budget' once the run has used it up, else None."""
        if len(self.meter.calls) >= self.max_calls:
            return "call_limit"
        if self.token_budget is not None and self.meter.total_tokens >= self.token_budget:
            return "token_budget"
        return None

    def loop(self, question: str, tools: ToolRegistry, max_steps: int) -> Trace:
        """Lesson 04's loop (run_agent's messages and steps), cut to the calls and tokens left."""
        messages = [{"role": "system", "content": build_system_prompt(tools)},
                    {"role": "user", "content": f"Question: {question}"}]
        left = max(self.max_calls - len(self.meter.calls), 0)
        steps, reason = run_within_budget(lambda: run_step(self.meter, messages, tools), self.meter,
                                          min(max_steps, left), self.token_budget)
        return Trace(question, steps, steps[-1].final_answer if reason == "answered" else None,
                     reason, messages)


def plan_problem(plan: list[str], max_plan_steps: int) -> str | None:
    """'no_plan' for a plan without a step, 'plan_too_long' for one over max_plan_steps, else None."""
    if not plan:
        return "no_plan"
    return "plan_too_long" if len(plan) > max_plan_steps else None


def plan_and_execute(task: str, client: Any, tools: ToolRegistry, *, max_steps: int = 15,
                     max_replans: int = 2, max_plan_steps: int = MAX_PLAN_STEPS,
                     max_calls: int = MAX_CALLS, token_budget: int | None = None) -> PlanRun:
    """Plan, run each step as a short loop, replan when a step surprises the plan; stop at a limit."""
    for name, value, least in (("max_steps", max_steps, 1), ("max_replans", max_replans, 0),
                               ("max_plan_steps", max_plan_steps, 1), ("max_calls", max_calls, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name} must be a whole number >= {least}, got {value!r}")
    check_arguments(task, client, tools, max_steps)
    check_limits(token_budget=token_budget)
    limits = RunLimits(client, max_calls, token_budget)
    planner = limits.loop(PLAN_PROMPT.format(task=task), tools, PLANNER_STEPS)
    run = PlanRun(task, plan_steps(planner.final_answer), [planner])
    todo = list(run.plan)
    reason = limits.spent() or plan_problem(todo, max_plan_steps)
    while reason is None:
        step = todo.pop(0)
        trace = limits.loop(with_data(step, run.executed), tools, max_steps)
        run.executed.append((step, trace))
        problem = surprise(trace)
        if problem is None:
            reason = limits.spent() if todo else "answered"
        elif len(run.replans) >= max_replans:
            reason = limits.spent() or "replan_limit"   # a step failed and no replan is left: stop
        elif (reason := limits.spent()) is None:
            replanner = limits.loop(REPLAN_PROMPT.format(task=task, step=step, result=problem,
                                                         remaining=numbered(todo)), tools, PLANNER_STEPS)
            run.planner_traces.append(replanner)
            todo = plan_steps(replanner.final_answer)
            run.replans.append((step, problem, list(todo)))
            reason = limits.spent() or plan_problem(todo, max_plan_steps)
    run.stop_reason = reason
    run.answer = run.executed[-1][1].final_answer if reason == "answered" else None
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
