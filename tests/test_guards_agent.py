"""Tests for guarded_agent and its guards (lesson 05): each failure of the clinic, bare and guarded."""
from __future__ import annotations

import inspect

import pytest

from mockllm import MockLLM, RateLimitError
from solutions import agent as lesson04
from solutions.agent import run_agent
from solutions.guards import STOP, guarded_agent
from solutions.guards import agent as guarded_module
from solutions.guards.calls import GuardedTools, check_tool_names, example_of
from solutions.guards.live import LIVE_DATA_NOTE, live_data_refusal, needs_live_data
from solutions.guards.repeat import REPEAT_NOTE, STOP_NOTE, repeat_verdict
from solutions.prompt import build_system_prompt, without
from solutions.tools import BASIC_TOOLS, Tool, ToolRegistry, world_tools

FIFTY = "What is today's date, and what date is it 50 days from now?"
WEATHER = "What will the weather be in Beijing tomorrow?"


def _calls(trace) -> list[tuple]:
    """The (action, input) of every step that called a tool."""
    return [(s.action, s.action_input) for s in trace.steps if s.action is not None]


def test_the_looper_is_told_once_and_then_answers() -> None:
    bare = run_agent(FIFTY, MockLLM(persona="looper"), BASIC_TOOLS)
    guarded = guarded_agent(FIFTY, MockLLM(persona="looper"), BASIC_TOOLS)
    assert bare.stop_reason == "step_limit" and len(set(map(str, _calls(bare)))) == 1
    assert guarded.stop_reason == "answered" and "2025-05-03" in guarded.final_answer
    assert guarded.steps[1].observation == "2025-03-14\n" + REPEAT_NOTE.format(action="get_current_date")
    assert "already called" in guarded.messages[5]["content"]  # what the mock reads as a correction


def test_a_call_repeated_twice_stops_the_run() -> None:
    call = "Thought: Again.\nAction: get_current_date\nAction Input: {}"
    trace = guarded_agent("What is today's date?", MockLLM.from_script([call] * 4), BASIC_TOOLS)
    assert trace.stop_reason == "repeated_call" and len(trace.steps) == 3 and trace.final_answer is None
    assert trace.steps[2].observation == STOP_NOTE


def test_guarded_tools_bind_note_and_show_examples() -> None:
    tools = GuardedTools(world_tools())
    assert tools.run("get_weather", {"input": "Beijing, 2025-03-15"}).startswith("Beijing 2025-03-15: Dust storm")
    assert tools.calls == [("get_weather", {"city": "Beijing", "date": "2025-03-15"})]
    assert tools.run(" get_weather ", {"city": "Beijing", "date": "2025-03-15"}).endswith(
        REPEAT_NOTE.format(action="get_weather"))
    error = tools.run("get_weather", {"town": "Beijing"})
    assert error.startswith("Error: get_weather() needs") and error.endswith(
        'Example: {"city": "Shanghai", "date": "2025-03-16"}')
    assert tools.run("weather_api", {}).startswith("Error: unknown tool 'weather_api'")
    assert tools.run("get_weather", None).startswith("Error: get_weather() needs")
    assert tools.stop_reason is None and len(tools) == len(world_tools())
    assert example_of(Tool("t", "no example here", {"type": "object"}, lambda: "")) == ""


def test_repeat_verdict() -> None:
    a, b = ("f", {"x": 1}), ("g", {})
    assert [repeat_verdict(c, "f", {"x": 1}) for c in ([], [a], [a, b], [a, b, a], [b])] == \
           ["new", "repeat", "repeat", "stop", "new"]


def test_jsonic_call_syntax_is_read() -> None:
    question = "What is (17 + 5) * 3?"
    bare = run_agent(question, MockLLM(persona="jsonic"), BASIC_TOOLS)
    guarded = guarded_agent(question, MockLLM(persona="jsonic"), BASIC_TOOLS)
    assert "call_syntax" in bare.steps[0].explanation["quirks_fired"]
    assert "66" not in bare.final_answer and "66" in guarded.final_answer
    assert guarded.steps[0].action_input == {"expression": "(17 + 5) * 3"}


def test_a_bare_two_value_input_is_bound() -> None:
    client = lambda: MockLLM(persona=None, quirks={"input_not_json": [2]})  # noqa: E731
    bare = run_agent(WEATHER, client(), world_tools())
    guarded = guarded_agent(WEATHER, client(), world_tools())
    assert "Dust storm" not in bare.final_answer and "Dust storm" in guarded.final_answer


