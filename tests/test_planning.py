"""Lesson 11's checkpoints, stage runner and the report task as one loop and as stages."""
from __future__ import annotations

import pytest

from mockllm import MockLLM
from mockllm.world import sales_by_product_line
from solutions.agent import run_agent
from solutions.planning.checkpoints import (kept_orders, last_quarter, line_totals, order_rows,
                                            validate_orders, validate_report, validate_totals)
from solutions.planning.report import long_report, staged_report
from solutions.planning.stages import Stage, run_stages, stages_text
from solutions.tools import world_tools

ROWS = [{"id": "A1", "date": "2024-10-02", "line": "Books", "amount": "10.50", "status": "shipped"},
        {"id": "A2", "date": "2024-11-30", "line": "Toys", "amount": "4.00", "status": "cancelled"},
        {"id": "A3", "date": "2024-12-31", "line": "Books", "amount": "1.25", "status": "delivered"}]
EXPECTED = sales_by_product_line("2024-10-01", "2024-12-31")


@pytest.mark.parametrize("today, quarter", [
    ("2025-03-14", ("2024-10-01", "2024-12-31")), ("2025-01-01", ("2024-10-01", "2024-12-31")),
    ("2025-05-31", ("2025-01-01", "2025-03-31")), ("2024-12-31", ("2024-07-01", "2024-09-30"))])
def test_last_quarter(today: str, quarter: tuple[str, str]) -> None:
    assert last_quarter(today) == quarter


def test_order_rows_read_a_listing() -> None:
    listing = ("2 orders from 2024-10-01 to 2024-10-31 (total 9 CNY):\n"
               "A0801 | 2024-10-01 | Books | 156.90 | shipped\nnot a row\n"
               "A0802 | 2024-10-02 | Home | 40.50 | cancelled")
    rows = order_rows(listing)
    assert [r["id"] for r in rows] == ["A0801", "A0802"] and rows[1]["status"] == "cancelled"
    assert order_rows("Error: too many orders") == []


def test_validate_orders_finds_each_problem() -> None:
    assert validate_orders(ROWS, "2024-10-01", "2024-12-31") == []
    late = ROWS + [dict(ROWS[0], id="A4", date="2025-01-01")]
    assert validate_orders(late, "2024-10-01", "2024-12-31") == [
        "order A4 is dated 2025-01-01, outside 2024-10-01 to 2024-12-31"]
    assert validate_orders(ROWS + [ROWS[0]], "2024-10-01", "2024-12-31") == [
        "order A1 is listed twice"]
    assert validate_orders([], "2024-10-01", "2024-12-31")          # a list, but empty
    assert validate_orders(["A1"], "2024-10-01", "2024-12-31")      # a list, but not of orders
    assert validate_orders("A1", "2024-10-01", "2024-12-31")


def test_validate_orders_reads_every_row_and_leaves_it_alone() -> None:
    bad = [dict(ROWS[0], id="A5", date="2024-11-31"), dict(ROWS[0], id="A6", amount=True),
           {"id": "A7", "date": "2024-11-02", "amount": "5.00"}, dict(ROWS[0], id="A8", amount="nan")]
    given = [dict(row) for row in ROWS + bad]
    assert validate_orders(given, "2024-10-01", "2024-12-31") == [
        "order A5 has no date YYYY-MM-DD ('2024-11-31')", "order A6 has no amount (True)",
        "a row is not an order (id, date, line, amount): {'id': 'A7', 'date': '2024-11-02', 'amount': '5.00'}",
        "order A8 has no amount ('nan')"]
    assert given == ROWS + bad


def test_validate_totals_checks_the_sums() -> None:
    kept = kept_orders(ROWS)
    assert validate_totals({"Books": "11.75"}, kept) == []
    assert validate_totals({"Books": "11.70"}, kept) == [
        "Books: 11.70 does not match the sum of its orders, 11.75"]
    assert validate_totals({"Books": "11.75", "Toys": "4.00"}, kept) == [
        "Toys is not a product line of the orders"]
    assert validate_totals({}, kept) and validate_totals(None, kept)


def test_validate_report_needs_the_period_and_every_total() -> None:
    text = "Weekly sales report, 2024-10-01 to 2024-12-31\n- Books: 11.75 CNY"
    assert validate_report(text, {"Books": "11.75"}, "2024-10-01", "2024-12-31") == []
    assert validate_report(text, {"Toys": "1.00"}, "2024-10-01", "2024-12-31") == [
        "the report does not give Toys's total 1.00"]
    assert validate_report("", {}, "a", "b") == ["the report is empty or not text"]


def test_the_one_loop_is_long_for_diligent_and_forgetful_loses_the_thread() -> None:
    diligent = long_report(MockLLM(persona="diligent", seed=0), world_tools())
    assert diligent.stop_reason == "answered" and len(diligent.steps) == 15
    assert {k: float(v) for k, v in line_totals(diligent.final_answer).items()} == EXPECTED
    forgetful = long_report(MockLLM(persona="forgetful", seed=0), world_tools())
    fired = [n for n, s in enumerate(forgetful.steps, 1)
             if "lose_thread" in s.explanation.get("quirks_fired", [])]
    assert fired and fired[0] == 9
    assert line_totals(forgetful.final_answer or "") == {}


@pytest.mark.parametrize("persona", ["diligent", "forgetful", "sloppy"])
def test_the_stages_succeed_with_short_loops(persona: str) -> None:
    run = staged_report(MockLLM(persona=persona, seed=0), world_tools())
    assert run.failed is None and list(run.checkpoints) == ["period", "orders", "totals", "report"]
    assert all(len(t.steps) <= 8 for r in run.results for t in r.traces)
    assert {k: float(v) for k, v in run.checkpoints["totals"].items()} == EXPECTED
    assert len(stages_text(run).splitlines()) == 4 and "FAILED" not in stages_text(run)


