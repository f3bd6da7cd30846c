"""`create()` takes every keyword of the pinned openai SDK, and rejects bad values as the API does.

The keyword list and the allowed values are compared with the SDK's own signature, so a new SDK
parameter the mock does not know makes a test fail. Bad values raise only ValueError/TypeError
naming the field; a huge request is checked in linear time.
"""
from __future__ import annotations

import inspect
import typing
from enum import Enum

import openai
import pytest
from openai.resources.chat.completions import Completions as SDKCompletions

from mockllm import MockLLM
from mockllm.protocol.params import CHECKS, CHOICES, IGNORED, PARAMETERS, UNSUPPORTED, is_not_given
from timing import best_seconds

USER = {"role": "user", "content": "Question: what is 2 + 2?"}
TOOL = {"type": "function", "function": {"name": "calculator", "description": "Arithmetic.",
                                         "parameters": {"type": "object", "properties": {
                                             "expression": {"type": "string"}}}}}
SDK_SIGNATURE = inspect.signature(SDKCompletions.create)
SDK_HINTS = typing.get_type_hints(SDKCompletions.create)


def _create(**options: object) -> object:
    """One request to a scripted client, with `options` added to a valid one."""
    request = {"model": "mock-react", "messages": [USER], **options}
    return MockLLM.from_script(["Final Answer: 4"]).chat.completions.create(**request)


def test_the_keywords_are_the_sdks() -> None:
    sdk = [name for name in SDK_SIGNATURE.parameters if name != "self"]
    assert list(PARAMETERS) == sdk
    assert set(CHECKS) | {"messages", "model"} == set(sdk)


def test_the_allowed_strings_are_the_sdks() -> None:
    for name, values in CHOICES.items():
        literals = [arg for arg in typing.get_args(SDK_HINTS[name]) if typing.get_origin(arg) is typing.Literal]
        assert len(literals) == 1, name
        assert tuple(typing.get_args(literals[0])) == values, name


def test_every_ignored_or_unsupported_keyword_is_in_the_differences_document() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "mock-api-differences.md").read_text(encoding="utf-8")
    missing = [name for name in (*IGNORED, *UNSUPPORTED) if f"`{name}`" not in text]
    assert missing == []


def test_none_and_the_sdks_sentinels_mean_not_given() -> None:
    plain = _create().model_dump()
    for value in (None, openai.NOT_GIVEN, openai.not_given, openai.omit):
        options = {name: value for name in PARAMETERS if name not in ("messages", "model")}
        assert _create(**options).model_dump() == plain
    assert is_not_given(openai.NOT_GIVEN) and is_not_given(openai.omit) and not is_not_given(0)


def test_sentinels_are_recognised_without_importing_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    class NotGiven:  # a look-alike from another package is a value, not a sentinel
        pass

    NotGiven.__module__ = "somewhere.else"
    assert not is_not_given(NotGiven())
    monkeypatch.delitem(__import__("sys").modules, "openai._types")
    assert is_not_given(openai.NOT_GIVEN)  # recognised by its class, openai._types unloaded


GOOD_VALUES = {
    "audio": None, "frequency_penalty": -2, "function_call": None, "functions": None,
    "logit_bias": {"50256": -100, 1234: 100}, "logprobs": True, "max_completion_tokens": 50,
    "max_tokens": 50, "metadata": {"lesson": "04"}, "modalities": ["text"],
    "moderation": {"policy": {"input": {"mode": "score"}}}, "n": 1, "parallel_tool_calls": False,
    "prediction": {"type": "content", "content": "4"}, "presence_penalty": 2, "prompt_cache_key": "k",
    "prompt_cache_options": {"mode": "implicit", "ttl": "30m"}, "prompt_cache_retention": "24h",
    "reasoning_effort": "low", "response_format": {"type": "text"}, "safety_identifier": "learner-1",
    "seed": 7, "service_tier": "flex", "stop": ["Observation:"], "store": False, "stream": False,
    "stream_options": None, "temperature": 0.7, "tool_choice": "auto", "tools": [TOOL],
    "top_logprobs": 3, "top_p": 1, "user": "learner", "verbosity": "high",
    "web_search_options": {"search_context_size": "low"}, "extra_headers": {"x-a": "b"},
    "extra_query": {}, "extra_body": {}, "timeout": 30,
}


