"""Structured tool calls (lesson 06): validation, tool messages, the text fallback, the loop, the comparison."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from mockllm import MockLLM
from solutions.agent import Trace
from solutions.arguments import MAX_ARGUMENTS_CHARS, decode_arguments, schema_validator, validate_arguments
from solutions.course.display import trace_text
from solutions.modes import (MODES, Run, compare_modes, content_as_answer, failing_quirks, modes_with,
                             summarise, table)
from solutions.structured import (STRUCTURED_RULES, StructuredStep, assistant_message, run_structured_step,
                                  structured_agent, structured_prompt, tool_messages)
from solutions.structured_text import EMPTY_REPLY, call_in_content, read_content
from solutions.tools import Tool, ToolRegistry, world_tools
from timing import best_seconds

TOOLS = world_tools()
WEATHER = '{"city": "Beijing", "date": "2025-03-15"}'


def _tool(properties: dict, required: tuple[str, ...] = (), **schema: Any) -> Tool:
    """A tool `t` with the given parameters schema, returning its arguments as JSON."""
    parameters = {"type": "object", "properties": properties, "required": list(required), **schema}
    return Tool("t", "a test tool", parameters, lambda **kwargs: json.dumps(kwargs, sort_keys=True))


def _call(call_id: str, name: str, arguments: str) -> SimpleNamespace:
    """A tool call shaped like the SDK's."""
    return SimpleNamespace(id=call_id, type="function", function=SimpleNamespace(name=name, arguments=arguments))


# ---------------------------------------------------------------- validate_arguments

def test_valid_arguments_come_back_decoded() -> None:
    assert validate_arguments(TOOLS["get_weather"], WEATHER) == ({"city": "Beijing", "date": "2025-03-15"}, None)
    assert validate_arguments(TOOLS["get_current_date"], "{}") == ({}, None)
    assert validate_arguments(TOOLS["get_current_date"], "") == ({}, None)  # some servers send ""


@pytest.mark.parametrize("arguments, words", [
    ('{"date": "2025-03-14"}', ["missing required argument 'days'", "how many days to add"]),
    ('{"date": "2025-03-14", "days": "50"}', ["'days' must be an integer", 'the string "50"']),
    ('{"date": "2025-03-14", "days": true}', ["'days' must be an integer", "the boolean true"]),
    ('{"date": "2025-03-14", "days": 5, "unit": "d"}', ["unexpected argument(s) 'unit'", "allowed: date, days"]),
    ('{"date": "2025-03-14", "days": 5', ["not valid JSON"]),
    ('[1, 2]', ["must be a JSON object", "the list [1, 2]"]),
    ('{}', ["missing required argument 'date'", "missing required argument 'days'"]),
])
def test_problems_are_named_for_the_model(arguments: str, words: list[str]) -> None:
    value, problem = validate_arguments(TOOLS["add_days"], arguments)
    assert value == {} and problem is not None and "add_days" in problem
    assert all(word in problem for word in words), problem
    assert '{"date": <string>, "days": <integer>}' in problem  # the shape that works


def test_arguments_encoded_twice_are_decoded_again_but_not_three_times() -> None:
    once = json.dumps(WEATHER)
    assert validate_arguments(TOOLS["get_weather"], once)[1] is None
    assert "must be a JSON object" in validate_arguments(TOOLS["get_weather"], json.dumps(once))[1]


def test_constraints_a_type_check_cannot_see_are_enforced() -> None:
    tool = _tool({"unit": {"type": "string", "enum": ["c", "f"]}, "count": {"type": "integer", "minimum": 1},
                  "where": {"type": "object", "properties": {"city": {"type": "string"}}}})
    _, problem = validate_arguments(tool, '{"unit": "k", "count": 0, "where": {"city": 5}}')
    assert "'unit' must be one of \"c\", \"f\"" in problem
    assert "argument 'count'" in problem and "minimum" in problem
    assert "argument 'where.city' must be a string" in problem


def test_formats_are_checked() -> None:
    tool = _tool({"date": {"type": "string", "format": "date"}}, ("date",))
    assert validate_arguments(tool, '{"date": "2025-03-14"}')[1] is None
    assert "is not a 'date'" in validate_arguments(tool, '{"date": "tomorrow"}')[1]


def test_a_schema_that_allows_extra_arguments_keeps_them() -> None:
    tool = _tool({"a": {"type": "integer"}}, additionalProperties=True)
    assert validate_arguments(tool, '{"a": 1, "b": 2}') == ({"a": 1, "b": 2}, None)


