"""Every agent of `solutions/` ends within its bounds with a stop_reason, against a model that never stops.

`Endless` is a model that never gives a final answer: it calls a tool at every step (a new call
each time, or the same one), or writes a plan without end. Each entry point runs against it; the
test counts the model calls (an operation counter, never the clock) and checks that the run made
no more than its limit and ended with a stop reason from the documented set. `Endless` refuses
a call beyond HARD_STOP, so an unbounded loop fails the test instead of hanging it.
"""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Callable

import pytest

from solutions.agent import run_agent
from solutions.budget import budgeted_agent
from solutions.evaluation.harness import guarded
from solutions.guards.agent import guarded_agent
from solutions.memory.agent import remembering_agent, replaying_agent
from solutions.memory.store import connect
from solutions.modes import modes_with
from solutions.planning import plan_execute, stages
from solutions.planning.plan_execute import PLANNER_STEPS, numbered, plan_and_execute
from solutions.planning.report import long_report, report_stages, staged_report
from solutions.planning.stages import MAX_QUESTIONS, Stage, run_stages
from solutions.safety.agent import SafeAgent
from solutions.safety.privilege import shop_tools
from solutions.structured import structured_agent
from solutions.tools import world_tools

HARD_STOP = 2_000
"""Model calls after which `Endless` refuses: far above every bound, so only an unbounded run meets it."""
TRACE_REASONS = frozenset({
    "answered", "step_limit",                 # lesson 04's loop (solutions.agent)
    "repeated_call", "retries_exhausted",     # lesson 05's guards (solutions.guards.agent)
    "token_budget",                           # lesson 07's budget (solutions.budget)
    "waiting_for_approval", "escalated",      # lesson 09's safe agent (solutions.safety.agent)
})
"""The stop reasons a Trace documents, module by module."""
PLAN_REASONS = frozenset(plan_execute.STOP_REASONS)
STAGE_REASONS = frozenset(stages.STOP_REASONS)
QUESTION = "What is today's date?"


def tool_call(number: int, repeat: bool = False) -> str:
    """A text-mode reply that calls the calculator: a new expression each time, or always the same."""
    expression = "1 + 1" if repeat else f"1 + {number}"
    return f"Thought: One more sum.\nAction: calculator\nAction Input: {json.dumps({'expression': expression})}"


class Endless:
    """An OpenAI-shaped model that never answers; `reply(calls, messages)` writes each reply's text.

    `structured=True` answers with a tool call in `tool_calls` instead of text. `calls` counts the
    model calls made through it.
    """

    def __init__(self, reply: Callable[[int, list[dict]], str] = lambda n, messages: tool_call(n),
                 *, structured: bool = False, tokens: int = 60) -> None:
        self.reply, self.structured, self.tokens, self.calls = reply, structured, tokens, 0
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: object) -> SimpleNamespace:
        """One reply; a call beyond HARD_STOP fails the test (the run had no bound)."""
        self.calls += 1
        if self.calls > HARD_STOP:
            raise AssertionError(f"more than {HARD_STOP} model calls: the run is not bounded")
        calls = None
        if self.structured:
            calls = [SimpleNamespace(id=f"call_{self.calls}", type="function", function=SimpleNamespace(
                name="calculator", arguments=json.dumps({"expression": f"1 + {self.calls}"})))]
        text = None if self.structured else self.reply(self.calls, request["messages"])
        message = SimpleNamespace(role="assistant", content=text, tool_calls=calls)
        usage = SimpleNamespace(prompt_tokens=self.tokens - 10, completion_tokens=10, total_tokens=self.tokens)
        return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")], usage=usage)


def question_of(messages: list[dict]) -> str:
    """The text of the run's question (its first user message)."""
    return next(m["content"] for m in messages if m["role"] == "user")


def endless_planner(steps: int = 10_000) -> Callable[[int, list[dict]], str]:
    """Replies of a planner that writes `steps` steps, and of an executor that never answers."""
    plan = "Final Answer: " + numbered([f"Look up order A{n:04}." for n in range(1, steps + 1)])

    def reply(number: int, messages: list[dict]) -> str:
        asked = question_of(messages)
        return plan if asked.startswith(("Question: Make a plan", "Question: Make a new plan")) else tool_call(number)
    return reply


