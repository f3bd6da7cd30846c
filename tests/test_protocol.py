"""The protocol layer: tokens, stop, max_tokens, usage, tool calls, streaming, failures, exports."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
import types

import pytest

import mockllm
from mockllm import APITimeoutError, MockAPIError, MockLLM, RateLimitError
from mockllm.protocol.tokens import count_tokens, split_tokens, truncate_tokens

QUESTION = {"role": "user", "content": "Question: what is the weather in Paris tomorrow?"}
ACTION = 'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}'
FABRICATED = ACTION + "\nObservation: Sunny, 18°C\nThought: I now know the final answer.\nFinal Answer: Sunny."
WEATHER_CALL = {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris", "date": "2025-03-15"}}]}


def _ask(script: list, messages: list | None = None, **options: object) -> object:
    """Send one request to a fresh client scripted with `script`."""
    client = MockLLM.from_script(script)
    return client.chat.completions.create(model="mock-react", messages=messages or [QUESTION], **options)


# --- tokens -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "tokens"), [
    ("internationalisation", ["inte", "rnat", "iona", "lisa", "tion"]),
    ("Hello, world!", ["Hell", "o", ",", " worl", "d", "!"]),
    ("2025-03-14", ["202", "5", "-", "03", "-", "14"]),
    ("今天北京天气？", ["今", "天", "北", "京", "天", "气", "？"]),
    ("Ｆｉｎａｌ：１", ["Ｆ", "ｉ", "ｎ", "ａ", "ｌ", "：", "１"]),
    ("Action Input: {}", ["Acti", "on", " Inpu", "t", ":", " {", "}"]),
    ("a  b\n\nc", ["a", " ", " b", "\n\n", "c"]),
    ("get_weather", ["get", "_", "weat", "her"]),
    ("", []),
])
def test_split_tokens(text: str, tokens: list[str]) -> None:
    assert split_tokens(text) == tokens
    assert count_tokens(text) == len(tokens)


def test_split_tokens_loses_nothing() -> None:
    every_kind = "".join(chr(code) for code in range(1, 0x30000, 11) if not 0xD800 <= code < 0xE000)
    for text in (every_kind, FABRICATED, " \t\n  mixed 中文 and English,  123456 ! \r\n", "\u3000全角\u3000"):
        assert "".join(split_tokens(text)) == text
        assert count_tokens(text) == len(split_tokens(text))


def test_truncate_tokens() -> None:
    assert truncate_tokens("Hello, world!", 3) == "Hello,"
    assert truncate_tokens("Hello", 0) == ""
    assert truncate_tokens("Hello", 99) == "Hello"


def test_tokens_need_a_str() -> None:
    with pytest.raises(TypeError, match="needs a str"):
        count_tokens(None)  # type: ignore[arg-type]


# --- stop, max_tokens, usage --------------------------------------------------------------------

def test_stop_cuts_at_the_earliest_stop_string() -> None:
    response = _ask([FABRICATED], stop=["Final Answer:", "Observation:"])
    assert response.choices[0].message.content == ACTION + "\n"
    assert response.choices[0].finish_reason == "stop"
    assert response.x_mock["stop_applied"] == "Observation:"
    assert response.x_mock["truncated"] is False


def test_stop_as_a_single_string_and_when_absent() -> None:
    assert _ask([FABRICATED], stop="Sunny").choices[0].message.content == FABRICATED.split("Sunny")[0]
    untouched = _ask([ACTION], stop=["Observation:"])
    assert untouched.choices[0].message.content == ACTION
    assert (untouched.choices[0].finish_reason, untouched.x_mock["stop_applied"]) == ("stop", None)


def test_stop_does_not_touch_tool_call_arguments() -> None:
    response = _ask([WEATHER_CALL], stop=["Paris", "{"])
    arguments = json.loads(response.choices[0].message.tool_calls[0].function.arguments)
    assert arguments == {"city": "Paris", "date": "2025-03-15"}
    assert response.choices[0].finish_reason == "tool_calls"
    assert response.x_mock["stop_applied"] is None


def test_max_tokens_truncates_with_finish_reason_length() -> None:
    response = _ask([FABRICATED], max_tokens=5)
    assert response.choices[0].message.content == "".join(split_tokens(FABRICATED)[:5])
    assert response.choices[0].finish_reason == "length"
    assert response.usage.completion_tokens == 5
    assert response.x_mock["truncated"] is True


def test_max_tokens_reached_before_the_stop_string_wins() -> None:
    response = _ask([FABRICATED], stop=["Observation:"], max_tokens=3)
    assert response.choices[0].finish_reason == "length"
    assert response.x_mock["stop_applied"] is None


def test_max_tokens_equal_to_the_reply_does_not_truncate() -> None:
    response = _ask([ACTION], max_tokens=count_tokens(ACTION))
    assert (response.choices[0].message.content, response.choices[0].finish_reason) == (ACTION, "stop")


def test_max_tokens_cuts_tool_call_arguments_like_a_real_api() -> None:
    response = _ask([WEATHER_CALL], max_tokens=6)
    call = response.choices[0].message.tool_calls[0]
    assert response.choices[0].finish_reason == "length"
    assert count_tokens(call.function.name) + count_tokens(call.function.arguments) == 6
    with pytest.raises(json.JSONDecodeError):
        json.loads(call.function.arguments)


def test_usage_counts_prompt_and_completion() -> None:
    short = _ask(["ok"], messages=[{"role": "user", "content": "hi"}])
    longer = _ask(["ok"], messages=[{"role": "system", "content": "You are a careful agent."},
                                    {"role": "user", "content": "hi"}])
    assert short.usage.completion_tokens == 1
    assert longer.usage.prompt_tokens > short.usage.prompt_tokens
    for response in (short, longer):
        assert response.usage.total_tokens == response.usage.prompt_tokens + response.usage.completion_tokens
    tool = {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city."}}
    with_tools = _ask(["ok"], messages=[{"role": "user", "content": "hi"}], tools=[tool])
    assert with_tools.usage.prompt_tokens > short.usage.prompt_tokens


# --- tool calls and messages sent back ----------------------------------------------------------

def test_tool_call_reply_and_its_answer_round_trip() -> None:
    client = MockLLM.from_script([WEATHER_CALL, "Final Answer: Sunny."])
    messages = [QUESTION]
    first = client.chat.completions.create(model="m", messages=messages)
    message = first.choices[0].message
    assert (first.choices[0].finish_reason, message.content) == ("tool_calls", None)
    messages.append(message)  # the response object itself, as learners often append it
    messages.append({"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "Sunny"})
    second = client.chat.completions.create(model="m", messages=messages)
    assert second.choices[0].message.content == "Final Answer: Sunny."


# --- streaming ----------------------------------------------------------------------------------

def test_stream_concatenates_to_the_same_content() -> None:
    whole = _ask([FABRICATED], stop=["Observation:"])
    chunks = list(_ask([FABRICATED], stop=["Observation:"], stream=True))
    assert all(chunk.object == "chat.completion.chunk" and chunk.id == whole.id for chunk in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks) == whole.choices[0].message.content
    assert [chunk.choices[0].finish_reason for chunk in chunks][-2:] == [None, "stop"]
    assert all(chunk.usage is None and "usage" not in chunk.to_dict() for chunk in chunks)
    assert all(chunk.x_mock == whole.x_mock for chunk in chunks)


def test_stream_usage_only_with_include_usage_in_a_last_chunk_without_choices() -> None:
    whole = _ask([FABRICATED], stop=["Observation:"])
    chunks = list(_ask([FABRICATED], stop=["Observation:"], stream=True,
                       stream_options={"include_usage": True}))
    assert chunks[-1].choices == [] and chunks[-1].usage == whole.usage
    assert chunks[-2].choices[0].finish_reason == "stop"
    assert all(chunk.usage is None and chunk.to_dict()["usage"] is None for chunk in chunks[:-1])
    plain = list(_ask([FABRICATED], stop=["Observation:"], stream=True, stream_options={}))
    assert len(plain) == len(chunks) - 1 and plain[-1].choices[0].finish_reason == "stop"


def test_a_loop_written_for_the_real_api_reads_the_stream() -> None:
    """The usual consumer: text from chunks that have choices, usage from the one that has it."""
    text, usage, finish = "", None, None
    stream = _ask([FABRICATED], stream=True, stream_options={"include_usage": True})
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
            finish = chunk.choices[0].finish_reason or finish
        if chunk.usage:
            usage = chunk.usage
    assert (text, finish) == (FABRICATED, "stop")
    assert usage == _ask([FABRICATED]).usage


def test_streamed_tool_call_deltas_carry_only_what_they_add() -> None:
    chunks = list(_ask([WEATHER_CALL], stream=True))
    wire = [chunk.to_dict()["choices"][0]["delta"] for chunk in chunks]
    call = _ask([WEATHER_CALL]).choices[0].message.tool_calls[0]
    assert wire[0] == {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
        {"index": 0, "id": call.id, "type": "function",
         "function": {"name": "get_weather", "arguments": ""}}]}
    pieces = [delta["tool_calls"][0] for delta in wire[1:-1]]
    assert pieces and all(set(piece) == {"index", "function"} and set(piece["function"]) == {"arguments"}
                          for piece in pieces)
    assert "".join(piece["function"]["arguments"] for piece in pieces) == call.function.arguments
    assert wire[-1] == {} and chunks[-1].choices[0].finish_reason == "tool_calls"
    assert chunks[1].choices[0].delta.tool_calls[0].id is None  # unset fields still read as None


def test_stream_of_tool_calls_reassembles() -> None:
    script = [{"tool_calls": [WEATHER_CALL["tool_calls"][0], {"name": "get_current_date"}]}]
    whole = _ask(script).choices[0].message.tool_calls
    calls: dict[int, dict] = {}
    for chunk in _ask(script, stream=True):
        for delta in chunk.choices[0].delta.tool_calls or []:
            call = calls.setdefault(delta.index, {"id": None, "name": "", "arguments": ""})
            call["id"] = delta.id or call["id"]
            call["name"] += delta.function.name or ""
            call["arguments"] += delta.function.arguments or ""
        finish = chunk.choices[0].finish_reason
    assert finish == "tool_calls"
    assert [(c["id"], c["name"], c["arguments"]) for c in calls.values()] == [
        (c.id, c.function.name, c.function.arguments) for c in whole]


def test_stream_is_a_closable_context_manager() -> None:
    with _ask(["a b c d e f g h"], stream=True) as stream:
        first = next(stream)
        stream.close()
        assert first.choices[0].delta.role == "assistant"
        assert list(stream) == []


# --- simulated failures and the call counter ----------------------------------------------------

def test_failures_fire_on_their_call_and_do_not_use_up_the_script() -> None:
    client = MockLLM.from_script(["first", "second"], failures={1: "rate_limit", 3: "timeout"})
    ask = lambda: client.chat.completions.create(model="m", messages=[QUESTION])  # noqa: E731
    with pytest.raises(RateLimitError, match=r"call 1.*failures=\{1: 'rate_limit'\}") as limited:
        ask()
    assert (limited.value.call, limited.value.status_code) == (1, 429)
    assert ask().choices[0].message.content == "first"
    with pytest.raises(APITimeoutError, match=r"timeout on call 3") as timed_out:
        ask()
    assert isinstance(timed_out.value, MockAPIError) and timed_out.value.call == 3
    assert ask().choices[0].message.content == "second"
    assert client.calls == 4


def test_unknown_openai_options_are_ignored_and_n_1_is_fine() -> None:
    plain = _ask(["ok"])
    same = _ask(["ok"], top_p=0.1, seed=42, n=1, presence_penalty=0.5, user="learner", store=False)
    assert same.model_dump() == plain.model_dump()


def test_max_completion_tokens_is_an_alias() -> None:
    assert _ask([FABRICATED], max_completion_tokens=5) == _ask([FABRICATED], max_tokens=5)


def test_create_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        MockLLM.from_script(["ok"]).chat.completions.create("mock-react", [QUESTION])  # type: ignore[misc]


# --- package exports ----------------------------------------------------------------------------

def test_exports() -> None:
    assert set(mockllm.__all__) >= {"MockLLM", "personas", "rulebook", "MockAPIError", "RateLimitError",
                                    "APITimeoutError", "ScriptExhaustedError"}
    assert mockllm.__doc__ and "\n" not in mockllm.__doc__.strip()


def test_personas_and_rulebook_load_from_the_behaviour_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("mockllm.behaviour.personas")
    module.personas = lambda: ["diligent"]
    module.rulebook = lambda: "rules"
    monkeypatch.setitem(sys.modules, "mockllm.behaviour.personas", module)
    behaviour = importlib.import_module("mockllm.behaviour")
    monkeypatch.setattr(behaviour, "personas", module, raising=False)
    assert mockllm.personas() == ["diligent"]
    assert mockllm.rulebook() == "rules"
    from mockllm import personas

    assert personas is module.personas
    assert {"personas", "rulebook"} <= set(dir(mockllm))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        mockllm.nonsense  # noqa: B018


# --- policy mode (temporary guard: runs once mockllm.reply.respond exists) -----------------------

SYSTEM = (
    "You answer questions with tools.\nTools:\n- get_current_date: today's date. Input: {}\n"
    "Use this format:\nThought: ...\nAction: <tool>\nAction Input: <JSON>\n"
    "Never write an Observation yourself.\nFinal Answer: <answer> when you are done."
)


def test_policy_mode_replies_with_an_explanation() -> None:
    client = MockLLM(persona="diligent", seed=0)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Question: what is today's date?"}]
    response = client.chat.completions.create(model="mock-react", messages=messages, temperature=0,
                                              stop=["Observation:"], max_tokens=512)
    assert response.x_mock["source"] == "policy"
    assert {"persona", "seed", "step", "family", "rule", "stop_applied", "truncated"} <= set(response.x_mock)
    assert "Observation:" not in (response.choices[0].message.content or "")
    assert response.usage.total_tokens > 0


def test_policy_mode_tool_calls_get_openai_shaped_ids() -> None:
    tool = {"type": "function", "function": {"name": "get_current_date", "description": "Today's date.",
                                             "parameters": {"type": "object", "properties": {}}}}
    client = MockLLM(persona="diligent", seed=0)
    messages = [{"role": "user", "content": "What is today's date?"}]
    response = client.chat.completions.create(model="mock-react", messages=messages, tools=[tool])
    assert response.choices[0].finish_reason == "tool_calls"
    assert all(call.id.startswith("call_") for call in response.choices[0].message.tool_calls)
    chunks = list(client.chat.completions.create(model="mock-react", messages=messages, tools=[tool], stream=True))
    streamed = [d.id for c in chunks for d in c.choices[0].delta.tool_calls or [] if d.id]
    assert streamed == [call.id for call in response.choices[0].message.tool_calls]


def test_real_personas_reexport_after_importing_the_submodule_first() -> None:
    code = ("import mockllm.behaviour.personas\nimport mockllm\nfrom mockllm import personas, rulebook\n"
            "assert personas is mockllm.personas and callable(personas) and 'diligent' in personas()\n"
            "assert rulebook is mockllm.rulebook and callable(rulebook)\n")
    subprocess.run([sys.executable, "-c", code], check=True)
