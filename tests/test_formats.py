"""response_format, tool_choice and logprobs: obeyed as the API does, deterministically."""
from __future__ import annotations

import json
import math

import jsonschema
import pytest
from openai.types.chat import ChatCompletion as SDKCompletion

from mockllm import MockLLM
from mockllm.protocol.formats import react_fields
from mockllm.reply.schema_values import Facts, build

QUESTION = "What is (17 + 5) * 3? Reply in JSON."
SYSTEM = ("Tools:\n- calculator: arithmetic, e.g. {\"expression\": \"2 * 3\"}\n"
          "Reply with Thought:, Action:, Action Input: or Final Answer: (as json)")
WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather of a city on a date.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                    "date": {"type": "string", "format": "date"}},
                   "required": ["city", "date"], "additionalProperties": False}}}
CALC = {"type": "function", "function": {
    "name": "calculator", "description": "Evaluates an arithmetic expression.",
    "parameters": {"type": "object", "properties": {"expression": {"type": "string"}},
                   "required": ["expression"]}}}


def _ask(messages: list | None = None, **options: object) -> object:
    """One request to a fresh diligent client."""
    messages = messages or [{"role": "user", "content": QUESTION}]
    return MockLLM(persona="diligent").chat.completions.create(model="mock-react", messages=messages, **options)


# --- response_format -----------------------------------------------------------------------------

def test_json_object_needs_the_word_json_in_the_messages() -> None:
    with pytest.raises(ValueError, match=r"'messages' must contain the word 'json' in some form, to use "
                                         r"'response_format' of type 'json_object'"):
        _ask([{"role": "user", "content": "What is 2 + 2?"}], response_format={"type": "json_object"})
    assert _ask([{"role": "user", "content": "What is 2 + 2? JSON please"}],
                response_format={"type": "json_object"}).choices[0].message.content.startswith("{")


def test_json_object_content_is_json_with_the_answer() -> None:
    plain = _ask().choices[0].message.content
    response = _ask(response_format={"type": "json_object"})
    assert json.loads(response.choices[0].message.content) == {"answer": plain}
    assert "json_object" in response.x_mock["adjusted"][0]
    assert _ask(response_format={"type": "text"}).choices[0].message.content == plain


def test_json_object_writes_a_react_step_as_an_object() -> None:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Question: {QUESTION}"}]
    text = _ask(messages, stop=["Observation:"]).choices[0].message.content
    step = json.loads(_ask(messages, response_format={"type": "json_object"}).choices[0].message.content)
    fields = react_fields(text)
    assert step == {"thought": fields["thought"], "action": fields["action"],
                    "action_input": json.loads(fields["action_input"])}


def test_react_fields_read_only_the_first_step() -> None:
    reply = ("Thought: compute.\n**Action:** calculator\nAction Input: {\"expression\": \"1+1\"}\n"
             "Observation: 2\nThought: I now know.\nFinal Answer: 2")
    assert react_fields(reply) == {"thought": "compute.", "action": "calculator",
                                   "action_input": '{"expression": "1+1"}'}
    assert react_fields("Thought: easy.\nAction: None\nFinal Answer: 4") == {"thought": "easy.", "final_answer": "4"}
    assert react_fields(" " * 50_000 + "x") == {}  # no backtracking on long blank lines