def assert_trace_ends(trace, model: Endless, limit: int, reasons: frozenset = TRACE_REASONS) -> None:
    """The run made at most `limit` model calls, counted by the model, and says why it stopped."""
    assert model.calls <= limit and len(trace.steps) <= limit, (model.calls, len(trace.steps), limit)
    assert trace.stop_reason in reasons, trace.stop_reason
    assert (trace.final_answer is None) == (trace.stop_reason != "answered")


# ---------------------------------------------------------------- the loops that return a Trace


LOOPS = {
    "run_agent": lambda model, n: run_agent(QUESTION, model, world_tools(), n),
    "guarded_agent": lambda model, n: guarded_agent(QUESTION, model, world_tools(), n, sleep=lambda s: None),
    "evaluation harness (guarded)": lambda model, n: guarded(QUESTION, model, world_tools(), n),
    "budgeted_agent": lambda model, n: budgeted_agent(QUESTION, model, world_tools(), n),
    "replaying_agent": lambda model, n: replaying_agent(QUESTION, model, [], world_tools(), n),
    "long_report": lambda model, n: long_report(model, world_tools(), n),
    "modes: text": lambda model, n: modes_with()["text"](QUESTION, model, world_tools(), n),
    "SafeAgent.run": lambda model, n: SafeAgent(model, shop_tools(), max_steps=n).run(QUESTION),
}


@pytest.mark.parametrize("max_steps", [1, 4, 25])
@pytest.mark.parametrize("name", list(LOOPS))
def test_a_loop_ends_within_max_steps_against_a_model_that_never_answers(name: str, max_steps: int) -> None:
    model = Endless()
    trace = LOOPS[name](model, max_steps)
    assert_trace_ends(trace, model, max_steps)
    assert trace.stop_reason == "step_limit" and model.calls == max_steps


@pytest.mark.parametrize("name", ["guarded_agent", "evaluation harness (guarded)"])
def test_the_guards_stop_a_model_that_repeats_its_call_before_the_step_limit(name: str) -> None:
    model = Endless(lambda n, messages: tool_call(n, repeat=True))
    trace = LOOPS[name](model, 25)
    assert_trace_ends(trace, model, 25)
    assert trace.stop_reason == "repeated_call" and model.calls < 25


@pytest.mark.parametrize("structured", [structured_agent, modes_with()["no fallback"]])
def test_the_structured_loops_end_against_a_model_that_always_calls_a_tool(structured) -> None:
    model = Endless(structured=True)
    trace = structured(QUESTION, model, world_tools(), 7)
    assert_trace_ends(trace, model, 7)
    assert trace.stop_reason == "step_limit" and model.calls == 7


def test_the_token_budget_ends_a_budgeted_run_before_its_step_limit() -> None:
    model = Endless(tokens=100)
    trace = budgeted_agent(QUESTION, model, world_tools(), 25, token_budget=450)
    assert_trace_ends(trace, model, 25)
    assert trace.stop_reason == "token_budget" and model.calls == 5  # 5 x 100 >= 450: no sixth call


def test_the_remembering_agent_ends_and_saves_why(tmp_path) -> None:
    model, conn = Endless(), connect(tmp_path / "memory.sqlite")
    trace = remembering_agent(QUESTION, model, conn, world_tools(), 6)
    assert_trace_ends(trace, model, 6)
    assert trace.stop_reason == "step_limit"
    conn.close()


def test_the_safe_agent_ends_however_often_a_person_is_asked() -> None:
    """A model that always calls a dangerous tool waits for approval at every call; denied each
    time, the run still ends within max_steps, by its step limit or its escalation."""
    model = Endless(lambda n, messages: 'Action: delete_orders\nAction Input: {"order_ids": "all"}')
    agent = SafeAgent(model, shop_tools(), max_steps=5, max_failures=None)
    trace, asked = agent.run("Delete every order."), 0
    while trace.stop_reason == "waiting_for_approval" and asked <= 5:
        trace, asked = agent.resume("deny"), asked + 1
    assert_trace_ends(trace, model, 5)
    assert trace.stop_reason == "step_limit" and asked == 5  # each call waited, was denied, and counted


# ---------------------------------------------------------------- Plan-and-Execute


