"""Cases for lesson 06 (Structured tool calls): validate_arguments and tool_messages."""
from __future__ import annotations

import copy
import json
from types import SimpleNamespace
from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise

WEATHER = '{"city": "Beijing", "date": "2025-03-15"}'
RAN: list[dict] = []
"""The calls the `repeat` tool of the tool_messages cases received (each case starts it empty)."""
CALL_IDS: list[str] = []
"""The ids of the calls the current tool_messages case passes (set by its setup)."""


def _tool(name: str) -> Callable[[], Any]:
    """A factory of one of the world's tools (imported in the case, not at import time)."""
    def make() -> Any:
        from solutions.tools import world_tools

        return world_tools()[name]
    return make


def _custom(properties: dict, required: tuple[str, ...], **schema: Any) -> Callable[[], Any]:
    """A factory of a tool `settings` with the given schema (for constraints isinstance cannot see)."""
    def make() -> Any:
        from solutions.tools import Tool

        return Tool("settings", 'changes the settings. Example: {"unit": "celsius"}',
                    {"type": "object", "properties": properties, "required": list(required), **schema},
                    lambda **kwargs: "ok")
    return make


SCHEMA_SEEN: list[Any] = []
"""The schema of the tool the last `_untouched` case built, copied before the call, and the tool."""


def _untouched(tool: Callable[[], Any]) -> Callable[[], Any]:
    """A factory of `tool` that keeps a copy of its schema, to see afterwards that nothing changed it."""
    def make() -> Any:
        built = tool()
        SCHEMA_SEEN[:] = [copy.deepcopy(built.parameters), built]
        return built
    return make