def test_every_keyword_takes_a_valid_value() -> None:
    assert set(GOOD_VALUES) == set(PARAMETERS) - {"messages", "model"}
    response = _create(**GOOD_VALUES)
    assert response.choices[0].message.content == "Final Answer: 4"


BAD_VALUES = [
    # (keyword, value, exception, pattern the message must match)
    ("model", 3, TypeError, r"'model'"), ("model", "", TypeError, r"'model'"),
    ("messages", None, TypeError, r"'messages'"), ("messages", "hi", TypeError, r"'messages'"),
    ("audio", {"voice": "alloy", "format": "wav"}, ValueError, r"'audio'.*text only"),
    ("frequency_penalty", 2.5, ValueError, r"'frequency_penalty'.*-2 to 2"),
    ("frequency_penalty", "high", TypeError, r"'frequency_penalty'"),
    ("function_call", "auto", ValueError, r"'function_call'.*tool_choice"),
    ("functions", [{"name": "f"}], ValueError, r"'functions'.*tools="),
    ("logit_bias", {"the": 5}, ValueError, r"'logit_bias'.*token id"),
    ("logit_bias", {"50256": 101}, ValueError, r"'logit_bias\['50256'\]'.*-100 to 100"),
    ("logit_bias", {"50256": "a"}, TypeError, r"'logit_bias\['50256'\]'"),
    ("logit_bias", [1], TypeError, r"'logit_bias'"),
    ("logprobs", "yes", TypeError, r"'logprobs'.*True or False"),
    ("max_completion_tokens", 0, ValueError, r"'max_completion_tokens'"),
    ("max_completion_tokens", "5", TypeError, r"'max_completion_tokens'"),
    ("max_tokens", -1, ValueError, r"'max_tokens'"), ("max_tokens", 2.0, TypeError, r"'max_tokens'"),
    ("metadata", {"k": 1}, TypeError, r"'metadata\['k'\]'"),
    ("metadata", {f"k{i}": "v" for i in range(17)}, ValueError, r"'metadata'.*up to 16"),
    ("modalities", ["text", "audio"], ValueError, r"'modalities'.*text only"),
    ("modalities", "text", TypeError, r"'modalities'"),
    ("moderation", "on", TypeError, r"'moderation'"),
    ("n", 0, ValueError, r"'n'"), ("n", 3, ValueError, r"'n'.*exactly one"), ("n", 1.0, TypeError, r"'n'"),
    ("parallel_tool_calls", 1, TypeError, r"'parallel_tool_calls'"),
    ("parallel_tool_calls", True, ValueError, r"'parallel_tool_calls'.*'tools' are specified"),
    ("prediction", "4", TypeError, r"'prediction'"),
    ("presence_penalty", -3, ValueError, r"'presence_penalty'.*-2 to 2"),
    ("prompt_cache_key", 5, TypeError, r"'prompt_cache_key'"),
    ("prompt_cache_options", ["implicit"], TypeError, r"'prompt_cache_options'"),
    ("prompt_cache_retention", "1h", ValueError, r"'prompt_cache_retention'.*'in_memory', '24h'"),
    ("reasoning_effort", "extreme", ValueError, r"'reasoning_effort'.*'minimal'"),
    ("reasoning_effort", 3, TypeError, r"'reasoning_effort'"),
    ("response_format", "json", TypeError, r"'response_format'"),
    ("response_format", {"type": "xml"}, ValueError, r"'response_format.type'"),
    ("safety_identifier", 1, TypeError, r"'safety_identifier'"),
    ("seed", "7", TypeError, r"'seed'"), ("seed", True, TypeError, r"'seed'"),
    ("service_tier", "gold", ValueError, r"'service_tier'.*'flex'"),
    ("stop", 5, TypeError, r"'stop'"), ("stop", ["a"] * 5, ValueError, r"'stop'"),
    ("store", "no", TypeError, r"'store'"), ("stream", "yes", TypeError, r"'stream'"),
    ("stream_options", {"include_usage": True}, ValueError, r"'stream_options'.*only allowed when 'stream'"),
    ("temperature", 2.01, ValueError, r"'temperature'.*0 to 2"),
    ("temperature", float("nan"), ValueError, r"'temperature'"),
    ("tool_choice", "required", ValueError, r"'tool_choice'.*tools= is given"),
    ("tools", {"type": "function"}, TypeError, r"'tools'"),
    ("top_logprobs", 3, ValueError, r"'top_logprobs'.*logprobs=True"),
    ("top_logprobs", 21, ValueError, r"'top_logprobs'.*0 to 20"),
    ("top_p", 1.5, ValueError, r"'top_p'.*0 to 1"), ("top_p", "1", TypeError, r"'top_p'"),
    ("user", 42, TypeError, r"'user'"),
    ("verbosity", "loud", ValueError, r"'verbosity'.*'low', 'medium', 'high'"),
    ("web_search_options", True, TypeError, r"'web_search_options'"),
    ("extra_headers", "x", TypeError, r"'extra_headers'"), ("extra_query", 1, TypeError, r"'extra_query'"),
    ("extra_body", [], TypeError, r"'extra_body'"), ("timeout", -1, TypeError, r"'timeout'"),
    ("timeout", "10s", TypeError, r"'timeout'"),
]


