"""The Responses API (`client.responses.create`) in all three ways, checked with the SDK's own types.

The mock reads a Responses request as the chat request it means and writes the reply back, so
the same persona gives the same reply through both APIs; every response and every stream event
validates as `openai.types.responses.Response` / `ResponseStreamEvent`.
"""
from __future__ import annotations

import asyncio
import inspect
import json

import pytest

openai = pytest.importorskip("openai", reason="the SDK's types need the test extra (openai)")

import mockllm  # noqa: E402
from mockllm import MockLLM, async_openai_client, openai_client  # noqa: E402
from mockllm.serve.core import Service  # noqa: E402
from mockllm.serve.sessions import Sessions, conversation_key  # noqa: E402
from openai.types.responses import Response, ResponseStreamEvent  # noqa: E402
from pydantic import TypeAdapter  # noqa: E402
from solutions.prompt import build_system_prompt  # noqa: E402
from solutions.structured import structured_prompt  # noqa: E402
from solutions.tools import BASIC_TOOLS, calculator  # noqa: E402
from timing import best_seconds  # noqa: E402

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])  # the server test runs on loopback
QUESTION = "What is (17 + 5) * 3?"
EVENTS = TypeAdapter(ResponseStreamEvent)
TOOLS = [{"type": "function", **schema["function"]} for schema in BASIC_TOOLS.schemas()]
"""The course's two tools (get_current_date, calculator) in the Responses API's flat shape."""
CALCULATOR = next(tool for tool in TOOLS if tool["name"] == "calculator")


def valid(response: object) -> Response:
    """The SDK's Response for a mock response (its dump must validate)."""
    return Response.model_validate(response.model_dump())


def tool_loop(create: object) -> list[object]:
    """The course's tool loop with `create` (a responses.create): question, call, output, answer."""
    request = {"model": "mock-react", "instructions": structured_prompt(), "tools": TOOLS}
    items: list = [{"role": "user", "content": QUESTION}]
    replies = []
    for _ in range(4):
        reply = create(**request, input=items)
        replies.append(reply)
        calls = [item for item in reply.output if item.type == "function_call"]
        if not calls:
            return replies
        items += reply.output  # the output items go back as they are, as the API's docs show
        for call in calls:
            result = calculator(**json.loads(call.arguments))
            items.append({"type": "function_call_output", "call_id": call.call_id, "output": result})
    return replies


# ---------------------------------------------------------------- MockLLM.responses

def test_mockllm_serves_the_responses_api_as_the_sdk_types_it() -> None:
    response = MockLLM().responses.create(model="mock-react", input=QUESTION)
    sdk = valid(response)
    chat = MockLLM().chat.completions.create(model="mock-react",
                                             messages=[{"role": "user", "content": QUESTION}])
    assert sdk.object == "response" and sdk.status == "completed" and sdk.id.startswith("resp_")
    assert response.output_text == sdk.output_text == chat.choices[0].message.content
    assert "66" in response.output_text
    assert [item.type for item in sdk.output] == ["message"]
    assert sdk.usage.input_tokens == chat.usage.prompt_tokens
    assert sdk.usage.output_tokens == chat.usage.completion_tokens
    assert sdk.usage.total_tokens == sdk.usage.input_tokens + sdk.usage.output_tokens
    assert sdk.usage.input_tokens_details.cached_tokens == 0
    assert sdk.usage.output_tokens_details.reasoning_tokens == 0
    assert response.x_mock == chat.x_mock and sdk.model_extra["x_mock"] == chat.x_mock


@pytest.mark.parametrize("persona", [*mockllm.personas(), None])
def test_every_persona_replies_as_in_chat_completions(persona: str | None) -> None:
    prompt = build_system_prompt(BASIC_TOOLS)
    chat = MockLLM(persona=persona, seed=1).chat.completions.create(
        model="mock-react", messages=[{"role": "system", "content": prompt},
                                      {"role": "user", "content": QUESTION}])
    response = MockLLM(persona=persona, seed=1).responses.create(
        model="mock-react", instructions=prompt, input=QUESTION)
    assert valid(response).output_text == chat.choices[0].message.content
    assert response.x_mock == chat.x_mock


