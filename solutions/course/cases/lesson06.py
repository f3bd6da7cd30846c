"""Cases for lesson 06 (Structured tool calls): validate_arguments and tool_messages."""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise

WEATHER = '{"city": "Beijing", "date": "2025-03-15"}'
RAN: list[dict] = []
"""The calls the `repeat` tool of the tool_messages cases received (each case starts it empty)."""


def _tool(name: str) -> Callable[[], Any]:
    """A factory of one of the world's tools (imported in the case, not at import time)."""
    def make() -> Any:
        from solutions.tools import world_tools

        return world_tools()[name]
    return make


def _custom(properties: dict, required: tuple[str, ...]) -> Callable[[], Any]:
    """A factory of a tool `settings` with the given schema (for constraints isinstance cannot see)."""
    def make() -> Any:
        from solutions.tools import Tool

        return Tool("settings", 'changes the settings. Example: {"unit": "celsius"}',
                    {"type": "object", "properties": properties, "required": list(required)},
                    lambda **kwargs: "ok")
    return make


def _validate(tool: Callable[[], Any], arguments: str, label: str, test: Callable[[Any], bool],
              says: str, hint: str) -> Case:
    """A validate_arguments case: the tool is built lazily, the arguments are JSON text."""
    return Case(setup=lambda: ((tool(), arguments), {}), label=f"validate_arguments({label}, {arguments!r})",
                expect=test, says=says, hint=hint)


def _refused(*words: str) -> Callable[[Any], bool]:
    """The value is ({}, a message naming every word)."""
    return lambda value: (isinstance(value, tuple) and len(value) == 2 and value[0] == {}
                          and isinstance(value[1], str) and all(w in value[1] for w in words))


def _accepted(expected: dict) -> Callable[[Any], bool]:
    """The value is (expected, None)."""
    return lambda value: isinstance(value, tuple) and len(value) == 2 and value == (expected, None)


NAME_IT = ("the message must name the argument: build it from error.path (where) and "
           "error.message (what), e.g. \"argument 'days': '50' is not of type 'integer'\"")
