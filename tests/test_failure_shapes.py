"""The failure shapes of real ReAct transcripts, each staged alone with `quirks={name: [step]}`.

For every shape: the exact reply it produces (every variant, across seeds), what suppresses it,
that the mock reads it back from the history as the call it meant, which shapes the lesson-03
parser (`solutions.parsing.parse_step`) does not handle yet (the failure clinic's material), and
where the real SmolLM2-135M replies in tests/data/real_replies_sample.jsonl show the same shape.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mockllm import MockLLM
from mockllm.reading.conversation import read_conversation
from solutions.parsing import format_error, parse_step
from solutions.prompt import build_system_prompt
from solutions.tools import world_tools

SYSTEM = build_system_prompt(world_tools())
WEATHER_Q = "What will the weather be in Beijing tomorrow?"
CALC_Q = "What is (17 + 5) * 3?"
DATE_CALL = {"role": "assistant", "content": "Thought: I need today's date first.\n"
                                             "Action: get_current_date\nAction Input: {}"}
TODAY = {"role": "user", "content": "Observation: 2025-03-14"}
WEATHER_CALL = {"role": "assistant", "content": 'Thought: Now the weather.\nAction: get_weather\n'
                                                'Action Input: {"city": "Beijing", "date": "2025-03-15"}'}
WEATHER_OBS = {"role": "user", "content": "Observation: Beijing 2025-03-15: Dust storm, 0°C to 9°C, "
                                          "wind NW 45 km/h, air quality poor (AQI 182)"}
ARGS = {"city": "Beijing", "date": "2025-03-15"}
T = r"Thought: [^\n]+\n"  # any thought line
W = r'\{"city": "Beijing", "date": "2025-03-15"\}'
SEEDS = range(12)


def blob_variants(blob: dict) -> list[str]:
    """The four JSON-blob replies: fenced with an `Action:` label, fenced, labelled, the JSON alone."""
    pretty = re.escape(json.dumps(blob, ensure_ascii=False, indent=2))
    compact = re.escape(json.dumps(blob, ensure_ascii=False))
    return [T + "Action:\n```json\n" + pretty + "\n```", T + "```json\n" + pretty + "\n```",
            T + "Action: " + compact, compact]


# (label, quirk, question, earlier turns, intended call (action, input) or final answer, variants:
#  every reply must fullmatch one of them, and every one of them must appear across SEEDS)
SHAPES = [
    ("input_not_json, two arguments", "input_not_json", WEATHER_Q, [DATE_CALL, TODAY],
     ("get_weather", ARGS), [T + r"Action: get_weather\nAction Input: Beijing, 2025-03-15",
                             T + r'Action: get_weather\nAction Input: "Beijing", "2025-03-15"']),
    ("input_not_json, no argument", "input_not_json", WEATHER_Q, [], ("get_current_date", {}),
     [T + r"Action: get_current_date\nAction Input: None"]),
    ("input_fenced", "input_fenced", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r"Action: get_weather\nAction Input:\n```json\n" + W + r"\n```",
      T + r"Action: get_weather\nAction Input:\n```\n" + W + r"\n```"]),
    ("input_inline_code", "input_inline_code", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r"Action: get_weather\nAction Input: `" + W + "`"]),
    ("bold_field_lines", "bold_field_lines", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [r"\*\*Thought: [^\n]+\*\*\n\*\*Action: get_weather\*\*\n\*\*Action Input: " + W + r"\*\*"]),
    ("field_spacing", "field_spacing", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r"\nAction: get_weather\n\nAction Input: " + W,
      T + r"  Action: get_weather\n  Action Input: " + W,
      T + r"Action: get_weather\nAction Input:\n" + W]),
    ("multiline_json", "multiline_json", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r'Action: get_weather\nAction Input: \{\n  "city": "Beijing",\n  "date": "2025-03-15"\n\}',
      T + r'Action: get_weather\nAction Input: \{\n    "city": "Beijing",\n    "date": '
          r'"2025-03-15"\n\}']),
    ("json_cut_in_string", "json_cut_in_string", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r'Action: get_weather\nAction Input: \{"city": "Beijing", "date": "2025-',
      T + r'Action: get_weather\nAction Input: \{"city": "Beijing", "date": "2025-03-15\}']),
    ("json_blob_action", "json_blob_action", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     blob_variants({"action": "get_weather", "action_input": ARGS})),
    ("json_blob_action, one argument", "json_blob_action", CALC_Q, [], ("calculator", {
        "expression": "(17 + 5) * 3"}), blob_variants({"action": "calculator",
                                                       "action_input": "(17 + 5) * 3"})),
    ("json_blob_action, final answer", "json_blob_action", WEATHER_Q,
     [DATE_CALL, TODAY, WEATHER_CALL, WEATHER_OBS], "Dust storm", blob_variants({
         "action": "Final Answer", "action_input": "The weather in Beijing on 2025-03-15: Dust "
         "storm, 0°C to 9°C, wind NW 45 km/h, air quality poor (AQI 182)."})),
    ("call_syntax, keywords", "call_syntax", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r'Action: get_weather\(city="Beijing", date="2025-03-15"\)']),
    ("call_syntax, one argument", "call_syntax", CALC_Q, [], ("calculator", {
        "expression": "(17 + 5) * 3"}), [T + r'Action: calculator\("\(17 \+ 5\) \* 3"\)',
                                         T + r'Action: calculator\(expression="\(17 \+ 5\) \* 3"\)']),
    ("call_syntax, no argument", "call_syntax", WEATHER_Q, [], ("get_current_date", {}),
     [T + r"Action: get_current_date\(\)"]),
    ("action_none", "action_none", WEATHER_Q, [DATE_CALL, TODAY, WEATHER_CALL, WEATHER_OBS],
     "Dust storm", [T + r"Action: None\nFinal Answer: [^\n]*Dust storm[^\n]*",
                    T + r"Action: N/A\nAction Input: N/A\nFinal Answer: [^\n]*Dust storm[^\n]*",
                    T + r"Action: \(no action needed\)\nFinal Answer: [^\n]*Dust storm[^\n]*"]),
    ("empty_reply", "empty_reply", WEATHER_Q, [], ("get_current_date", {}), [""]),
    ("echo_question", "echo_question", WEATHER_Q, [], ("get_current_date", {}),
     [re.escape(WEATHER_Q), "Question: " + re.escape(WEATHER_Q),
      "The question is:\n\n" + re.escape(WEATHER_Q)]),
    ("echo_prompt", "echo_prompt", WEATHER_Q, [], ("get_current_date", {}),
     [re.escape(SYSTEM) + r"\n\nQuestion: " + re.escape(WEATHER_Q) + r"\nThought:"]),
    ("schema_copy", "schema_copy", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r'Action: get_weather\nAction Input: \{"type": "object", "properties": \{"city": '
          r'\{"type": "string"\}, "date": \{"type": "string"\}\}, "required": \["city", "date"\]\}']),
    ("action_and_answer", "action_and_answer", WEATHER_Q, [DATE_CALL, TODAY], ("get_weather", ARGS),
     [T + r"Action: get_weather\nAction Input: " + W +
      r"\nThought: I now know the final answer\nFinal Answer: [^\n]+"]),
]
BY_LABEL = {shape[0]: shape for shape in SHAPES}


def messages(question: str, turns: list[dict]) -> list[dict]:
    """The course's system prompt, the question, and the earlier turns."""
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Question: {question}"},
            *turns]


