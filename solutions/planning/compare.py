"""The three approaches to the report task side by side: one loop, stages, Plan-and-Execute.

Built in lesson 11 (Long tasks). Every figure of the comparison comes from real runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterable

from mockllm import MockLLM
from mockllm.world import sales_by_product_line
from solutions.planning.checkpoints import last_quarter, line_totals
from solutions.planning.plan_execute import plan_and_execute
from solutions.planning.report import REPORT_TASK, long_report, staged_report
from solutions.planning.stages import StagedRun
from solutions.tools import ToolRegistry, world_tools

TODAY = "2025-03-14"   # the world's clock, which the runs read from get_current_date


@dataclass(frozen=True)
class Outcome:
    """One run of one approach: the persona, its steps and tokens, and whether the totals were right."""

    approach: str
    persona: str
    steps: int
    tokens: int
    right: bool
    note: str = ""


def right_totals(text: str | None) -> bool:
    """True when the text gives every product line's total of last quarter, as the world has it."""
    expected = sales_by_product_line(*last_quarter(TODAY))
    found = {line: float(total) for line, total in line_totals(text or "").items()}
    return found == expected


def _one_loop(client: Any, tools: ToolRegistry) -> tuple[int, int, str | None, str]:
    trace = long_report(client, tools)
    return len(trace.steps), trace.total_tokens, trace.final_answer, trace.stop_reason


def _stages(client: Any, tools: ToolRegistry, staged: Callable[[Any, ToolRegistry], StagedRun] = staged_report
            ) -> tuple[int, int, str | None, str]:
    run = staged(client, tools)
    note = f"stopped at {run.failed}" if run.failed else "every checkpoint held"
    return run.steps, run.total_tokens, run.checkpoints.get("report"), note


def _plan_execute(client: Any, tools: ToolRegistry) -> tuple[int, int, str | None, str]:
    run = plan_and_execute(REPORT_TASK, client, tools)
    note = f"{len(run.plan)}-step plan, {len(run.replans)} replan(s)" if run.plan else "no plan"
    if run.plan and run.stop_reason != "answered":
        note += f", stopped: {run.stop_reason}"  # a limit ended the run: say which
    return run.steps, run.total_tokens, run.answer, note


APPROACHES: dict[str, Callable[[Any, ToolRegistry], tuple[int, int, str | None, str]]] = {
    "one loop": _one_loop, "stages": _stages, "plan-and-execute": _plan_execute}


def compare(personas: Iterable[str], tools: Callable[[], ToolRegistry] = world_tools,
            seed: int = 0, *, staged: Callable[[Any, ToolRegistry], StagedRun] = staged_report
            ) -> list[Outcome]:
    """Each approach with each persona, on a fresh client and fresh tools per run; `staged(client, tools)` runs the stages."""
    approaches = {**APPROACHES, "stages": partial(_stages, staged=staged)}
    outcomes = []
    for persona in personas:
        for name, approach in approaches.items():
            steps, tokens, text, note = approach(MockLLM(persona=persona, seed=seed), tools())
            outcomes.append(Outcome(name, persona, steps, tokens, right_totals(text), note))
    return outcomes


def table(outcomes: list[Outcome]) -> str:
    """The outcomes as a text table, one row a run."""
    head = f"{'approach':<18}{'persona':<11}{'right':>6}{'steps':>7}{'tokens':>8}  note"
    lines = [head, "-" * len(head)]
    for o in outcomes:
        lines.append(f"{o.approach:<18}{o.persona:<11}{'yes' if o.right else 'no':>6}"
                     f"{o.steps:>7}{o.tokens:>8}  {o.note}")
    return "\n".join(lines)


def summary(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Per approach: runs, runs right, mean steps and mean tokens."""
    found: dict[str, dict[str, float]] = {}
    for name in dict.fromkeys(o.approach for o in outcomes):
        group = [o for o in outcomes if o.approach == name]
        found[name] = {"runs": len(group), "right": sum(o.right for o in group),
                       "steps": sum(o.steps for o in group) / len(group),
                       "tokens": sum(o.tokens for o in group) / len(group)}
    return found


def choice_table(outcomes: list[Outcome], surprised: list[Outcome]) -> str:
    """Per approach: right runs, mean steps and tokens, and what a surprise did to it."""
    totals, after = summary(outcomes), {o.approach: o for o in surprised}
    head = f"{'approach':<18}{'right':>7}{'mean steps':>12}{'mean tokens':>13}  with a surprise"
    lines = [head, "-" * len(head)]
    for name, row in totals.items():
        hit = after.get(name)
        said = "-" if hit is None else ("right" if hit.right else "no report" if
                                        hit.note.startswith("stopped") else "wrong") + f" ({hit.note})"
        lines.append(f"{name:<18}{row['right']:>4}/{row['runs']:<2}{row['steps']:>12.1f}"
                     f"{row['tokens']:>13,.0f}  {said}")
    return "\n".join(lines)
