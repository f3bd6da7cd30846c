"""The reasoning model (mockllm/protocol/model_specs.py): hidden tokens, the budget, the refusals."""
from __future__ import annotations

import pytest

from mockllm import MockLLM
from mockllm.protocol.errors import BadRequestError, UnsupportedParameterError, UnsupportedValueError
from mockllm.protocol.model_specs import REASONING_PER_TOKEN

QUESTION = [{"role": "user", "content": "What is (17 + 5) * 3?"}]


def create(model: str = "mock-reasoning", client: object = None, **options: object) -> object:
    """One call of the arithmetic question."""
    client = client or MockLLM()
    return client.chat.completions.create(model=model, messages=QUESTION, **options)


def test_hidden_tokens_count_in_the_completion_by_effort() -> None:
    plain = create("mock-react")
    reply = plain.usage.completion_tokens
    assert plain.usage.completion_tokens_details.reasoning_tokens == 0
    for effort, per_token in REASONING_PER_TOKEN.items():
        response = create(reasoning_effort=effort)
        usage = response.usage
        assert response.choices[0].message.content == plain.choices[0].message.content
        assert usage.completion_tokens_details.reasoning_tokens == per_token * reply
        assert usage.completion_tokens == reply + per_token * reply
        assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens
    assert create().usage.completion_tokens_details.reasoning_tokens == 4 * reply  # medium


def test_the_budget_pays_for_reasoning_first() -> None:
    reply = create("mock-react").usage.completion_tokens  # 9 tokens; medium thinks 36
    spent = create(max_completion_tokens=36)
    assert (spent.choices[0].message.content, spent.choices[0].finish_reason) == ("", "length")
    assert spent.usage.completion_tokens == 36 == spent.usage.completion_tokens_details.reasoning_tokens
    cut = create(max_completion_tokens=40)
    assert cut.choices[0].finish_reason == "length" and cut.usage.completion_tokens == 40
    assert 0 < len(cut.choices[0].message.content) < len("(17 + 5) * 3 = 66")
    room = create(max_completion_tokens=36 + reply)
    assert room.choices[0].finish_reason == "stop" and room.choices[0].message.content.endswith("66")


def test_max_tokens_stop_and_sampling_are_refused_with_the_apis_errors() -> None:
    with pytest.raises(UnsupportedParameterError) as error:
        create(max_tokens=100)
    assert str(error.value) == ("Unsupported parameter: 'max_tokens' is not supported with this model. "
                                "Use 'max_completion_tokens' instead.")
    assert (error.value.code, error.value.param, error.value.status_code) == (
        "unsupported_parameter", "max_tokens", 400)
    assert isinstance(error.value, ValueError) and isinstance(error.value, BadRequestError)
    for name, value in (("stop", ["Observation:"]), ("logprobs", True), ("logit_bias", {"1": 1})):
        with pytest.raises(UnsupportedParameterError, match=f"'{name}' is not supported") as error:
            create(**{name: value})
        assert error.value.param == name
    with pytest.raises(UnsupportedValueError, match=r"'temperature' does not support 0 with this model\. "
                                                    r"Only the default \(1\) value is supported\."):
        create(temperature=0)
    assert create(temperature=1).choices[0].finish_reason == "stop"
    client = MockLLM()
    with pytest.raises(BadRequestError):
        create(client=client, max_tokens=5)
    assert client.calls == 0  # refused before the model: not a call
    assert create("mock-react", max_tokens=5).choices[0].finish_reason == "length"  # others take it


def test_through_the_sdk_the_server_and_the_responses_api() -> None:
    import json

    import openai
    from openai.types.chat import ChatCompletion, ChatCompletionChunk
    from openai.types.responses import Response

    from mockllm import openai_client
    from mockllm.serve.core import Service
    from mockllm.serve.sessions import Sessions, conversation_key

    sdk = openai_client()
    with pytest.raises(openai.BadRequestError) as error:
        create(client=sdk, max_tokens=100)
    assert (error.value.status_code, error.value.code, error.value.param) == (400, "unsupported_parameter",
                                                                             "max_tokens")
    typed = create(client=sdk, reasoning_effort="high")
    assert isinstance(typed, ChatCompletion) and typed.usage.completion_tokens_details.reasoning_tokens == 72
    chunks = list(create(client=sdk, stream=True, stream_options={"include_usage": True}))
    assert ChatCompletionChunk.model_validate(chunks[-1].model_dump()).usage.completion_tokens_details \
        .reasoning_tokens == 36
    service = Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))
    body = {"model": "mock-reasoning", "messages": QUESTION, "stop": ["x"]}
    answer = service.handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
    assert answer.status == 400 and json.loads(answer.body)["error"] == {
        "message": "Unsupported parameter: 'stop' is not supported with this model.",
        "type": "invalid_request_error", "param": "stop", "code": "unsupported_parameter"}
    client = MockLLM()
    response = client.responses.create(model="mock-reasoning", input="What is (17 + 5) * 3?",
                                       reasoning={"effort": "low"})
    assert Response.model_validate(response.model_dump()).usage.output_tokens_details.reasoning_tokens == 18
    spent = client.responses.create(model="mock-reasoning", input="What is (17 + 5) * 3?",
                                    max_output_tokens=16)
    assert (spent.status, spent.output_text, spent.usage.output_tokens) == ("incomplete", "", 16)