def step_of(turns: list[dict]) -> int:
    """The step number of the next reply after `turns`."""
    return 1 + sum(turn["role"] == "assistant" for turn in turns)


def reply(quirk: str | None, question: str, turns: list[dict], seed: int = 0):
    """The reply of a well-behaved model (no persona), with `quirk` forced on this step."""
    forced = {quirk: [step_of(turns)]} if quirk else None
    client = MockLLM(persona=None, quirks=forced, seed=seed)
    return client.chat.completions.create(model="mock-react", messages=messages(question, turns))


def replies(label: str) -> list[str]:
    """The reply of the shape `label` for every seed."""
    _, quirk, question, turns, _, _ = BY_LABEL[label]
    return [reply(quirk, question, turns, seed).choices[0].message.content for seed in SEEDS]


# ---------------------------------------------------------------- each shape, exactly

@pytest.mark.parametrize("label", BY_LABEL)
def test_each_quirk_alone_writes_exactly_its_shape_in_every_variant(label: str) -> None:
    _, quirk, question, turns, _, variants = BY_LABEL[label]
    seen = set()
    for seed in SEEDS:
        response = reply(quirk, question, turns, seed)
        content = response.choices[0].message.content
        assert response.x_mock["quirks_fired"] == [quirk], (seed, content)
        matched = [i for i, pattern in enumerate(variants) if re.fullmatch(pattern, content)]
        assert matched, f"seed {seed}: {content!r} matches no variant of {label}"
        seen.update(matched)
    assert seen == set(range(len(variants))), f"variants never seen: {set(range(len(variants))) - seen}"


