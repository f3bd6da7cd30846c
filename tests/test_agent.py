"""Tests for the ReAct loop of lesson 04 (solutions.agent)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from mockllm import MockLLM
from solutions.agent import Trace, TraceStep, explanation_of, run_agent
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, world_tools

QUESTION = "What is today's date?"
WORKED_QUESTION = "What is today's date, and what date is it 50 days from now?"

DATE_CALL = "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}"
FINAL = "Thought: I now know the final answer.\nFinal Answer: Today is 2025-03-14."
UNKNOWN_CALL = "Thought: Let me check.\nAction: get_weather_forecast\nAction Input: {}"
BAD_CALC = ('Thought: Add 50 days.\nAction: calculator\n'
            'Action Input: {"expression": "2025-03-14 + 50 days"}')
CHATTER = "Sure! Today is probably a nice day, I think."


def scripted(*replies: str) -> MockLLM:
    """A mock client that replays exactly these replies."""
    return MockLLM.from_script(list(replies))


class RecordingClient:
    """A minimal OpenAI-shaped client without x_mock that records each request."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.calls: list[dict] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **kwargs: object) -> SimpleNamespace:
        """Record the request and return the next reply."""
        self.calls.append({**kwargs, "messages": [dict(m) for m in kwargs["messages"]]})
        message = SimpleNamespace(content=self.replies.pop(0), role="assistant")
        return SimpleNamespace(choices=[SimpleNamespace(message=message)],
                               usage=SimpleNamespace(total_tokens=7))


def roles(trace: Trace) -> list[str]:
    """The roles of the trace's messages, in order."""
    return [m["role"] for m in trace.messages]


def test_answered_on_final_answer() -> None:
    trace = run_agent(QUESTION, scripted(DATE_CALL, FINAL))
    assert trace.stop_reason == "answered"
    assert trace.final_answer == "Today is 2025-03-14."
    assert len(trace.steps) == 2
    first, last = trace.steps
    assert first.action == "get_current_date" and first.action_input == {}
    assert first.observation == "2025-03-14"
    assert first.thought == "I need today's date."
    assert last.final_answer == "Today is 2025-03-14." and last.observation is None
    assert [s.raw_reply for s in trace.steps] == [DATE_CALL, FINAL]


def test_answer_in_first_step_needs_no_tool() -> None:
    trace = run_agent("Say hi.", scripted("Thought: Easy.\nFinal Answer: hi"), max_steps=1)
    assert (trace.stop_reason, trace.final_answer, len(trace.steps)) == ("answered", "hi", 1)
    assert roles(trace) == ["system", "user", "assistant"]


def test_messages_start_with_system_prompt_and_question() -> None:
    trace = run_agent(QUESTION, scripted(FINAL))
    assert trace.messages[0] == {"role": "system", "content": build_system_prompt(BASIC_TOOLS)}
    assert trace.messages[1] == {"role": "user", "content": f"Question: {QUESTION}"}
    assert trace.question == QUESTION


def test_custom_system_prompt_and_tools() -> None:
    tools = world_tools()
    trace = run_agent(QUESTION, scripted(FINAL), tools=tools, system_prompt="Be brief.")
    assert trace.messages[0] == {"role": "system", "content": "Be brief."}
    trace = run_agent(QUESTION, scripted(FINAL), tools=tools)
    assert trace.messages[0]["content"] == build_system_prompt(tools)


def test_observation_is_a_user_message() -> None:
    trace = run_agent(QUESTION, scripted(DATE_CALL, FINAL))
    assert roles(trace) == ["system", "user", "assistant", "user", "assistant"]
    assert trace.messages[2] == {"role": "assistant", "content": DATE_CALL}
    assert trace.messages[3] == {"role": "user", "content": "Observation: 2025-03-14"}


def test_history_keeps_everything() -> None:
    trace = run_agent(QUESTION, scripted(DATE_CALL, CHATTER, BAD_CALC, DATE_CALL, FINAL))
    assert len(trace.steps) == 5
    assert roles(trace) == ["system", "user"] + ["assistant", "user"] * 4 + ["assistant"]
    replies = [m["content"] for m in trace.messages if m["role"] == "assistant"]
    assert replies == [DATE_CALL, CHATTER, BAD_CALC, DATE_CALL, FINAL]
    observations = [m["content"] for m in trace.messages[3::2]]
    assert observations[0] == observations[3] == "Observation: 2025-03-14"


def test_unknown_tool_observation_names_available_tools() -> None:
    trace = run_agent(QUESTION, scripted(UNKNOWN_CALL, FINAL))
    step = trace.steps[0]
    assert step.action == "get_weather_forecast"
    assert "get_weather_forecast" in step.observation
    for name in BASIC_TOOLS.names():
        assert name in step.observation
    assert trace.messages[3]["content"] == f"Observation: {step.observation}"
    assert trace.stop_reason == "answered"


def test_tool_error_becomes_observation() -> None:
    trace = run_agent(QUESTION, scripted(BAD_CALC, FINAL))
    step = trace.steps[0]
    assert step.action == "calculator"
    assert step.action_input == {"expression": "2025-03-14 + 50 days"}
    assert step.observation.startswith("Error")
    assert "illegal characters" in step.observation
    assert step.error is None
    assert trace.messages[3] == {"role": "user", "content": f"Observation: {step.observation}"}