def test_an_answer_without_a_tool_to_a_live_data_question_is_refused_once() -> None:
    tools = BASIC_TOOLS
    loose = build_system_prompt(tools, without("live_data"))
    bare = run_agent("What is today's date?", MockLLM(persona="hallucinator"), tools, system_prompt=loose)
    guarded = guarded_agent("What is today's date?", MockLLM(persona="hallucinator"), tools, system_prompt=loose)
    assert bare.steps[0].action is None and "2025-03-14" not in bare.final_answer
    assert guarded.steps[0].error == LIVE_DATA_NOTE and guarded.steps[0].final_answer is None
    assert guarded.steps[1].action == "get_current_date" and "2025-03-14" in guarded.final_answer
    always = MockLLM.from_script(["Final Answer: 2023-10-31"] * 3)
    twice = guarded_agent("What is today's date?", always, tools)
    assert twice.stop_reason == "answered" and len(twice.steps) == 2  # told once, then the answer stands


def test_live_data_words() -> None:
    assert all(needs_live_data(q) for q in ("What is today's date?", "北京明天天气？", "Status of order A1002?",
                                            "Is Friday free in my calendar?"))
    assert not any(needs_live_data(q) for q in ("What is (17 + 5) * 3?", "What is the capital of France?"))
    assert live_data_refusal("What is 2 + 2?", []) is None


def test_field_like_tool_names_are_refused() -> None:
    answer = Tool("final_answer", "records the answer. Example: {}", {"type": "object", "properties": {}},
                  lambda: "ok")
    for name in ("final_answer", "Observation", "action_input", "Final-Answer"):
        tool = Tool(name.replace("-", "_"), answer.description, answer.parameters, answer.function)
        with pytest.raises(ValueError, match="looks like a field"):
            check_tool_names(ToolRegistry([tool]))
    with pytest.raises(ValueError, match="submit_final_answer"):
        guarded_agent("What is 2 + 2?", MockLLM(), ToolRegistry([answer]))
    check_tool_names(world_tools())  # the course's tools are fine


def test_a_rate_limit_is_retried_and_the_budget_ends_the_run() -> None:
    with pytest.raises(RateLimitError):
        run_agent("What is (17 + 5) * 3?", MockLLM(failures={2: "rate_limit"}), BASIC_TOOLS)
    waits: list[float] = []
    trace = guarded_agent("What is (17 + 5) * 3?", MockLLM(failures={2: "rate_limit"}), BASIC_TOOLS,
                          sleep=waits.append)
    assert trace.stop_reason == "answered" and "66" in trace.final_answer and len(waits) == 1
    failing = MockLLM(failures={n: "timeout" for n in range(2, 9)})
    exhausted = guarded_agent("What is (17 + 5) * 3?", failing, BASIC_TOOLS, max_retries=2, sleep=waits.append)
    assert exhausted.stop_reason == "retries_exhausted" and len(exhausted.steps) == 1
    assert exhausted.steps[0].observation == "66" and failing.calls == 4


def test_the_stop_sequence_is_sent_and_can_be_switched_off() -> None:
    on = guarded_agent("What is today's date?", MockLLM(persona="hallucinator"), BASIC_TOOLS)
    off = guarded_agent("What is today's date?", MockLLM(persona="hallucinator"), BASIC_TOOLS, stop=None)
    assert on.steps[0].explanation["stop_applied"] == STOP[0] and "Observation" not in on.steps[0].raw_reply
    assert "Observation: " in off.steps[0].raw_reply
    assert on.final_answer == off.final_answer and on.total_tokens < off.total_tokens


def test_the_well_behaved_run_is_the_lesson_04_run() -> None:
    bare = run_agent(FIFTY, MockLLM(), BASIC_TOOLS, stop=STOP)
    guarded = guarded_agent(FIFTY, MockLLM(), BASIC_TOOLS)
    assert [(s.raw_reply, s.observation) for s in bare.steps] == [(s.raw_reply, s.observation) for s in guarded.steps]
    assert guarded.messages == bare.messages and guarded.final_answer == bare.final_answer


def test_bad_arguments_are_refused_like_run_agent() -> None:
    with pytest.raises(TypeError, match="question"):
        guarded_agent(42, MockLLM())
    with pytest.raises(ValueError, match="max_steps"):
        guarded_agent("q?", MockLLM(), max_steps=0)
    with pytest.raises(ValueError, match="max_retries"):
        guarded_agent("q?", MockLLM(), max_retries=-1)


def test_the_loop_reuses_run_step_and_the_lesson_04_pieces() -> None:
    source = inspect.getsource(guarded_module.guarded_agent)
    assert "run_step(" in source and "check_arguments(" in source and ".create(" not in source
    assert guarded_module.run_step is lesson04.run_step and guarded_module.Trace is lesson04.Trace