SCHEMAS = [
    {"type": "object", "properties": {"answer": {"type": "string"}, "value": {"type": "number"}},
     "required": ["answer", "value"], "additionalProperties": False},
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 100}, "ok": {"type": "boolean"},
                                      "unit": {"enum": ["cm", "m"]}, "kind": {"const": "length"}}},
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "maxLength": 3},
                                               "minItems": 2, "maxItems": 2}},
     "required": ["tags"]},
    {"type": "object", "properties": {"when": {"type": "string", "format": "date"},
                                      "at": {"type": "string", "format": "date-time"},
                                      "mail": {"type": "string", "format": "email"},
                                      "id": {"type": "string", "format": "uuid"},
                                      "code": {"type": "string", "minLength": 80}}},
    {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 66, "exclusiveMaximum": 67},
                                      "y": {"type": "integer", "maximum": -5}, "z": {"type": ["null", "string"]}}},
    {"type": "object", "properties": {"maybe": {"anyOf": [{"type": "null"}, {"type": "integer"}]},
                                      "either": {"oneOf": [{"type": "string"}, {"type": "number"}]},
                                      "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                                                         {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}}},
    {"$defs": {"Step": {"type": "object", "properties": {"thought": {"type": "string"},
                                                         "action": {"type": "string"},
                                                         "action_input": {"type": "object"}},
                        "required": ["thought", "action", "action_input"], "additionalProperties": False}},
     "type": "object", "properties": {"steps": {"type": "array", "items": {"$ref": "#/$defs/Step"}},
                                      "final_answer": {"type": "string"}},
     "required": ["steps", "final_answer"], "additionalProperties": False},
    {"$defs": {"Node": {"type": "object", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        "parent": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
        "required": ["name", "children", "parent"]}},
     "$ref": "#/$defs/Node"},
    {"type": "object", "properties": {"matrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
                                      "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]}}},
    {"type": "array", "items": {"type": "object", "properties": {"q": {"type": "string"}}}},
    {},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
def test_json_schema_content_is_valid_against_the_schema(schema: dict) -> None:
    response_format = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
    response = _ask(response_format=response_format)
    value = json.loads(response.choices[0].message.content)
    jsonschema.validate(value, schema, format_checker=jsonschema.FormatChecker())
    again = _ask(response_format=response_format).choices[0].message.content
    assert again == response.choices[0].message.content  # deterministic


def test_json_schema_values_come_from_the_answer_and_the_schema() -> None:
    facts = Facts("Beijing will be 9 degrees, yes.", "How warm?", {"thought": "I checked."}, "2025-03-20")
    value = build({"type": "object", "properties": {
        "answer": {"type": "string"}, "degrees": {"type": "integer"}, "sure": {"type": "boolean"},
        "thought": {"type": "string"}, "question": {"type": "string"}, "day": {"type": "string", "format": "date"},
        "items": {"type": "array", "items": {"type": "number"}}}}, facts)
    assert value == {"answer": "Beijing will be 9 degrees, yes.", "degrees": 9, "sure": False,
                     "thought": "I checked.", "question": "How warm?", "day": "2025-03-20", "items": [9]}
    assert build({"type": "boolean"}, Facts("Yes, it will.")) is True


def test_a_schema_that_fans_out_stays_small() -> None:
    defs = {f"D{i}": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/D{i + 1}"},
                                                         "b": {"$ref": f"#/$defs/D{i + 1}"}}} for i in range(60)}
    value = build({"$defs": {**defs, "D60": {"type": "string"}}, "$ref": "#/$defs/D0"}, Facts("x"))
    assert len(json.dumps(value)) < 2_000_000


HUGE = {  # what each asks for is far past any reply: met up to MAX_SIZE, never a hang or a crash
    "minLength": {"type": "object", "properties": {"a": {"type": "string", "minLength": 10**12}}, "required": ["a"]},
    "minItems": {"type": "object", "properties": {"a": {"type": "array", "minItems": 10**12}}, "required": ["a"]},
    "nested minItems": {"type": "array", "minItems": 5000, "items": {
        "type": "array", "minItems": 5000, "items": {"type": "string", "minLength": 5000}}},
    "recursive allOf": {"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}], "properties": {"x": {"type": "integer"}}}},
                        "allOf": [{"$ref": "#/$defs/a"}]},
    "allOf of the root": {"allOf": [{"$ref": "#"}], "properties": {"x": {"type": "integer"}}, "required": ["x"]},
}


@pytest.mark.parametrize("case", sorted(HUGE))
def test_a_schema_that_asks_for_too_much_gets_a_bounded_value(case: str) -> None:
    from mockllm.reply.schema_values import MAX_SIZE

    response = _ask(response_format={"type": "json_schema", "json_schema": {"name": "reply", "schema": HUGE[case]}})
    content = response.choices[0].message.content
    assert len(content) < 10 * MAX_SIZE
    if case.endswith("allOf") or case.endswith("root"):
        assert json.loads(content) == {"x": 66}
    met = build({"type": "array", "minItems": 1000, "items": {"type": "string", "minLength": 900}}, Facts("x"))
    assert len(met) == 1000 and all(len(item) == 900 for item in met)  # a large but possible size is met


STRICT_ERRORS = [
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
     r"Invalid schema for response_format 'reply': In context=\(\), 'additionalProperties' is required to be "
     r"supplied and to be false\."),
    ({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a"],
      "additionalProperties": False},
     r"In context=\(\), 'required' is required to be supplied and to be an array including every key in "
     r"properties\. Missing 'b'\."),
    ({"type": "object", "properties": {"inner": {"type": "object", "properties": {"x": {"type": "string"}},
                                                 "required": ["x"]}},
      "required": ["inner"], "additionalProperties": False},
     r"In context=\('properties', 'inner'\), 'additionalProperties'"),
    ({"type": "array", "items": {"type": "string"}}, r"schema must be a JSON Schema of 'type: \"object\"'"),
]


@pytest.mark.parametrize(("schema", "pattern"), STRICT_ERRORS, ids=range(len(STRICT_ERRORS)))
def test_strict_schemas_follow_the_apis_rules(schema: dict, pattern: str) -> None:
    response_format = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema, "strict": True}}
    with pytest.raises(ValueError, match=pattern):
        _ask(response_format=response_format)
    response_format["json_schema"]["strict"] = False
    assert _ask(response_format=response_format).choices[0].message.content


