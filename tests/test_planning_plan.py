"""Lesson 11's Plan-and-Execute, its replanner, the comparison and the real-model path."""
from __future__ import annotations

from mockllm import MockLLM
from solutions.planning.compare import compare, right_totals, table
from solutions.planning.plan_execute import (capped_orders, numbered, plan_and_execute,
                                             plan_steps, surprise, with_data)
from solutions.planning.real_model import real_model_status
from solutions.planning.report import REPORT_TASK, staged_report
from solutions.tools import world_tools


def test_plan_steps_read_a_numbered_list() -> None:
    assert plan_steps("Here:\n1. First.\n2) Second\nnot a step\n3. Third") == [
        "First.", "Second", "Third"]
    assert plan_steps(None) == [] and plan_steps(numbered(["a", "b"])) == ["a", "b"]


def test_plan_and_execute_answers_right_for_diligent() -> None:
    run = plan_and_execute(REPORT_TASK, MockLLM(persona="diligent", seed=0), world_tools())
    assert len(run.plan) == 5 and run.replans == [] and right_totals(run.answer)
    assert run.steps == sum(len(t.steps) for t in run.planner_traces) + \
        sum(len(t.steps) for _, t in run.executed)


def test_a_surprise_makes_the_replanner_split_the_step() -> None:
    tools = capped_orders(world_tools())
    run = plan_and_execute(REPORT_TASK, MockLLM(persona="diligent", seed=0), tools)
    assert len(run.replans) == 1
    step, problem, new_plan = run.replans[0]
    assert "2024-11-01 to 2024-11-30" in step and problem.startswith("Error: too many orders (46")
    assert new_plan[:2] == ["List the orders placed from 2024-11-01 to 2024-11-15.",
                            "List the orders placed from 2024-11-16 to 2024-11-30."]
    assert right_totals(run.answer)


def test_the_staged_run_stops_at_the_same_surprise() -> None:
    run = staged_report(MockLLM(persona="diligent", seed=0), capped_orders(world_tools()))
    assert run.failed == "orders" and "report" not in run.checkpoints


def test_the_forgetful_executor_loses_the_thread_in_the_long_step() -> None:
    run = plan_and_execute(REPORT_TASK, MockLLM(persona="forgetful", seed=0), world_tools())
    long_step = max(run.executed, key=lambda pair: len(pair[1].steps))[1]
    assert any("lose_thread" in s.explanation.get("quirks_fired", []) for s in long_step.steps)
    assert not right_totals(run.answer)


def test_with_data_and_surprise() -> None:
    assert with_data("List the orders placed from 2024-10-01 to 2024-10-31.", []) == \
        "List the orders placed from 2024-10-01 to 2024-10-31."
    run = plan_and_execute(REPORT_TASK, MockLLM(persona="diligent", seed=0), world_tools())
    question = with_data("Add up the amounts of each product line.", run.executed[:3])
    assert question.count("\n") == 4 and "Books: 156.90, 40.50" in question
    assert all(surprise(trace) is None for _, trace in run.executed)


def test_compare_covers_every_approach_and_persona() -> None:
    outcomes = compare(["diligent", "forgetful"])
    right = {(o.approach, o.persona): o.right for o in outcomes}
    assert right == {("one loop", "diligent"): True, ("stages", "diligent"): True,
                     ("plan-and-execute", "diligent"): True, ("one loop", "forgetful"): False,
                     ("stages", "forgetful"): True, ("plan-and-execute", "forgetful"): False}
    assert len(table(outcomes).splitlines()) == 2 + len(outcomes)


def test_compare_runs_the_stages_through_the_function_it_is_given() -> None:
    from solutions.planning.stages import StagedRun
    called = []

    def staged(client, tools):
        called.append(client)
        return StagedRun([], failed="orders")
    stages = [o for o in compare(["looper"], staged=staged) if o.approach == "stages"]
    assert len(called) == 1 and [(o.right, o.steps, o.note) for o in stages] == [(False, 0, "stopped at orders")]