def test_input_items_read_as_the_messages_they_are() -> None:
    prompt = build_system_prompt(BASIC_TOOLS)
    items = [{"type": "message", "role": "developer",
              "content": [{"type": "input_text", "text": prompt}]},
             {"role": "user", "content": [{"type": "input_text", "text": QUESTION}]}]
    by_items = MockLLM().responses.create(model="mock-react", input=items)
    by_instructions = MockLLM().responses.create(model="mock-react", instructions=prompt,
                                                 input=QUESTION)
    assert by_items.output_text == by_instructions.output_text
    assert by_items.output_text.startswith("Thought:")  # the ReAct prompt was read
    assert valid(by_instructions).instructions == prompt


@pytest.mark.parametrize("way", ["MockLLM", "openai_client"])
def test_the_tool_loop_ends_with_the_answer(way: str) -> None:
    client = MockLLM(persona="diligent") if way == "MockLLM" else openai_client(persona="diligent")
    replies = tool_loop(client.responses.create)
    first, last = (valid(reply) for reply in (replies[0], replies[-1]))
    assert len(replies) == 2
    call = first.output[0]
    assert call.type == "function_call" and call.name == "calculator"
    assert call.call_id.startswith("call_") and call.id.startswith("fc_")
    assert json.loads(call.arguments) == {"expression": "(17 + 5) * 3"}
    assert first.output_text == ""
    assert [item.type for item in last.output] == ["message"] and "66" in last.output_text
    assert [tool.name for tool in last.tools] == ["get_current_date", "calculator"]


def test_the_tool_loop_is_the_same_bytes_every_run() -> None:
    runs = [[reply.model_dump_json() for reply in tool_loop(MockLLM().responses.create)]
            for _ in range(2)]
    assert runs[0] == runs[1]
    sdk = [[reply.model_dump_json() for reply in tool_loop(openai_client().responses.create)]
           for _ in range(2)]
    assert sdk[0] == sdk[1]


@pytest.mark.parametrize("way", ["MockLLM", "openai_client"])
def test_previous_response_id_continues_the_stored_conversation(way: str) -> None:
    client = MockLLM() if way == "MockLLM" else openai_client()
    whole = tool_loop(client.responses.create)
    request = {"model": "mock-react", "instructions": structured_prompt(), "tools": TOOLS}
    first = client.responses.create(**request, input=QUESTION)
    call = first.output[0]
    answer = {"type": "function_call_output", "call_id": call.call_id, "output": "66"}
    second = client.responses.create(**request, input=[answer], previous_response_id=first.id)
    assert valid(second).previous_response_id == first.id
    assert second.output_text == whole[-1].output_text and "66" in second.output_text
    assert second.id == whole[-1].id  # the same conversation read, so the same reply and id
    with pytest.raises((ValueError, openai.BadRequestError), match="no function_call_output"):
        client.responses.create(**request, input="Thanks!", previous_response_id=first.id)
    unstored = client.responses.create(**request, input=QUESTION, store=False,
                                       temperature=0.5)
    with pytest.raises((ValueError, openai.BadRequestError), match="not found"):
        client.responses.create(**request, input=[answer], previous_response_id=unstored.id)


def test_the_stored_responses_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from mockllm.protocol import responses_store

    monkeypatch.setattr(responses_store, "_STORED", responses_store._Store())
    monkeypatch.setattr(responses_store, "CAPACITY", 2)
    client = MockLLM()
    ids = [client.responses.create(model="mock-react", input=f"What is {n} + 1?").id
           for n in range(3)]
    assert [bool(responses_store.known(i)) for i in ids] == [False, True, True]
    monkeypatch.setattr(responses_store, "MAX_CHARS", 5_000)
    big = client.responses.create(model="mock-react", input="What is 2 + 2? " + "x" * 9_000).id
    assert [bool(responses_store.known(i)) for i in (*ids, big)] == [False, False, False, True]
    assert list(responses_store._STORED.entries) == [big]  # the newest is kept, even alone over


