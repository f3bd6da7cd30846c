"""Structured outputs answer the question: json_schema filled from what the model computed, json_object
with the keys the prompt names, and an invalid schema refused as the API refuses it."""
from __future__ import annotations

import json
from typing import Literal, Optional

import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict, Field

from mockllm import MockLLM, openai_client

QUESTION = "What is (17 + 5) * 3?"
EXPLAINING = ("explanation", "reasoning", "rationale", "justification", "summary", "description")


class Solution(BaseModel):
    """A worked solution to an arithmetic question."""

    model_config = ConfigDict(extra="forbid")
    answer: float = Field(description="The numeric answer")
    explanation: str = Field(description="How the answer was found")


class Step(BaseModel):
    """One step of a calculation."""

    model_config = ConfigDict(extra="forbid")
    description: str
    output: float


class MathReasoning(BaseModel):
    """OpenAI's structured-outputs example: steps, then the final answer."""

    model_config = ConfigDict(extra="forbid")
    steps: list[Step]
    final_answer: float


class Graded(BaseModel):
    """An answer with a confidence, an operation and a flag."""

    model_config = ConfigDict(extra="forbid")
    result: int
    confidence: float = Field(ge=0, le=1)
    operation: Literal["addition", "multiplication", "division"]
    is_exact: bool
    note: Optional[str]


def _obj(properties: dict, **extra: object) -> dict:
    """An object schema requiring every property."""
    return {"type": "object", "properties": properties, "required": list(properties), **extra}


# (schema, strict, {path: what the value must be}); a path is keys joined by '.'
SCHEMAS = [
    (_obj({"answer": {"type": "number"}}), False, {"answer": 66}),
    (_obj({"answer": {"type": "integer"}}, additionalProperties=False), True, {"answer": 66}),
    (Solution.model_json_schema(), True, {"answer": 66, "explanation": "explains"}),
    (MathReasoning.model_json_schema(), True, {"final_answer": 66, "steps": "nonempty"}),
    (Graded.model_json_schema(), True, {"result": 66}),
    (_obj({"answer": {"type": "string"}, "reasoning": {"type": "string"}}), False,
     {"answer": "mentions", "reasoning": "explains"}),
    (_obj({"answer": {"enum": [17, 22, 66, 99]}}), False, {"answer": 66}),
    (_obj({"steps": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 4},
           "final_answer": {"type": "number"}}), False, {"final_answer": 66, "steps": "nonempty"}),
    (_obj({"solution": _obj({"value": {"type": "number"}, "rationale": {"type": "string"}}),
           "checked": {"type": "boolean"}}), False, {"solution.value": 66, "solution.rationale": "explains"}),
    ({"title": "AnswerWithJustification", "description": "An answer to the user question along with "
      "justification for the answer.", "type": "object",
      "properties": {"answer": {"title": "Answer", "type": "integer"},
                     "justification": {"title": "Justification", "type": "string"}},
      "required": ["answer", "justification"], "additionalProperties": False}, True,
     {"answer": 66, "justification": "explains"}),
    (_obj({"total": {"type": "integer", "minimum": 0, "maximum": 1000},
           "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
           "summary": {"type": "string", "maxLength": 200}}), False, {"total": 66, "summary": "explains"}),
    (_obj({"answer": {"type": "number", "exclusiveMaximum": 10}, "tags": {
        "type": "array", "items": {"enum": ["math", "other"]}, "minItems": 3, "maxItems": 3}}), False, {}),
]


def _at(value: object, path: str) -> object:
    """The value at a dotted path."""
    for key in path.split("."):
        value = value[key]
    return value


