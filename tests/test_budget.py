"""Lesson 07's budget: usage, cost, the budget loop, budgeted_agent, and the exercises' checks."""
from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest

from mockllm import MockLLM
from solutions.agent import run_agent
from solutions.budget import (PRICES, ContextWindow, Price, Usage, UsageMeter, budgeted_agent,
                              cost, run_within_budget, usage_of)
from solutions.course.cases.lesson07 import FixedUsageClient
from solutions.context import CUT_REPLY, truncate_observation
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, world_tools

ARITHMETIC = "What is (17 + 5) * 3?"
FIFTY_DAYS = "What is today's date, and what date is it 50 days from now?"
REPORT = ("Pull last quarter's orders, drop cancelled ones, total sales by product line "
          "and write a weekly report.")
DATE_CALL = "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}"
FINAL = "Thought: I now know the final answer.\nFinal Answer: 2025-03-14"


class Recorder:
    """A client that records every request's keyword arguments and answers from `client`."""

    def __init__(self, client: Any) -> None:
        self.client, self.requests = client, []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        self.requests.append({**request, "messages": list(request.get("messages", []))})
        return self.client.chat.completions.create(**request)


# ---------------------------------------------------------------- usage and cost

def test_usage_of_reads_the_tokens_and_the_finish_reason() -> None:
    messages = [{"role": "user", "content": f"Question: {ARITHMETIC}"}]
    response = MockLLM(persona="diligent").chat.completions.create(
        model="mock-react", messages=messages, max_tokens=5)
    usage = usage_of(response)
    assert usage == Usage(response.usage.prompt_tokens, 5, "length")
    assert usage.total_tokens == response.usage.total_tokens


def test_usage_of_a_response_without_usage_is_zero() -> None:
    response = SimpleNamespace(choices=[SimpleNamespace(finish_reason="stop")], usage=None)
    assert usage_of(response) == Usage(0, 0, "stop") and usage_of(object()) == Usage()


def test_the_meter_records_every_call_of_a_run_and_passes_the_responses_on() -> None:
    meter = UsageMeter(MockLLM(persona="diligent", seed=0))
    trace = run_agent(FIFTY_DAYS, meter, BASIC_TOOLS)
    assert len(meter.calls) == len(trace.steps) == 3
    assert [call.total_tokens for call in meter.calls] == [step.tokens for step in trace.steps]
    assert meter.total_tokens == trace.total_tokens == meter.prompt_tokens + meter.completion_tokens
    assert meter.completion_tokens < meter.prompt_tokens


def test_the_meter_does_not_count_a_stream_and_refuses_what_is_not_a_client() -> None:
    meter = UsageMeter(MockLLM())
    chunks = list(meter.chat.completions.create(model="m", stream=True, messages=[
        {"role": "user", "content": "What is (17 + 5) * 3?"}]))
    assert chunks and meter.calls == []
    with pytest.raises(TypeError, match="client must be an OpenAI-style client"):
        UsageMeter("gpt-4o")


def test_cost_prices_input_and_output_tokens_apart_per_million() -> None:
    assert cost(Usage(1_000_000, 0), Price(2.5, 10.0)) == 2.5
    assert cost(Usage(0, 1_000_000), Price(2.5, 10.0)) == 10.0
    assert math.isclose(cost(Usage(584, 51), PRICES["large model"]), (584 * 2.5 + 51 * 10) / 1e6)
    assert all(price.output > price.input for price in PRICES.values())


# ---------------------------------------------------------------- run_within_budget

def _loop(replies: list[str], max_steps: int, token_budget: int | None) -> tuple[list, str, int]:
    """run_within_budget on a fixed-usage script (110 tokens a call): steps, reason, calls made."""
    from solutions.agent import run_step

    meter = UsageMeter(FixedUsageClient(replies))
    messages = [{"role": "system", "content": "Answer."}, {"role": "user", "content": "Question: ?"}]
    steps, reason = run_within_budget(lambda: run_step(meter, messages, BASIC_TOOLS), meter,
                                      max_steps, token_budget)
    return steps, reason, len(meter.calls)


@pytest.mark.parametrize("replies, max_steps, budget, steps, reason", [
    ([DATE_CALL, FINAL], 8, None, 2, "answered"),
    ([DATE_CALL] * 9, 3, None, 3, "step_limit"),
    ([DATE_CALL] * 9, 8, 250, 3, "token_budget"),     # 220 spent < 250: a third call, then stop
    ([DATE_CALL] * 9, 8, 220, 2, "token_budget"),     # 220 spent = the budget: no third call
    ([DATE_CALL] * 9, 8, 1, 1, "token_budget"),       # nothing spent before the first call
    ([DATE_CALL, DATE_CALL, FINAL], 8, 250, 3, "answered"),  # the answer paid for counts
])
def test_run_within_budget_stops_before_the_call_that_the_budget_forbids(
        replies: list[str], max_steps: int, budget: int | None, steps: int, reason: str) -> None:
    taken, stopped, calls = _loop(replies, max_steps, budget)
    assert (len(taken), stopped, calls) == (steps, reason, steps)


def test_a_meter_that_spent_its_budget_before_the_run_makes_no_call() -> None:
    from solutions.agent import run_step

    meter = UsageMeter(FixedUsageClient([DATE_CALL] * 9))
    messages = [{"role": "system", "content": "Answer."}, {"role": "user", "content": "Question: ?"}]
    for _ in range(3):  # a run that resumes: its meter has spent 330 tokens already
        meter.chat.completions.create(model="mock-react", messages=messages)
    steps, reason = run_within_budget(lambda: run_step(meter, messages, BASIC_TOOLS), meter, 8, 250)
    assert (steps, reason, len(meter.calls)) == ([], "token_budget", 3)


