"""Tests for solutions.parsing (lesson 03): every failure of the lesson, fuzz, and real replies."""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from solutions import parsing
from solutions.parsing import Step, parse_action_input, parse_step

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "data" / "real_replies_sample.jsonl"
FULL = HERE.parent.parent / "shared" / "data" / "real-replies" / "smollm2-135m.jsonl"
CALC = {"expression": "(17 + 5) * 3"}
WEATHER = {"city": "Beijing", "date": "2025-03-15"}
ACTION = 'Thought: I should compute this.\nAction: calculator\nAction Input: {"expression": "(17 + 5) * 3"}'

CASES: list[tuple[str, str, dict]] = [
    ("well formed action", "Thought: I need today's date first.\nAction: get_current_date\nAction Input: {}",
     {"thought": "I need today's date first.", "action": "get_current_date", "action_input": {}}),
    ("well formed final", "Thought: I now know the final answer.\nFinal Answer: Today is 2025-03-14.",
     {"thought": "I now know the final answer.", "final_answer": "Today is 2025-03-14."}),
    ("chatter before", "Sure! Let me work this out.\n\n" + ACTION, {"action": "calculator", "action_input": CALC}),
    ("chatter after", ACTION + "\n\nI hope this helps!", {"action": "calculator", "action_input": CALC}),
    ("full-width colons", ACTION.replace(":", "：", 3).replace("：", ":", 0), {"action": "calculator", "action_input": CALC}),
    ("full-width json", 'Thought：想一想\nAction：get_weather\nAction Input：{“city”：“Beijing”，“date”：“2025-03-15”}',
     {"thought": "想一想", "action": "get_weather", "action_input": WEATHER}),
    ("full-width parentheses", ACTION.replace("(17 + 5)", "（17 + 5）"), {"action_input": CALC}),
    ("curly quotes", 'Action: get_weather\nAction Input: {“city”: “Beijing”, ‘date’: ‘2025-03-15’}',
     {"action_input": WEATHER}),
    ("bold fields", "**Thought:** I need the date.\n**Action:** get_current_date\n**Action Input:** {}",
     {"thought": "I need the date.", "action": "get_current_date", "action_input": {}}),
    ("bold names, colon outside", "**Thought**: I need the date.\n**Action**: `get_current_date`\n**Action Input**: `{}`",
     {"thought": "I need the date.", "action": "get_current_date", "action_input": {}}),
    ("headings", "### Thought\nI need the date.\n### Action\nget_current_date\n### Action Input\n{}",
     {"thought": "I need the date.", "action": "get_current_date", "action_input": {}}),
    ("list bullets", "- Thought: x\n- Action: calculator\n- Action Input: {\"expression\": \"(17 + 5) * 3\"}",
     {"action": "calculator", "action_input": CALC}),
    ("code fence", 'Thought: x\nAction: calculator\nAction Input:\n```json\n{"expression": "(17 + 5) * 3"}\n```',
     {"action": "calculator", "action_input": CALC}),
    ("lower-case names", ACTION.lower().replace("calculator", "calculator"), {"action": "calculator", "action_input": CALC}),
    ("json then prose", ACTION + " (this multiplies the sum by three)", {"action_input": CALC}),
    ("single quotes", ACTION.replace('"', "'"), {"action_input": CALC}),
    ("single quotes with apostrophe", "Action: search_docs\nAction Input: {'query': 'what's the return policy'}",
     {"action": "search_docs", "action_input": {"query": "what's the return policy"}}),
    ("trailing comma", 'Action: get_weather\nAction Input: {"city": "Beijing", "date": "2025-03-15",}',
     {"action_input": WEATHER}),
    ("unclosed brace", 'Action: get_weather\nAction Input: {"city": "Beijing", "date": "2025-03-15"',
     {"action_input": WEATHER}),
    ("unclosed string", 'Action: lookup_order\nAction Input: {"order_id": "A1002}', {"action_input": {"order_id": "A1002"}}),
    ("action and final: action wins", "Thought: I need the date.\nAction: get_current_date\nAction Input: {}\n"
     "Final Answer: Today is 2025-03-14.", {"action": "get_current_date", "final_answer": None}),
    ("final first: final wins", "Thought: done\nFinal Answer: 66\nThought: more\nAction: calculator\nAction Input: {}",
     {"final_answer": "66", "action": None}),
    ("fabricated observation", "Thought: I need the date.\nAction: get_current_date\nAction Input: {}\n"
     "Observation: 2025-03-14\nThought: I now know the final answer.\nFinal Answer: It is 2025-03-14.",
     {"action": "get_current_date", "action_input": {}, "final_answer": None}),
    ("action: final answer, json", 'Thought: done\nAction: Final Answer\nAction Input: {"answer": "66"}',
     {"final_answer": "66", "action": None}),
    ("action: final answer, text", "Thought: I know it.\nAction: Final Answer\nAction Input: The result is 66.",
     {"final_answer": "The result is 66", "action": None}),
    ("action: final_answer, first value", 'Action: final_answer\nAction Input: {"result": 12.5}',
     {"final_answer": "12.5"}),
    ("chinese final marker", "Thought: 我知道答案了。\n最终答案：今天是2025年3月14日。",
     {"final_answer": "今天是2025年3月14日。", "action": None}),
    ("final answer, lower case", "Thought: ok\nFinal answer: 89", {"final_answer": "89"}),
    ("missing action input", "Thought: I should compute this.\nAction: calculator",
     {"action": "calculator", "action_input": {}}),
    ("bare string input", "Thought: look it up\nAction: search_docs\nAction Input: return policy",
     {"action": "search_docs", "action_input": {"input": "return policy"}}),
    ("quoted string input", 'Action: calculator\nAction Input: "(17 + 5) * 3"', {"action_input": {"input": "(17 + 5) * 3"}}),
    ("none input", "Action: get_current_date\nAction Input: None", {"action_input": {}}),
    ("call syntax", "Thought: x\nAction: calculator((17 + 5) * 3)", {"action": "calculator", "action_input": {"input": "(17 + 5) * 3"}}),
    ("one line", 'Thought: x\nAction: calculator Action Input: {"expression": "(17 + 5) * 3"}',
     {"action": "calculator", "action_input": CALC}),
    ("two actions: the first", ACTION + '\n\nThought: next\nAction: get_weather\nAction Input: {"city": "Beijing"}',
     {"action": "calculator", "action_input": CALC}),
    ("windows newlines", ACTION.replace("\n", "\r\n"), {"action": "calculator", "action_input": CALC}),
    ("quoted tool name", 'Action: "calculator".\nAction Input: {"expression": "(17 + 5) * 3"}', {"action": "calculator"}),
    ("numbered fields", "Thought 1: I need the date.\nAction 1: get_current_date\nAction Input 1: {}",
     {"thought": "I need the date.", "action": "get_current_date", "action_input": {}}),
    ("multi-line final answer", "Thought: done\nFinal Answer: Sales:\n- Books: 59.90\n- Toys: 35.50",
     {"final_answer": "Sales:\n- Books: 59.90\n- Toys: 35.50"}),
]