def _json_schema(schema: dict, strict: bool = False, name: str = "reply") -> dict:
    """A json_schema response_format."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": strict}}


def _ask(response_format: dict, messages: list | None = None, persona: str | None = "diligent") -> object:
    """One request to a fresh client."""
    messages = messages or [{"role": "user", "content": QUESTION}]
    return MockLLM(persona=persona).chat.completions.create(
        model="mock-react", messages=messages, response_format=response_format)


def test_the_schema_gets_the_computed_answer_not_the_questions_first_number() -> None:
    schema = _obj({"answer": {"type": "number"}})
    for persona in ("diligent", None, "sloppy"):
        assert json.loads(_ask(_json_schema(schema), persona=persona).choices[0].message.content) == {"answer": 66}


@pytest.mark.parametrize("schema, strict, wanted", SCHEMAS, ids=range(len(SCHEMAS)))
def test_every_field_gets_a_sensible_valid_value(schema: dict, strict: bool, wanted: dict) -> None:
    response = _ask(_json_schema(schema, strict))
    content = response.choices[0].message.content
    value = json.loads(content)
    jsonschema.validate(value, schema, format_checker=jsonschema.FormatChecker())
    for path, want in wanted.items():
        got = _at(value, path)
        if want == "explains":  # explanatory text, not the bare answer
            assert isinstance(got, str) and "66" in got and len(got.split()) >= 4, (path, got)
        elif want == "mentions":
            assert isinstance(got, str) and "66" in got, (path, got)
        elif want == "nonempty":
            assert got, (path, got)
        else:
            assert got == want and not isinstance(got, bool), (path, got)
    assert _ask(_json_schema(schema, strict)).choices[0].message.content == content  # same bytes


def test_a_pydantic_model_through_parse_answers_66() -> None:
    client = openai_client()
    parsed = client.chat.completions.parse(model="mock-react", response_format=Solution,
                                           messages=[{"role": "user", "content": QUESTION}])
    solution = parsed.choices[0].message.parsed
    assert solution.answer == 66 and "66" in solution.explanation
    graded = client.chat.completions.parse(model="mock-react", response_format=Graded,
                                           messages=[{"role": "user", "content": QUESTION}])
    assert graded.choices[0].message.parsed.result == 66
    assert 0 <= graded.choices[0].message.parsed.confidence <= 1


# --- json_object -----------------------------------------------------------------------------------

LANGCHAIN_INSTRUCTIONS = (
    'The output should be formatted as a JSON instance that conforms to the JSON schema below.\n\n'
    'As an example, for the schema {"properties": {"foo": {"title": "Foo", "description": "a list of '
    'strings", "type": "array", "items": {"type": "string"}}}, "required": ["foo"]}\nthe object '
    '{"foo": ["bar", "baz"]} is a well-formatted instance of the schema. The object {"properties": '
    '{"foo": ["bar", "baz"]}} is not well-formatted.\n\nHere is the output schema:\n```\n'
    + json.dumps(Solution.model_json_schema()) + "\n```")
INSTRUCTOR_JSON = ("As a genius expert, your task is to understand the content and provide the parsed "
                   "objects in json that match the following json_schema:\n\n"
                   + json.dumps(Graded.model_json_schema(), indent=2)
                   + "\n\nMake sure to return an instance of the JSON, not the schema itself")
PHRASINGS = [
    ("system", "Respond in JSON with keys `answer` and `confidence`.", {"answer", "confidence"}),
    ("user", f"{QUESTION} Reply in JSON with the keys \"result\", \"explanation\" and \"unit\".",
     {"result", "explanation", "unit"}),
    ("system", 'Always answer with a JSON object like {"value": 0, "reasoning": "..."}', {"value", "reasoning"}),
    ("system", "Return json with fields: answer, is_correct, steps", {"answer", "is_correct", "steps"}),
    ("system", LANGCHAIN_INSTRUCTIONS, {"answer", "explanation"}),
    ("system", INSTRUCTOR_JSON, {"result", "confidence", "operation", "is_exact", "note"}),
]


@pytest.mark.parametrize("role, text, keys", PHRASINGS, ids=range(len(PHRASINGS)))
def test_json_object_uses_the_keys_the_prompt_names(role: str, text: str, keys: set) -> None:
    messages = [{"role": role, "content": text}]
    if role == "system":
        messages.append({"role": "user", "content": QUESTION})
    content = _ask({"type": "json_object"}, messages).choices[0].message.content
    value = json.loads(content)
    assert set(value) == keys, value
    answer = next(value[k] for k in ("answer", "result", "value") if k in value)
    assert answer == 66 or "66" in str(answer), value
    assert _ask({"type": "json_object"}, messages).choices[0].message.content == content


def test_json_object_the_schema_a_prompt_shows_is_followed() -> None:
    for text, model in ((LANGCHAIN_INSTRUCTIONS, Solution), (INSTRUCTOR_JSON, Graded)):
        messages = [{"role": "system", "content": text}, {"role": "user", "content": QUESTION}]
        value = json.loads(_ask({"type": "json_object"}, messages).choices[0].message.content)
        jsonschema.validate(value, model.model_json_schema())


def test_json_object_reads_the_keys_after_a_long_document() -> None:
    document = "Notes: {\"k\": [" * 20_000
    messages = [{"role": "user", "content": f"{QUESTION}\n{document}\nReply in JSON with keys `answer` and `unit`."}]
    assert set(json.loads(_ask({"type": "json_object"}, messages).choices[0].message.content)) == {"answer", "unit"}


def test_json_object_without_named_keys_keeps_answer() -> None:
    messages = [{"role": "user", "content": f"{QUESTION} Answer in JSON."}]
    value = json.loads(_ask({"type": "json_object"}, messages).choices[0].message.content)
    assert list(value) == ["answer"] and "66" in str(value["answer"])


# --- invalid schemas -------------------------------------------------------------------------------

INVALID = [
    ({"type": "objekt"}, r"'objekt' is not valid"),
    ({"type": "object", "properties": ["answer"]}, r"\['answer'\] is not of type 'object'"),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": "a"}, r"'a' is not of type 'array'"),
    ({"type": "object", "properties": {"a": {"type": "number", "minimum": "0"}}}, r"'0' is not of type 'number'"),
]


@pytest.mark.parametrize("schema, pattern", INVALID, ids=range(len(INVALID)))
def test_an_invalid_schema_is_refused_naming_what_is_wrong(schema: dict, pattern: str) -> None:
    with pytest.raises(ValueError, match=r"Invalid schema for response_format 'reply': .*" + pattern):
        _ask(_json_schema(schema))


def test_an_invalid_schema_is_a_bad_request_through_the_sdk() -> None:
    import openai

    with pytest.raises(openai.BadRequestError, match="objekt") as caught:
        openai_client().chat.completions.create(model="mock-react", response_format=_json_schema({"type": "objekt"}),
                                                messages=[{"role": "user", "content": QUESTION}])
    assert caught.value.status_code == 400


# --- a forced call to a response-model tool (instructor's TOOLS mode, langchain's function_calling) --

def test_a_forced_call_to_a_response_model_is_filled_from_the_answer() -> None:
    import openai

    class Answer(BaseModel):
        """The answer to the user's question."""

        answer: int
        explanation: str

    for tool, choice in ((openai.pydantic_function_tool(Answer), {"type": "function", "function": {"name": "Answer"}}),
                         (openai.pydantic_function_tool(Graded), "required")):
        response = MockLLM(persona="diligent").chat.completions.create(
            model="mock-react", messages=[{"role": "user", "content": QUESTION}], tools=[tool], tool_choice=choice)
        arguments = json.loads(response.choices[0].message.tool_calls[0].function.arguments)
        jsonschema.validate(arguments, tool["function"]["parameters"])
        assert arguments.get("answer", arguments.get("result")) == 66, arguments