def test_without_the_quirk_the_same_request_is_clean() -> None:
    for _, _, question, turns, intended, _ in SHAPES:
        step = parse_step(reply(None, question, turns).choices[0].message.content)
        got = step.final_answer if isinstance(intended, str) else (step.action, step.action_input)
        assert (intended in got) if isinstance(intended, str) else got == intended


# ---------------------------------------------------------------- what suppresses each

GARBLED = {"role": "assistant", "content": "Sure! I will look into it."}
TOLD = {"format": {"role": "user", "content": "Observation: " + format_error("no Action line")},
        "unknown_tool": {"role": "user", "content": "Observation: Error: unknown tool 'json'. "
                                                   "Available tools: get_current_date, get_weather"}}
SUPPRESSORS = {  # quirk -> the corrections that stop it ((): nothing does; the fix is in your code)
    "input_not_json": ("format",), "input_fenced": ("format",), "input_inline_code": ("format",),
    "bold_field_lines": ("format",), "field_spacing": ("format",), "multiline_json": (),
    "json_cut_in_string": ("format",), "json_blob_action": ("format", "unknown_tool"),
    "call_syntax": ("format", "unknown_tool"), "action_none": ("format", "unknown_tool"),
    "empty_reply": (), "echo_question": ("format",), "echo_prompt": ("format",),
    "schema_copy": (), "action_and_answer": (),
}


@pytest.mark.parametrize("label", [s[0] for s in SHAPES if s[0] in SUPPRESSORS])
def test_a_correction_suppresses_the_shape_or_nothing_does(label: str) -> None:
    _, quirk, question, turns, _, variants = BY_LABEL[label]
    for kind, message in TOLD.items():
        told = [GARBLED, message, *turns]  # the correction comes earlier in the same run
        forced, clean = reply(quirk, question, told), reply(None, question, told)
        content = forced.choices[0].message.content
        if kind in SUPPRESSORS[quirk]:
            assert forced.x_mock["quirks_suppressed"] == [{"quirk": quirk, "by": f"correction:{kind}"}]
            assert content == clean.choices[0].message.content
        else:
            assert forced.x_mock["quirks_fired"] == [quirk]
            assert any(re.fullmatch(pattern, content) for pattern in variants), content


def test_the_rulebook_lists_every_shape_with_a_trigger_and_its_suppressors() -> None:
    import mockllm

    rows = {(row["persona"], row["quirk"]): row for row in mockllm.rulebook()}
    owners = {"sloppy": ("input_not_json", "input_fenced", "input_inline_code", "bold_field_lines",
                         "field_spacing"),
              "jsonic": ("json_blob_action", "call_syntax", "action_none", "multiline_json",
                         "tool_call_in_content", "arguments_as_string"),
              "tiny": ("json_cut_in_string", "schema_copy", "action_and_answer", "echo_question",
                       "echo_prompt", "empty_reply")}
    for persona, quirks in owners.items():
        for quirk in quirks:
            row = rows[(persona, quirk)]
            assert "seeded" in row["trigger"] and row["what_you_see"], row
            kinds = () if persona == "tiny" else SUPPRESSORS.get(quirk, ())  # tiny ignores them all
            assert row["suppressed_by"] == (", ".join(f"correction:{k}" for k in kinds) or "nothing")
    for quirk in ("tool_call_in_content", "arguments_as_string"):
        assert rows[("jsonic", quirk)]["what_you_see"].startswith("Tool-call mode only")