ERRORS: list[tuple[str, str, str]] = [
    ("prose only", "100 / 8 = 12.5\n\nThe answer is 12.5.", "no 'Action:' or 'Final Answer:' line"),
    ("empty", "", "the reply is empty"),
    ("blank", "  \n\t\n", "the reply is empty"),
    ("thought only", "Thought: I should use a tool.", "found a Thought but no"),
    ("observation only", "Observation: The answer is 8.", "never write the Observation yourself"),
    ("final after observation", "Think: 3 * 17\nObservation: 37\nFinal Answer: 17 * 17 = 312", "was ignored"),
    ("empty action", "Thought: x\nAction: \nFinal Answer: 3 + 3 = 6", "names no tool"),
    ("empty final", "Thought: I now know the final answer\nFinal Answer: \nThought: again", "is empty"),
    ("input without action", 'Thought: x\nAction Input: {"a": 1}', "no 'Action:' line"),
    ("broken json", "Action: calculator\nAction Input: {expression: (17 + 5) * 3", "not a valid JSON object"),
    ("json list", 'Action: calculator\nAction Input: ["(17 + 5) * 3"]', "not a list"),
    ("final answer as tool, no answer", "Action: Final Answer", "Final Answer is not a tool"),
    ("bare word fields", "Thought it over. Actions speak louder.", "no 'Action:'"),
]