def test_instructions_are_not_carried_over() -> None:
    from mockllm.protocol.responses_request import read_request

    first = MockLLM().responses.create(model="mock-react", instructions="Be brief.", input="Hi")
    later = read_request({"model": "mock-react", "input": "And you?",
                          "previous_response_id": first.id})
    assert [m["role"] for m in later.chat.messages] == ["user", "assistant", "user"]
    assert later.chat.messages[0]["content"] == "Hi"


def test_a_call_shares_the_chat_counter_and_its_failures() -> None:
    client = MockLLM(failures={2: "rate_limit"})
    client.chat.completions.create(model="mock-react", messages=[{"role": "user", "content": "Hi"}])
    with pytest.raises(mockllm.RateLimitError):
        client.responses.create(model="mock-react", input="Hi")
    assert client.calls == 2
    with pytest.raises(openai.RateLimitError):
        openai_client(failures={1: "rate_limit"}).responses.create(model="mock-react", input="Hi")


def test_the_mocks_own_objects_round_trip() -> None:
    from mockllm.protocol.responses_types import Response as MockResponse

    response = MockLLM().responses.create(model="mock-react", input=QUESTION, tools=[CALCULATOR])
    again = MockResponse.model_validate(json.loads(response.model_dump_json()))
    assert again == response and again.output[0].call_id == response.output[0].call_id
    assert response.to_dict() == valid(response).to_dict()


def test_a_script_replays_through_the_responses_api() -> None:
    client = MockLLM.from_script(["Final Answer: 4", {"tool_calls": [
        {"name": "calculator", "arguments": {"expression": "2 + 2"}}]}])
    assert valid(client.responses.create(model="mock-react", input="Hi")).output_text == \
        "Final Answer: 4"
    call = valid(client.responses.create(model="mock-react", input="Hi")).output[0]
    assert (call.name, json.loads(call.arguments)) == ("calculator", {"expression": "2 + 2"})
    with pytest.raises(mockllm.ScriptExhaustedError):
        client.responses.create(model="mock-react", input="Hi")


def test_tool_choice_and_max_output_tokens() -> None:
    client = MockLLM()
    named = client.responses.create(model="mock-react", input=QUESTION, tools=TOOLS,
                                    tool_choice={"type": "function", "name": "get_current_date"})
    assert [item.name for item in valid(named).output] == ["get_current_date"]
    assert valid(named).tool_choice.name == "get_current_date"
    none = client.responses.create(model="mock-react", input=QUESTION, tools=TOOLS,
                                   tool_choice="none")
    assert [item.type for item in none.output] == ["message"]
    cut = client.responses.create(model="mock-react", input=QUESTION,
                                  instructions=build_system_prompt(BASIC_TOOLS),
                                  max_output_tokens=16)
    sdk = valid(cut)
    assert sdk.status == "incomplete" and sdk.incomplete_details.reason == "max_output_tokens"
    assert sdk.usage.output_tokens == 16 and sdk.max_output_tokens == 16
    events = [e.type for e in client.responses.create(
        model="mock-react", input=QUESTION, instructions=build_system_prompt(BASIC_TOOLS),
        max_output_tokens=16, stream=True)]
    assert events[-1] == "response.incomplete"


def test_text_format_json_schema_fills_the_schema() -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}},
              "required": ["answer"], "additionalProperties": False}
    response = MockLLM().responses.create(
        model="mock-react", input=QUESTION,
        text={"format": {"type": "json_schema", "name": "Answer", "schema": schema, "strict": True}})
    assert json.loads(valid(response).output_text) == {"answer": 66}


# ---------------------------------------------------------------- streaming

def stream_of(client: object, **request: object) -> list:
    """The events of a streamed request, each validated as the SDK's ResponseStreamEvent."""
    events = list(client.responses.create(model="mock-react", stream=True, **request))
    return [EVENTS.validate_python(event.model_dump(exclude_unset=True))
            if not isinstance(event, openai.BaseModel) else event for event in events]