def test_a_planner_that_writes_10000_steps_ends_the_run_at_its_plan_cap() -> None:
    model = Endless(endless_planner())
    run = plan_and_execute("Check every order.", model, world_tools())
    assert run.stop_reason == "plan_too_long" and run.executed == [] and run.answer is None
    assert model.calls <= PLANNER_STEPS and run.steps == model.calls


@pytest.mark.parametrize("max_calls", [1, 30, 100])
def test_with_its_plan_cap_raised_the_run_ends_at_its_call_cap(max_calls: int) -> None:
    model = Endless(endless_planner())
    run = plan_and_execute("Check every order.", model, world_tools(), max_plan_steps=10_000,
                           max_calls=max_calls, max_replans=1_000)
    assert run.stop_reason == "call_limit" and model.calls == run.steps == max_calls
    assert run.answer is None


def test_the_default_call_cap_bounds_a_run_whose_steps_never_answer() -> None:
    model = Endless(endless_planner(steps=20))  # a plan within its cap, every step a loop to its limit
    run = plan_and_execute("Check every order.", model, world_tools(), max_replans=0)
    assert run.stop_reason in ("call_limit", "replan_limit") and model.calls <= plan_execute.MAX_CALLS


def test_a_replanner_that_replans_forever_ends_at_the_replan_limit() -> None:
    model = Endless(endless_planner(steps=3))  # each step stops without an answer: a surprise
    run = plan_and_execute("Check every order.", model, world_tools(), max_steps=2, max_replans=2)
    assert run.stop_reason == "replan_limit" and len(run.replans) == 2 and run.answer is None
    assert model.calls == run.steps <= 3 * PLANNER_STEPS + 3 * 2


def test_the_token_budget_ends_a_plan_and_execute_run() -> None:
    model = Endless(endless_planner(steps=5), tokens=100)
    run = plan_and_execute("Check every order.", model, world_tools(), token_budget=750)
    assert run.stop_reason == "token_budget" and run.total_tokens == model.calls * 100 == 800


def test_a_planner_without_a_numbered_plan_ends_with_no_plan() -> None:
    model = Endless()  # the planner's loop calls tools until its step limit: no plan at all
    run = plan_and_execute("Check every order.", model, world_tools())
    assert run.stop_reason == "no_plan" and run.plan == [] and model.calls == PLANNER_STEPS


@pytest.mark.parametrize("options", [{}, {"max_plan_steps": 10_000}, {"max_calls": 7},
                                     {"token_budget": 300}, {"max_replans": 0}])
def test_every_plan_and_execute_run_ends_with_a_documented_stop_reason(options: dict) -> None:
    for reply in (endless_planner(), endless_planner(steps=3), lambda n, messages: tool_call(n)):
        model = Endless(reply)
        run = plan_and_execute("Check every order.", model, world_tools(), **options)
        assert run.stop_reason in PLAN_REASONS and model.calls <= options.get("max_calls", plan_execute.MAX_CALLS)


# ---------------------------------------------------------------- stages


def test_the_staged_report_ends_at_its_first_checkpoint_against_a_model_that_never_answers() -> None:
    model = Endless()
    run = staged_report(model, world_tools())
    assert run.stop_reason == "checkpoint_failed" and run.failed == "period"
    assert model.calls == run.steps <= report_stages()[0].max_steps


def test_a_stage_that_asks_too_many_questions_fails_before_any_loop_runs() -> None:
    model = Endless()
    many = Stage("many", lambda c: ["What is 1 + 1?"] * 10_000, lambda traces, c: None, lambda v, c: [])
    run = run_stages([many], model, world_tools())
    assert run.stop_reason == "checkpoint_failed" and model.calls == 0
    assert run.results[0].problems == [f"the stage asks 10000 questions, more than {MAX_QUESTIONS}: none was run"]


def test_every_staged_run_ends_with_a_documented_stop_reason() -> None:
    def stage(name: str, holds: bool) -> Stage:
        return Stage(name, lambda c: ["What is 1 + 1?"], lambda traces, c: len(traces),
                     lambda value, c: [] if holds else [f"{name} does not hold"], max_steps=2)
    for stage_list in ([], [stage("one", True)], [stage("one", True), stage("two", False)]):
        model = Endless()
        run = run_stages(stage_list, model, world_tools())
        assert run.stop_reason in STAGE_REASONS and model.calls <= 2 * len(stage_list)
        assert run.stop_reason == ("answered" if run.failed is None else "checkpoint_failed")
