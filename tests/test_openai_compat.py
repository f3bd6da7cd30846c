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
