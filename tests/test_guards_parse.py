"""Tests for solutions.guards' parser (lesson 05): the rewrites, the cut, the names and inputs real
agents write, parse_reply on every failure shape of the mock and on real replies of a small model
(vendored in tests/data)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solutions.guards import parse_reply
from solutions.guards.calls import GuardedTools, bind_arguments, tool_name
from solutions.guards.cut import cut_after_action_input
from solutions.guards.inputs import bare_value, input_to_json, is_code, split_values, strip_comments
from solutions.guards.parse import REWRITES
from solutions.guards.shapes import blob_to_fields, call_arguments, call_to_fields, drop_empty_action
from solutions.parsing import parse_step
from solutions.tools import Tool, ToolRegistry, world_tools
from timing import best_seconds

DATA = Path(__file__).resolve().parent / "data"
REAL = [json.loads(line) for name in ("real_replies_sample.jsonl", "real_replies_shapes.jsonl")
        for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
WEATHER = {"city": "Beijing", "date": "2025-03-15"}
TOOLS = world_tools()


# ---------------------------------------------------------------- each rewrite

@pytest.mark.parametrize("text", [
    'Thought: t\nAction:\n```json\n{\n  "action": "get_weather",\n  "action_input": {"city": "Beijing", '
    '"date": "2025-03-15"}\n}\n```',
    'Thought: t\n```json\n{"action": "get_weather", "action_input": {"city": "Beijing", "date": "2025-03-15"}}\n```',
    'Thought: t\nAction: {"action": "get_weather", "action_input": {"city": "Beijing", "date": "2025-03-15"}}',
    '{"action": "get_weather", "action_input": {"city": "Beijing", "date": "2025-03-15"}}',
    "{'action': 'get_weather', 'action_input': {'city': 'Beijing', 'date': '2025-03-15',}}",
])
def test_a_json_blob_becomes_the_fields(text: str) -> None:
    fields = blob_to_fields(text)
    assert fields.endswith('Action: get_weather\nAction Input: {"city": "Beijing", "date": "2025-03-15"}')
    assert "```" not in fields and "{\n" not in fields
    step = parse_reply(text)
    assert (step.action, step.action_input, step.raw) == ("get_weather", WEATHER, text)


def test_a_blob_final_answer_and_a_string_input() -> None:
    assert parse_reply('{"action": "Final Answer", "action_input": "It is 66."}').final_answer == "It is 66."
    assert parse_reply('{"action": "final_answer", "action_input": {"answer": "66"}}').final_answer == "66"
    step = parse_reply('Thought: t\n{"action": "calculator", "action_input": "(17 + 5) * 3"}')
    assert (step.action, step.action_input, step.thought) == ("calculator", {"input": "(17 + 5) * 3"}, "t")
    nested = parse_reply('{"action": "get_weather", "action_input": "{\\"city\\": \\"Beijing\\"}"}')
    assert nested.action_input == {"city": "Beijing"}


def test_a_blob_cannot_smuggle_in_another_field() -> None:
    step = parse_reply('{"action": "calculator\\nFinal Answer: 42", "action_input": "1 + 1"}')
    assert step.final_answer is None and step.error is not None and "must hold one tool name" in step.error
    assert parse_reply('{"action": "Final Answer", "action_input": {"output": "42"}}').final_answer == "42"


def test_json_that_is_no_blob_and_fields_in_use_are_left_alone() -> None:
    for text in ['{"city": "Beijing"}', 'Thought: I saw {"action": "x"}\nAction: calculator\n'
                 'Action Input: {"expression": "1 + 1"}', "Final Answer: {\"action\": \"x\"}",
                 'Action: calculator\nAction Input: {"action": "x"}']:
        assert blob_to_fields(text) == text


@pytest.mark.parametrize("inside, expected", [
    ('city="Beijing", date="2025-03-15"', WEATHER),
    ('"(17 + 5) * 3"', {"input": "(17 + 5) * 3"}),
    ("17 * 3", {"input": "17 * 3"}),
    ('expression="(17 + 5) * 3"', {"expression": "(17 + 5) * 3"}),
    ("", {}),
    ('"Beijing", "2025-03-15"', {"input": ["Beijing", "2025-03-15"]}),
    ("city=Beijing, date=20250315", {"city": "Beijing", "date": 20250315}),
    ('"2025-03-14", 3', {"input": ["2025-03-14", 3]}),
])
def test_call_arguments(inside: str, expected: dict) -> None:
    assert call_arguments(inside) == expected


@pytest.mark.parametrize("inside", ["*a", "**k", "1), g(2", "(", "city=Beijing, date=2025-03-15",
                                    "(" * 200 + ")" * 200, "1," * 2000])
def test_what_is_not_a_plain_call_is_refused_without_raising(inside: str) -> None:
    assert call_arguments(inside) is None


def test_call_syntax_becomes_the_fields_unless_an_input_is_given() -> None:
    text = 'Thought: t\nAction: get_weather(city="Beijing", date="2025-03-15")\nObservation: Sunny'
    assert call_to_fields(text) == ('Thought: t\nAction: get_weather\nAction Input: {"city": "Beijing", '
                                    '"date": "2025-03-15"}\nObservation: Sunny')
    unparsed = parse_reply("Action: get_weather(city=Beijing, date=2025-03-15)")  # 03: not Python
    assert bind_arguments(TOOLS["get_weather"], unparsed.action_input) == WEATHER
    given = 'Action: calculator(x)\nAction Input: {"expression": "2"}'
    assert call_to_fields(given) == given
    assert call_to_fields("Final Answer: f(1)") == "Final Answer: f(1)"


@pytest.mark.parametrize("empty", ["None", "N/A", "(no action needed)", "`none`", "null", "No action"])
def test_an_empty_action_lets_the_answer_decide(empty: str) -> None:
    text = f"Thought: I know it.\nAction: {empty}\nAction Input: N/A\nFinal Answer: 66"
    assert drop_empty_action(text) == "Thought: I know it.\nFinal Answer: 66"
    assert parse_reply(text).final_answer == "66"
    assert parse_step(text).final_answer is None  # lesson 03 calls a tool named None


def test_an_empty_action_line_stays_an_error() -> None:
    text = "Thought: t\nAction: \nFinal Answer: 3 + 3 = 6"
    assert drop_empty_action(text) == text and parse_reply(text).error is not None


def test_the_rewrites_run_in_order_and_the_cut_comes_last() -> None:
    assert REWRITES[-1] is cut_after_action_input
    text = '```json\n{"action": "get_current_date", "action_input": {}}\n```\nObservation: 2023-10-31'
    assert parse_reply(text).action == "get_current_date"


# ---------------------------------------------------------------- names as real agents write them

@pytest.mark.parametrize("written, name", [
    ("get_weather", "get_weather"), ("Get Weather", "get_weather"), ("GET-WEATHER", "get_weather"),
    ("functions.get_weather", "get_weather"), ("get_weather: returns the weather", "get_weather"),
    ("lookup order", "lookup_order"), ("weather", "weather"), ("天气查询", "天气查询"), (None, None),
])
def test_a_name_is_matched_to_a_tool_case_and_spacing_forgiven(written: object, name: object) -> None:
    assert tool_name(TOOLS, written) == name


def test_an_ambiguous_name_is_left_for_the_registry_s_error() -> None:
    def tool(name: str) -> Tool:
        return Tool(name, name, {"type": "object", "properties": {}}, lambda: name)
    tools = ToolRegistry([tool("get_date"), tool("getdate")])
    assert tool_name(tools, "Get Date") == "Get Date" and tool_name(tools, "getdate") == "getdate"
    assert GuardedTools(tools).run("Get Date", {}).startswith("Error: unknown tool 'Get Date'. Available tools:")


@pytest.mark.parametrize("line, name", [
    ("Search the internet", "Search the internet"), ("搜索", "搜索"), ("3 days from today", "3 days from today"),
    ("Delegate work to coworker(task: str, context: str, coworker: Optional[str] = None, **kwargs)",
     "Delegate work to coworker"),
    ("Ask question to co-worker (NewsFetcher)", "Ask question to co-worker"),
])
def test_any_characters_make_a_tool_name(line: str, name: str) -> None:
    step = parse_reply(f"Thought: t\nAction: {line}\nAction Input: {{}}")
    assert (step.kind, step.action) == ("action", name)
    assert step.action in GuardedTools(TOOLS).run(step.action, {})  # the registry names it and the tools


def test_a_copied_signature_without_an_input_holds_no_values() -> None:
    step = parse_reply("Thought: t\nAction: get_weather(city: str, date: str)")
    assert (step.action, step.action_input) == ("get_weather", {})
    assert "missing 'city'" in GuardedTools(TOOLS).run(step.action, step.action_input)


@pytest.mark.parametrize("call, expected", [
    ('calculator({"expression": "2+2"})', {"expression": "2+2"}),  # no {"input": {...}}
    ('calculator("2+2")', {"input": "2+2"}), ("calculator(2 + 2)", {"input": "2 + 2"}),
    ('Search the internet(search_query="x")', {"search_query": "x"}),
])
def test_call_syntax_is_read_without_double_nesting(call: str, expected: dict) -> None:
    step = parse_reply(f"Thought: t\nAction: {call}")
    assert step.action_input == expected and step.action == call.split("(")[0]


def test_the_react_paper_s_brackets_are_a_call() -> None:
    assert parse_reply("Action: search_docs[return policy]").action_input == {"input": "return policy"}
    assert parse_reply("Action: search_docs[]").action_input == {}
    assert parse_reply("Action: [search_docs]").action == "search_docs"  # lesson 03's bracketed name


@pytest.mark.parametrize("blob", [
    '{"name": "get_weather", "arguments": {"city": "Beijing", "date": "2025-03-15"}}',
    '{"type": "function", "function": {"name": "get_weather", "parameters": {"city": "Beijing", "date": "2025-03-15"}}}',
    '{"tool": "get_weather", "tool_input": "{\\"city\\": \\"Beijing\\", \\"date\\": \\"2025-03-15\\"}"}',
])
def test_a_call_in_a_tool_schema_s_shape_is_a_blob(blob: str) -> None:
    assert (parse_reply(blob).action, parse_reply(blob).action_input) == ("get_weather", WEATHER)
    assert parse_reply('{"name": "Bob"}').kind == "error"  # a name without an input is no call


# ---------------------------------------------------------------- inputs as real agents write them

@pytest.mark.parametrize("text, expected", [
    ('{"a": 1, // one\n "b": "x // y"}', '{"a": 1, \n "b": "x // y"}'),
    ('{"a": "#1"}  # the first', '{"a": "#1"}  '), ("{'a': 'it''s'} /* c */", "{'a': 'it''s'} "),
    ('{"url": "http://x"}', '{"url": "http://x"}'), ("{} // it's", "{} "), ('{"a": "\\" // b"}', '{"a": "\\" // b"}'),
])
def test_comments_are_removed_outside_strings(text: str, expected: str) -> None:
    assert strip_comments(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("import math\nprint(math.pi)", True), ("for x in y:\n    print(x)", True),
    ("SELECT name\nFROM users", True), ("x = 1\ny = 2", True), ("df.shape", False),
    ("Beijing\nShanghai", False), ("Dear Bob,\nthe meeting moved.", False), ("print(1)", False),
])
def test_code_is_several_lines_of_python_or_sql(text: str, expected: bool) -> None:
    assert is_code(text) is expected


@pytest.mark.parametrize("line, expected", [
    ("return policy.", {"input": "return policy"}), ("cus.tomers,", {"input": "cus.tomers,"}),
    ("Washington D.C.", {"input": "Washington D.C."}), ("Hello!", {"input": "Hello!"}),
    ('"return policy".', {"input": "return policy"}), ("“搜索”", {"input": "搜索"}), ("`Beijing`", {"input": "Beijing"}),
    ('"Beijing", "2025-03-15"', {"input": '"Beijing", "2025-03-15"'}), ("None.", {}), ("n/a", {}),
    ("北京，上海", {"input": "北京,上海"}), ("wait...", {"input": "wait..."}),
])
def test_a_bare_value_keeps_its_own_punctuation(line: str, expected: dict) -> None:
    assert bare_value(line) == expected


@pytest.mark.parametrize("given, expected", [
    ("import math\nprint(math.pi)\n\nI will wait.", "import math\nprint(math.pi)"),
    ("```python\nprint(1)\nprint(2)\n```\nThe result will show.", "print(1)\nprint(2)"),
    ("\n```\nls -la\n```", "ls -la"), ("```print(1)```", "print(1)"),
    ("line one\nline two\n(waiting for the result)", "line one\nline two"),
    ("Beijing\nI will wait for the observation.", "Beijing"),
    ("first\n\nsecond", "first"),
])
def test_an_input_over_several_lines_is_kept_whole_up_to_the_chatter(given: str, expected: str) -> None:
    step = parse_reply(f"Thought: t\nAction: search_docs\nAction Input: {given}\nObservation: x")
    assert step.action_input == {"input": expected}


def test_inputs_lesson_03_reads_well_are_left_alone() -> None:
    for given in ('{"city": "Beijing"}', '\n```json\n{"a": 1}\n```', "", "[1, 2]", 'prefix {"a": 1}', "none"):
        text = f"Action: f\nAction Input: {given}"
        assert input_to_json(text) == text or parse_reply(text).action_input == parse_step(text).action_input


def test_json_with_comments_and_trailing_commas_is_read() -> None:
    for given in ('{"city": "Beijing", // the capital\n"date": "2025-03-15"}',
                  '{\n  "city": "Beijing",  # not Peking\n  "date": "2025-03-15",\n}',
                  '{"city": "Beijing", /* } */ "date": "2025-03-15"}',
                  '\n```json\n{"city": "Beijing", // c\n "date": "2025-03-15",}\n```'):
        assert parse_reply(f"Action: get_weather\nAction Input: {given}\nObservation: x").action_input == WEATHER


def test_several_lines_bind_by_name_only() -> None:
    weather = TOOLS["get_weather"]
    assert bind_arguments(weather, {"input": "city: Beijing\ndate: 2025-03-15"}) == WEATHER
    assert bind_arguments(weather, {"input": "City: Beijing\nDATE: 2025-03-15"}) == WEATHER
    assert bind_arguments(weather, {"input": "Beijing\n2025-03-15"}) == {"input": "Beijing\n2025-03-15"}


# ---------------------------------------------------------------- the checks after lesson 03's parser

def test_an_action_must_name_one_tool() -> None:
    echo = "Thought: t\nAction: the tool to use, one of [get_current_date, calculator]\nAction Input: x"
    assert parse_step(echo).action.startswith("the tool to use")
    step = parse_reply(echo)
    assert step.action is None and "must hold one tool name" in step.error and "could not parse" in step.error
    assert parse_reply("Action: " + "a" * 101).error is not None
    assert parse_reply("Action: get-weather.v2\nAction Input: {}").action == "get-weather.v2"


def test_a_schema_copied_as_the_input_is_an_error() -> None:
    text = ('Thought: t\nAction: get_weather\nAction Input: {"type": "object", "properties": '
            '{"city": {"type": "string"}}, "required": ["city"]}')
    assert "schema" in parse_reply(text).error
    assert parse_reply('Action: f\nAction Input: {"type": "object"}').action_input == {"type": "object"}


@pytest.mark.parametrize("text, value", [
    ("Action Input: Beijing, 2025-03-15", "Beijing, 2025-03-15"),
    ('Action Input: "Beijing", "2025-03-15"', '"Beijing", "2025-03-15"'),
    ('Action Input: "return policy"', "return policy"),
    ("Action Input: `Beijing`", "Beijing"),
    ("Action Input: return policy.", "return policy"),  # one value: lesson 03's reading, marks stripped
])
def test_a_bare_input_keeps_what_the_model_wrote(text: str, value: str) -> None:
    step = parse_reply(f"Thought: t\nAction: get_weather\n{text}")
    assert step.action_input == {"input": value}


def test_split_values_and_binding() -> None:
    assert split_values('Beijing, "2025-03-15"') == ["Beijing", "2025-03-15"]
    assert split_values("") == [""]
    weather, calc = TOOLS["get_weather"], TOOLS["calculator"]
    for given in ("Beijing, 2025-03-15", '"Beijing", "2025-03-15"', ["Beijing", "2025-03-15"],
                  "city=Beijing, date=2025-03-15", "date: 2025-03-15, city: 'Beijing'"):
        assert bind_arguments(weather, {"input": given}) == WEATHER, given
    for unchanged in ({"input": "Beijing, China, 2025-03-15"}, {"input": "Beijing"}, {"city": "x"}, {}):
        assert bind_arguments(weather, unchanged) == unchanged
    assert bind_arguments(calc, {"input": "1, 2"}) == {"input": "1, 2"}  # one parameter: the registry's rule
    assert bind_arguments(TOOLS["add_days"], {"input": ["2025-03-14", 3]}) == {"date": "2025-03-14", "days": 3}


# ---------------------------------------------------------------- every shape of the mock

def _shapes():
    """The failure-shape table of tests/test_failure_shapes.py (the mock's replies, per seed)."""
    import test_failure_shapes as shapes
    return shapes


def _reads(content: str, intended: object) -> bool:
    """Whether parse_reply (then binding, as the guarded registry does) reads the intended call or answer."""
    step = parse_reply(content)
    if isinstance(intended, str):
        return step.kind == "final" and intended in step.final_answer
    action, args = intended
    if step.kind != "action" or step.action != action:
        return False
    bound = bind_arguments(TOOLS[action], step.action_input)
    return bound == args or (len(args) == 1 and bound == {"input": next(iter(args.values()))})


UNREADABLE = {"empty_reply", "echo_question", "echo_prompt", "schema_copy"}  # no call in the reply


def test_parse_reply_reads_every_shape_that_holds_a_call() -> None:
    shapes = _shapes()
    found = {label: {_reads(c, shapes.BY_LABEL[label][4]) for c in shapes.replies(label)}
             for label in shapes.BY_LABEL}
    lesson03_missed = {label for label, seen in shapes.LESSON03.items() if False in seen}
    assert lesson03_missed - UNREADABLE - {"json_cut_in_string"}, "the clinic needs material"
    for label, seen in found.items():
        if label in UNREADABLE:
            assert seen == {False}, label
        elif label == "json_cut_in_string":
            assert seen == {True, False}  # one variant lost the date's digits: nothing can bring them back
        else:
            assert seen == {True}, label


def test_the_unreadable_shapes_are_errors_with_a_correction() -> None:
    shapes = _shapes()
    for label in UNREADABLE:
        for content in shapes.replies(label)[:3]:
            step = parse_reply(content)
            assert step.kind == "error" and "could not parse" in step.error, (label, content)


# ---------------------------------------------------------------- real replies of a 135M model

def test_real_replies() -> None:
    """Never raises; an error when the reply holds no action or answer; a tool named in the text."""
    for row in REAL:
        raw, where = row["raw_reply"], row["id"]
        step = parse_reply(raw)
        assert step.raw == raw and step.kind in ("action", "final", "error"), where
        assert step.action is None or step.action in raw, where
        assert (step.kind == "error") == (step.action is None and step.final_answer is None), where
        if row["reply_shape"] in ("prose_only", "empty", "thought_only", "other_fields_only"):
            assert step.error is not None and "could not parse" in step.error, where
        if step.final_answer is not None and "Observation" in raw:  # never an answer built on an invention
            assert raw.find("Observation") > raw.find("Final Answer"), where


def test_the_real_replies_cover_every_shape() -> None:
    shapes = {row["reply_shape"] for row in REAL}
    assert {"action", "final", "empty", "prose_only", "thought_only", "other_fields_only",
            "action_and_final"} <= shapes and len(REAL) >= 180


# ---------------------------------------------------------------- never raises, linear time

@pytest.mark.parametrize("value", [None, 42, b"Action: calculator\nAction Input: {}", ["Action: x"], "",
                                   "\x00" * 10, "Action: f(" + "[" * 5000, "{" * 5000,
                                   '{"action": ' * 3000, "Action: None\n" * 2000])
def test_never_raises(value: object) -> None:
    step = parse_reply(value)
    assert step.kind in ("action", "final", "error")


def _seconds(text: str) -> float:
    """The best of three timings of parse_reply(text)."""
    return best_seconds(lambda: parse_reply(text))


@pytest.mark.parametrize("unit", [
    "Thought: x\n", "Action: None\n", '{"action": "f", ', "```json\n{\n", "Observation: x\nAction:\n",
    "Action: a b(\nAction Input: x\n", "Action: x\nAction Input: a\n", "x = 1 // '\"# /*", "    print(x)\n",
    "Action: f(a: str, " + " " * 20, "a." * 10, "Action: s[x]\n", "```\n",
])
def test_time_grows_linearly(unit: str) -> None:
    small, large = unit * 1000, unit * 4000
    assert _seconds(large) < 8 * _seconds(small) + 0.01