def fields(step: Step) -> dict[str, Any]:
    """Return the step's fields except raw."""
    return {name: getattr(step, name) for name in ("thought", "action", "action_input", "final_answer", "error")}


def assert_consistent(step: Step, text: object) -> None:
    """A step is an error, an action or a final answer - exactly one - and keeps the raw text."""
    assert isinstance(step, Step) and isinstance(step.action_input, dict)
    assert all(isinstance(key, str) for key in step.action_input)
    assert step.raw == (text if isinstance(text, str) else step.raw)
    if step.error is not None:
        assert "could not parse" in step.error and "Action Input:" in step.error
        assert step.action is None and step.final_answer is None and step.kind == "error"
    else:
        assert (step.action is None) != (step.final_answer is None)
        assert step.action is None or step.action.strip()


@pytest.mark.parametrize(("label", "text", "expected"), CASES, ids=[case[0] for case in CASES])
def test_lesson_cases(label: str, text: str, expected: dict) -> None:
    """Each failure the lesson names is parsed into the right step, with no error."""
    step = parse_step(text)
    assert_consistent(step, text)
    assert step.error is None, step.error
    got = fields(step)
    assert {name: got[name] for name in expected} == expected


@pytest.mark.parametrize(("label", "text", "problem"), ERRORS, ids=[case[0] for case in ERRORS])
def test_format_errors(label: str, text: str, problem: str) -> None:
    """Unusable replies become a corrective message saying what was wrong and the format."""
    step = parse_step(text)
    assert_consistent(step, text)
    assert step.error is not None and problem in step.error
    assert step.error.startswith("Error: could not parse your reply:")
    assert "Thought: <your reasoning>\nAction: <one tool name>\nAction Input: <a JSON object" in step.error
    assert "Final Answer: <the answer>" in step.error


def test_thought_kept_on_error() -> None:
    """An error step still shows the thought, for the trace."""
    assert parse_step("Thought: hmm\nAction: \n").thought == "hmm"


@pytest.mark.parametrize("value", [None, 42, 3.5, ["Thought: x"], {"Action": "x"}, object()])
def test_non_text_is_an_error(value: object) -> None:
    """Anything that is not text is a format error, not an exception."""
    step = parse_step(value)  # type: ignore[arg-type]
    assert step.error is not None and "not text" in step.error and step.raw == ""


def test_bytes_are_decoded() -> None:
    """A reply in bytes is decoded as UTF-8."""
    assert parse_step("Thought: x\nFinal Answer: 五".encode()).final_answer == "五"


@pytest.mark.parametrize(("text", "expected"), [
    (None, ({}, None)), ("", ({}, None)), ("{}", ({}, None)), ("null", ({}, None)),
    ('{"a": 1}', ({"a": 1}, None)), ("{1: 2}", ({"1": 2}, None)),
    ("\n- Output: chatter", ({}, None)),  # nothing on the line and no JSON below: missing
    ("\n```\n{\"a\": 1}\n```", ({"a": 1}, None)),
])
def test_parse_action_input(text: str | None, expected: tuple) -> None:
    """Action Input text to arguments, repaired where possible."""
    assert parse_action_input(text) == expected


# ---------------------------------------------------------------- fuzz

PIECES = ["Thought:", "Action:", "Action Input:", "Final Answer:", "Observation:", "最终答案：", "Thought：",
          "**", "###", "- ", "`", "```json", "{", "}", "[", "]", '"', "'", "“", "”", "：", "，", "（", "）",
          ",", ":", "\n", "\n\n", " ", "calculator", "Final Answer", "{}", '{"expression": "1+1"}', "\\",
          "\x00", "é", "𝔘", "\r\n", "None", "answer", "\t", ">", "1.", "(", ")", "\ufeff", "\u2028"]