def test_the_real_model_path_says_what_is_missing_and_never_the_key() -> None:
    assert real_model_status({}) [0] is False
    assert "COURSE_REAL_MODEL=1" in real_model_status({"OPENAI_API_KEY": "sk-secret"})[1]
    ready, message = real_model_status({"COURSE_REAL_MODEL": "1"})
    assert not ready and "OPENAI_API_KEY" in message and "OPENAI_BASE_URL" in message
    ready, message = real_model_status({"COURSE_REAL_MODEL": "1", "OPENAI_API_KEY": "sk-secret"})
    assert ready and "sk-secret" not in message
    ready, message = real_model_status({"COURSE_REAL_MODEL": "1",
                                        "OPENAI_BASE_URL": "http://u:pw@127.0.0.1:8000/v1"})
    assert ready and "pw" not in message


def test_without_openai_the_status_says_how_to_install_it(monkeypatch) -> None:
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "openai" else real_find_spec(name, *a))
    ready, message = real_model_status({"COURSE_REAL_MODEL": "1", "OPENAI_API_KEY": "sk-x"})
    assert not ready and "pip install openai" in message


def test_with_model_asks_for_the_chosen_model_and_keeps_the_rest() -> None:
    from types import SimpleNamespace

    from solutions.planning.real_model import WithModel, model_name

    sent = []
    fake = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(
        create=lambda **request: sent.append(request) or "reply")))
    client = WithModel(fake, "qwen2.5:7b")
    assert client.chat.completions.create(model="mock-react", messages=[], stop=["x"]) == "reply"
    assert sent == [{"model": "qwen2.5:7b", "messages": [], "stop": ["x"]}]
    assert model_name({}) == "gpt-4o-mini" and model_name({"COURSE_MODEL": "m"}) == "m"


def test_real_client_points_at_the_endpoint_without_a_key() -> None:
    from solutions.planning.real_model import real_client

    client = real_client({"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert str(client.base_url).startswith("http://127.0.0.1:9/v1") and client.api_key == "not-needed"


def test_the_choice_table_sums_up_the_runs_and_the_surprise() -> None:
    from solutions.planning.compare import choice_table, summary

    outcomes = compare(["diligent", "forgetful"])
    surprised = compare(["diligent"], tools=lambda: capped_orders(world_tools()))
    assert [o.right for o in surprised] == [False, False, True]
    by = summary(outcomes)
    assert by["stages"]["right"] == 2 and by["one loop"]["right"] == 1
    assert by["stages"]["tokens"] < by["plan-and-execute"]["tokens"] < by["one loop"]["tokens"]
    text = choice_table(outcomes, surprised)
    assert "no report (stopped at orders)" in text and "right (5-step plan, 1 replan(s))" in text


def test_a_surprise_with_no_replan_left_stops_the_run() -> None:
    """Without a replan, November's failed listing ends the run: the steps after it would build on
    a month that is missing (before, the run carried on and wrote a report without November)."""
    run = plan_and_execute(REPORT_TASK, MockLLM(persona="diligent", seed=0), capped_orders(world_tools()),
                           max_replans=0)
    assert run.stop_reason == "replan_limit" and run.answer is None and run.replans == []
    assert [step for step, _ in run.executed] == run.plan[:2]


def test_the_comparison_notes_a_limit_that_ended_a_run(monkeypatch) -> None:
    from solutions.planning import compare as compare_module

    monkeypatch.setattr(compare_module, "plan_and_execute",
                        lambda task, client, tools: plan_and_execute(task, client, tools, max_calls=5))
    outcome = [o for o in compare(["diligent"]) if o.approach == "plan-and-execute"][0]
    assert outcome.note == "5-step plan, 0 replan(s), stopped: call_limit" and outcome.steps == 5