def test_the_draft_the_schema_declares_is_used() -> None:
    pair = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}  # draft-07 tuple form
    old = _tool({"pair": pair}, ("pair",), **{"$schema": "http://json-schema.org/draft-07/schema#"})
    assert schema_validator(old.parameters).__class__.__name__ == "Draft7Validator"
    assert validate_arguments(old, '{"pair": ["a", 1]}')[1] is None
    assert "argument 'pair.1' must be an integer" in validate_arguments(old, '{"pair": ["a", "b"]}')[1]
    assert schema_validator(TOOLS["add_days"].parameters).__class__.__name__ == "Draft202012Validator"


def test_a_broken_schema_is_the_programs_error() -> None:
    import jsonschema

    with pytest.raises(jsonschema.SchemaError):
        validate_arguments(_tool({"a": {"type": "no-such-type"}}), "{}")


@pytest.mark.parametrize("arguments", ["[" * 100_000, '{"a": ' * 5000, "x" * (MAX_ARGUMENTS_CHARS + 1),
                                       None, 42, b"{}", "\x00", '{"a": NaN'])
def test_bad_input_never_raises(arguments: Any) -> None:
    value, problem = decode_arguments(arguments)
    assert value is None and isinstance(problem, str) and problem
    assert validate_arguments(TOOLS["calculator"], arguments)[0] == {}


def test_decoding_grows_linearly() -> None:
    def seconds(size: int) -> float:
        text = json.dumps({"expression": "1+" * size})
        return best_seconds(lambda: decode_arguments(text))

    assert seconds(4000) < 8 * seconds(1000) + 0.01