BAD_WITH = [
    # (keyword, the request's options, exception, pattern): a bad value that needs another option
    ("messages", {"messages": []}, ValueError, r"'messages'.*at least one"),
    ("messages", {"messages": [{"role": "wizard", "content": "x"}]}, ValueError, r"'messages\[0\]\.role'"),
    ("presence_penalty", {"presence_penalty": "1"}, TypeError, r"'presence_penalty'"),
    ("prompt_cache_retention", {"prompt_cache_retention": 24}, TypeError, r"'prompt_cache_retention'"),
    ("service_tier", {"service_tier": 1}, TypeError, r"'service_tier'"),
    ("stream_options", {"stream_options": True, "stream": True}, TypeError, r"'stream_options'"),
    ("stream_options", {"stream_options": {"include_usage": "yes"}, "stream": True}, TypeError,
     r"'stream_options\.include_usage'"),
    ("temperature", {"temperature": "1"}, TypeError, r"'temperature'"),
    ("tool_choice", {"tool_choice": 5, "tools": [TOOL]}, TypeError, r"'tool_choice'.*a str or a dict"),
    ("tool_choice", {"tool_choice": "sometimes", "tools": [TOOL]}, ValueError, r"'tool_choice'.*'auto'"),
    ("tool_choice", {"tool_choice": {"type": "function", "function": {"name": "f"}}, "tools": [TOOL]},
     ValueError, r"'tool_choice'.*offered tools: calculator"),
    ("tools", {"tools": []}, ValueError, r"'tools'.*non-empty list"),
    ("tools", {"tools": [{**TOOL, "function": {**TOOL["function"], "name": "bad name"}}]}, ValueError,
     r"'tools\[0\]\.function\.name'"),
    ("top_logprobs", {"top_logprobs": "3", "logprobs": True}, TypeError, r"'top_logprobs'"),
    ("verbosity", {"verbosity": 3}, TypeError, r"'verbosity'"),
    ("timeout", {"timeout": float("nan")}, TypeError, r"'timeout'"),
]

ONE_KIND = {
    # keyword: why the table has a bad value of only one kind (a wrong type, or a wrong value)
    "audio": "refused whatever its value: the mock answers in text only",
    "function_call": "refused whatever its value: deprecated, tool_choice= replaces it",
    "functions": "refused whatever its value: deprecated, tools= replaces it",
    "logprobs": "a bool: every value of the right type is valid", "store": "a bool", "stream": "a bool",
    "model": "any non-empty name is served (the empty name is refused as the SDK types it)",
    "seed": "any int is a seed",
    "user": "ignored: any str", "safety_identifier": "ignored: any str", "prompt_cache_key": "ignored: any str",
    "moderation": "ignored: any dict", "prediction": "ignored: any dict", "prompt_cache_options": "ignored: any dict",
    "web_search_options": "ignored: any dict",
    "extra_headers": "passed through by the SDK: any dict", "extra_query": "passed through: any dict",
    "extra_body": "passed through: any dict",
    "timeout": "a negative or NaN number of seconds is refused like a wrong type (TypeError)",
}
"""The fields that cannot have both kinds of bad value (docs/mock-api-differences.md lists the ignored ones)."""