# ---------------------------------------------------------------- the mock reads its own shapes back

def _read_back(question: str, turns: list[dict], content: str) -> object:
    """The last step the mock reads from a history that holds `content`, answered."""
    observation = TODAY if step_of(turns) == 1 else WEATHER_OBS
    conv = read_conversation(messages(question, [*turns, {"role": "assistant", "content": content},
                                                 observation]))
    return conv.steps[-1]


@pytest.mark.parametrize("label", [s[0] for s in SHAPES if not isinstance(s[4], str)])
def test_the_mock_reads_each_shape_back_as_the_call_it_wrote(label: str) -> None:
    _, _, question, turns, intended, _ = BY_LABEL[label]
    for content in replies(label):
        past = _read_back(question, turns, content)
        if label in ("empty_reply", "echo_question", "echo_prompt"):
            assert past.action in (None, "the"), content  # no call (the prompt echo: its template)
        elif label == "schema_copy":
            assert past.action == "get_weather" and past.action_input["type"] == "object"
        elif label == "json_cut_in_string" and content.endswith('"2025-'):
            assert (past.action, dict(past.action_input)) == ("get_weather", {**ARGS, "date": "2025-"})
        else:
            assert (past.action, dict(past.action_input)) == intended, content


@pytest.mark.parametrize("label", ["input_not_json, two arguments", "input_fenced", "bold_field_lines",
                                   "field_spacing", "multiline_json", "json_blob_action",
                                   "call_syntax, keywords", "action_and_answer"])
def test_after_the_observation_the_next_step_continues_the_run(label: str) -> None:
    _, _, question, turns, _, _ = BY_LABEL[label]
    for content in replies(label)[:4]:
        history = [*turns, {"role": "assistant", "content": content}, WEATHER_OBS]
        step = parse_step(reply(None, question, history).choices[0].message.content)
        assert step.final_answer and "Dust storm" in step.final_answer, (content, step)


@pytest.mark.parametrize("label", ["input_not_json, no argument", "call_syntax, no argument"])
def test_after_a_first_step_shape_the_run_goes_on_to_the_weather(label: str) -> None:
    for content in replies(label)[:4]:
        step = parse_step(reply(None, WEATHER_Q, [{"role": "assistant", "content": content},
                                                  TODAY]).choices[0].message.content)
        assert (step.action, step.action_input) == ("get_weather", ARGS)


@pytest.mark.parametrize("label", ["json_blob_action, final answer", "action_none"])
def test_a_final_answer_shape_ends_the_task_so_the_next_question_opens_a_new_one(label: str) -> None:
    _, _, question, turns, _, _ = BY_LABEL[label]
    for content in replies(label)[:6]:
        history = [*turns, {"role": "assistant", "content": content},
                   {"role": "user", "content": CALC_Q}]
        conv = read_conversation(messages(question, history))
        assert (conv.question, conv.steps) == (CALC_Q, ()), content


# ---------------------------------------------------------------- what the lesson-03 parser handles

# label -> whether parse_step recovers the intended call or answer, per variant: the shapes marked
# False (or both) are the failure clinic's material (lesson 05).
LESSON03 = {
    "input_not_json, two arguments": {False}, "input_not_json, no argument": {True},
    "input_fenced": {True}, "input_inline_code": {True}, "bold_field_lines": {True},
    "field_spacing": {True}, "multiline_json": {True}, "json_cut_in_string": {True, False},
    "json_blob_action": {False}, "json_blob_action, one argument": {False},
    "json_blob_action, final answer": {False}, "call_syntax, keywords": {False},
    "call_syntax, one argument": {True, False}, "call_syntax, no argument": {True},
    "action_none": {False}, "empty_reply": {False}, "echo_question": {False},
    "echo_prompt": {False}, "schema_copy": {False}, "action_and_answer": {True},
}


