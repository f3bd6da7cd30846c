"""Strict function tools and parallel tool calls (docs/mock.md, "Strict tools and parallel calls").

In all three ways (MockLLM, openai_client(), the server), in chat completions and the Responses
API, each response validated by openai's own types.
"""
from __future__ import annotations

import json

import pytest

openai = pytest.importorskip("openai", reason="the SDK's types need the test extra (openai)")

from mockllm import MockLLM, openai_client  # noqa: E402
from mockllm.protocol.parallel import MAX_CALLS  # noqa: E402
from openai.types.chat import ChatCompletion  # noqa: E402
from openai.types.responses import Response  # noqa: E402
from solutions.arguments import validate_arguments  # noqa: E402
from solutions.guards.questions import QUESTIONS  # noqa: E402
from solutions.structured import assistant_message, structured_prompt, tool_messages  # noqa: E402
from solutions.tool_calls import strict_schema, tool_loop  # noqa: E402
from solutions.tools import world_tools  # noqa: E402

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])  # the server test runs on loopback
TOOLS = world_tools()
WARMER = "Which is warmer on 2025-03-15, Beijing or London?"
STRICT = [strict_schema(tool) for tool in TOOLS]
WEATHER = TOOLS["get_weather"].schema()


def ask(client: object, question: str, **options: object) -> object:
    """One chat completion for `question`, with the world's tools unless `options` gives others."""
    options.setdefault("tools", TOOLS.schemas())
    return client.chat.completions.create(model="mock-react", messages=[
        {"role": "system", "content": structured_prompt()}, {"role": "user", "content": question}], **options)


def strict_with(parameters: dict) -> dict:
    """The weather tool, strict, with these parameters."""
    return {**WEATHER, "function": {**WEATHER["function"], "parameters": parameters, "strict": True}}


BROKEN = {
    "not closed": ({**WEATHER["function"]["parameters"]}, "In context=(), 'additionalProperties' is required "
                   "to be supplied and to be false."),
    "a property not required": ({**WEATHER["function"]["parameters"], "required": ["city"],
                                 "additionalProperties": False},
                                "'required' is required to be supplied and to be an array including every "
                                "key in properties. Missing 'date'."),
    "a nested object not closed": ({"type": "object", "additionalProperties": False, "required": ["where"],
                                    "properties": {"where": {"type": "object", "properties": {"city": {"type": "string"}},
                                                             "required": ["city"]}}},
                                   "In context=('properties', 'where'), 'additionalProperties' is required"),
    "not an object": ({"type": "string"}, "schema must be a JSON Schema of 'type: \"object\"'"),
    "not a schema": ({"type": "object", "properties": {"city": {"type": "town"}}, "required": ["city"],
                      "additionalProperties": False}, "Invalid schema for function 'get_weather': In context="),
}


# ---------------------------------------------------------------- strict: the schema's rules

@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_strict_schema_that_breaks_a_rule_is_refused_with_the_apis_message(case: str) -> None:
    parameters, message = BROKEN[case]
    with pytest.raises(ValueError, match="Invalid schema for function 'get_weather': ") as error:
        ask(MockLLM(), WARMER, tools=[strict_with(parameters)])
    assert message in str(error.value)


def test_the_rules_apply_only_to_a_strict_function() -> None:
    for strict in (False, None):
        tool = {**WEATHER, "function": {**WEATHER["function"], "strict": strict}}
        ChatCompletion.model_validate(ask(MockLLM(), WARMER, tools=[tool]).model_dump())
    no_parameters = {"type": "function", "function": {"name": "get_current_date", "strict": True}}
    ChatCompletion.model_validate(ask(MockLLM(), "What is today's date?", tools=[no_parameters]).model_dump())
    with pytest.raises(TypeError, match=r"tools\[0\]\.function\.strict"):
        ask(MockLLM(), WARMER, tools=[{**WEATHER, "function": {**WEATHER["function"], "strict": "yes"}}])


