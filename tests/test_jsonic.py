"""The `jsonic` persona in whole runs: the shapes it writes, what a correction does, tool-call mode,
and a small lenient parser that handles all of its shapes (the fix belongs in the parser)."""
from __future__ import annotations

import json
import re

from mockllm import MockLLM
from mockllm.behaviour.personas import PERSONAS
from solutions.agent import run_agent
from solutions.parsing import Step, parse_step
from solutions.tools import world_tools

QUESTIONS = {"What will the weather be in Beijing tomorrow?": "Dust storm",
             "What is (17 + 5) * 3?": "66",
             "What is the status of order A1002?": "shipped",
             "What is today's date?": "2025-03-14"}
TEXT_SHAPES = {"json_blob_action", "call_syntax", "multiline_json", "action_none"}
SEEDS = range(8)


def runs(parse=parse_step):
    """jsonic's runs of the lesson-04 loop over the questions and seeds, with `parse`."""
    for seed in SEEDS:
        for question, expected in QUESTIONS.items():
            yield expected, run_agent(question, MockLLM(persona="jsonic", seed=seed), world_tools(),
                                      max_steps=8, parse=parse)


def test_jsonic_is_in_the_table_and_does_not_guess() -> None:
    jsonic = PERSONAS["jsonic"]
    assert not jsonic.guesses
    assert {entry.quirk for entry in jsonic.entries} == TEXT_SHAPES | {"tool_call_in_content",
                                                                       "arguments_as_string"}


def test_jsonic_writes_each_of_its_shapes_in_real_runs() -> None:
    fired = {quirk for _, trace in runs() for step in trace.steps
             for quirk in step.explanation["quirks_fired"]}
    assert fired == TEXT_SHAPES


def test_once_told_its_reply_did_not_work_jsonic_writes_the_fields() -> None:
    told_runs = 0
    for _, trace in runs():
        told = False
        for step in trace.steps:
            if told:
                assert not set(step.explanation["quirks_fired"]) & (TEXT_SHAPES - {"multiline_json"})
            told = told or step.error is not None or "unknown tool" in (step.observation or "")
        told_runs += told
    assert told_runs >= 8  # the lesson-03 parser fails on many of its replies


def _blob(text: str) -> tuple[str, object] | None:
    """(action, action_input) of the first JSON object in `text` with an "action" key."""
    start = text.find("{")
    if start < 0:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(text[start:])
    except ValueError:
        return None
    return (value["action"], value.get("action_input")) if isinstance(value, dict) \
        and "action" in value else None


def lenient(text: str) -> Step:
    """parse_step, after reading the shapes it does not handle: a JSON blob, call syntax with
    keyword arguments, `Action: None` above a Final Answer."""
    found = _blob(text)
    if found is not None:
        action, value = found
        if action == "Final Answer":
            return Step(final_answer=str(value), raw=text)
        return Step(action=action, raw=text,
                    action_input=value if isinstance(value, dict) else {"input": value})
    call = re.search(r"(?m)^Action: (\w+)\((\w+=.*)\)$", text)
    if call:
        args = {k: json.loads(v) for k, v in re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|[^,]+)', call[2])}
        return Step(action=call[1], action_input=args, raw=text)
    return parse_step(re.sub(r"(?m)^Action: (None|N/A|\(no action needed\))\n(Action Input: N/A\n)?",
                             "", text))


def test_with_a_lenient_parser_every_run_answers_right_and_needs_no_correction() -> None:
    for expected, trace in runs(lenient):
        assert trace.final_answer is not None and expected in trace.final_answer, trace.steps
        assert all(step.error is None for step in trace.steps)
        assert not any("unknown tool" in (step.observation or "") for step in trace.steps)


def test_with_the_lesson_03_parser_some_runs_go_wrong() -> None:
    wrong = [trace.final_answer for expected, trace in runs()
             if trace.final_answer is None or expected not in trace.final_answer]
    assert wrong  # e.g. lookup_order(order_id="A1002") read as the id 'order_id="A1002'


TOOLS = [{"type": "function", "function": {"name": "get_current_date", "description": "today's date",
                                           "parameters": {"type": "object", "properties": {}}}},
         {"type": "function", "function": {"name": "calculator", "description": "arithmetic",
                                           "parameters": {"type": "object", "properties": {
                                               "expression": {"type": "string"}}}}}]


def test_in_tool_call_mode_jsonic_mostly_calls_tools_and_sometimes_fails_like_real_servers() -> None:
    fired, calls = [], 0
    for seed in range(36):
        response = MockLLM(persona="jsonic", seed=seed).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "What is (17 + 5) * 3?"}], tools=TOOLS)
        fired += response.x_mock["quirks_fired"]
        calls += response.choices[0].message.tool_calls is not None
    assert set(fired) == {"tool_call_in_content", "arguments_as_string"}
    assert calls > 36 // 2 and fired.count("tool_call_in_content") >= 2