@pytest.mark.parametrize("way", ["MockLLM", "openai_client"])
def test_a_stream_is_the_apis_events_in_order(way: str) -> None:
    client = MockLLM() if way == "MockLLM" else openai_client()
    whole = valid(client.responses.create(model="mock-react", input=QUESTION))
    events = stream_of(client, input=QUESTION)
    assert [event.sequence_number for event in events] == list(range(len(events)))
    kinds = [event.type for event in events]
    assert kinds[:5] == ["response.created", "response.in_progress", "response.output_item.added",
                         "response.content_part.added", "response.output_text.delta"]
    assert kinds[-4:] == ["response.output_text.done", "response.content_part.done",
                          "response.output_item.done", "response.completed"]
    assert events[0].response.status == "in_progress" and events[0].response.output == []
    assert "".join(e.delta for e in events if e.type == "response.output_text.delta") == \
        whole.output_text
    assert events[-1].response.model_dump() == whole.model_dump()


def test_a_streamed_call_sends_its_arguments_in_pieces() -> None:
    events = stream_of(MockLLM(), input=QUESTION, tools=[CALCULATOR])
    kinds = [event.type for event in events]
    assert kinds[2] == "response.output_item.added" and events[2].item.arguments == ""
    pieces = [e.delta for e in events if e.type == "response.function_call_arguments.delta"]
    done = next(e for e in events if e.type == "response.function_call_arguments.done")
    assert len(pieces) > 1 and "".join(pieces) == done.arguments
    assert json.loads(done.arguments) == {"expression": "(17 + 5) * 3"}
    assert kinds[-2:] == ["response.output_item.done", "response.completed"]
    assert events[-2].item.call_id == events[-1].response.output[0].call_id


