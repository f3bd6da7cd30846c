"""Simulated failures reach an openai client as the SDK's own classes, through the server too.

`failures={1: "rate_limit"}` is `openai.RateLimitError` and `"timeout"` is `openai.APITimeoutError`
in all three ways (MockLLM, openai_client(), the server), whatever `max_retries` is: the SDK's own
retries of a failed call fail too, and wait the mock's `retry-after-ms` (10 ms), not seconds.
"""
from __future__ import annotations

import json

import pytest

from mockllm import MockLLM
from mockllm.serve.core import Service
from mockllm.serve.failures import HOLD_MARGIN
from mockllm.serve.limits import TIMEOUT_HOLD_LIMIT
from mockllm.serve.sessions import Sessions, conversation_key

openai = pytest.importorskip("openai")

QUESTION = [{"role": "user", "content": "What is (17 + 5) * 3?"}]
BODY = json.dumps({"model": "mock-react", "messages": QUESTION}).encode()


def post(svc: Service, headers: dict | None = None) -> object:
    return svc.handle("POST", "/v1/chat/completions", headers or {}, BODY)


def test_the_sdk_s_retry_of_a_failed_call_is_that_call_again() -> None:
    svc = Service(Sessions({"failures": {1: "rate_limit", 2: "timeout"}}, conversation_key))
    assert post(svc).status == 429                                    # call 1
    assert post(svc, {"x-stainless-retry-count": "1"}).status == 429  # its retries: call 1 again
    assert post(svc, {"x-stainless-retry-count": "2"}).status == 429
    assert post(svc, {"x-stainless-retry-count": "0"}).status == 408  # a new request: call 2
    assert post(svc, {"x-stainless-retry-count": "1"}).status == 408
    assert post(svc).status == 200                                    # call 3
    assert post(svc, {"x-stainless-retry-count": "1"}).status == 200  # after a success: call 4
    for junk in ("x", "-1", "²"):  # not a count: the request is a call of its own
        assert post(svc, {"x-stainless-retry-count": junk}).status == 200


def test_a_rate_limit_asks_for_a_short_wait_in_both_headers() -> None:
    limited = post(Service(Sessions({"failures": {1: "rate_limit"}})))
    assert limited.headers["retry-after"] == "1" and limited.headers["retry-after-ms"] == "10"
    direct = MockLLM(failures={1: "rate_limit"})
    with pytest.raises(openai.RateLimitError) as caught:
        direct.chat.completions.create(model="mock-react", messages=QUESTION)
    assert caught.value.response.headers["retry-after-ms"] == "10"  # MockLLM's response says it too


@pytest.mark.parametrize("sent, hold", [("0.5", 0.5 + HOLD_MARGIN), (str(TIMEOUT_HOLD_LIMIT),
                                        TIMEOUT_HOLD_LIMIT + HOLD_MARGIN),
                                        ("600", 0.0), ("nan", 0.0), ("soon", 0.0), (None, 0.0)])
def test_a_timeout_is_held_past_a_short_read_timeout(sent: str | None, hold: float) -> None:
    svc = Service(Sessions({"failures": {1: "timeout"}}))
    answer = post(svc, {} if sent is None else {"x-stainless-read-timeout": sent})
    assert answer.status == 408 and answer.hold == hold


# ------------------------------------------------------------------ through the server

@pytest.fixture(scope="module")
def server() -> object:
    """`python -m mockllm serve`: call 1 of each conversation is a rate limit, call 2 a timeout."""
    from mockllm.serve.spawn import ServerProcess

    process = ServerProcess("--failures", "1=rate_limit,2=timeout").start()
    try:
        yield process
    finally:
        process.stop()


def ask(client: object, session: str) -> object:
    return client.chat.completions.create(model="mock-react", messages=QUESTION,
                                          extra_headers={"x-mock-session": session})


@pytest.mark.allow_hosts(["127.0.0.1"])
def test_a_default_client_gets_the_sdk_s_classes_from_the_server(server: object) -> None:
    client = openai.OpenAI(base_url=server.url, api_key="any")  # max_retries=2, as by default
    with pytest.raises(openai.RateLimitError) as limited:
        ask(client, "default")
    assert limited.value.response.request.headers["x-stainless-retry-count"] == "2"  # 3 tries
    assert limited.value.code == "rate_limit_exceeded" and "call 1" in limited.value.message
    with pytest.raises(openai.APIStatusError) as slow:  # a 600 s timeout is not waited out
        ask(client, "default")
    assert slow.value.status_code == 408 and "call 2" in slow.value.message
    assert ask(client, "default").choices[0].message.content == "(17 + 5) * 3 = 66"  # call 3


@pytest.mark.allow_hosts(["127.0.0.1"])
def test_a_simulated_timeout_times_the_client_out(server: object) -> None:
    # 1 s: room for a busy machine to answer the calls that are not held
    client = openai.OpenAI(base_url=server.url, api_key="any", timeout=1.0, max_retries=1)
    with pytest.raises(openai.RateLimitError):
        ask(client, "short")
    with pytest.raises(openai.APITimeoutError) as caught:
        ask(client, "short")
    assert caught.value.request.headers["x-stainless-retry-count"] == "1"  # its retry timed out too
    assert ask(client, "short").choices[0].message.content == "(17 + 5) * 3 = 66"
    assert "Traceback" not in server.errors()


@pytest.mark.allow_hosts(["127.0.0.1"])
def test_an_async_client_gets_them_too(server: object) -> None:
    import asyncio

    async def run() -> list[type]:
        client = openai.AsyncOpenAI(base_url=server.url, api_key="any", timeout=1.0, max_retries=0)
        raised = []
        for _ in range(2):
            try:
                await client.chat.completions.create(model="mock-react", messages=QUESTION,
                                                     extra_headers={"x-mock-session": "async"})
            except openai.APIError as error:
                raised.append(type(error))
        await client.close()
        return raised

    assert asyncio.run(run()) == [openai.RateLimitError, openai.APITimeoutError]
