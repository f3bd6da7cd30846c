"""The quarterly-report task of lesson 11, as one long ReAct loop and as four validated stages.

Built in lesson 11 (Long tasks).
"""
from __future__ import annotations

import re
from typing import Any

from solutions.agent import Trace, run_agent
from solutions.planning.checkpoints import (amounts_by_line, amounts_text, kept_orders,
                                            last_quarter, line_totals, order_rows, totals_text,
                                            validate_orders, validate_report, validate_totals)
from solutions.planning.stages import Stage, StagedRun, run_stages
from solutions.tools import ToolRegistry

REPORT_TASK = ("Pull last quarter's orders, drop cancelled ones, total sales by product line "
               "and write a weekly report.")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def long_report(client: Any, tools: ToolRegistry, max_steps: int = 20) -> Trace:
    """The whole task in one ReAct loop."""
    return run_agent(REPORT_TASK, client, tools, max_steps)


def observed(traces: list[Trace], tool: str) -> str:
    """Every observation of `tool` in the traces, one after the other."""
    return "\n".join(step.observation or "" for trace in traces for step in trace.steps
                     if step.action == tool)


def _period(traces: list[Trace], _: dict) -> dict:
    """The quarter before the date the first loop answered."""
    found = _DATE.search(traces[0].final_answer or "")
    if not found:
        raise ValueError(f"no date in the answer {traces[0].final_answer!r}")
    start, end = last_quarter(found.group(0))
    return {"today": found.group(0), "start": start, "end": end}


def _sums_question(lines: dict[str, list[str]]) -> str:
    """Ask for the sums of the product lines given as 'Line: a, b, c'."""
    return f"Add up the amounts of each product line:\n{amounts_text(lines)}"


def _report_question(totals: dict[str, str], start: str, end: str) -> str:
    """Ask for the report text from totals already found."""
    return f"Write the weekly report from these totals ({start} to {end}): {totals_text(totals)}."


def _totals(traces: list[Trace], _: dict) -> dict[str, str]:
    """The totals the loops answered, merged."""
    totals: dict[str, str] = {}
    for trace in traces:
        totals.update(line_totals(trace.final_answer or ""))
    return totals


def report_stages() -> list[Stage]:
    """Period, orders, totals (one short loop per product line) and report, each validated."""
    period = lambda c: c["period"]  # noqa: E731  (the checkpoint of stage 1)
    return [
        Stage("period", lambda c: ["What is today's date?"], _period,
              lambda value, c: [] if value["start"] < value["end"] else ["an empty period"]),
        Stage("orders", lambda c: [f"List the orders placed from {period(c)['start']} to "
                                   f"{period(c)['end']}."],
              lambda traces, c: order_rows(observed(traces, "query_orders")),
              lambda rows, c: validate_orders(rows, period(c)["start"], period(c)["end"])),
        Stage("totals", lambda c: [_sums_question({line: amounts}) for line, amounts
                                   in amounts_by_line(kept_orders(c["orders"])).items()],
              _totals, lambda totals, c: validate_totals(totals, kept_orders(c["orders"]))),
        Stage("report", lambda c: [_report_question(c["totals"], period(c)["start"],
                                                    period(c)["end"])],
              lambda traces, c: traces[0].final_answer,
              lambda text, c: validate_report(text, c["totals"], period(c)["start"],
                                              period(c)["end"])),
    ]


def staged_report(client: Any, tools: ToolRegistry) -> StagedRun:
    """The whole task as validated stages."""
    return run_stages(report_stages(), client, tools)