def test_a_response_model_named_like_a_tool_kind_is_still_filled_from_the_answer() -> None:
    """`MathReasoning` has 'math' in its name, yet its fields are no calculator's expression."""
    import openai

    tool = openai.pydantic_function_tool(MathReasoning)
    response = MockLLM(persona="diligent").chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": QUESTION}], tools=[tool],
        tool_choice={"type": "function", "function": {"name": "MathReasoning"}})
    arguments = json.loads(response.choices[0].message.tool_calls[0].function.arguments)
    jsonschema.validate(arguments, tool["function"]["parameters"])
    assert arguments["final_answer"] == 66, arguments
    assert "its answer" in " ".join(response.x_mock["adjusted"])


def test_a_real_calculator_tool_is_still_called_with_the_expression() -> None:
    tool = {"type": "function", "function": {
        "name": "calculator", "description": "Evaluate an arithmetic expression.",
        "parameters": {"type": "object", "properties": {"expression": {"type": "string"}},
                       "required": ["expression"]}}}
    response = MockLLM(persona="diligent").chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": QUESTION}], tools=[tool],
        tool_choice={"type": "function", "function": {"name": "calculator"}})
    arguments = json.loads(response.choices[0].message.tool_calls[0].function.arguments)
    assert arguments == {"expression": "(17 + 5) * 3"}, arguments