def _recovers(content: str, intended: object) -> bool:
    """Whether parse_step reads the call (or the final answer) the reply meant. A bare value read
    as {"input": value} counts for a one-argument tool: the registry hands it to that argument."""
    step = parse_step(content)
    if isinstance(intended, str):
        return step.kind == "final" and intended in step.final_answer
    action, args = intended
    one = list(args.values()) if len(args) == 1 else None
    return step.kind == "action" and step.action == action and (
        step.action_input == args or (one is not None and step.action_input == {"input": one[0]}))


def test_which_shapes_the_lesson_03_parser_does_not_handle_yet() -> None:
    found = {label: {_recovers(content, BY_LABEL[label][4]) for content in replies(label)}
             for label in BY_LABEL}
    assert found == LESSON03


# ---------------------------------------------------------------- tool-call (structured) mode

TOOLS = [{"type": "function", "function": {"name": "get_current_date", "description": "today's date",
                                           "parameters": {"type": "object", "properties": {}}}},
         {"type": "function", "function": {"name": "get_weather", "description": "weather of a city",
                                           "parameters": {"type": "object", "properties": {
                                               "city": {"type": "string"}, "date": {"type": "string"}}}}}]
TOOL_MSGS = [{"role": "user", "content": WEATHER_Q}]
TOOL_TURN = [{"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "get_current_date", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "2025-03-14"}]


def structured(quirk: str | None, turns: list[dict], seed: int = 0):
    """A tool-call reply to the weather question, with `quirk` forced on this step."""
    forced = {quirk: [step_of(turns)]} if quirk else None
    return MockLLM(persona=None, quirks=forced, seed=seed).chat.completions.create(
        model="m", messages=[*TOOL_MSGS, *turns], tools=TOOLS)


def test_tool_call_in_content_writes_the_call_as_json_and_no_tool_calls() -> None:
    shapes = set()
    for seed in SEEDS:
        response = structured("tool_call_in_content", TOOL_TURN, seed)
        choice = response.choices[0]
        assert choice.message.tool_calls is None and choice.finish_reason == "stop"
        blob = json.loads(choice.message.content)
        call = blob.get("function", blob)
        assert call["name"] == "get_weather" and call.get("arguments", call.get("parameters")) == ARGS
        shapes.add(tuple(blob))
    assert shapes == {("name", "arguments"), ("type", "function")}


def test_arguments_as_string_encodes_the_arguments_twice() -> None:
    call = structured("arguments_as_string", TOOL_TURN).choices[0].message.tool_calls[0]
    once = json.loads(call.function.arguments)
    assert isinstance(once, str) and json.loads(once) == ARGS


def test_the_mock_reads_its_structured_failures_back() -> None:
    blob = structured("tool_call_in_content", []).choices[0].message.content
    after_blob = [{"role": "assistant", "content": blob}, {"role": "user", "content": "Observation: 2025-03-14"}]
    twice = structured("arguments_as_string", []).choices[0].message.tool_calls[0]
    after_twice = [{"role": "assistant", "content": None, "tool_calls": [twice.model_dump()]},
                   {"role": "tool", "tool_call_id": twice.id, "content": "2025-03-14"}]
    for turns in (after_blob, after_twice):
        call = structured(None, turns).choices[0].message.tool_calls[0]
        assert (call.function.name, json.loads(call.function.arguments)) == ("get_weather", ARGS)


@pytest.mark.parametrize("quirk", ["empty_reply", "echo_question", "schema_copy", "json_cut_in_string"])
def test_degenerate_shapes_have_a_tool_call_form(quirk: str) -> None:
    message = structured(quirk, TOOL_TURN).choices[0].message
    if quirk in ("empty_reply", "echo_question"):
        assert message.tool_calls is None and message.content in ("", WEATHER_Q, f"Question: {WEATHER_Q}",
                                                                  f"The question is:\n\n{WEATHER_Q}")
        return
    arguments = message.tool_calls[0].function.arguments
    if quirk == "schema_copy":
        assert json.loads(arguments)["properties"] == {"city": {"type": "string"}, "date": {"type": "string"}}
    else:
        with pytest.raises(json.JSONDecodeError):
            json.loads(arguments)


@pytest.mark.parametrize("quirk", ["json_blob_action", "call_syntax", "action_none", "multiline_json",
                                   "input_fenced", "bold_field_lines"])
def test_text_only_shapes_leave_tool_calls_alone(quirk: str) -> None:
    forced, clean = structured(quirk, TOOL_TURN), structured(None, TOOL_TURN)
    assert forced.x_mock["quirks_fired"] == []
    message, expected = forced.choices[0].message, clean.choices[0].message
    assert message.content == expected.content
    assert [c.function for c in message.tool_calls] == [c.function for c in expected.tool_calls]


# ---------------------------------------------------------------- like the real replies

SAMPLE = Path(__file__).resolve().parent / "data" / "real_replies_sample.jsonl"
REAL = {json.loads(line)["id"]: json.loads(line)["raw_reply"]
        for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()}
# (shape label, id of a real SmolLM2-135M reply of that shape, a test both replies pass)
LIKE_REAL = [
    ("empty_reply", "smollm2-135m/date_plus3/C/t0.7/s1/step5", lambda text: not text.strip()),
    ("echo_question", "smollm2-135m/calc_17_5_3/C/t0.7/s1/step3",
     lambda text: re.fullmatch(r"Question: [^\n]+\?", text)),
    ("echo_question", "smollm2-135m/order_a1004_amount/B/t0.7/s2/step6",
     lambda text: re.search(r"(?m)^Question: [^\n]+\?\Z", text)),
    ("json_cut_in_string", "smollm2-135m/order_a9999/C/t0.7/s1/step4",  # {"expression": "45 * 12}
     lambda text: re.search(r'Action Input: \{(?:"\w+": "[^"]*", )*"\w+": "[^"]*\}\Z', text)),
    ("input_not_json, two arguments", "smollm2-135m/order_total/B/t0.7/s2/step2",
     lambda text: re.search(r'(?m)^Action Input: [^{\s][^\n]*$', text)),
    ("action_and_answer", "smollm2-135m/date_plus3/C/t0.7/s1/step2",
     lambda text: re.search(r"(?m)^Action: ", text) and re.search(r"(?m)^Final Answer: ", text)
     and not re.search(r"(?m)^Observation:", text)),
]


@pytest.mark.parametrize("label, real_id, test", LIKE_REAL, ids=[f"{s[0]}:{s[1]}" for s in LIKE_REAL])
def test_each_shape_looks_like_a_real_reply(label: str, real_id: str, test) -> None:
    assert test(REAL[real_id]), REAL[real_id]
    assert any(test(content) for content in replies(label))


# ---------------------------------------------------------------- sloppy stays readable

def test_sloppy_drifts_in_its_new_ways_and_the_lesson_03_parser_still_reads_every_reply() -> None:
    from solutions.agent import run_agent

    fired, problems = set(), []
    for seed in range(16):
        for question in (WEATHER_Q, CALC_Q, "What is the status of order A1002?", "明天北京天气？",
                         "What will the date be 3 days from today?"):
            trace = run_agent(question, MockLLM(persona="sloppy", seed=seed), world_tools(), max_steps=8)
            fired.update(q for step in trace.steps for q in step.explanation["quirks_fired"])
            problems += [step.raw_reply for step in trace.steps
                         if step.error or (step.observation or "").startswith("Error")]
    assert {"input_not_json", "input_fenced", "input_inline_code", "bold_field_lines",
            "field_spacing"} <= fired
    assert problems == []  # lesson 02: "even sloppy's messy formatting ... lesson 03's parser reads it"
