"""`mockllm.openai_client()`: a real openai SDK client whose transport is the mock, in process."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

openai = pytest.importorskip("openai", reason="the SDK clients need the test extra (openai)")

import mockllm  # noqa: E402
from mockllm import MockLLM, async_openai_client, openai_client  # noqa: E402
from solutions.agent import run_agent  # noqa: E402
from solutions.tools import BASIC_TOOLS, world_tools  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
QUESTION = [{"role": "user", "content": "What is (17 + 5) * 3?"}]
CALCULATOR = {"type": "function", "function": {
    "name": "calculator", "description": "Evaluate an arithmetic expression, e.g. 2 * (3 + 4).",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string"}},
                   "required": ["expression"]}}}
AGENT_QUESTIONS = [
    "What is today's date, and what date is it 50 days from now?",  # lesson 04's worked example
    "What is today's date?",
    "What is (17 + 5) * 3?",
    "What is the weather in Beijing on 2025-03-15?",
]


def step_record(trace: object) -> list[tuple]:
    """What a trace says about each step: reply, tokens, action, observation, answer, explanation."""
    return [(s.raw_reply, s.tokens, s.action, s.action_input, s.observation, s.final_answer,
             s.error, s.explanation) for s in trace.steps]


def test_import_mockllm_loads_no_http_stack() -> None:
    code = ("import sys, mockllm; heavy = {'openai', 'httpx', 'httpx2', 'starlette', 'uvicorn'}; "
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] in heavy); "
            "assert not loaded, loaded; assert callable(mockllm.openai_client)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_clear_import_error_without_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(ImportError, match=r"pip install 'react-mockllm\[openai\]'"):
        mockllm.openai_client()
    with pytest.raises(ImportError, match=r"pip install 'react-mockllm\[openai\]'"):
        mockllm.async_openai_client()


def test_returns_real_sdk_clients() -> None:
    assert isinstance(openai_client(), openai.OpenAI)
    assert isinstance(async_openai_client(), openai.AsyncOpenAI)
    assert openai_client().max_retries == 0
    assert openai_client(max_retries=2, timeout=5.0).timeout == 5.0


def test_bad_options_fail_when_the_client_is_made() -> None:
    with pytest.raises(ValueError, match="persona"):
        openai_client(persona="nobody")
    with pytest.raises(ValueError, match="failures"):
        openai_client(failures={0: "rate_limit"})


def test_typed_response_equals_the_mock_reply() -> None:
    response = openai_client().chat.completions.create(model="mock-react", messages=QUESTION)
    expected = MockLLM().chat.completions.create(model="mock-react", messages=QUESTION)
    assert isinstance(response, openai.types.chat.ChatCompletion)
    assert response.choices[0].message.content == expected.choices[0].message.content
    assert response.usage.total_tokens == expected.usage.total_tokens
    assert response.model_extra["x_mock"] == expected.x_mock
    assert response.model_dump(exclude_unset=True) == expected.model_dump(exclude_unset=True)


def test_with_raw_response_shows_the_http_answer() -> None:
    raw = openai_client().chat.completions.with_raw_response.create(
        model="mock-react", messages=QUESTION)
    assert raw.http_response.status_code == 200
    assert raw.headers["content-type"] == "application/json"
    body = json.loads(raw.http_response.text)
    expected = MockLLM().chat.completions.create(model="mock-react", messages=QUESTION)
    assert body == expected.model_dump(exclude_unset=True)
    assert raw.parse().id == body["id"]


def test_the_model_name_picks_persona_and_seed() -> None:
    through_sdk = openai_client().chat.completions.create(model="mock-react:sloppy:3",
                                                          messages=QUESTION)
    direct = MockLLM(persona="sloppy", seed=3).chat.completions.create(
        model="mock-react:sloppy:3", messages=QUESTION)
    assert through_sdk.model_extra["x_mock"]["persona"] == "sloppy"
    assert through_sdk.model_dump(exclude_unset=True) == direct.model_dump(exclude_unset=True)
    with pytest.raises(openai.NotFoundError) as caught:
        openai_client().chat.completions.create(model="mock-react:nobody", messages=QUESTION)
    assert caught.value.code == "model_not_found" and "personas: diligent" in caught.value.message


def test_stream_chunks_add_up_to_the_reply() -> None:
    client = openai_client()
    whole = client.chat.completions.create(model="mock-react", messages=QUESTION)
    chunks = list(client.chat.completions.create(model="mock-react", messages=QUESTION,
                                                 stream=True))
    assert all(isinstance(c, openai.types.chat.ChatCompletionChunk) for c in chunks)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == whole.choices[0].message.content
    assert {c.id for c in chunks} == {whole.id}


def test_the_sdk_stream_helper_accumulates_tool_calls() -> None:
    client = openai_client(persona=None)
    with client.chat.completions.stream(model="mock-react", messages=QUESTION,
                                        tools=[CALCULATOR]) as stream:
        events = [event.type for event in stream]
        final = stream.get_final_completion()
    call = final.choices[0].message.tool_calls[0]
    assert call.function.name == "calculator"
    assert json.loads(call.function.arguments) == {"expression": "(17 + 5) * 3"}
    assert "tool_calls.function.arguments.done" in events


def test_a_bad_request_is_a_bad_request_error_naming_the_field() -> None:
    client = openai_client()
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="mock-react", messages=[{"role": "user"}])
    assert caught.value.status_code == 400
    assert caught.value.param == "messages[0].content"
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="mock-react", messages=QUESTION,
                                       extra_body={"temprature": 0})
    assert caught.value.param is None  # as the API: an unknown field is named in the message only
    assert caught.value.body["message"] == "Unrecognized request argument supplied: temprature; did you mean 'temperature'?"


def test_an_unknown_path_is_not_found() -> None:
    with pytest.raises(openai.NotFoundError, match=r"Invalid URL \(GET /v1/nowhere\)"):
        openai_client().get("/nowhere", cast_to=object)


def test_a_simulated_rate_limit_reaches_the_caller() -> None:
    client = openai_client(failures={2: "rate_limit"})
    client.chat.completions.create(model="mock-react", messages=QUESTION)
    with pytest.raises(openai.RateLimitError) as caught:
        client.chat.completions.create(model="mock-react", messages=QUESTION)
    assert caught.value.status_code == 429 and caught.value.code == "rate_limit_exceeded"
    assert caught.value.response.headers["retry-after"] == "1"
    assert "call 2" in caught.value.message
    client.chat.completions.create(model="mock-react", messages=QUESTION)  # call 3 is fine


def test_a_simulated_timeout_is_the_sdk_timeout_error() -> None:
    client = openai_client(failures={1: "timeout"})
    with pytest.raises(openai.APITimeoutError) as caught:
        client.chat.completions.create(model="mock-react", messages=QUESTION)
    assert "Simulated timeout on call 1" in str(caught.value.__cause__)


@pytest.mark.parametrize("kind, raised", [("rate_limit", openai.RateLimitError),
                                          ("timeout", openai.APITimeoutError)])
def test_the_sdk_s_retries_of_a_failed_call_fail_too(kind: str, raised: type,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    client = openai_client(failures={1: kind}, max_retries=2)
    sleeps: list[int] = []
    monkeypatch.setattr(client, "_sleep_for_retry", lambda **kw: sleeps.append(kw["retries_taken"]))
    with pytest.raises(raised):
        client.chat.completions.create(model="mock-react", messages=QUESTION)
    assert sleeps == [0, 1]  # three tries of call 1, no real sleep in the test
    response = client.chat.completions.create(model="mock-react", messages=QUESTION)  # call 2
    assert response.model_extra["x_mock"]["source"] == "policy"


def test_one_client_is_one_mockllm_and_its_call_counter() -> None:
    first, second = openai_client(failures={2: "rate_limit"}), openai_client(failures={2: "rate_limit"})
    first.chat.completions.create(model="mock-react", messages=QUESTION)
    second.chat.completions.create(model="mock-react", messages=QUESTION)  # its own call 1
    with pytest.raises(openai.RateLimitError):
        first.chat.completions.create(model="mock-react", messages=QUESTION)


def test_parse_with_a_pydantic_model() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Answer(pydantic.BaseModel):
        answer: str
        confidence: float

    completion = openai_client(persona=None).chat.completions.parse(
        model="mock-react", messages=[{"role": "user", "content": "What is 2 + 2?"}],
        response_format=Answer)
    parsed = completion.choices[0].message.parsed
    assert isinstance(parsed, Answer) and parsed.answer
    assert Answer.model_validate_json(completion.choices[0].message.content) == parsed


def test_the_async_client_gives_the_same_replies() -> None:
    async def ask() -> tuple:
        client = async_openai_client()
        whole = await client.chat.completions.create(model="mock-react", messages=QUESTION)
        stream = await client.chat.completions.create(model="mock-react", messages=QUESTION,
                                                      stream=True)
        text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        return whole, text

    whole, text = asyncio.run(ask())
    expected = MockLLM().chat.completions.create(model="mock-react", messages=QUESTION)
    assert whole.model_dump(exclude_unset=True) == expected.model_dump(exclude_unset=True)
    assert text == expected.choices[0].message.content


@pytest.mark.parametrize("question", AGENT_QUESTIONS)
@pytest.mark.parametrize("persona", ["diligent", "sloppy"])
@pytest.mark.parametrize("toolset", ["basic", "world"])
def test_the_course_agent_runs_the_same_through_the_sdk(question: str, persona: str,
                                                        toolset: str) -> None:
    tools = BASIC_TOOLS if toolset == "basic" else world_tools()
    direct = run_agent(question, MockLLM(persona=persona), tools, max_steps=6)
    through_sdk = run_agent(question, openai_client(persona=persona), tools, max_steps=6)
    assert step_record(through_sdk) == step_record(direct)
    assert (through_sdk.final_answer, through_sdk.stop_reason) == (direct.final_answer,
                                                                     direct.stop_reason)
    assert through_sdk.messages == direct.messages


def test_the_worked_example_reaches_its_answer_through_the_sdk() -> None:
    trace = run_agent(AGENT_QUESTIONS[0], openai_client(), BASIC_TOOLS, max_steps=6)  # as in lesson 04
    assert trace.stop_reason == "answered" and "2025-05-03" in trace.final_answer
    assert any("illegal characters" in (s.observation or "") for s in trace.steps)