def test_importing_jsonschema_this_way_defers_the_iri_grammar() -> None:
    code = ("import sys; from solutions.arguments import load_jsonschema, validate_arguments, schema_validator;"
            "from solutions.tools import world_tools;"
            "validate_arguments(world_tools()['get_weather'], '{}');"
            "print('rfc3987_syntax.syntax_helpers' in sys.modules);"
            "v = schema_validator({'type': 'object', 'properties': {'u': {'type': 'string', 'format': 'iri'}}});"
            "print(sorted(e.validator for e in v.iter_errors({'u': 'not an iri'})));"
            "import rfc3987_syntax; print(callable(rfc3987_syntax.make_syntax_validator))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "False"  # not built at import
    assert out[1] == "['format']"  # and the iri format still checked, once asked
    assert out[2] == "True"  # the real module's other names are there too


# ---------------------------------------------------------------- tool_messages and assistant_message

def test_every_call_gets_one_tool_message_with_its_id_in_order() -> None:
    calls = [_call("b", "get_weather", WEATHER), _call("a", "get_current_date", "{}")]
    answers = tool_messages(calls, TOOLS)
    assert [m["tool_call_id"] for m in answers] == ["b", "a"]
    assert [m["role"] for m in answers] == ["tool", "tool"]
    assert "Dust storm" in answers[0]["content"] and answers[1]["content"] == "2025-03-14"


def test_problems_become_messages_and_the_tool_does_not_run() -> None:
    ran = []
    tool = Tool("count", "counts", {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
                lambda n: ran.append(n) or str(n))
    tools = ToolRegistry([tool])
    answers = tool_messages([_call("1", "count", '{"n": "3"}'), _call("2", "count", "{"),
                             _call("3", "nope", "{}"), _call("4", "count", '{"n": 3}')], tools)
    assert [m["content"][:6] for m in answers[:3]] == ["Error:"] * 3
    assert "'n' must be an integer" in answers[0]["content"] and "not valid JSON" in answers[1]["content"]
    assert "Available tools: count" in answers[2]["content"]
    assert answers[3]["content"] == "3" and ran == [3]


def test_the_assistant_message_is_what_the_api_expects() -> None:
    reply = SimpleNamespace(content=None, tool_calls=[_call("c1", "get_current_date", "{}")])
    assert assistant_message(reply) == {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_current_date", "arguments": "{}"}}]}
    assert assistant_message(SimpleNamespace(content=None, tool_calls=None)) == {"role": "assistant", "content": ""}
    assert assistant_message(SimpleNamespace(content="Hi.", tool_calls=[])) == {"role": "assistant", "content": "Hi."}


def test_the_messages_make_a_request_the_api_accepts() -> None:
    """The whole structured conversation, sent back to the mock, passes its (the API's) checks."""
    trace = structured_agent("Is it colder in Beijing or in London on 2025-03-15?",
                             MockLLM(persona="diligent", seed=0), TOOLS)
    MockLLM(persona="diligent", seed=0).chat.completions.create(
        model="mock-react", messages=trace.messages, tools=TOOLS.schemas())
    assert trace.stop_reason == "answered" and "Beijing is colder" in trace.final_answer


# ---------------------------------------------------------------- the text fallback

@pytest.mark.parametrize("text, action, action_input", [
    ('{"name": "get_weather", "arguments": {"city": "Beijing"}}', "get_weather", {"city": "Beijing"}),
    ('{"name": "get_weather", "arguments": "{\\"city\\": \\"Beijing\\"}"}', "get_weather", {"city": "Beijing"}),
    ('{"type": "function", "function": {"name": "get_current_date", "parameters": {}}}', "get_current_date", {}),
    ('```json\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n```', "calculator", {"expression": "1+1"}),
    ('Sure: {"name": "lookup_order", "arguments": [1]}', "lookup_order", {}),
])
def test_a_call_written_in_the_content_is_read(text: str, action: str, action_input: dict) -> None:
    assert call_in_content(text) == (action, action_input)
    step = read_content(text)
    assert (step.kind, step.action, step.action_input) == ("action", action, action_input)


@pytest.mark.parametrize("text, kind", [
    ("Thought: I need the date.\nAction: get_current_date\nAction Input: {}", "action"),
    ("Thought: I know it.\nFinal Answer: 66", "final"),
    ("Today is 2025-03-14.", "final"),
    ('The JSON {"a": 1} is not a call.', "final"),
    ("Action: calculator\nAction Input: [1]", "error"),
    ("Thought: hmm", "error"),
    ("", "error"), ("   \n", "error"), (None, "error"), (42, "error"),
])
def test_read_content_sorts_replies(text: Any, kind: str) -> None:
    assert read_content(text).kind == kind


def test_an_empty_reply_gets_a_corrective_message() -> None:
    assert read_content("").error == EMPTY_REPLY and "plain text" in EMPTY_REPLY


@pytest.mark.parametrize("unit", ["{", '{"name": ', "Action:\n", "```\n", "x"])
def test_read_content_grows_linearly_on_long_junk(unit: str) -> None:
    def seconds(size: int) -> float:
        text = unit * size
        return best_seconds(lambda: read_content(text))

    seconds(1000)  # warm up
    assert seconds(40_000) < 8 * seconds(10_000) + 0.01


# ---------------------------------------------------------------- the loop

def test_structured_prompt_holds_the_rules_and_no_format() -> None:
    prompt = structured_prompt()
    assert all(rule in prompt for rule in STRUCTURED_RULES)
    assert "Action Input" not in prompt and "get_weather" not in prompt


def test_two_calls_in_one_reply_are_both_answered_and_shown() -> None:
    script = MockLLM.from_script([
        {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Beijing", "date": "2025-03-15"}},
                        {"name": "get_weather", "arguments": {"city": "London", "date": "2025-03-15"}}]},
        "Beijing is colder."])
    trace = structured_agent("Which is colder?", script, TOOLS)
    first = trace.steps[0]
    assert isinstance(first, StructuredStep) and [c.action_input["city"] for c in first.calls] == ["Beijing", "London"]
    assert first.action == "get_weather" and first.observation == first.calls[0].observation
    assert [m["role"] for m in trace.messages] == ["system", "user", "assistant", "tool", "tool", "assistant"]
    assert [m["tool_call_id"] for m in trace.messages[3:5]] == [c.call_id for c in first.calls]
    text = trace_text(trace)
    assert text.count("Action:       get_weather") == 2 and "London 2025-03-15" in text


def test_a_call_in_the_content_runs_and_its_result_goes_back_as_a_user_message() -> None:
    script = MockLLM.from_script(['{"name": "get_current_date", "arguments": {}}', "Today is 2025-03-14."])
    trace = structured_agent("What is today's date?", script, TOOLS)
    assert trace.steps[0].read_from == "content" and trace.steps[0].observation == "2025-03-14"
    assert trace.messages[3] == {"role": "user", "content": "Observation: 2025-03-14"}
    assert trace.final_answer == "Today is 2025-03-14."


def test_an_empty_reply_is_corrected_and_counts_as_a_step() -> None:
    script = MockLLM.from_script([{"content": ""}, "Done."])
    trace = structured_agent("Hello?", script, TOOLS, max_steps=2)
    assert trace.steps[0].error == EMPTY_REPLY and trace.messages[3] == {"role": "user", "content": EMPTY_REPLY}
    assert trace.final_answer == "Done."


class _Recorder:
    """A client that records each request and answers with a final answer."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> SimpleNamespace:
        self.requests.append(request)
        message = SimpleNamespace(content="ok", tool_calls=None)
        return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")], usage=None)


def test_options_are_sent_only_when_given() -> None:
    client = _Recorder()
    structured_agent("Hi?", client, TOOLS, tool_choice="required", max_tokens=64, model="gpt-4o-mini")
    structured_agent("Hi?", client, TOOLS)
    given, default = client.requests
    assert given["tool_choice"] == "required" and given["max_tokens"] == 64 and given["model"] == "gpt-4o-mini"
    assert "tool_choice" not in default and "max_tokens" not in default
    assert default["tools"] == TOOLS.schemas() and default["messages"][1] == {"role": "user", "content": "Hi?"}


def test_forcing_a_call_at_every_step_never_answers() -> None:
    trace = structured_agent("What will the weather be in Beijing tomorrow?", MockLLM(persona="diligent", seed=0),
                             TOOLS, max_steps=4, tool_choice="required")
    assert trace.stop_reason == "step_limit" and all(step.calls for step in trace.steps)


def test_bad_arguments_to_the_agent_are_refused_clearly() -> None:
    with pytest.raises(TypeError, match="question"):
        structured_agent(42, MockLLM(), TOOLS)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_steps"):
        structured_agent("Hi?", MockLLM(), TOOLS, max_steps=0)


def test_run_structured_step_grows_the_messages() -> None:
    messages = [{"role": "system", "content": structured_prompt()}, {"role": "user", "content": "What is today's date?"}]
    step = run_structured_step(MockLLM(persona="diligent", seed=0), messages, TOOLS)
    assert step.action == "get_current_date" and step.tokens > 0 and step.explanation["persona"] == "diligent"
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool"]


def test_jsonic_answers_right_with_the_fallback_and_not_always_without() -> None:
    question = "What will the weather be in Beijing tomorrow?"
    with_fallback = [structured_agent(question, MockLLM(persona="jsonic", seed=seed), TOOLS) for seed in range(6)]
    naive = [structured_agent(question, MockLLM(persona="jsonic", seed=seed), TOOLS, read_text=content_as_answer)
             for seed in range(6)]
    assert all("Dust storm" in trace.final_answer for trace in with_fallback)
    assert any("Dust storm" not in trace.final_answer for trace in naive)


# ---------------------------------------------------------------- the comparison

def test_content_as_answer_takes_any_text() -> None:
    assert content_as_answer('{"name": "f"}').final_answer == '{"name": "f"}'
    assert content_as_answer("").error == EMPTY_REPLY


def test_compare_modes_scores_with_lesson_05s_grader() -> None:
    items = [{"question": "What is (17 + 5) * 3?", "expected": ["66"], "grader": "number"},
             {"question": "What is today's date?", "expected": ["1999-01-01"], "grader": "all"}]
    runs = compare_modes(["diligent"], items)
    assert [(run.mode, run.right) for run in runs] == [(mode, right) for mode in MODES for right in (True, False)]
    summary = summarise(runs)
    assert summary["diligent", "text"]["right"] == 0.5 and summary["diligent", "text"]["runs"] == 2
    assert summary["diligent", "text"]["steps"] == sum(len(r.trace.steps) for r in runs[:2]) / 2
    assert "diligent" in table(summary) and "50%" in table(summary)


def test_the_comparison_runs_the_structured_agent_it_is_given() -> None:
    seen: list[tuple] = []

    def own_agent(question, client, tools, max_steps, **options):
        seen.append((question, options.get("read_text")))
        return structured_agent(question, client, tools, max_steps, **options)

    runs = compare_modes(["diligent"], [{"question": "What is (17 + 5) * 3?", "expected": ["66"],
                                         "grader": "number"}], modes=modes_with(own_agent))
    assert [run.mode for run in runs] == list(MODES) and all(run.right for run in runs)
    assert seen == [("What is (17 + 5) * 3?", None), ("What is (17 + 5) * 3?", content_as_answer)]


def test_failing_quirks_counts_runs_not_steps() -> None:
    def run(persona: str, right: bool, *quirks: list[str]) -> Run:
        steps = [SimpleNamespace(explanation={"quirks_fired": q}) for q in quirks]
        return Run(persona, "structured", "q", right, Trace("q", steps, None, "step_limit"))  # type: ignore[arg-type]

    runs = [run("a", False, ["x"], ["x", "y"]), run("a", False, []), run("a", True, ["z"]), run("b", True, ["x"])]
    assert failing_quirks(runs, "structured") == {"a": Counter({"x": 1, "y": 1, "(no quirk)": 1})}
    assert runs[0].quirks == ("x", "y")