# ---------------------------------------------------------------- budgeted_agent

def test_with_every_control_off_it_runs_like_run_agent() -> None:
    for question, tools in [(FIFTY_DAYS, BASIC_TOOLS), (REPORT, world_tools())]:
        plain = run_agent(question, MockLLM(persona="diligent", seed=0), tools, max_steps=20)
        same = budgeted_agent(question, MockLLM(persona="diligent", seed=0), tools, max_steps=20,
                              max_observation_chars=None)
        assert same.messages == plain.messages and same.final_answer == plain.final_answer
        assert [s.tokens for s in same.steps] == [s.tokens for s in plain.steps]


def test_observations_are_truncated_in_the_history_and_the_trace() -> None:
    trace = budgeted_agent(REPORT, MockLLM(persona="diligent", seed=0), world_tools(), max_steps=20)
    listing = world_tools().run("query_orders", {"start_date": "2024-10-01", "end_date": "2024-10-31"})
    assert trace.steps[1].observation == truncate_observation(listing, 500)
    observations = [m["content"] for m in trace.messages if m["content"].startswith("Observation:")]
    assert max(len(text) for text in observations) <= len("Observation: ") + 500 + 45


def test_the_budget_ends_the_report_early_and_keeps_the_whole_history() -> None:
    meter = UsageMeter(MockLLM(persona="diligent", seed=0))
    trace = budgeted_agent(REPORT, meter, world_tools(), max_steps=20, token_budget=20_000,
                           max_observation_chars=None)
    assert trace.stop_reason == "token_budget" and trace.final_answer is None
    assert sum(call.total_tokens for call in meter.calls[:-1]) < 20_000 <= meter.total_tokens
    assert len(trace.messages) == 2 + 2 * len(trace.steps)


def test_a_cut_reply_is_retried_with_twice_the_max_tokens_once() -> None:
    recorder = Recorder(MockLLM(persona="diligent", seed=0))
    trace = budgeted_agent(ARITHMETIC, recorder, BASIC_TOOLS, max_tokens=47)
    assert [r["max_tokens"] for r in recorder.requests] == [47, 94, 47]
    assert trace.steps[0].error == CUT_REPLY and trace.final_answer == "(17 + 5) * 3 = 66"


def test_a_rambling_reply_is_cut_and_the_run_still_answers() -> None:
    meter = UsageMeter(MockLLM(persona=None, quirks={"repeat_phrase": [1]}))
    trace = budgeted_agent(ARITHMETIC, meter, BASIC_TOOLS, max_tokens=100)
    assert meter.calls[0] == Usage(meter.calls[0].prompt_tokens, 100, "length")
    assert trace.stop_reason == "answered" and "66" in trace.final_answer


def test_summarising_sends_short_prompts_but_keeps_every_message() -> None:
    recorder = Recorder(MockLLM(persona="diligent", seed=0))
    trace = budgeted_agent(REPORT, recorder, world_tools(), max_steps=20, summarise_after=2500,
                           max_observation_chars=None)
    full = run_agent(REPORT, MockLLM(persona="diligent", seed=0), world_tools(), max_steps=20)
    sent = [len(r["messages"]) for r in recorder.requests]
    assert sent[:4] == [2, 4, 6, 8] and max(sent[4:]) == 2 + 2 * 2  # the summary, the last two steps
    assert len(trace.messages) == 2 + 2 * len(trace.steps) - 1
    assert trace.messages[:10] == full.messages[:10]


def test_options_reach_every_call() -> None:
    recorder = Recorder(MockLLM(persona="diligent", seed=0))
    budgeted_agent(FIFTY_DAYS, recorder, BASIC_TOOLS, model="gpt-4o-mini", stop=["Observation:"],
                   system_prompt="You are terse.")
    assert {(r["model"], tuple(r["stop"])) for r in recorder.requests} == {("gpt-4o-mini", ("Observation:",))}
    assert recorder.requests[0]["messages"][0] == {"role": "system", "content": "You are terse."}


@pytest.mark.parametrize("option, value, error", [
    ("token_budget", 0, ValueError), ("token_budget", "1000", TypeError),
    ("max_observation_chars", -1, ValueError), ("summarise_after", 2.5, TypeError),
    ("keep_last", None, TypeError), ("keep_last", -1, ValueError), ("token_budget", True, TypeError),
])
def test_bad_limits_are_refused_naming_them(option: str, value: object, error: type) -> None:
    with pytest.raises(error, match=option):
        budgeted_agent(ARITHMETIC, MockLLM(), **{option: value})


def test_bad_arguments_are_refused_like_run_agent() -> None:
    with pytest.raises(TypeError, match="question"):
        budgeted_agent(42, MockLLM())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_steps"):
        budgeted_agent(ARITHMETIC, MockLLM(), max_steps=0)


def test_the_context_window_switches_to_the_summary_once_and_stays() -> None:
    recorder = Recorder(MockLLM(persona="diligent", seed=0))
    window = ContextWindow(summarise_after=650, keep_last=1)
    messages = [{"role": "system", "content": build_system_prompt(BASIC_TOOLS)},
                {"role": "user", "content": f"Question: {FIFTY_DAYS}"}]
    tokens = [window.step(recorder, messages, BASIC_TOOLS).tokens for _ in range(3)]
    assert tokens[0] < 650 <= tokens[1] and window.summarising
    assert [len(r["messages"]) for r in recorder.requests] == [2, 4, 4]  # summary + the last step
    assert len(messages) == 7  # the whole history: three replies, two observations