def test_a_schema_is_checked_against_the_metaschema_once_and_refused_every_time() -> None:
    from mockllm.protocol.formats import _schema_problem

    _schema_problem.cache_clear()
    for _ in range(3):  # an agent sends the same tools with every request
        ask(MockLLM(), WARMER, tools=STRICT)
    distinct = {json.dumps(tool["function"]["parameters"]) for tool in STRICT}
    assert _schema_problem.cache_info().misses == len(distinct)
    assert _schema_problem.cache_info().hits == 3 * len(STRICT) - len(distinct)
    parameters, _ = BROKEN["not a schema"]
    refusals = []
    for name in ("get_weather", "get_weather", "weather_now"):  # remembered, still refused, by its own name
        tool = strict_with(parameters)
        tool["function"]["name"] = name
        with pytest.raises(ValueError) as error:
            ask(MockLLM(), WARMER, tools=[tool])
        refusals.append(str(error.value))
    assert refusals[0] == refusals[1] == refusals[2].replace("'weather_now'", "'get_weather'")
    assert refusals[0].startswith("Invalid schema for function 'get_weather': In context=")


def test_the_sdk_raises_bad_request_through_openai_client_and_the_server() -> None:
    bad = strict_with(BROKEN["not closed"][0])
    with pytest.raises(openai.BadRequestError, match="additionalProperties"):
        ask(openai_client(), WARMER, tools=[bad])
    from mockllm.serve.spawn import ServerProcess

    with ServerProcess() as server:
        client = openai.OpenAI(base_url=server.url, api_key="any key", max_retries=0)
        with pytest.raises(openai.BadRequestError, match="additionalProperties") as error:
            ask(client, WARMER, tools=[bad])
        assert error.value.status_code == 400
        flat = [{"type": "function", **bad["function"]}]
        with pytest.raises(openai.BadRequestError, match="Invalid schema for function 'get_weather'"):
            client.responses.create(model="mock-react", input=WARMER, tools=flat)
        reply = ask(client, WARMER, tools=STRICT, parallel_tool_calls=True)
        assert reply.model_dump() == ChatCompletion.model_validate(
            ask(MockLLM(), WARMER, tools=STRICT, parallel_tool_calls=True).model_dump()).model_dump()


def test_the_responses_api_checks_a_strict_function_too() -> None:
    flat = {"type": "function", **WEATHER["function"], "strict": True}
    with pytest.raises(ValueError, match="'additionalProperties' is required"):
        MockLLM().responses.create(model="mock-react", input=WARMER, tools=[flat])
    good = [{"type": "function", **tool["function"]} for tool in STRICT]
    response = Response.model_validate(MockLLM().responses.create(model="mock-react", input=WARMER,
                                                                   tools=good).model_dump())
    assert response.tools[0].strict is True


# ---------------------------------------------------------------- strict: the arguments

@pytest.mark.parametrize("persona", ["sloppy", "jsonic", "tiny"])
def test_a_strict_functions_arguments_always_fit_its_schema(persona: str) -> None:
    loose = strict_calls = 0
    for seed in range(3):
        for item in QUESTIONS:
            for tools, strict in ((TOOLS.schemas(), False), (STRICT, True)):
                reply = ask(MockLLM(persona=persona, seed=seed), item["question"], tools=tools)
                for call in reply.choices[0].message.tool_calls or []:
                    if call.function.name not in TOOLS:
                        continue  # strict governs the arguments, not a tool that is not offered
                    fits = validate_arguments(TOOLS[call.function.name], call.function.arguments)[1] is None \
                        and isinstance(json.loads(call.function.arguments), dict)
                    if strict:
                        strict_calls += 1
                        assert fits, (persona, seed, item["question"], call.function.arguments)
                    else:
                        loose += not fits
    assert strict_calls > 0
    if persona == "sloppy":
        assert loose > 0  # the same calls broke their JSON without strict


def test_a_repair_is_said_in_x_mock() -> None:
    notes = [note for item in QUESTIONS for note in
             ask(MockLLM(persona="sloppy", seed=1), item["question"], tools=STRICT).x_mock.get("adjusted", [])]
    assert notes and all(note.startswith("strict function ") for note in notes)
    assert "read leniently" in " ".join(notes)