@pytest.mark.parametrize(("value", "error", "pattern"), [
    ({"type": "json_schema"}, TypeError, r"'response_format.json_schema'"),
    ({"type": "json_schema", "json_schema": {"schema": {}}}, ValueError, r"'response_format.json_schema.name'"),
    ({"type": "json_schema", "json_schema": {"name": "a b"}}, ValueError, r"'response_format.json_schema.name'"),
    ({"type": "json_schema", "json_schema": {"name": "a", "schema": []}}, TypeError, r"json_schema.schema"),
    ({"type": "json_schema", "json_schema": {"name": "a", "strict": "yes"}}, TypeError, r"json_schema.strict"),
    ({"type": "json_schema", "json_schema": {"name": "a", "schema": {(1, 2): {}}}}, TypeError, r"json_schema.schema"),
    ({"type": None}, ValueError, r"'response_format.type'.*'json_object'"),
    ([{"type": "text"}], TypeError, r"'response_format'"),
])
def test_bad_response_formats_name_the_field(value: object, error: type, pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        _ask(response_format=value)


def test_a_pydantic_class_points_to_parse() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Answer(pydantic.BaseModel):
        answer: str

    with pytest.raises(TypeError, match=r"chat\.completions\.parse\(\)"):
        _ask(response_format=Answer)


def test_scripted_replies_are_not_rewritten() -> None:
    client = MockLLM.from_script(["plain words"])
    response = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "json"}],
                                              response_format={"type": "json_object"})
    assert response.choices[0].message.content == "plain words" and "adjusted" not in response.x_mock


# --- tool_choice ---------------------------------------------------------------------------------

def _calls(response: object) -> list[tuple[str, dict]]:
    """(name, arguments) of each tool call of a response."""
    return [(c.function.name, json.loads(c.function.arguments)) for c in response.choices[0].message.tool_calls or []]


def test_required_turns_an_answer_into_the_best_fitting_call() -> None:
    messages = [{"role": "user", "content": "What is the weather like in Beijing?"}]
    answered = _ask([{"role": "user", "content": "What is the capital of France?"}], tools=[CALC, WEATHER])
    assert answered.choices[0].message.tool_calls is None
    forced = _ask(messages, tools=[CALC, WEATHER], tool_choice="required")
    called = _ask(messages, tools=[CALC, WEATHER])
    assert forced.choices[0].finish_reason == "tool_calls"
    if called.choices[0].message.tool_calls:  # the model called on its own: nothing to change
        assert _calls(forced) == _calls(called) and "adjusted" not in forced.x_mock
    capital = _ask([{"role": "user", "content": "What is the capital of France?"}], tools=[WEATHER, CALC],
                   tool_choice="required")
    (name, arguments), = _calls(capital)
    assert name == "get_weather" and capital.choices[0].message.content is None  # no word fits: the first tool
    jsonschema.validate(arguments, WEATHER["function"]["parameters"], format_checker=jsonschema.FormatChecker())
    assert "tool_choice='required'" in capital.x_mock["adjusted"][0]
    calc = _ask([{"role": "user", "content": "Please evaluate this arithmetic for me: 6 times 7"}],
                tools=[WEATHER, CALC], tool_choice="required")
    assert _calls(calc)[0][0] == "calculator"


