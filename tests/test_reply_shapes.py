"""mockllm.reading.reply_shapes: the JSON-blob, call-syntax and 'Action: None' readers, and that
they stay linear on hostile input."""
from __future__ import annotations

import pytest

from mockllm.reading.replies import _reply_call, parse_input, parse_reply
from mockllm.reading.reply_shapes import MAX_ARGS, call_arguments, is_no_action, read_blob
from mockllm.reading.system_prompt import ToolSpec
from timing import best_seconds

TOOLS = (ToolSpec("calculator", "", ("expression",)), ToolSpec("get_weather", "", ("city", "date")))


@pytest.mark.parametrize("text, expected", [
    ('{"action": "calculator", "action_input": "2+2"}', ("calculator", "2+2")),
    ('{"tool_name": "get_weather", "tool_arguments": {"city": "Beijing"}}', ("get_weather", {"city": "Beijing"})),
    ('{"arguments": {"a": 2}, "name": "calculate"}', ("calculate", {"a": 2})),  # input key first
    ('{"type": "function", "function": {"name": "f", "parameters": {"x": "y"}}}', ("f", {"x": "y"})),
    ('{"action": "Final Answer", "action_input": "4"}', (None, {})),
    ('{"action": "final_answer", "action_input": {"answer": "4"}}', (None, {})),
    ('{"action": "search", "action_input": "say \\"hi\\" {now}"}', ("search", 'say "hi" {now}')),
    ('{"action": "f", "action_input": {"q": "a } b"}}', ("f", {"q": "a } b"})),
    ('{"action": "f", "action_input": null}', ("f", "")),
    ('{"action": "f", "action_input": 42}', ("f", "42")),
])
def test_read_blob_reads_the_shapes_of_agent_frameworks_and_servers(text: str, expected: tuple) -> None:
    assert read_blob(text, parse_input) == expected


@pytest.mark.parametrize("text", ["no JSON here", '{"action": "f"}', '{"name": "Bob"}',
                                  '{"city": "Beijing", "date": "2025-03-15"}', ""])
def test_read_blob_needs_a_name_key_and_an_input_key(text: str) -> None:
    assert read_blob(text, parse_input) is None


def test_an_ordinary_action_input_that_names_a_name_is_not_a_blob() -> None:
    reply = 'Thought: look the user up.\nAction: lookup_user\nAction Input: {"name": "Bob", "arguments": 1}'
    assert parse_reply(reply) == ("lookup_user", {"name": "Bob", "arguments": 1})


def test_call_arguments() -> None:
    assert call_arguments('city="Beijing", date="2025-03-15"') == {"city": "Beijing", "date": "2025-03-15"}
    assert call_arguments('date="2025-01-10", days=30, exact=true') == {
        "date": "2025-01-10", "days": 30, "exact": True}
    assert call_arguments("q='a, b', n=1") == {"q": "a, b", "n": 1}
    assert call_arguments('q="a, b"') == {"q": "a, b"}
    assert call_arguments('"2 + 2"') is None and call_arguments("") is None
    many = ", ".join(f"a{i}={i}" for i in range(MAX_ARGS + 10))
    assert len(call_arguments(many)) == MAX_ARGS


@pytest.mark.parametrize("line, expected", [
    ("None", True), ("N/A", True), ("none.", True), ("(no action needed)", True),
    ("None (direct response required)", True), ("No action needed", True), ("**None**", True),
    ("calculator", False), ("none_tool", False), ("get_current_date", False), ("Nonesuch", False),
])
def test_is_no_action(line: str, expected: bool) -> None:
    assert is_no_action(line) is expected


def test_deep_nesting_in_a_blob_is_refused_without_recursion() -> None:
    deep = '{"action": "f", "action_input": {"a": ' + "[" * 100_000 + "}"
    assert _reply_call.__wrapped__(deep) == ("f", {})
    assert _reply_call.__wrapped__("Action: f(" + "[" * 100_000 + ")")[0] == "f"


HOSTILE = {
    "escaped quotes": lambda n: '{"action": "f", "action_input": {"a": "' + '\\"' * n + '"}}',
    "open string": lambda n: '{"action": "f", "action_input": {"a": "' + "x" * n,
    "open name": lambda n: '"name": "' + "x" * n,
    "many action keys": lambda n: '"action": "x", ' * (n // 14),
    "open call strings": lambda n: "Action: t(" + 'a="' * (n // 3) + ")",
    "many empty kwargs": lambda n: "Action: t(" + ",a=" * (n // 3) + ")",
    "brackets": lambda n: '{"action": "f", "action_input": {' + "[]" * (n // 2) + "}}",
}


def _seconds(text: str) -> float:
    """The best of three timings of reading `text` as a reply (no memo)."""
    return best_seconds(lambda: _reply_call.__wrapped__(text))


@pytest.mark.parametrize("name", HOSTILE)
def test_the_readers_grow_linearly_on_hostile_replies(name: str) -> None:
    small, large = _seconds(HOSTILE[name](50_000)), _seconds(HOSTILE[name](200_000))
    assert large < 8 * small + 0.05, (name, small, large)  # quadratic would be 16x
