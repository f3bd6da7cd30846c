"""Context windows (mockllm/protocol/model_specs.py): an oversized request gets the API's 400."""
from __future__ import annotations

import json

import pytest

from mockllm import MockLLM
from mockllm.protocol.errors import ContextLengthExceededError
from mockllm.protocol.model_specs import MODELS, spec_of
from mockllm.serve.core import MAX_BODY

TOOL = {"type": "function", "function": {"name": "calculator", "description": "Arithmetic.",
                                         "parameters": {"type": "object", "properties": {
                                             "expression": {"type": "string"}}}}}


def long_messages(words: int) -> list[dict]:
    """One user message of `words` words (one token each) and a question."""
    return [{"role": "user", "content": "word " * words + "What is (17 + 5) * 3?"}]


def test_a_prompt_over_the_window_is_refused_before_the_model() -> None:
    client = MockLLM()
    fits = client.chat.completions.create(model="mock-react-4k", messages=long_messages(4000))
    assert fits.usage.prompt_tokens <= 4096
    with pytest.raises(ContextLengthExceededError) as error:
        client.chat.completions.create(model="mock-react-4k", messages=long_messages(4100))
    assert str(error.value) == ("This model's maximum context length is 4096 tokens. However, your "
                                "messages resulted in 4117 tokens. Please reduce the length of the "
                                "messages.")
    assert (error.value.code, error.value.param, error.value.status_code) == (
        "context_length_exceeded", "messages", 400)
    assert isinstance(error.value, ValueError) and client.calls == 1  # the refused call is not counted


def test_the_completion_and_the_tools_count_as_the_api_says() -> None:
    client = MockLLM()
    prompt = client.chat.completions.create(model="mock-react-4k", messages=long_messages(100)).usage.prompt_tokens
    with pytest.raises(ContextLengthExceededError, match=rf"However, you requested {prompt + 4000} tokens "
                       rf"\({prompt} in the messages, 4000 in the completion\)\. Please reduce the "
                       r"length of the messages or completion\."):
        client.chat.completions.create(model="mock-react-4k", messages=long_messages(100),
                                       max_completion_tokens=4000)
    with pytest.raises(ContextLengthExceededError, match=r"in the messages, \d+ in the functions\)\. "
                                                         r"Please reduce the length of the messages or functions\."):
        client.chat.completions.create(model="mock-react-4k", messages=long_messages(4070), tools=[TOOL])


def test_sdk_and_server_raise_bad_request_with_the_code() -> None:
    import openai

    from mockllm import openai_client
    from mockllm.serve.core import Service
    from mockllm.serve.sessions import Sessions, conversation_key

    with pytest.raises(openai.BadRequestError) as error:
        openai_client().chat.completions.create(model="mock-react-4k", messages=long_messages(5000))
    assert (error.value.code, error.value.param) == ("context_length_exceeded", "messages")
    with pytest.raises(openai.BadRequestError, match="maximum context length is 4096 tokens"):
        openai_client().responses.create(model="mock-react-4k", input="word " * 5000)
    service = Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))
    body = json.dumps({"model": "mock-react-4k:sloppy", "messages": long_messages(5000)}).encode()
    answer = service.handle("POST", "/v1/chat/completions", {}, body)
    assert answer.status == 400 and json.loads(answer.body)["error"]["code"] == "context_length_exceeded"


def test_the_default_window_holds_anything_the_server_accepts() -> None:
    # a token is at least one character, so a body of MAX_BODY bytes holds fewer tokens than that
    assert spec_of("mock-react").context_window > MAX_BODY
    assert spec_of("gpt-4o-mini") == spec_of("mock-react") == spec_of("mock-react:sloppy:3")
    assert set(MODELS) == {"mock-react", "mock-react-4k", "mock-reasoning", "mock-judge"}
    big = [{"role": "user", "content": "{" * 300_000 + " What is (17 + 5) * 3?"}]
    assert MockLLM().chat.completions.create(model="mock-react", messages=big).usage.prompt_tokens > 300_000