def test_strict_leaves_a_reply_without_broken_arguments_unchanged() -> None:
    for item in QUESTIONS:
        loose = ask(MockLLM(persona="diligent"), item["question"]).choices[0].message
        strict = ask(MockLLM(persona="diligent"), item["question"], tools=STRICT).choices[0].message
        assert [(c.function.name, c.function.arguments) for c in loose.tool_calls or []] == \
            [(c.function.name, c.function.arguments) for c in strict.tool_calls or []]
        assert loose.content == strict.content


# ---------------------------------------------------------------- parallel_tool_calls

def test_independent_calls_come_in_one_reply_only_when_asked() -> None:
    calls = {value: ask(MockLLM(), WARMER, **({} if value is None else {"parallel_tool_calls": value}))
             .choices[0].message.tool_calls for value in (None, True, False)}
    assert [json.loads(c.function.arguments)["city"] for c in calls[True]] == ["Beijing", "London"]
    assert len(calls[None]) == len(calls[False]) == 1
    assert calls[None][0].function.arguments == calls[True][0].function.arguments
    assert len({c.id for c in calls[True]}) == 2


def test_a_call_that_needs_an_earlier_result_waits_for_it() -> None:
    question = "Which is warmer tomorrow, Beijing or London?"
    first = ask(MockLLM(), question, parallel_tool_calls=True).choices[0].message
    assert [c.function.name for c in first.tool_calls] == ["get_current_date"]
    run = tool_loop(question, MockLLM(), TOOLS, parallel=True)
    assert [[c.action for c in s.calls] for s in run.steps] == [["get_current_date"], ["get_weather", "get_weather"], []]
    assert [c.action_input["date"] for c in run.steps[1].calls] == ["2025-03-15", "2025-03-15"]


def test_the_answers_may_come_in_any_order() -> None:
    messages = [{"role": "system", "content": structured_prompt()}, {"role": "user", "content": WARMER}]
    message = ask(MockLLM(), WARMER, parallel_tool_calls=True).choices[0].message
    answers = tool_messages(message.tool_calls, TOOLS)
    replies = [MockLLM().chat.completions.create(model="mock-react", messages=[
        *messages, assistant_message(message), *order], tools=TOOLS.schemas()).choices[0].message.content
        for order in (answers, answers[::-1])]
    assert replies[0] == replies[1] and replies[0].startswith("London is warmer")


def test_every_persona_ends_every_question_with_parallel_calls() -> None:
    import mockllm

    for persona in mockllm.personas():
        for item in QUESTIONS:
            run = tool_loop(item["question"], MockLLM(persona=persona), TOOLS, max_steps=6, parallel=True)
            assert run.stop_reason in ("answered", "step_limit")
            for step in run.steps:
                assert len(step.calls) <= MAX_CALLS
                keys = [(c.action, c.arguments) for c in step.calls]
                assert len(set(keys)) == len(keys)  # no call twice in one reply


def test_parallel_calls_through_the_sdk_and_the_responses_api() -> None:
    via_sdk = ask(openai_client(), WARMER, parallel_tool_calls=True)
    assert via_sdk.model_dump() == ChatCompletion.model_validate(
        ask(MockLLM(), WARMER, parallel_tool_calls=True).model_dump()).model_dump()
    flat = [{"type": "function", **schema["function"]} for schema in TOOLS.schemas()]
    for client in (MockLLM(), openai_client()):
        response = Response.model_validate(client.responses.create(
            model="mock-react", instructions=structured_prompt(), input=WARMER, tools=flat,
            parallel_tool_calls=True).model_dump())
        assert [item.type for item in response.output] == ["function_call", "function_call"]
        assert response.parallel_tool_calls is True


def test_a_named_tool_choice_makes_one_call() -> None:
    choice = {"type": "function", "function": {"name": "get_weather"}}
    calls = ask(MockLLM(), WARMER, parallel_tool_calls=True, tool_choice=choice).choices[0].message.tool_calls
    assert len(calls) == 1


def test_same_bytes_every_time() -> None:
    replies = {ask(MockLLM(persona="sloppy", seed=2), WARMER, tools=STRICT, parallel_tool_calls=True)
               .model_dump_json() for _ in range(3)}
    assert len(replies) == 1