def test_format_error_sends_one_correction_then_retries() -> None:
    trace = run_agent(QUESTION, scripted(CHATTER, FINAL))
    bad, retry = trace.steps
    assert bad.error and "could not parse" in bad.error.lower()
    assert bad.action is None and bad.observation is None and bad.final_answer is None
    assert bad.raw_reply == CHATTER
    assert roles(trace) == ["system", "user", "assistant", "user", "assistant"]
    assert trace.messages[3] == {"role": "user", "content": bad.error}
    assert not trace.messages[3]["content"].startswith("Observation:")
    assert retry.final_answer == trace.final_answer == "Today is 2025-03-14."
    assert trace.stop_reason == "answered"


def test_format_errors_count_as_steps() -> None:
    trace = run_agent(QUESTION, scripted(CHATTER, CHATTER, FINAL), max_steps=2)
    assert trace.stop_reason == "step_limit" and trace.final_answer is None
    assert len(trace.steps) == 2
    assert [m["role"] for m in trace.messages].count("user") == 3  # question + 2 corrections


def test_step_limit() -> None:
    trace = run_agent(QUESTION, scripted(DATE_CALL, DATE_CALL, DATE_CALL, FINAL), max_steps=3)
    assert trace.stop_reason == "step_limit"
    assert trace.final_answer is None
    assert len(trace.steps) == 3
    assert all(s.observation == "2025-03-14" for s in trace.steps)
    assert roles(trace) == ["system", "user"] + ["assistant", "user"] * 3


def test_tokens_and_explanation_are_recorded() -> None:
    trace = run_agent(QUESTION, scripted(DATE_CALL, FINAL))
    assert all(s.tokens > 0 for s in trace.steps)
    assert trace.total_tokens == sum(s.tokens for s in trace.steps)
    assert all(s.explanation.get("source") == "script" for s in trace.steps)


def test_client_without_explanation() -> None:
    client = RecordingClient(DATE_CALL, FINAL)
    trace = run_agent(QUESTION, client)
    assert trace.stop_reason == "answered"
    assert [s.explanation for s in trace.steps] == [{}, {}]
    assert [s.tokens for s in trace.steps] == [7, 7] and trace.total_tokens == 14


def test_request_options_are_passed_only_when_given() -> None:
    client = RecordingClient(DATE_CALL, FINAL)
    run_agent(QUESTION, client)
    assert set(client.calls[0]) == {"model", "messages"}
    assert client.calls[0]["model"] == "mock-react"
    client = RecordingClient(FINAL)
    run_agent(QUESTION, client, model="other", stop=["Observation:"], max_tokens=64)
    assert client.calls[0]["stop"] == ["Observation:"]
    assert client.calls[0]["max_tokens"] == 64 and client.calls[0]["model"] == "other"
    assert len(client.calls[0]["messages"]) == 2  # system + question


def test_explanation_from_openai_objects() -> None:
    import openai.types.chat as chat
    resp = scripted(FINAL).chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": "Question: hi"}])
    as_openai = chat.ChatCompletion.model_validate(resp.model_dump())
    assert explanation_of(as_openai) == resp.model_dump()["x_mock"]
    assert explanation_of(SimpleNamespace(model_extra=None)) == {}
    assert explanation_of(SimpleNamespace(x_mock="not a dict")) == {}


def test_custom_parse_is_used() -> None:
    seen = []

    def parse(text: str) -> SimpleNamespace:
        seen.append(text)
        return SimpleNamespace(thought=None, action=None, action_input={},
                               final_answer="42", error=None, raw=text)

    trace = run_agent(QUESTION, scripted("anything"), parse=parse)
    assert seen == ["anything"] and trace.final_answer == "42"


@pytest.mark.parametrize("kwargs, error", [
    ({"max_steps": 0}, ValueError),
    ({"max_steps": -1}, ValueError),
    ({"max_steps": "3"}, TypeError),
    ({"max_steps": 2.0}, TypeError),
    ({"max_steps": True}, TypeError),
    ({"tools": ["calculator"]}, TypeError),
    ({"tools": {"calculator": None}}, TypeError),
    ({"question": 42}, TypeError),
    ({"question": None}, TypeError),
    ({"question": "   "}, ValueError),
    ({"client": "gpt-4"}, TypeError),
])
def test_bad_arguments(kwargs: dict, error: type) -> None:
    args = {"question": QUESTION, "client": scripted(FINAL), **kwargs}
    with pytest.raises(error) as info:
        run_agent(**args)
    field = next(iter(kwargs))
    assert field in str(info.value)


def test_trace_step_defaults() -> None:
    step = TraceStep()
    assert step.action_input == {} and step.explanation == {} and step.tokens == 0
    assert Trace("q", [step], None, "step_limit").total_tokens == 0


def test_worked_example_reaches_2025_05_03() -> None:
    trace = run_agent(WORKED_QUESTION, MockLLM(persona="diligent", seed=0))
    assert trace.stop_reason == "answered"
    assert "2025-05-03" in trace.final_answer
    assert trace.steps[0].action == "get_current_date"
    assert trace.steps[0].observation == "2025-03-14"
    calculator_steps = [s for s in trace.steps if s.action == "calculator"]
    assert calculator_steps, "the diligent model should try the calculator on the way"
    assert "illegal characters" in calculator_steps[0].observation
    assert all(s.explanation.get("persona") == "diligent" for s in trace.steps)
    assert all(s.explanation.get("rule") for s in trace.steps)
    assert trace.total_tokens > 0


def test_worked_example_is_deterministic() -> None:
    first = run_agent(WORKED_QUESTION, MockLLM(persona="diligent", seed=0))
    second = run_agent(WORKED_QUESTION, MockLLM(persona="diligent", seed=0))
    assert first == second