def test_a_named_function_is_called_and_reports_stop_like_the_api() -> None:
    choice = {"type": "function", "function": {"name": "calculator"}}
    response = _ask([{"role": "user", "content": "What is the capital of France?"}], tools=[WEATHER, CALC],
                    tool_choice=choice)
    (name, arguments), = _calls(response)
    assert name == "calculator" and set(arguments) == {"expression"}
    assert response.choices[0].finish_reason == "stop"
    SDKCompletion.model_validate(response.model_dump())
    streamed = list(MockLLM(persona="diligent").chat.completions.create(
        model="m", messages=[{"role": "user", "content": "What is the capital of France?"}],
        tools=[WEATHER, CALC], tool_choice=choice, stream=True))
    assert streamed[-1].choices[0].finish_reason == "stop"


def test_none_hides_the_tools_and_parallel_false_keeps_one_call() -> None:
    messages = [{"role": "user", "content": "What is the weather in Beijing and in Shanghai today?"}]
    assert _ask(messages, tools=[WEATHER], tool_choice="none").choices[0].message.tool_calls is None
    from mockllm.protocol.tool_choice import apply_tool_choice

    calls = ({"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}},) * 2
    content, kept, notes = apply_tool_choice(None, False, [WEATHER], None, calls, "q", "2025-03-14")
    assert kept == calls[:1] and "parallel_tool_calls=False" in notes[0]
    assert apply_tool_choice("auto", True, [WEATHER], None, calls, "q", "2025-03-14")[1] == calls


def test_forced_dates_follow_the_clock() -> None:
    from mockllm.world import Clock

    client = MockLLM(persona="diligent", clock=Clock("2025-05-01"))
    response = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hello!"}],
                                              tools=[WEATHER], tool_choice="required")
    assert _calls(response)[0][1]["date"] == "2025-05-01"


# --- logprobs ------------------------------------------------------------------------------------

def test_logprobs_are_deterministic_and_shaped_like_the_apis() -> None:
    response = _ask(logprobs=True, top_logprobs=5)
    content = response.choices[0].message.content
    entries = response.choices[0].logprobs.content
    assert "".join(entry.token for entry in entries) == content
    assert len(entries) == response.usage.completion_tokens
    for entry in entries:
        assert entry.bytes == list(entry.token.encode("utf-8")) and entry.logprob <= 0
        assert len(entry.top_logprobs) == 5 and entry.token in [top.token for top in entry.top_logprobs]
        assert [t.logprob for t in entry.top_logprobs] == sorted((t.logprob for t in entry.top_logprobs), reverse=True)
        assert sum(math.exp(t.logprob) for t in entry.top_logprobs) <= 1 + 1e-6
    assert _ask(logprobs=True, top_logprobs=5).model_dump() == response.model_dump()
    sdk = SDKCompletion.model_validate(response.model_dump())
    assert sdk.choices[0].logprobs.content[0].top_logprobs[0].token == entries[0].top_logprobs[0].token
    assert _ask(logprobs=True).choices[0].logprobs.content[0].top_logprobs == []
    assert _ask().choices[0].logprobs is None


def test_streamed_logprobs_add_up_to_the_whole() -> None:
    whole = _ask(logprobs=True, top_logprobs=2).choices[0].logprobs.content
    chunks = list(MockLLM(persona="diligent").chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": QUESTION}], logprobs=True, top_logprobs=2,
        stream=True))
    streamed = [e for c in chunks if c.choices and c.choices[0].logprobs for e in c.choices[0].logprobs.content]
    assert streamed == whole
    tools_only = _ask([{"role": "user", "content": "Weather in Beijing?"}], tools=[WEATHER],
                      tool_choice="required", logprobs=True)
    assert tools_only.choices[0].logprobs.content is None
