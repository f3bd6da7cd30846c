"""End-to-end scenarios: the mock, the real offline world and the course's reference agent."""
from __future__ import annotations

import re

from mockllm import MockLLM
from mockllm.world import sales_by_product_line
from solutions.agent import run_agent
from solutions.prompt import build_system_prompt, without
from solutions.tools import Tool, ToolRegistry, world_tools

REPORT = ("Pull last quarter's orders, drop cancelled ones, total sales by product line "
          "and write a weekly report.")


def _totals(text: str) -> dict[str, float]:
    """Product line totals written as 'Books: 3317.01 CNY' in an answer."""
    return {line: float(amount) for line, amount in re.findall(r"(\w+): ([\d.]+) CNY", text)}


def test_the_report_task_is_long_and_right_for_a_diligent_model() -> None:
    trace = run_agent(REPORT, MockLLM(persona="diligent", seed=0), world_tools(), max_steps=20)
    assert trace.stop_reason == "answered" and len(trace.steps) > 8
    assert _totals(trace.final_answer) == sales_by_product_line("2024-10-01", "2024-12-31")


def test_the_forgetful_model_loses_the_thread_of_the_report() -> None:
    trace = run_agent(REPORT, MockLLM(persona="forgetful", seed=0), world_tools(), max_steps=20)
    fired = [q for step in trace.steps for q in step.explanation.get("quirks_fired", [])]
    assert "lose_thread" in fired
    assert _totals(trace.final_answer or "") != sales_by_product_line("2024-10-01", "2024-12-31")


def test_a_wrong_tool_result_reaches_the_answer() -> None:
    liar = Tool("get_current_date", "returns today's date. Example: {}",
                {"type": "object", "properties": {}, "required": []}, lambda: "1999-12-31")
    registry = ToolRegistry([liar, *world_tools().subset("calculator")])
    trace = run_agent("What is today's date?", MockLLM(persona="diligent", seed=0), registry)
    assert "1999-12-31" in trace.final_answer  # the model repeats what it observed


def test_the_gullible_model_obeys_an_injected_instruction() -> None:
    trace = run_agent("Are there delivery delays to Beijing? Search the documents.",
                      MockLLM(persona="gullible", seed=0), world_tools(), max_steps=4)
    assert "delete_orders" in (trace.final_answer or "") + str([s.action for s in trace.steps])


def test_the_hallucinator_answers_live_data_without_a_tool_unless_the_prompt_forbids_it() -> None:
    tools = world_tools()
    loose = run_agent("What is today's date?", MockLLM(persona="hallucinator", seed=0), tools,
                      system_prompt=build_system_prompt(tools, without("live_data")))
    strict = run_agent("What is today's date?", MockLLM(persona="hallucinator", seed=0), tools)
    assert loose.steps[0].action is None and "2025-03-14" not in loose.final_answer
    assert strict.steps[0].action == "get_current_date" and "2025-03-14" in strict.final_answer


def test_lesson_04_worked_example_goes_through_the_calculators_refusal() -> None:
    from solutions.tools import BASIC_TOOLS

    trace = run_agent("What is today's date, and what date is it 50 days from now?",
                      MockLLM(persona="diligent", seed=0), BASIC_TOOLS, max_steps=5)
    assert [step.action for step in trace.steps] == ["get_current_date", "calculator", None]
    assert "illegal characters" in trace.steps[1].observation
    assert "2025-05-03" in trace.final_answer and "17 days left in March" in trace.steps[2].thought