VALIDATE_CASES = (
    _validate(_tool("get_weather"), WEATHER, "get_weather", _accepted({"city": "Beijing", "date": "2025-03-15"}),
              "({'city': 'Beijing', 'date': '2025-03-15'}, None)",
              "decode the JSON text and return the object with None when it fits the schema"),
    _validate(_tool("add_days"), '{"date": "2025-03-14"}', "add_days", _refused("days"),
              "({}, a message naming the missing 'days')",
              "a missing required argument is an error: validate with jsonschema, which reads "
              "'required'; checking the types of the arguments present is not enough"),
    _validate(_tool("add_days"), '{"date": "2025-03-14", "days": "50"}', "add_days",
              _refused("days", "integer"), "({}, a message naming 'days' and 'integer')", NAME_IT),
    _validate(_tool("add_days"), '{"date": "2025-03-14", "days": true}', "add_days", _refused("days"),
              "({}, a message naming 'days': true is a boolean, not an integer)",
              "isinstance(True, int) is True in Python, but JSON Schema's integer excludes "
              "booleans: let jsonschema decide"),
    _validate(_tool("get_weather"), '{"city": "Beijing"', "get_weather", _refused("JSON"),
              "({}, a message saying the arguments are not valid JSON)",
              "catch json.JSONDecodeError (a ValueError) and return ({}, 'the arguments are not "
              "valid JSON: ...'): the model reads the message and tries again"),
    _validate(_tool("get_weather"), '["Beijing", "2025-03-15"]', "get_weather", _refused("object"),
              "({}, a message saying a JSON object is needed)",
              "valid JSON is not enough: the arguments must be an object (a dict)"),
    _validate(_tool("get_weather"), json.dumps(WEATHER), "get_weather",
              _accepted({"city": "Beijing", "date": "2025-03-15"}),
              "({'city': 'Beijing', 'date': '2025-03-15'}, None): the JSON string decoded again",
              "some servers encode the arguments twice: when json.loads gives a str, decode that str"),
    _validate(_tool("get_weather"), '{"city": "Beijing", "date": "2025-03-15", "units": "metric"}',
              "get_weather", _refused("units"), "({}, a message naming the unexpected 'units')",
              "the function takes no 'units': validate against the schema with "
              "additionalProperties set to False (unless the schema sets it)"),
    _validate(_custom({"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, ("unit",)),
              '{"unit": "kelvin"}', "settings", _refused("unit"),
              "({}, a message naming 'unit', which must be celsius or fahrenheit)",
              "the schema's enum lists the allowed values: validate with jsonschema, not isinstance"),
    _validate(_custom({"count": {"type": "integer", "minimum": 1}}, ("count",)), '{"count": 0}',
              "settings", _refused("count"), "({}, a message naming 'count', which must be at least 1)",
              "the schema's minimum is part of the contract: validate with jsonschema, not isinstance"),
    _validate(_custom({"where": {"type": "object", "properties": {"city": {"type": "string"}}}}, ("where",)),
              '{"where": {"city": 5}}', "settings", _refused("city"),
              "({}, a message naming 'city' inside 'where')", NAME_IT),
    _validate(_tool("get_current_date"), "{}", "get_current_date", _accepted({}), "({}, None)",
              "an empty object is valid for a tool without parameters"),
)


def _call(call_id: str, name: str, arguments: str) -> SimpleNamespace:
    """A tool call shaped like the SDK's: .id, .type, .function.name, .function.arguments."""
    return SimpleNamespace(id=call_id, type="function",
                           function=SimpleNamespace(name=name, arguments=arguments))


def _registry() -> Any:
    """The world's tools plus `repeat`, which records every call it receives in RAN."""
    from solutions.tools import Tool, ToolRegistry, world_tools

    def repeat(word: str, times: int) -> str:
        RAN.append({"word": word, "times": times})
        return " ".join([word] * times) if isinstance(times, int) else f"{word} x {times}"

    repeat_tool = Tool("repeat", 'repeats a word. Example: {"word": "hi", "times": 2}',
                       {"type": "object", "properties": {"word": {"type": "string"},
                                                         "times": {"type": "integer"}},
                        "required": ["word", "times"]}, repeat)
    return ToolRegistry([*world_tools(), repeat_tool])


def _messages(*calls: tuple[str, str, str]) -> Callable[[], tuple[tuple, dict]]:
    """Setup: tool_messages([calls], the registry), with RAN emptied."""
    def setup() -> tuple[tuple, dict]:
        RAN.clear()
        return ([_call(*call) for call in calls], _registry()), {}
    return setup


def _mock_calls() -> tuple[tuple, dict]:
    """Setup: the tool calls of a real (scripted) MockLLM reply, as the SDK's objects."""
    from mockllm import MockLLM

    RAN.clear()
    reply = MockLLM.from_script([{"tool_calls": [
        {"id": "call_mock_1", "name": "get_current_date", "arguments": {}},
        {"id": "call_mock_2", "name": "calculator", "arguments": {"expression": "(17 + 5) * 3"}}]}])
    message = reply.chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": "Two calls, please."}]).choices[0].message
    return (message.tool_calls, _registry()), {}


def _shaped(value: Any, ids: list[str]) -> bool:
    """A list of {'role': 'tool', 'tool_call_id': id, 'content': str}, one per id, in order."""
    return (isinstance(value, list) and len(value) == len(ids)
            and all(isinstance(m, dict) and set(m) == {"role", "tool_call_id", "content"}
                    and m["role"] == "tool" and m["tool_call_id"] == i and isinstance(m["content"], str)
                    for m, i in zip(value, ids)))


def _contents(value: Any) -> list[str]:
    """The contents of the messages (for predicates that already checked the shape)."""
    return [m["content"] for m in value]


MESSAGE_CASES = (
    Case(setup=_messages(("call_1", "get_current_date", "{}")),
         label="tool_messages([call_1: get_current_date {}], tools)",
         expected=[{"role": "tool", "tool_call_id": "call_1", "content": "2025-03-14"}],
         hint="one message per call: {'role': 'tool', 'tool_call_id': call.id, 'content': result}"),
    Case(setup=_messages(("call_b", "get_weather", WEATHER),
                         ("call_a", "get_weather", '{"city": "London", "date": "2025-03-15"}')),
         label="tool_messages([call_b: get_weather Beijing, call_a: get_weather London], tools)",
         expect=lambda v: _shaped(v, ["call_b", "call_a"]) and "Beijing" in v[0]["content"]
         and "London" in v[1]["content"],
         says="two tool messages, in the calls' order, ids call_b then call_a, each with its own result",
         hint="answer every call of the reply, in order, each with its own call.id (not an index)"),
    Case(setup=_messages(("call_x", "get_weather", '{"city": "Beijing"')),
         label="tool_messages([call_x: get_weather '{\"city\": \"Beijing\"'], tools)  # not JSON",
         expect=lambda v: _shaped(v, ["call_x"]) and v[0]["content"].startswith("Error")
         and "JSON" in v[0]["content"],
         says="one tool message for call_x whose content starts with 'Error' and mentions JSON",
         hint="bad arguments are the model's mistake: put validate_arguments' problem in the "
              "content ('Error: ...'), never raise"),
    Case(setup=_messages(("call_u", "weather_api", WEATHER)),
         label="tool_messages([call_u: weather_api ...], tools)  # no such tool",
         expect=lambda v: _shaped(v, ["call_u"]) and v[0]["content"].startswith("Error")
         and "get_weather" in v[0]["content"],
         says="one tool message for call_u whose content names the available tools",
         hint="an unknown tool: tools.run(name, {}) returns 'Error: unknown tool ... Available tools'"),
    Case(setup=_messages(("call_r", "repeat", '{"word": "hi", "times": "three"}')),
         label="tool_messages([call_r: repeat {'word': 'hi', 'times': 'three'}], tools)",
         expect=lambda v: _shaped(v, ["call_r"]) and v[0]["content"].startswith("Error")
         and "times" in v[0]["content"] and not RAN,
         says="an 'Error: ...' message naming 'times', and the tool never called",
         hint="validate first (validate_arguments) and run the tool only when there is no problem"),
    Case(setup=_messages(("call_s", "repeat", json.dumps('{"word": "hi", "times": 2}'))),
         label="tool_messages([call_s: repeat, arguments encoded twice], tools)",
         expect=lambda v: _shaped(v, ["call_s"]) and v[0]["content"] == "hi hi",
         says="one tool message for call_s with content 'hi hi'",
         hint="run the tool with the arguments validate_arguments returned (decoded)"),
    Case(setup=_messages(("call_d", "add_days", '{"date": "14/03/2025", "days": 50}')),
         label="tool_messages([call_d: add_days {'date': '14/03/2025', 'days': 50}], tools)",
         expect=lambda v: _shaped(v, ["call_d"]) and v[0]["content"].startswith("Error")
         and "YYYY-MM-DD" in v[0]["content"],
         says="one tool message for call_d with the tool's own error (the date must be YYYY-MM-DD)",
         hint="run the tool through tools.run, which turns the tool's exception into 'Error: ...'"),
    Case(setup=_mock_calls, label="tool_messages(<the two tool calls of a MockLLM reply>, tools)",
         expect=lambda v: _shaped(v, ["call_mock_1", "call_mock_2"]) and v[1]["content"] == "66",
         says="two tool messages with the reply's ids call_mock_1 and call_mock_2, the second '66'",
         hint="read the SDK's objects: call.id, call.function.name, call.function.arguments"),
    Case(setup=_messages(), label="tool_messages([], tools)", expected=[],
         hint="no calls, no messages: return an empty list"),
)

EXERCISES = [
    Exercise(name="validate_arguments", lesson="06", reference="solutions.arguments:validate_arguments",
             cases=VALIDATE_CASES,
             causes=(Cause(lambda exc: isinstance(exc, ValueError) and "Expecting" in str(exc),
                           "raises on arguments that are not JSON: catch json.JSONDecodeError and "
                           "return ({}, 'the arguments are not valid JSON: ...')", raised=True),
                     Cause(lambda v: not (isinstance(v, tuple) and len(v) == 2),
                           "returns something that is not a pair: return (arguments, None) or "
                           "({}, problem)"))),
    Exercise(name="tool_messages", lesson="06", reference="solutions.structured:tool_messages",
             cases=MESSAGE_CASES,
             causes=(Cause(lambda exc: isinstance(exc, ValueError) and "Expecting" in str(exc),
                           "raises on arguments that are not JSON: validate_arguments returns the "
                           "problem; put it in the tool message's content", raised=True),
                     Cause(lambda v: not isinstance(v, list),
                           "returns something that is not a list: return one dict per call"),
                     Cause(lambda v: any(isinstance(m, dict) and "tool_call_id" not in m for m in v),
                           "a message without 'tool_call_id': the API refuses a tool message that does "
                           "not say which call it answers; use call.id"),
                     Cause(lambda v: any(isinstance(m, dict) and m.get("role") != "tool" for m in v),
                           "a message whose role is not 'tool': the results of structured calls go "
                           "back as {'role': 'tool', ...}"))),
]