def fuzz_texts(count: int) -> Iterator[str]:
    """Yield `count` reproducible random-ish replies built from ReAct fragments (hashlib, no random)."""
    for index in range(count):
        digest = hashlib.blake2b(f"fuzz-{index}".encode(), digest_size=64).digest()
        yield "".join(PIECES[byte % len(PIECES)] for byte in digest[:8 + digest[0] % 56])


def test_fuzz_never_raises() -> None:
    """Three thousand odd replies: always a consistent Step."""
    for text in fuzz_texts(3000):
        assert_consistent(parse_step(text), text)


@pytest.mark.parametrize("text", [
    " " * 1_000_000, "\n" * 200_000, "Thought: " + "a" * 1_000_000, "{" * 300_000, "[" * 300_000,
    "Action: calculator\nAction Input: " + "{" * 200_000, "Action: x\nAction Input: " + '{"a": ' * 50_000,
    "Thought: x\n" * 100_000, "Action: x\nAction Input: {'a': " + "(" * 1000 + "}",
    "Action: x\nAction Input: {" + "'a' " * 400 + "}", "**" * 300_000 + "Action", "-" * 500_000 + "Action:",
    "Action: calculator\nAction Input: {\"a\": \"" + "\\" * 100_001 + "\"}",
], ids=lambda text: repr(text[:24]) + f"..{len(text)}")
def test_huge_and_pathological_inputs(text: str) -> None:
    """Big or nasty replies finish quickly and never raise."""
    started = time.perf_counter()
    assert_consistent(parse_step(text), text)
    assert time.perf_counter() - started < 5.0  # typically well under 0.5 s


# ---------------------------------------------------------------- real replies of a small model

def load(path: Path) -> list[dict]:
    """Read a JSON-lines file of real replies."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def check_labelled(row: dict) -> None:
    """Assert a sensible outcome for one real reply, given its labels."""
    raw, labels, shape, loop = row["raw_reply"], set(row["labels"]), row["reply_shape"], row["loop_parse"]
    step = parse_step(raw)
    assert_consistent(step, raw)
    if shape in ("prose_only", "empty", "thought_only", "other_fields_only"):
        assert step.error is not None, raw
    if "well_formed_action" in labels:
        assert (step.action, step.action_input) == (loop["tool"], json.loads(loop["input"])), raw
    if "fabricated_observation" in labels and step.final_answer is not None:
        assert step.final_answer in raw[:raw.find("Observation:")], raw
    if "action_and_final_in_one_reply" in labels:
        assert step.final_answer is None, raw
    if "missing_action_input" in labels and step.action is not None:
        assert step.action_input == {}, raw
    if step.action is not None:
        assert loop["kind"] == "action" and loop["tool"].startswith(step.action.rstrip("]")[:4]), raw
    if step.final_answer is not None:
        assert loop["kind"] == "final" and loop["answer"].startswith(step.final_answer[:20]), raw


def test_sample_of_real_replies() -> None:
    """A labelled sample kept in the repository, so this always runs."""
    rows = load(SAMPLE)
    assert len(rows) >= 40 and len({label for row in rows for label in row["labels"]}) >= 15
    for row in rows:
        check_labelled(row)


@pytest.mark.skipif(not FULL.exists(), reason=f"the full set of real replies is not at {FULL}")
def test_all_public_real_replies() -> None:
    """All 1036 public replies: never raises, and the labelled cases come out sensibly."""
    rows = load(FULL)
    assert len(rows) == 1036
    for row in rows:
        check_labelled(row)
    parsed = [parse_step(row["raw_reply"]) for row in rows]
    assert sum(step.action is not None for step in parsed) >= 80
    assert sum(step.error is not None for step in parsed) >= 900  # the model rarely follows the format
    labels = [label for row in rows for label in row["labels"]]
    assert (labels.count("well_formed_action"), labels.count("well_formed_final")) == (22, 0)  # lesson 03 says so


def test_public_names_name_their_lesson() -> None:
    """Each reference function says which lesson builds it."""
    for name in ("Step", "parse_step", "parse_action_input", "format_error"):
        assert "Built in lesson 03 (Parsing the reply)." in getattr(parsing, name).__doc__
