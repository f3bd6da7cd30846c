"""The mock's planning replies (lesson 11): a plan, a new plan, sums per product line, a report."""
from __future__ import annotations

import pytest

from mockllm import MockLLM
from mockllm.world import Clock
from mockllm.brain.plan_families import planning_family
from solutions.agent import run_agent
from solutions.tools import BASIC_TOOLS, world_tools

TASK = ("Pull last quarter's orders, drop cancelled ones, total sales by product line "
        "and write a weekly report.")
PLAN = f"Make a plan for this task, one numbered step per line: {TASK}"


def _run(question: str, persona: str = "diligent", tools=None, max_steps: int = 12):
    return run_agent(question, MockLLM(persona=persona, seed=0), tools or world_tools(), max_steps)


def test_the_plan_reads_the_date_then_lists_numbered_tool_steps() -> None:
    trace = _run(PLAN)
    assert [s.action for s in trace.steps] == ["get_current_date", None]
    lines = trace.final_answer.splitlines()
    assert lines[:3] == ["1. List the orders placed from 2024-10-01 to 2024-10-31.",
                         "2. List the orders placed from 2024-11-01 to 2024-11-30.",
                         "3. List the orders placed from 2024-12-01 to 2024-12-31."]
    assert lines[3].startswith("4. Add up the amounts of each product line")
    assert lines[4].startswith("5. Write the weekly report")
    assert trace.steps[-1].explanation["rule"] == "plan/plan"


def test_the_plan_is_deterministic_and_follows_the_clock() -> None:
    assert _run(PLAN).final_answer == _run(PLAN, persona="forgetful").final_answer
    later = run_agent(PLAN, MockLLM(persona="diligent", seed=0), world_tools(Clock("2025-07-02")))
    assert "2025-04-01 to 2025-04-30" in later.final_answer


def test_a_task_that_is_not_the_report_is_a_one_step_plan() -> None:
    assert _run("Make a plan: What is 17 * 23?").final_answer == "1. What is 17 * 23?"


def test_the_new_plan_splits_the_failed_range_and_keeps_the_steps_left() -> None:
    question = ("Make a new plan for the rest of the task.\nTask: x\n"
                "Failed step: List the orders placed from 2024-11-01 to 2024-11-30.\n"
                "It returned: Error: too many orders\nRemaining steps:\n1. Add up the sums.\n"
                "2. Write it.")
    assert _run(question).final_answer.splitlines() == [
        "1. List the orders placed from 2024-11-01 to 2024-11-15.",
        "2. List the orders placed from 2024-11-16 to 2024-11-30.",
        "3. Add up the sums.", "4. Write it."]


def test_each_product_line_is_added_up_with_short_calculator_calls() -> None:
    amounts = ", ".join(f"{n}.25" for n in range(100, 140))   # too long for one calculator call
    trace = _run(f"Add up the amounts of each product line:\nBooks: {amounts}\nToys: 4.00, 1.5")
    calls = [s for s in trace.steps if s.action == "calculator"]
    assert len(calls) >= 3 and all(len(s.action_input["expression"]) <= 200 for s in calls)
    assert trace.final_answer == f"Books: {sum(range(100, 140)) + 40 * 0.25:.2f} CNY; Toys: 5.50 CNY."


def test_without_a_calculator_the_lines_are_added_up_in_one_reply() -> None:
    trace = _run("Add up the amounts of each product line:\nHome: 1.10, 2.20",
                 tools=BASIC_TOOLS.subset("get_current_date"))
    assert len(trace.steps) == 1 and trace.final_answer == "Home: 3.30 CNY."


def test_the_report_is_written_from_the_given_totals_without_tools() -> None:
    trace = _run("Write the weekly report from these totals (2024-10-01 to 2024-12-31): "
                 "Books: 3317.01 CNY; Toys: 6312.27 CNY.")
    assert len(trace.steps) == 1
    assert trace.final_answer.splitlines() == [
        "Weekly sales report, 2024-10-01 to 2024-12-31", "- Books: 3317.01 CNY",
        "- Toys: 6312.27 CNY", "Largest product line: Toys."]
    assert "need the totals" in _run("Write the weekly report from these totals: none").final_answer


@pytest.mark.parametrize("question", [
    TASK, "Please make a plan for my trip", "What is 2 + 2?", "Write a weekly report.",
    "List the orders placed from 2024-10-01 to 2024-10-31.", "add up 2 and 3"])
def test_other_questions_keep_their_family(question: str) -> None:
    assert planning_family(question) is None