# --- JSON asked for in the prompt alone (instructor's MD_JSON mode sends no response_format) -------

def _md_json_messages(schema: dict) -> list[dict]:
    """The messages of instructor's MD_JSON mode: the schema in the system message, the fence asked last."""
    return [{"role": "system", "content": "As a genius expert, your task is to understand the content and "
             "provide\nthe parsed objects in json that match the following json_schema:\n\n"
             f"{json.dumps(schema, indent=2)}\n\nMake sure to return an instance of the JSON, not the schema itself"},
            {"role": "user", "content": QUESTION},
            {"role": "user", "content": "Return the correct JSON response within a ```json codeblock. not the JSON_SCHEMA"}]


@pytest.mark.parametrize("model", [Graded, MathReasoning])
def test_json_asked_in_a_code_block_is_answered_there_in_the_schema(model) -> None:
    schema = model.model_json_schema()
    response = MockLLM(persona="diligent").chat.completions.create(model="mock-react", messages=_md_json_messages(schema))
    content = response.choices[0].message.content
    assert content.startswith("```json\n") and content.endswith("\n```"), content
    value = json.loads(content[len("```json\n"):-len("\n```")])
    jsonschema.validate(value, schema)
    assert value.get("result", value.get("final_answer")) == 66, value


def test_a_prompt_that_only_mentions_json_is_answered_as_before() -> None:
    plain = [{"role": "user", "content": f"{QUESTION} (I will paste the answer into a JSON file.)"}]
    react = [{"role": "system", "content": "Answer with Thought:, Action: and Action Input: lines; the Action "
              "Input is JSON in a ```json code block such as {\"expression\": \"1 + 1\"}."},
             {"role": "user", "content": QUESTION}]
    for messages in (plain, react):
        response = MockLLM(persona="diligent").chat.completions.create(model="mock-react", messages=messages)
        assert not response.choices[0].message.content.startswith("```json"), messages
        assert not any("code block" in note for note in response.x_mock.get("adjusted", [])), messages


def test_a_json_object_key_named_in_prose_holds_the_answer_as_a_number_when_it_is_one() -> None:
    for question, expected in ((QUESTION, 66), ("What is the capital of France?", str)):
        messages = [{"role": "system", "content": "Reply in JSON with the key `answer`."},
                    {"role": "user", "content": question}]
        response = MockLLM(persona="diligent").chat.completions.create(
            model="mock-react", messages=messages, response_format={"type": "json_object"})
        value = json.loads(response.choices[0].message.content)["answer"]
        assert value == expected if expected is not str else isinstance(value, str) and value, value


def test_a_one_word_response_model_about_arithmetic_is_filled_from_the_answer() -> None:
    """`Answer`, 'The answer to an arithmetic question.': a response model, not a calculator."""
    import openai

    class Answer(BaseModel):
        """The answer to an arithmetic question."""

        answer: int

    tool = openai.pydantic_function_tool(Answer)
    response = MockLLM(persona="diligent").chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": QUESTION}], tools=[tool],
        tool_choice={"type": "function", "function": {"name": "Answer"}})
    assert json.loads(response.choices[0].message.tool_calls[0].function.arguments) == {"answer": 66}