def test_every_keyword_has_a_wrong_type_and_a_wrong_value() -> None:
    kinds: dict[str, set[type]] = {name: set() for name in PARAMETERS}
    for name, _, error, _ in BAD_VALUES + BAD_WITH:
        kinds[name].add(error)
    assert {name for name, found in kinds.items() if found} == set(PARAMETERS)
    lacking = {name for name, found in kinds.items() if found != {TypeError, ValueError}}
    assert lacking == set(ONE_KIND), f"give these a wrong type and a wrong value: {lacking - set(ONE_KIND)}"


@pytest.mark.parametrize(("name", "options", "error", "pattern"), BAD_WITH,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(BAD_WITH)])
def test_a_bad_value_in_context_raises_naming_the_field(name: str, options: dict, error: type,
                                                        pattern: str) -> None:
    with pytest.raises((ValueError, TypeError)) as raised:
        _create(**options)
    assert type(raised.value) is error, raised.value
    assert __import__("re").search(pattern, str(raised.value)), str(raised.value)


@pytest.mark.parametrize(("name", "value", "error", "pattern"), BAD_VALUES,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(BAD_VALUES)])
def test_a_bad_value_raises_only_value_or_type_error_naming_the_field(
        name: str, value: object, error: type, pattern: str) -> None:
    with pytest.raises((ValueError, TypeError)) as raised:
        _create(**{name: value})
    assert type(raised.value) is error, raised.value
    assert __import__("re").search(pattern, str(raised.value)), str(raised.value)


def test_max_completion_tokens_is_named_as_given() -> None:
    with pytest.raises(ValueError, match=r"^Invalid value for 'max_completion_tokens': 0\."):
        _create(max_completion_tokens=0)
    assert _create(max_completion_tokens=1).choices[0].finish_reason == "length"


def test_a_str_enum_role_is_read_as_its_string() -> None:
    class Role(str, Enum):
        USER = "user"
        SYSTEM = "system"

    messages = [{"role": Role.SYSTEM, "content": "Answer briefly."}, {"role": Role.USER, "content": USER["content"]}]
    client = MockLLM(persona="diligent")
    enum_reply = client.chat.completions.create(model="m", messages=messages)
    plain = [{"role": "system", "content": "Answer briefly."}, USER]
    assert enum_reply.model_dump() == client.chat.completions.create(model="m", messages=plain).model_dump()
    from mockllm.protocol.validate import validate_request

    read = validate_request("m", messages, {}).messages  # what the reading stage receives
    assert [(type(m["role"]), m["role"]) for m in read] == [(str, "system"), (str, "user")]


def _seconds(call: object) -> float:
    """The best of three timings of `call()`."""
    return best_seconds(call)


@pytest.mark.parametrize("field", ["content", "stop", "tool_description", "metadata_free", "extra_key"])
def test_validation_time_grows_linearly_with_the_size_of_a_field(field: str) -> None:
    def request(size: int) -> dict:
        text = "x" * size
        if field == "content":
            return {"messages": [{"role": "user", "content": text}, {"role": "assistant", "content": text},
                                 {"role": "user", "content": "again"}]}
        if field == "stop":
            return {"stop": [text]}
        if field == "tool_description":
            tool = {"type": "function", "function": {"name": "f", "description": text,
                                                     "parameters": {"type": "object", "properties": {
                                                         f"p{i}": {"type": "string"} for i in range(size // 1000)}}}}
            return {"tools": [tool]}
        if field == "extra_key":
            return {"messages": [{"role": "user", "content": "hi", "name": "n", "x": [text[:10]] * (size // 100)}]}
        return {"prediction": {"type": "content", "content": [{"type": "text", "text": text}] * 4}}

    from mockllm.protocol.params import check_params
    from mockllm.protocol.validate import validate_request

    def check(size: int) -> None:
        options = request(size)
        messages = options.pop("messages", [USER])
        validate_request("m", messages, check_params(options))

    small, large = 250_000, 1_000_000
    assert _seconds(lambda: check(large)) < 8 * _seconds(lambda: check(small)) + 0.05