def _schema_kept(test: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """`test`, and the schema of the tool the case built is as it was before the call."""
    return lambda value: test(value) and SCHEMA_SEEN[1].parameters == SCHEMA_SEEN[0]


VALIDATING: list[Any] = []
"""The tool and the arguments of the validate_arguments case being run (set by its setup)."""


def _validate(tool: Callable[[], Any], arguments: str, label: str, test: Callable[[Any], bool],
              says: str, hint: str, shown: str = "") -> Case:
    """A validate_arguments case: the tool is built lazily, the arguments are JSON text."""
    def setup() -> tuple[tuple, dict]:
        VALIDATING[:] = [tool(), arguments]
        return (VALIDATING[0], arguments), {}
    return Case(setup=setup, label=f"validate_arguments({label}, {shown or repr(arguments)})",
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
_NESTED = {"where": {"type": "object", "properties": {"city": {"type": "string"},
                                                      "country": {"type": "string"}}}}
_DATE = {"when": {"type": "string", "format": "date", "description": "a date as YYYY-MM-DD"}}
_UNIT = {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}
DEEP = '{"where": ' + "[" * 3000 + "]" * 3000 + "}"
"""Arguments nested deeper than json.loads can read (it raises RecursionError)."""
VALIDATE_CASES = (
    _validate(_tool("get_weather"), WEATHER, "get_weather", _accepted({"city": "Beijing", "date": "2025-03-15"}),
              "({'city': 'Beijing', 'date': '2025-03-15'}, None)",
              "decode the JSON text and return the object (a dict) with None when it fits the schema"),
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
              "a JSON array is not an object, even one whose items could be read in the parameters' "
              "order: refuse it, saying that the arguments must be a JSON object"),
    _validate(_tool("get_current_date"), "null", "get_current_date", _refused("object"),
              "({}, a message saying a JSON object is needed)",
              "null is JSON but not an object: refuse it like a list or a number "
              "(`json.loads(text) or {}` lets null, 0, false and [] through as no arguments)"),
    _validate(_tool("get_weather"), json.dumps(WEATHER), "get_weather",
              _accepted({"city": "Beijing", "date": "2025-03-15"}),
              "({'city': 'Beijing', 'date': '2025-03-15'}, None): the JSON string decoded again",
              "some servers encode the arguments twice: when json.loads gives a str, decode that str"),
    _validate(_tool("get_weather"), '{"city": "Beijing", "date": "2025-03-15", "units": "metric"}',
              "get_weather", _refused("units"), "({}, a message naming the unexpected 'units')",
              "the function takes no 'units': validate against the schema with "
              "additionalProperties set to False (unless the schema sets it)"),
    _validate(_custom(_UNIT, ("unit",), additionalProperties=True), '{"unit": "celsius", "note": "hi"}',
              "settings, whose schema says additionalProperties: true", _accepted({"unit": "celsius", "note": "hi"}),
              "({'unit': 'celsius', 'note': 'hi'}, None): this schema allows extra arguments",
              "too strict: this schema says \"additionalProperties\": true, so 'note' is allowed; "
              "close the schema only where it says nothing, {'additionalProperties': False, "
              "**tool.parameters}, so that the schema's own setting wins"),
    _validate(_custom(_UNIT, ("unit",)), '{"unit": "kelvin"}', "settings", _refused("unit"),
              "({}, a message naming 'unit', which must be celsius or fahrenheit)",
              "the schema's enum lists the allowed values: validate with jsonschema, not isinstance"),
    _validate(_custom({"count": {"type": "integer", "minimum": 1}}, ("count",)), '{"count": 0}',
              "settings", _refused("count"), "({}, a message naming 'count', which must be at least 1)",
              "the schema's minimum is part of the contract: validate with jsonschema, not isinstance"),
    _validate(_custom(_NESTED, ("where",)), '{"where": {"city": 5}}', "settings", _refused("city"),
              "({}, a message naming 'city' inside 'where')", NAME_IT),
    _validate(_custom(_NESTED, ("where",)), '{"where": {"city": 5, "country": 7}}', "settings",
              _refused("city", "country"), "({}, one message naming both 'city' and 'country')",
              "report every error, not only the first: collect all of validator.iter_errors(value) "
              "and join them (jsonschema.validate and best_match give one error)"),
    _validate(_custom(_DATE, ("when",)), '{"when": "2025-03-15"}', "settings, 'when' has format date",
              _accepted({"when": "2025-03-15"}), "({'when': '2025-03-15'}, None)",
              "a date written YYYY-MM-DD fits \"format\": \"date\": let jsonschema's format "
              "checker decide"),
    _validate(_custom(_DATE, ("when",)), '{"when": "tomorrow"}', "settings, 'when' has format date",
              _refused("when"), "({}, a message naming 'when': 'tomorrow' is not a date)",
              "jsonschema checks \"format\" only when the validator has a format checker: "
              "Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER), "
              "as schema_validator(tool.parameters) builds it"),
    _validate(_untouched(_custom(_UNIT, ("unit",))), '{"unit": "celsius", "colour": "red"}',
              "settings; its schema is compared afterwards with a copy taken before",
              _schema_kept(_refused("colour")),
              "({}, a message naming 'colour'), and tool.parameters as it was",
              "tool.parameters was changed: it is the schema tools.schemas() sends the model with every "
              "request; close a copy, {'additionalProperties': False, **tool.parameters}"),
    _validate(_tool("get_current_date"), "", "get_current_date", _accepted({}), "({}, None)",
              "some servers send \"\" as the arguments of a call without any: read it as {}, as "
              "decode_arguments does (json.loads('') raises)"),
    _validate(_custom(_NESTED, ("where",)), DEEP, "settings", _refused(),
              "({}, a message saying the arguments are nested too deeply), not an exception",
              "JSON nested thousands deep makes json.loads raise RecursionError, which is not a "
              "ValueError: catch it too (decode_arguments does); validate_arguments never raises",
              shown=f"<{len(DEEP):,} characters: [[[[...]]]] nested 3,000 deep>"),
    _validate(_tool("get_current_date"), "{}", "get_current_date", _accepted({}), "({}, None)",
              "an empty object is valid for a tool without parameters"),
)


def _call(call_id: str, name: str, arguments: str) -> SimpleNamespace:
    """A tool call shaped like the SDK's: .id, .type, .function.name, .function.arguments."""
    return SimpleNamespace(id=call_id, type="function",
                           function=SimpleNamespace(name=name, arguments=arguments))


def _registry(today: str | None = None) -> Any:
    """The world's tools plus `repeat`, which records every call it receives in RAN; with `today`,
    a get_current_date that says that date instead of the world's."""
    from solutions.tools import Tool, ToolRegistry, world_tools

    def repeat(word: str, times: int) -> str:
        RAN.append({"word": word, "times": times})
        return " ".join([word] * times) if isinstance(times, int) else f"{word} x {times}"

    repeat_tool = Tool("repeat", 'repeats a word. Example: {"word": "hi", "times": 2}',
                       {"type": "object", "properties": {"word": {"type": "string"},
                                                         "times": {"type": "integer"}},
                        "required": ["word", "times"]}, repeat)
    tools = [*world_tools(), repeat_tool]
    if today is not None:
        clock = tools[0]
        tools[0] = Tool(clock.name, clock.description, clock.parameters, lambda: today)
    return ToolRegistry(tools)


GIVEN: list[Any] = []
"""The tool_calls list the current tool_messages case passes, and what it held (id, name, arguments)."""


def _messages(*calls: tuple[str, str, str], today: str | None = None) -> Callable[[], tuple[tuple, dict]]:
    """Setup: tool_messages([calls], the registry), with RAN emptied."""
    def setup() -> tuple[tuple, dict]:
        RAN.clear()
        CALL_IDS[:] = [call[0] for call in calls]
        given = [_call(*call) for call in calls]
        GIVEN[:] = [given, list(calls)]
        return (given, _registry(today)), {}
    return setup


def _calls_kept(value: Any) -> bool:
    """True when the case's tool_calls list holds the same calls, unchanged, after the call."""
    given, held = GIVEN
    return [(call.id, call.function.name, call.function.arguments) for call in given] == held


def _mock_calls() -> tuple[tuple, dict]:
    """Setup: the tool calls of a real (scripted) MockLLM reply, as the SDK's objects."""
    from mockllm import MockLLM

    RAN.clear()
    reply = MockLLM.from_script([{"tool_calls": [
        {"id": "call_mock_1", "name": "get_current_date", "arguments": {}},
        {"id": "call_mock_2", "name": "calculator", "arguments": {"expression": "(17 + 5) * 3"}}]}])
    message = reply.chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": "Two calls, please."}]).choices[0].message
    CALL_IDS[:] = [call.id for call in message.tool_calls]
    return (message.tool_calls, _registry()), {}


def _shaped(value: Any, ids: list[str]) -> bool:
    """A list of {'role': 'tool', 'tool_call_id': id, 'content': str}, one per id, in order (a
    'name' may come too: older OpenAI examples send the function's name, and the API accepts it)."""
    return (isinstance(value, list) and len(value) == len(ids)
            and all(isinstance(m, dict) and {"role", "tool_call_id", "content"} <= set(m) <= _KEYS
                    and m["role"] == "tool" and m["tool_call_id"] == i and isinstance(m["content"], str)
                    for m, i in zip(value, ids)))


def _contents(value: Any) -> list[str]:
    """The contents of the messages (for predicates that already checked the shape)."""
    return [m["content"] for m in value]


_KEYS = {"role", "tool_call_id", "content", "name"}
MESSAGE_CASES = (
    Case(setup=_messages(("call_1", "get_current_date", "{}")),
         label="tool_messages([call_1: get_current_date {}], tools)",
         expect=lambda v: _shaped(v, ["call_1"]) and _contents(v) == ["2025-03-14"],
         says="[{'role': 'tool', 'tool_call_id': 'call_1', 'content': '2025-03-14'}]",
         hint="one message per call: {'role': 'tool', 'tool_call_id': call.id, 'content': result}"),
    Case(setup=_messages(("call_b", "get_weather", WEATHER),
                         ("call_a", "get_weather", '{"city": "London", "date": "2025-03-15"}')),
         label="tool_messages([call_b: get_weather Beijing, call_a: get_weather London], tools)",
         expect=lambda v: _shaped(v, ["call_b", "call_a"]) and "Beijing" in v[0]["content"]
         and "London" in v[1]["content"],
         says="two tool messages, in the calls' order, ids call_b then call_a, each with its own result",
         hint="answer every call of the reply, in order, each with its own call.id (not an index) "
              "and its own result: two calls of one tool are two calls"),
    Case(setup=_messages(("call_w", "get_weather", WEATHER), ("call_c", "calculator", '{"expression": "2 + 2"}')),
         label="tool_messages([call_w: get_weather Beijing, call_c: calculator 2 + 2], tools)",
         expect=lambda v: _shaped(v, ["call_w", "call_c"]) and "Beijing" in v[0]["content"]
         and v[1]["content"] == "4",
         says="call_w with the Beijing weather, then call_c with '4'",
         hint="each message pairs a call's id with that same call's result, in the calls' order: "
              "build both from one call (do not sort or group the calls, then pair them by position)"),
    Case(setup=_messages(("call_p", "get_current_date", "{}"), ("call_q", "get_current_date", "{}")),
         label="tool_messages([call_p: get_current_date {}, call_q: get_current_date {}], tools)",
         expect=lambda v: _shaped(v, ["call_p", "call_q"]) and _contents(v) == ["2025-03-14"] * 2,
         says="two tool messages, call_p and call_q, each '2025-03-14'",
         hint="two identical calls are still two calls: every id needs its own tool message, or the "
              "next request is refused (lesson 05's repeat guard belongs in the loop, not here)"),
    Case(setup=_messages(("call_t", "get_current_date", "{}"), today="2031-07-01"),
         label="tool_messages([call_t: get_current_date {}], <tools whose get_current_date says 2031-07-01>)",
         expect=lambda v: _shaped(v, ["call_t"]) and _contents(v) == ["2031-07-01"],
         says="[{'role': 'tool', 'tool_call_id': 'call_t', 'content': '2031-07-01'}]",
         hint="run every call on `tools`, the registry given: this one's get_current_date says "
              "2031-07-01; a result kept from an earlier call (a cache of results) answers from "
              "another registry, or from a world that has changed since"),
    Case(setup=_messages(("call_k", "repeat", '{"word":"hi","times":2}'),
                         ("call_j", "repeat", json.dumps('{"word": "ho", "times": 1}'))),
         label="tool_messages([call_k: repeat compact JSON, call_j: repeat encoded twice], tools)"
               "  # the calls are compared afterwards with a copy",
         expect=lambda v: _shaped(v, ["call_k", "call_j"]) and _calls_kept(v),
         says="a message for call_k and one for call_j, and the tool_calls list as it was given",
         hint="tool_messages only reads the calls: it emptied the caller's list (pop) or rewrote "
              "a call's arguments; run_structured_step reads the same calls again afterwards (the "
              "trace's calls and their arguments, as sent), so leave them as they are"),
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
    Case(setup=_messages(), label="tool_messages([], tools)", expect=lambda v: v == [], says="[]",
         hint="no calls, no messages: return an empty list"),
)


def _pair(value: Any) -> bool:
    """The value is a pair (arguments, problem)."""
    return isinstance(value, tuple) and len(value) == 2


_CASE_NAMES = {"unit", "count", "where", "city", "country", "when", "date", "days"}
"""The argument names the validate_arguments cases' schemas use."""


def _names_in(schema: Any) -> set[str]:
    """Every property name of a schema, nested ones included."""
    if not isinstance(schema, dict):
        return set()
    properties = schema.get("properties", {})
    return set(properties).union(*(_names_in(spec) for spec in properties.values()))


def _other_schema(value: Any) -> bool:
    """True when the problem names, quoted, an argument of another case's schema that neither the
    current tool's schema nor the current arguments hold."""
    if not (_pair(value) and isinstance(value[1], str) and VALIDATING):
        return False
    tool, arguments = VALIDATING
    own = _names_in(tool.parameters) | {word for word in _CASE_NAMES if f'"{word}"' in arguments}
    return any(f"'{name}'" in value[1] for name in _CASE_NAMES - own)


VALIDATE_CAUSES = (
    Cause(lambda exc: isinstance(exc, ValueError) and "Expecting" in str(exc),
          "raises on arguments that are not JSON: catch json.JSONDecodeError and "
          "return ({}, 'the arguments are not valid JSON: ...')", raised=True),
    Cause(lambda exc: isinstance(exc, RecursionError),
          "raises RecursionError on JSON nested thousands deep: json.loads raises it, not a "
          "ValueError; catch it too (decode_arguments does) and return ({}, problem)", raised=True),
    Cause(lambda exc: type(exc).__name__ == "ValidationError",
          "raises jsonschema's ValidationError (jsonschema.validate raises at the first error): "
          "collect validator.iter_errors(value) and return ({}, problem) instead", raised=True),
    Cause(lambda exc: True,
          "raises where it must return: validate_arguments never raises on what the model sent; "
          "return ({}, problem) so the model can read what is wrong", raised=True),
    Cause(lambda v: not _pair(v),
          "returns something that is not a pair: return (arguments, None) or ({}, problem)"),
    Cause(lambda v: isinstance(v[0], str),
          "returns the JSON text, not the decoded object: return the dict json.loads gave"),
    Cause(lambda v: isinstance(v[1], (list, tuple)),
          "the problem is a list: return one str, the model reads text (join the messages, "
          "'; '.join(...))"),
    Cause(_other_schema,
          "the message names an argument this tool's schema does not have: a validator kept from "
          "an earlier call (cached by tool.name) checked another tool's schema; two tools may share a "
          "name (lesson 06 makes a stricter get_weather), so build it from this tool.parameters "
          "(schema_validator(tool.parameters) caches by the schema itself)"),
    Cause(lambda v: v[1] == "",
          "returns '' for no problem: return (arguments, None); None is what says the call may run"),
    Cause(lambda v: isinstance(v[1], str) and v[0] != {},
          "returns the arguments together with the problem: return ({}, problem) when there is "
          "one, so that nothing can run on them"),
)
MESSAGES_CAUSES = (
    Cause(lambda exc: isinstance(exc, ValueError) and "Expecting" in str(exc),
          "raises on arguments that are not JSON: validate_arguments returns the "
          "problem; put it in the tool message's content", raised=True),
    Cause(lambda v: not isinstance(v, list),
          "returns something that is not a list (a generator can be read only once): return a "
          "list, one dict per call"),
    Cause(lambda v: any(isinstance(m, dict) and m.get("role") == "function" for m in v),
          "a message whose role is 'function', the old function-calling API: answer each tool call "
          "with {'role': 'tool', 'tool_call_id': call.id, 'content': ...}"),
    Cause(lambda v: any(isinstance(m, dict) and "tool_call_id" not in m for m in v),
          "a message without 'tool_call_id': the API refuses a tool message that does "
          "not say which call it answers; use call.id"),
    Cause(lambda v: any(isinstance(m, dict) and m.get("tool_call_id") not in CALL_IDS for m in v),
          "a tool_call_id that is not the id of any call: answer each call with its own call.id, "
          "the id the model gave it (not its position or a name)"),
    Cause(lambda v: any(isinstance(m, dict) and m.get("role") != "tool" for m in v),
          "a message whose role is not 'tool': the results of structured calls go "
          "back as {'role': 'tool', ...}"),
    Cause(lambda v: any(isinstance(m, dict) and not isinstance(m.get("content"), str) for m in v),
          "a message whose content is not a string: the API takes text; send the result, or "
          "'Error: ' and the problem, as a str"),
)

EXERCISES = [
    Exercise(name="validate_arguments", lesson="06", reference="solutions.arguments:validate_arguments",
             cases=VALIDATE_CASES, causes=VALIDATE_CAUSES),
    Exercise(name="tool_messages", lesson="06", reference="solutions.structured:tool_messages",
             cases=MESSAGE_CASES, causes=MESSAGES_CAUSES),
]
