"""Prompt caching (mockllm/protocol/caching.py): cached_tokens for a re-sent prefix, by the rule."""
from __future__ import annotations

import pytest

from mockllm import MockLLM
from mockllm.protocol.caching import BLOCK, MIN_TOKENS, PromptCache

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])

SYSTEM = "You answer questions about the shop. " + " ".join(f"Rule {n}: be exact." for n in range(300))


def ask(client: object, *extra: dict, model: str = "mock-react", **options: object) -> object:
    """One call with the long system prompt, a question and `extra` messages."""
    messages = [{"role": "system", "content": SYSTEM},
                {"role": "user", "content": "What is (17 + 5) * 3?"}, *extra]
    return client.chat.completions.create(model=model, messages=messages, **options)


def cached(response: object) -> int:
    """The cached tokens a response reports."""
    return response.usage.prompt_tokens_details.cached_tokens


def test_a_resent_prefix_is_cached_in_blocks_of_128_from_1024() -> None:
    client = MockLLM()
    first = ask(client)
    assert first.usage.prompt_tokens > MIN_TOKENS + 3 * BLOCK and cached(first) == 0  # cold
    again = ask(client, {"role": "assistant", "content": "66"}, {"role": "user", "content": "Thanks."})
    hit = cached(again)
    assert hit >= MIN_TOKENS and (hit - MIN_TOKENS) % BLOCK == 0
    # the longest block boundary inside what both prompts share (all of the first but its last 3)
    assert first.usage.prompt_tokens - 3 - BLOCK < hit <= first.usage.prompt_tokens - 3
    assert again.usage.prompt_tokens == first.usage.prompt_tokens + 4 + 1 + 4 + 3  # "66", "Than|ks|."


def test_cold_client_short_prompt_and_changed_start_get_nothing() -> None:
    client = MockLLM()
    short = [{"role": "user", "content": "What is (17 + 5) * 3?"}]
    for _ in range(2):
        response = client.chat.completions.create(model="mock-react", messages=short)
        assert cached(response) == 0 and response.usage.prompt_tokens < MIN_TOKENS
    ask(client)
    changed = [{"role": "system", "content": "Today is 2025-03-14. " + SYSTEM},
               {"role": "user", "content": "What is (17 + 5) * 3?"}]
    assert cached(client.chat.completions.create(model="mock-react", messages=changed)) == 0
    assert cached(ask(MockLLM())) == 0  # another client: another memory
    assert cached(ask(client, model="mock-react-4k")) == 0  # another model: another cache


def test_identical_request_is_cached_short_of_its_last_token() -> None:
    client = MockLLM()
    first, second = ask(client), ask(client)
    total = first.usage.prompt_tokens
    assert cached(second) == MIN_TOKENS + (total - 1 - MIN_TOKENS) // BLOCK * BLOCK
    assert second.choices[0].message.content == first.choices[0].message.content


def test_the_memory_is_bounded_and_least_recently_used_goes_first() -> None:
    cache = PromptCache(size=4)
    client = MockLLM()
    client.prompt_cache = cache
    ask(client)
    assert len(cache) == 4
    assert cached(ask(client)) > 0
    other = [{"role": "system", "content": SYSTEM.replace("Rule", "Law")},
             {"role": "user", "content": "What is 2 + 2?"}]
    client.chat.completions.create(model="mock-react", messages=other)
    assert len(cache) == 4 and cached(ask(client)) == 0  # pushed out


def test_openai_types_accept_the_details_in_all_three_ways_and_streams() -> None:
    from openai.types.chat import ChatCompletion, ChatCompletionChunk
    from openai.types.responses import Response

    from mockllm import openai_client

    client = MockLLM()
    ask(client)
    typed = ChatCompletion.model_validate(ask(client).model_dump())
    assert typed.usage.prompt_tokens_details.cached_tokens > 0
    chunks = list(ask(client, stream=True, stream_options={"include_usage": True}))
    last = ChatCompletionChunk.model_validate(chunks[-1].model_dump())
    assert last.usage.prompt_tokens_details.cached_tokens == cached(typed)
    sdk = openai_client()
    ask(sdk)
    assert ask(sdk).usage.prompt_tokens_details.cached_tokens == cached(typed)
    streamed = list(ask(sdk, stream=True, stream_options={"include_usage": True}))
    assert streamed[-1].usage.prompt_tokens_details.cached_tokens == cached(typed)
    fresh = MockLLM()  # the chat calls above sent SYSTEM already
    first = fresh.responses.create(model="mock-react", instructions=SYSTEM, input="What is 2 + 2?")
    second = fresh.responses.create(model="mock-react", instructions=SYSTEM, input="What is 2 + 2?")
    assert first.usage.input_tokens_details.cached_tokens == 0
    assert Response.model_validate(second.model_dump()).usage.input_tokens_details.cached_tokens > 0


def test_the_server_remembers_prefixes_across_sessions() -> None:
    import json

    from mockllm.serve.core import Service
    from mockllm.serve.sessions import Sessions, conversation_key

    service = Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))

    def post(question: str) -> dict:
        body = {"model": "mock-react", "messages": [{"role": "system", "content": SYSTEM},
                                                    {"role": "user", "content": question}]}
        answer = service.handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
        assert answer.status == 200
        return json.loads(answer.body)["usage"]

    assert post("What is (17 + 5) * 3?")["prompt_tokens_details"]["cached_tokens"] == 0
    assert post("What is 2 + 2?")["prompt_tokens_details"]["cached_tokens"] >= MIN_TOKENS  # another session


def test_repr_stays_short_when_the_details_are_zero() -> None:
    response = MockLLM().chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": "What is (17 + 5) * 3?"}])
    assert repr(response.usage) == "CompletionUsage(completion_tokens=9, prompt_tokens=17, total_tokens=26)"
    assert response.usage.model_dump()["prompt_tokens_details"] == {"audio_tokens": 0, "cached_tokens": 0}


def test_resumed_digests_are_the_digests_from_scratch() -> None:
    from mockllm.protocol.caching import prefix_digests
    from mockllm.protocol.completion import measure_prompt, prompt_parts
    from mockllm.protocol.validate import validate_request

    steps = [m for n in range(40) for m in ({"role": "assistant", "content": f"Thought: step {n}."},
                                            {"role": "user", "content": f"Observation: {n} " * 9})]
    request = validate_request("mock-react", [{"role": "system", "content": SYSTEM},
                                              {"role": "user", "content": "Question: go"}, *steps], {})
    total = measure_prompt(request)[1]
    cut = len(request.messages) - 2
    scratch = prefix_digests("mock-react", lambda start: prompt_parts(request, start), total)
    for _ in range(2):  # a miss, then a hit of the remembered chains
        assert prefix_digests("mock-react", lambda start: prompt_parts(request, start), total,
                              ("test", "head"), cut, ("test", "whole"), 3) == scratch
    assert [length for length, _ in scratch] == list(range(MIN_TOKENS, total - 1, BLOCK))
    # an agent's run: each call finds cached the block boundaries of the call before it
    client = MockLLM()
    growing = [client.chat.completions.create(model="mock-react", messages=request.messages[:2 + 2 * n])
               for n in range(0, 41, 5)]
    # shared: all of the call before but the last two tokens of its reply's start (the first is the
    # role of the assistant message that follows it, as in a chat template)
    shared = [r.usage.prompt_tokens - 2 for r in growing[:-1]]
    assert [cached(r) for r in growing[1:]] == [
        MIN_TOKENS + (size - MIN_TOKENS) // BLOCK * BLOCK if size >= MIN_TOKENS else 0 for size in shared]
