"""The mock's responses are valid openai objects, and `mockllm` itself needs neither openai nor time."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk  # the `test` extra

from mockllm import MockLLM

MESSAGES = [
    {"role": "system", "content": "You are a helpful agent."},
    {"role": "user", "content": "Question: what is the weather in Beijing tomorrow?"},
]
TEXT = 'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Beijing"}\nObservation: x'
CALLS = {"content": "Checking.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "北京"}},
                                                 {"name": "get_current_date"}]}


def _create(reply: object, **options: object) -> object:
    """Return the response of a client scripted with `reply`."""
    client = MockLLM.from_script([reply])
    return client.chat.completions.create(model="mock-react", messages=MESSAGES, **options)


@pytest.mark.parametrize("options", [{}, {"stop": ["Observation:"]}, {"max_tokens": 7}])
def test_text_reply_validates_as_chat_completion(options: dict) -> None:
    dumped = _create(TEXT, **options).model_dump()
    validated = ChatCompletion.model_validate(dumped)
    assert validated.model_dump(exclude_unset=True) == dumped
    assert validated.choices[0].message.content == dumped["choices"][0]["message"]["content"]
    assert validated.model_extra["x_mock"]["rule"] == "script step 1"
    assert validated.x_mock["source"] == "script"


def test_tool_call_reply_validates_as_chat_completion() -> None:
    response = _create(CALLS)
    validated = ChatCompletion.model_validate(response.model_dump())
    assert validated.model_dump(exclude_unset=True) == response.model_dump()
    assert validated.choices[0].finish_reason == "tool_calls"
    assert [c.function.arguments for c in validated.choices[0].message.tool_calls] == ['{"city": "北京"}', "{}"]
    assert "x_mock" in validated.model_extra


@pytest.mark.parametrize("reply", [TEXT, CALLS], ids=["text", "tool_calls"])
def test_every_stream_chunk_validates_as_chunk(reply: object) -> None:
    for chunk in _create(reply, stream=True, stop=["Observation:"]):
        dumped = chunk.model_dump()
        validated = ChatCompletionChunk.model_validate(dumped)
        assert validated.model_dump(exclude_unset=True) == dumped
        assert validated.model_extra["x_mock"]["source"] == "script"


def _get(value: object, path: str) -> object:
    """Follow a dotted path of attributes and list indexes."""
    for part in path.split("."):
        value = value[int(part)] if part.isdigit() else getattr(value, part)
    return value


def test_attribute_access_matches_the_sdk() -> None:
    response = _create(CALLS)
    sdk = ChatCompletion.model_validate(response.model_dump())
    for path in ["id", "object", "created", "model", "system_fingerprint", "usage.total_tokens",
                 "choices.0.finish_reason", "choices.0.message.role", "choices.0.message.content",
                 "choices.0.message.tool_calls.0.id", "choices.0.message.tool_calls.0.function.name",
                 "choices.0.message.tool_calls.1.function.arguments"]:
        assert _get(response, path) == _get(sdk, path), path


def test_model_dump_is_plain_and_independent() -> None:
    response = _create(TEXT)
    dumped = response.model_dump()
    dumped["x_mock"]["rule"] = "changed"
    dumped["choices"][0]["message"]["content"] = "changed"
    assert response.x_mock["rule"] == "script step 1"
    assert response.model_dump_json().startswith('{"id":"chatcmpl-')  # compact, as pydantic writes it
    assert "refusal" not in response.model_dump(exclude_none=True)["choices"][0]["message"]


def _fresh_python(code: str) -> str:
    """Run `code` in a new interpreter (bytecode allowed, as on a learner's machine); return stdout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    return done.stdout + done.stderr


def test_mockllm_imports_nothing_outside_the_standard_library() -> None:
    code = (
        "import sys; before = set(sys.modules)\n"
        "from mockllm import MockLLM\n"
        "c = MockLLM.from_script(['Final Answer: 1', {'tool_calls': [{'name': 'f'}]}])\n"
        "m = [{'role': 'user', 'content': 'hi'}]\n"
        "c.chat.completions.create(model='m', messages=m, stop='x', max_tokens=3)\n"
        "list(c.chat.completions.create(model='m', messages=m, stream=True))\n"
        "new = {name.split('.')[0] for name in set(sys.modules) - before}\n"
        "print('THIRD-PARTY', sorted(new - set(sys.stdlib_module_names) - {'mockllm'}))\n"
    )
    assert "THIRD-PARTY []" in _fresh_python(code)


def test_import_mockllm_stays_light() -> None:
    """What keeps `import mockllm` fast (timed by benchmarks/bench_mock.py): nothing heavy loads."""
    code = ("import sys; import mockllm\n"
            "heavy = ['sqlite3', 'json', 'decimal', 'mockllm.brain.policy', "
            "'mockllm.reading.conversation', "
            "'mockllm.world.orders', 'yaml']\n"
            "print('LOADED', [m for m in heavy if m in sys.modules])\n")
    assert "LOADED []" in _fresh_python(code)


# --- the wire form and pydantic's methods --------------------------------------------------------

@pytest.mark.parametrize("reply", [TEXT, CALLS], ids=["text", "tool_calls"])
@pytest.mark.parametrize("options", [{}, {"stream_options": {"include_usage": True}},
                                     {"logprobs": True, "top_logprobs": 2}], ids=["plain", "usage", "logprobs"])
def test_stream_chunks_on_the_wire_validate_as_the_sdks(reply: object, options: dict) -> None:
    chunks = list(_create(reply, stream=True, **options))
    for chunk in chunks:
        wire = chunk.to_dict()
        validated = ChatCompletionChunk.model_validate(wire)
        assert validated.to_dict() == wire  # the SDK keeps exactly the fields the mock sent
        assert _restrict(validated.model_dump(), chunk.model_dump()) == chunk.model_dump()
    if "stream_options" in options:
        assert chunks[-1].to_dict()["choices"] == [] and chunks[-1].usage.total_tokens > 0


def test_to_dict_and_to_json_match_the_sdks() -> None:
    response = _create(CALLS)
    sdk = ChatCompletion.model_validate(response.to_dict())
    assert response.to_dict() == sdk.to_dict()
    assert response.to_json() == sdk.to_json()
    for indent in (None, 2, 4):  # pydantic's layout, compact or indented, non-ASCII kept
        assert response.model_dump_json(indent=indent, exclude_unset=True) == sdk.model_dump_json(
            indent=indent, exclude_unset=True)
    assert "tool_calls" not in _create(TEXT).to_dict()["choices"][0]["message"]  # as the API omits it


@pytest.mark.parametrize("spec", [
    {"include": {"id", "usage"}},
    {"exclude": {"x_mock", "choices"}},
    {"include": {"choices": {0: {"message": {"content"}}}}},
    {"include": {"choices": {"__all__": {"finish_reason"}}, "model": True}},
    {"exclude": {"choices": {"__all__": {"message": {"tool_calls": {0: {"function"}}}}}, "x_mock": True}},
    {"exclude_none": True, "exclude": {"x_mock"}},
    {"mode": "json", "include": {"usage": {"total_tokens"}}},
], ids=range(7))
def test_model_dump_include_and_exclude_match_pydantic(spec: dict) -> None:
    response = _create(CALLS)
    sdk = ChatCompletion.model_validate(response.model_dump())
    mine = response.model_dump(**spec)
    theirs = sdk.model_dump(**spec)
    assert mine == _restrict(theirs, mine)


def _restrict(theirs: object, mine: object) -> object:
    """`theirs` with only the keys `mine` has (the SDK's models have fields the mock never sets)."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return {key: _restrict(theirs[key], value) for key, value in mine.items() if key in theirs}
    if isinstance(mine, list) and isinstance(theirs, list):
        return [_restrict(t, m) for t, m in zip(theirs, mine)]
    return theirs


def test_model_validate_round_trips_and_checks_required_fields() -> None:
    from mockllm.protocol.types import ChatCompletion as MockCompletion, ChatCompletionChunk as MockChunk

    response = _create(CALLS)
    again = MockCompletion.model_validate(response.model_dump())
    assert again == response and again.choices[0].message.tool_calls[1].function.name == "get_current_date"
    assert MockCompletion.model_validate(ChatCompletion.model_validate(response.model_dump())) == response
    assert MockCompletion.model_validate_json(response.model_dump_json()) == response
    assert MockCompletion.model_validate(response) is response
    chunk = next(iter(_create(CALLS, stream=True)))
    assert MockChunk.model_validate(chunk.to_dict()).to_dict() == chunk.to_dict()
    broken = response.model_dump()
    del broken["choices"][0]["message"]
    with pytest.raises(ValueError, match=r"ChatCompletion\.choices\[0\]\.message: field required"):
        MockCompletion.model_validate(broken)
    with pytest.raises(ValueError, match=r"expected an object"):
        MockCompletion.model_validate([1])
    assert dict(response)["id"] == response.id and response.model_fields_set >= {"id", "choices", "usage"}
    assert response.model_copy(update={"model": "other"}).model == "other" and response.model == "mock-react"
    with pytest.raises(ValueError, match="mode"):
        response.model_dump(mode="yaml")


# --- simulated errors as openai's classes ---------------------------------------------------------

def _failures() -> list[Exception]:
    """The two simulated failures of a fresh client, in order."""
    client = MockLLM.from_script(["ok"], failures={1: "rate_limit", 2: "timeout"})
    raised = []
    for _ in range(2):
        with pytest.raises(Exception) as error:
            client.chat.completions.create(model="m", messages=MESSAGES)
        raised.append(error.value)
    return raised


def test_simulated_failures_are_caught_as_openais_classes() -> None:
    import openai

    import mockllm

    limited, timed_out = _failures()
    assert isinstance(limited, openai.RateLimitError) and isinstance(limited, mockllm.RateLimitError)
    assert isinstance(timed_out, openai.APITimeoutError) and isinstance(timed_out, mockllm.APITimeoutError)
    assert limited.status_code == 429 and limited.response.status_code == 429
    assert limited.response.headers["retry-after"] == "1" and limited.code == "rate_limit_exceeded"
    assert limited.call == 1 and "call 1" in str(limited) and limited.message == str(limited)
    assert timed_out.call == 2 and "Simulated timeout on call 2" in str(timed_out)
    try:
        raise limited
    except openai.APIStatusError as caught:  # the usual `except` of code written for the API
        assert caught is limited
    import pickle

    assert type(pickle.loads(pickle.dumps(limited))) is mockllm.RateLimitError


def test_without_openai_they_are_plain_mockllm_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    import mockllm

    monkeypatch.setitem(sys.modules, "openai", None)  # as if openai were not installed
    limited, timed_out = _failures()
    assert type(limited) is mockllm.RateLimitError and type(timed_out) is mockllm.APITimeoutError
    assert limited.status_code == 429 and not hasattr(limited, "response")