def _stage(name: str, answer_ok: bool, asked: list[str]) -> Stage:
    """A one-question stage whose checkpoint holds or not; it records that it was asked."""
    def questions(checkpoints: dict) -> list[str]:
        asked.append(name)
        return ["What is 2 + 2?"]
    return Stage(name, questions, lambda traces, c: traces[0].final_answer,
                 lambda value, c: [] if answer_ok else [f"{name} is wrong"], max_steps=3)


def test_run_stages_stops_at_the_first_failed_checkpoint() -> None:
    asked: list[str] = []
    stages = [_stage("one", True, asked), _stage("two", False, asked), _stage("three", True, asked)]
    run = run_stages(stages, MockLLM(persona="diligent", seed=0), world_tools())
    assert asked == ["one", "two"] and run.failed == "two"
    assert list(run.checkpoints) == ["one"] and run.results[-1].problems == ["two is wrong"]
    assert "FAILED: two is wrong" in stages_text(run)


def test_a_checkpoint_that_cannot_be_read_is_a_problem() -> None:
    def unreadable(traces: list, checkpoints: dict) -> None:
        raise ValueError("no date")
    stage = Stage("bad", lambda c: ["What is 2 + 2?"], unreadable, lambda v, c: [])
    run = run_stages([stage], MockLLM(persona="diligent", seed=0), world_tools())
    assert run.failed == "bad" and "no date" in run.results[0].problems[0]


def test_stages_use_fewer_tokens_than_the_one_loop() -> None:
    client = MockLLM(persona="diligent", seed=0)
    one = run_agent("Pull last quarter's orders, drop cancelled ones, total sales by product "
                    "line and write a weekly report.", client, world_tools(), 20)
    assert staged_report(MockLLM(persona="diligent", seed=0), world_tools()).total_tokens < \
        one.total_tokens


@pytest.mark.parametrize("validate, says", [
    (lambda checkpoint, checkpoints: 1 / 0, "division by zero"),
    (lambda checkpoint, checkpoints: None, "it returned NoneType, not a list of problems"),
])
def test_a_broken_validator_fails_its_checkpoint_with_the_reason(validate, says: str) -> None:
    from solutions.planning.stages import run_stage

    stage = Stage("date", lambda c: ["What is today's date?"], lambda traces, c: traces[0].final_answer,
                  validate, max_steps=3)
    result = run_stage(stage, MockLLM(persona="diligent", seed=0), world_tools(), {})
    assert not result.ok and result.problems == [f"the checkpoint's validator failed: {says}"]
    run = run_stages([stage], MockLLM(persona="diligent", seed=0), world_tools())
    assert run.failed == "date" and "date" not in run.checkpoints


@pytest.mark.parametrize("options", [{"max_replans": -1}, {"max_replans": True}, {"max_steps": 0},
                                     {"max_replans": 1.5}, {"max_plan_steps": 0}, {"max_plan_steps": None},
                                     {"max_calls": 0}, {"max_calls": True}, {"max_calls": 1e9}])
def test_plan_and_execute_refuses_limits_that_bound_nothing(options: dict) -> None:
    from solutions.planning.plan_execute import plan_and_execute

    name = next(iter(options))
    with pytest.raises(ValueError, match=f"{name} must be a whole number"):
        plan_and_execute("Write the weekly report.", MockLLM(persona="diligent", seed=0), world_tools(), **options)


@pytest.mark.parametrize("budget, error", [(0, ValueError), (-5, ValueError), (True, TypeError), (1.5, TypeError)])
def test_plan_and_execute_refuses_a_token_budget_that_bounds_nothing(budget, error) -> None:
    from solutions.planning.plan_execute import plan_and_execute

    with pytest.raises(error, match="token_budget must be"):
        plan_and_execute("Write the weekly report.", MockLLM(persona="diligent", seed=0), world_tools(),
                         token_budget=budget)


@pytest.mark.parametrize("questions, says", [
    (lambda c: c["missing"], "could not build the questions (KeyError: 'missing')"),
    (lambda c: "What is today's date?", "could not build the questions (TypeError: it returned str, not a list of questions)"),
    (lambda c: [1, 2], "could not build the questions (TypeError: it returned list, not a list of questions)"),
])
def test_a_broken_question_builder_fails_its_stage_with_the_reason(questions, says: str) -> None:
    from solutions.planning.stages import run_stage

    stage = Stage("date", questions, lambda traces, c: traces[0].final_answer, lambda v, c: [])
    result = run_stage(stage, MockLLM(persona="diligent", seed=0), world_tools(), {})
    assert not result.ok and result.problems == [says] and result.traces == []


def test_the_lesson_runs_end_with_their_stop_reason() -> None:
    from solutions.planning.plan_execute import plan_and_execute
    from solutions.planning.report import REPORT_TASK, staged_report

    reasons = {persona: plan_and_execute(REPORT_TASK, MockLLM(persona=persona, seed=0), world_tools()).stop_reason
               for persona in ("diligent", "forgetful", "looper")}
    assert reasons == {"diligent": "answered", "forgetful": "answered", "looper": "no_plan"}
    assert staged_report(MockLLM(persona="forgetful", seed=0), world_tools()).stop_reason == "answered"
    assert staged_report(MockLLM(persona="looper", seed=0), world_tools()).stop_reason == "checkpoint_failed"