def test_the_sdks_stream_helper_and_async_client() -> None:
    with openai_client().responses.stream(model="mock-react", input=QUESTION) as stream:
        texts = [event.delta for event in stream if event.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert "".join(texts) == final.output_text and "66" in final.output_text

    async def run() -> list:
        client = async_openai_client()
        created = await client.responses.create(model="mock-react", input=QUESTION, stream=True)
        return [event async for event in created]

    assert [event.type for event in asyncio.run(run())][-1] == "response.completed"


def test_parse_fills_a_pydantic_model() -> None:
    import pydantic

    class Answer(pydantic.BaseModel):
        answer: int
        explanation: str

    parsed = openai_client().responses.parse(model="mock-react", input=QUESTION, text_format=Answer)
    assert parsed.output_parsed.answer == 66 and parsed.output_parsed.explanation


# ---------------------------------------------------------------- bad requests

CALL = {"type": "function_call", "call_id": "call_1", "name": "calculator",
        "arguments": '{"expression": "1 + 1"}'}
USER = {"role": "user", "content": QUESTION}


@pytest.mark.parametrize(("change", "param", "words"), [
    ({"input": None}, "input", "Missing required parameter"),
    ({"model": None}, "model", "Missing required parameter"),
    ({"input": 3}, "input", "a str or a list"),
    ({"input": []}, "input", "at least one item"),
    ({"input": [{"type": "reasoning", "summary": []}]}, "input[0].type", "'function_call'"),
    ({"input": [{"role": "robot", "content": "hi"}]}, "input[0].role", "user, system"),
    ({"input": [{"role": "user"}]}, "input[0].content", "Missing required parameter"),
    ({"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}]},
     "input[0].content[0]", "text parts only"),
    ({"input": [USER, CALL]}, "input", "no function_call_output"),
    ({"input": [USER, CALL, USER]}, "input[2]", "no function_call_output"),
    ({"input": [USER, {"type": "function_call_output", "call_id": "call_9", "output": "2"}]},
     "input[1].call_id", "answers no function_call"),
    ({"input": [USER, {**CALL, "arguments": {"expression": "1"}}]}, "input[1].arguments",
     "JSON string"),
    ({"tools": [{"type": "function", "function": CALCULATOR}]}, "tools[0].name", "flat"),
    ({"tools": [{"type": "web_search"}]}, "tools[0].type", "function tools only"),
    ({"tools": [{**CALCULATOR, "parameters": "x"}]}, "tools[0].parameters", "JSON schema"),
    ({"tool_choice": {"type": "web_search_preview"}, "tools": TOOLS}, "tool_choice", "'auto'"),
    ({"tool_choice": {"type": "function", "name": "search"}, "tools": TOOLS}, "tool_choice.name",
     "calculator"),
    ({"tool_choice": "required"}, "tool_choice", "no tools are given"),
    ({"max_output_tokens": 5}, "max_output_tokens", "at least 16"),
    ({"temperature": 5}, "temperature", "0 to 2"),
    ({"text": {"format": {"type": "yaml"}}}, "text.format.type", "json_schema"),
    ({"text": {"format": {"type": "json_schema", "name": "A", "schema": {"type": "objekt"}}}},
     None, "'objekt' is not valid"),
    ({"previous_response_id": "resp_1"}, "previous_response_id", "'resp_1' not found"),
    ({"previous_response_id": 7}, "previous_response_id", "'resp_...'"),
    ({"conversation": "conv_1"}, "conversation", "stores no conversations"),
    ({"background": True}, "background", "False"),
    ({"instruction": "Be brief."}, None, "did you mean 'instructions'"),
])
def test_a_bad_request_is_a_400_naming_the_field(change: dict, param: str | None,
                                                 words: str) -> None:
    request = {"model": "mock-react", "input": QUESTION, **change}
    request = {key: value for key, value in request.items() if value is not None}
    with pytest.raises((ValueError, TypeError)) as direct:
        MockLLM().responses.create(**request)
    assert words in str(direct.value)
    answer = service().handle("POST", "/v1/responses", {}, json.dumps(request).encode())
    error = json.loads(answer.body)["error"]
    assert answer.status == 400 and words in error["message"]
    if param is not None:  # named first in the message, so the server's `param` is it
        assert error["param"] == param
        with pytest.raises(openai.BadRequestError) as caught:
            openai_client().responses.create(**request)
        assert caught.value.param == param


def test_the_keywords_are_the_sdks() -> None:
    from openai.resources.responses import Responses as SDKResponses

    from mockllm.protocol.responses_params import CHECKS, PARAMETERS

    sdk = [name for name in inspect.signature(SDKResponses.create).parameters if name != "self"]
    assert list(PARAMETERS) == sdk and set(CHECKS) == set(sdk)


def test_the_allowed_strings_are_the_sdks() -> None:
    import typing

    from openai.resources.responses import Responses as SDKResponses

    from mockllm.protocol.responses_params import INCLUDABLE, SERVICE_TIERS, TRUNCATIONS

    hints = typing.get_type_hints(SDKResponses.create)

    def literal(hint: object) -> tuple:
        """The strings of the one Literal inside `hint` (at any depth)."""
        if typing.get_origin(hint) is typing.Literal:
            return typing.get_args(hint)
        return next((found for arg in typing.get_args(hint) if (found := literal(arg))), ())

    assert (literal(hints["include"]), literal(hints["service_tier"]), literal(hints["truncation"])) == (
        INCLUDABLE, SERVICE_TIERS, TRUNCATIONS)
    assert MockLLM().responses.create(model="mock-react", input="What is 2 + 2?",
                                      include=["message.output_text.logprobs"]).output_text
    with pytest.raises(ValueError, match=r"Invalid value for 'include\[1\]': 'logprobs'\. Accepted: one of "
                                         r"'file_search_call\.results'"):
        MockLLM().responses.create(model="mock-react", input="hi", include=["reasoning.encrypted_content", "logprobs"])


def test_every_ignored_or_refused_keyword_is_in_the_differences_document() -> None:
    from pathlib import Path

    from mockllm.protocol.responses_params import IGNORED, UNSUPPORTED

    doc = (Path(__file__).resolve().parents[1] / "docs" / "mock-api-differences.md")
    section = doc.read_text(encoding="utf-8").split("## The Responses API", 1)[1]
    assert [name for name in (*IGNORED, *UNSUPPORTED) if f"`{name}`" not in section] == []


def test_many_items_are_read_in_linear_time() -> None:
    def request(n: int) -> dict:
        items = []
        for index in range(n):
            call = {**CALL, "call_id": f"call_{index}"}
            items += [USER, call, {"type": "function_call_output", "call_id": f"call_{index}",
                                   "output": "2"}]
        return {"model": "mock-react", "input": [*items, USER]}

    from mockllm.protocol.responses_request import read_request

    small, large = request(200), request(3200)
    assert best_seconds(lambda: read_request(large)) <= \
        32 * best_seconds(lambda: read_request(small)) + 0.010


def test_the_example_of_the_docs_is_true() -> None:
    import doctest
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "mock.md").read_text(encoding="utf-8")
    section = doc.split("## The Responses API", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    test = doctest.DocTestParser().get_doctest(example, {}, "docs/mock.md", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False) == (0, len(test.examples)) and len(test.examples) > 8


# ---------------------------------------------------------------- the server

def service() -> Service:
    """A server's core, with the CLI's defaults."""
    return Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/v1/completions"), ("POST", "/v1/embeddings"), ("GET", "/v1/nowhere")])
def test_other_endpoints_are_a_404_naming_what_the_mock_serves(method: str, path: str) -> None:
    answer = service().handle(method, path, {}, b"{}")
    message = json.loads(answer.body)["error"]["message"]
    assert answer.status == 404 and f"({method} {path})" in message
    for served in ("POST /v1/chat/completions", "POST /v1/responses", "GET /v1/models"):
        assert served in message
    with pytest.raises(openai.NotFoundError, match="POST /v1/responses"):
        openai_client().embeddings.create(model="mock-react", input="hi")


def test_the_core_answers_like_mockllm_and_names_conversations() -> None:
    body = {"model": "mock-react", "input": QUESTION}
    answer = service().handle("POST", "/v1/responses", {}, json.dumps(body).encode())
    assert answer.status == 200
    assert json.loads(answer.body) == MockLLM().responses.create(**body).model_dump(
        exclude_unset=True)
    svc = Service(Sessions({"persona": "diligent", "seed": 0, "failures": {2: "rate_limit"}},
                           conversation_key))
    other = json.dumps({**body, "input": "What is today's date?"}).encode()
    statuses = [svc.handle("POST", "/v1/responses", {}, raw).status
                for raw in (json.dumps(body).encode(), other, json.dumps(body).encode())]
    assert statuses == [200, 200, 429]  # each question is a conversation with its own counter
    svc = Service(Sessions({"persona": "diligent", "seed": 0, "failures": {2: "rate_limit"}},
                           conversation_key))
    first = json.loads(svc.handle("POST", "/v1/responses", {}, json.dumps(body).encode()).body)
    later = {"model": "mock-react", "input": "And 2 + 2?", "previous_response_id": first["id"]}
    assert svc.handle("POST", "/v1/responses", {}, json.dumps(later).encode()).status == 429


def test_the_server_serves_responses() -> None:
    httpx2 = pytest.importorskip("httpx2")
    from mockllm.serve.spawn import ServerProcess

    with ServerProcess() as server:
        client = openai.OpenAI(base_url=server.url, api_key="any key", max_retries=0)
        replies = tool_loop(client.responses.create)
        assert "66" in replies[-1].output_text and replies[0].output[0].type == "function_call"
        assert [reply.model_dump() for reply in replies] == \
            [valid(reply).model_dump() for reply in tool_loop(MockLLM().responses.create)]
        call = replies[0].output[0]
        answer = {"type": "function_call_output", "call_id": call.call_id, "output": "66"}
        later = client.responses.create(model="mock-react", instructions=structured_prompt(),
                                        tools=TOOLS, input=[answer],
                                        previous_response_id=replies[0].id)
        assert later.output_text == replies[-1].output_text
        body = {"model": "mock-react", "input": QUESTION, "stream": True}
        with httpx2.Client(base_url=server.url, timeout=10) as http:
            raw = [http.post("/responses", json=body).content for _ in range(2)]
            missing = http.post("/embeddings", json={"model": "mock-react", "input": "hi"})
        assert raw[0] == raw[1] and raw[0].startswith(b"event: response.created\ndata: {")
        assert b"[DONE]" not in raw[0]
        assert missing.status_code == 404 and "POST /v1/responses" in missing.text
        events = list(client.responses.create(**body))
        assert events[-1].type == "response.completed"
        assert events[-1].response.output_text == MockLLM().responses.create(
            model="mock-react", input=QUESTION).output_text
        assert server.errors() == ""
