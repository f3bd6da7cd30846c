"""Tests for mockllm.reading.conversation: what the mock model reads from a chat request."""
from __future__ import annotations

import json

import pytest

from mockllm.reading.conversation import (Conversation, PastStep, ToolSpec, parse_reply,
                                          read_conversation)
from policy_world import EXAMPLE

SYSTEM = """You are a helpful assistant. Answer the user's question.

You have access to the following tools:
- get_current_date: returns today's date. Input: {}
- calculator: evaluates an arithmetic expression. Input: {"expression": "<expression>"}
- get_weather: returns the weather for a city on a date. Input: {"city": "<city>", "date": "<YYYY-MM-DD>"}
- lookup_order: returns the status of an order. Input: {"order_id": "<order id>"}

Use exactly this format:

Thought: think about what to do next
Action: the tool to use, one of [get_current_date, calculator, get_weather, lookup_order]
Action Input: the input for the tool, as a JSON object

Rules:
- Write only one Action per reply.
- Never write the Observation yourself.
- Final Answer is not a tool.
- Stop when you have enough information.
- For live data you must call a tool; never guess.
"""


def conv_of(*turns: tuple[str, object], system: str = SYSTEM, tools: list | None = None
            ) -> Conversation:
    """Read a conversation given as (role, content) pairs after the system prompt."""
    messages = [{"role": "system", "content": system}]
    messages += [{"role": r, "content": c} for r, c in turns]
    return read_conversation(messages, tools)


def test_text_tools_and_parameters_from_the_system_prompt() -> None:
    conv = conv_of(("user", "Question: What is today's date?"))
    assert [t.name for t in conv.tools] == ["get_current_date", "calculator", "get_weather",
                                            "lookup_order"]
    assert conv.tools[0].parameters == ()
    assert conv.tools[2] == ToolSpec("get_weather", conv.tools[2].description, ("city", "date"))
    assert conv.mode == "text" and conv.question == "What is today's date?"
    assert conv.language == "en" and conv.step == 1 and conv.steps == ()


@pytest.mark.parametrize("tool_list", [
    "你可以使用以下工具：\n- get_current_date：返回今天的日期。输入：{}\n"
    "- get_weather：查询天气。输入：{\"city\": \"<城市>\", \"date\": \"<日期>\"}",
    "## Tools\n* get_current_date: today's date\n* get_weather: weather, e.g. "
    "get_weather({\"city\": \"Beijing\", \"date\": \"2025-03-14\"})",
    "Tools:\nget_current_date: today's date\n**get_weather**: weather. Input: {'city': 'x', 'date': 'y'}",
    "TOOLS\n1. get_current_date: today's date\n2. get_weather(city, date): the weather",
    "Available tools:\n- `get_current_date`: today's date\n- `get_weather`: the weather for\n"
    "    a city. Input: {\"city\": \"<city>\", \"date\": \"<date>\"}",
])
def test_tool_list_variants(tool_list: str) -> None:
    conv = conv_of(("user", "北京今天天气怎么样？"), system=f"你是助手。\n\n{tool_list}\n\nRules: be nice.")
    assert [t.name for t in conv.tools] == ["get_current_date", "get_weather"]
    assert conv.tools[1].parameters == ("city", "date")
    assert conv.language == "zh"


def test_tools_from_an_action_line_when_no_list() -> None:
    conv = conv_of(("user", "hi"), system="Action: one of [get_current_date, calculator]")
    assert [t.name for t in conv.tools] == ["get_current_date", "calculator"]


def test_structured_tools() -> None:
    tools = [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"location": {"type": "string"},
                                                        "day": {"type": "string"}}}}},
             {"type": "function", "function": {"name": "get_current_date"}}]
    conv = conv_of(("user", "Weather?"), system="", tools=tools)
    assert conv.mode == "structured"
    assert conv.tools == (ToolSpec("get_weather", "Weather for a city", ("location", "day")),
                          ToolSpec("get_current_date", "", ()))


def test_rules_and_example() -> None:
    conv = conv_of(("user", "Question: hi"))
    assert conv.rules == {"format", "one_action", "no_observation", "final_not_tool",
                          "stop_when_enough", "live_data"}
    assert not conv.has_example and conv.example_values == ()
    conv = conv_of(("user", "Question: hi"), system=SYSTEM + "\n\n" + EXAMPLE)
    assert "example" in conv.rules and conv.has_example
    assert conv.example_values == ("45 * 3 - 10", "125", "45 * 3 - 10 = 125")
    template = "Question: the input question\nThought: ...\nObservation: the result of the action"
    assert not conv_of(("user", "hi"), system=template).has_example
    assert conv_of(("user", "hi"), system="").rules == frozenset()


@pytest.mark.parametrize("section, expected", [
    ("## Memory\n- last_city: Shanghai\n- units: metric", {"last_city": "Shanghai", "units": "metric"}),
    ("Known facts about the user:\nThe user's city is Shanghai.", {"city": "Shanghai"}),
    ("Summary of earlier sessions: last time the user asked about Shanghai.", {"last_city": "Shanghai"}),
    ("记忆：\n- last_city: Shanghai", {"last_city": "Shanghai"}),
    ("[Memory]\nlast_city = Shanghai\n\nRules:\n- be brief", {"last_city": "Shanghai"}),
])
def test_memory_sections(section: str, expected: dict) -> None:
    assert conv_of(("user", "hi"), system=f"{SYSTEM}\n{section}\n").memory == expected


def test_no_memory_section_means_empty_memory() -> None:
    assert conv_of(("user", "hi")).memory == {}


@pytest.mark.parametrize("question, expected", [
    ("Question: What is 2 + 2?", "What is 2 + 2?"), ("问题：今天几号？", "今天几号？"),
    ("Question：What day is it?\nThought:", "What day is it?"), ("  plain question ", "plain question"),
])
def test_question_prefix_removed(question: str, expected: str) -> None:
    assert conv_of(("user", question)).question == expected


@pytest.mark.parametrize("reply, action, action_input", [
    ("Thought: x\nAction: get_weather\nAction Input: {\"city\": \"Beijing\"}", "get_weather",
     {"city": "Beijing"}),
    ("**Thought:** x\n**Action:** get_weather\n**Action Input:** {\"city\": \"Beijing\"}",
     "get_weather", {"city": "Beijing"}),
    ("Thought：x\nAction：get_weather\nAction Input：{“city”： “Beijing”，}", "get_weather",
     {"city": "Beijing"}),
    ("Sure!\nthought: x\naction: calculator\naction input: {'expression': '2 * 3',} thanks",
     "calculator", {"expression": "2 * 3"}),
    ("Action: lookup_order\nAction Input: A1002", "lookup_order", {"order_id": "A1002"}),
    ("Action: get_weather\nAction Input: Beijing, 2025-03-14", "get_weather",
     {"city": "Beijing", "date": "2025-03-14"}),
    ("Action: mystery\nAction Input: hello", "mystery", {"input": "hello"}),
    ("Action: get_current_date\nAction Input: {}\nObservation: 2025-03-14\nFinal Answer: x",
     "get_current_date", {}),
    ("Action: calculator\nAction Input: {broken", "calculator", {}),
    ("Action: write_report\nAction Input: {\"body\": \"合计（2 个订单）：75\"}", "write_report",
     {"body": "合计（2 个订单）：75"}),
    ("Action：calculator\nAction Input：{“expression”：“（17 + 5） * 3”}", "calculator",
     {"expression": "(17 + 5) * 3"}),
    ("Action: calculator({\"expression\": \"1 + 1\"})", "calculator", {"expression": "1 + 1"}),
    ("Thought: done\nAction: Final Answer\nAction Input: 42", None, {}),
    ("Thought: done\nFinal Answer: 42", None, {}),
    ("just chatting", None, {}),
    ("Observation: 2025-03-14\nAction: get_current_date", None, {}),
])
def test_parse_reply_is_lenient(reply: str, action: str | None, action_input: dict) -> None:
    tools = conv_of(("user", "hi")).tools
    assert parse_reply(reply, tools) == (action, action_input)


def test_text_steps_pair_actions_with_observations() -> None:
    conv = conv_of(
        ("user", "Question: weather?"),
        ("assistant", "Thought: date\nAction: get_current_date\nAction Input: {}"),
        ("user", "Observation: 2025-03-14"),
        ("assistant", "I think the answer is sunny."),
        ("user", "Observation: Error: could not parse your reply. Use the format."),
        ("assistant", "Thought: now\nAction: get_weather\nAction Input: {\"city\": \"Beijing\"}"))
    assert conv.steps == (
        PastStep("get_current_date", {}, "2025-03-14",
                 "Thought: date\nAction: get_current_date\nAction Input: {}"),
        PastStep(None, {}, "Error: could not parse your reply. Use the format.",
                 "I think the answer is sunny."),
        PastStep("get_weather", {"city": "Beijing"}, None, conv.steps[2].reply))
    assert conv.corrections == {"format"} and conv.last_correction is None and conv.step == 4


@pytest.mark.parametrize("text, kind", [
    ("Error: unknown tool weather. Available tools: get_weather", "unknown_tool"),
    ("You repeated the same call; use the observation you already have.", "repeat"),
    ("格式错误，请按格式回复。", "format"), ("Observation: 2025-03-14", None)])
def test_corrections_and_last_correction(text: str, kind: str | None) -> None:
    conv = conv_of(("user", "Question: q"), ("assistant", "Action: weather\nAction Input: {}"),
                   ("user", text))
    assert conv.last_correction == kind
    assert conv.corrections == ({kind} if kind else set())


def test_structured_steps_with_tool_messages() -> None:
    tools = [{"type": "function", "function": {"name": "get_current_date", "parameters": {}}},
             {"type": "function", "function": {"name": "lookup_order", "parameters": {
                 "type": "object", "properties": {"order_id": {"type": "string"}}}}}]
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Status of "}, {"type": "text",
                                                                               "text": "A1002?"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_current_date", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "lookup_order",
                                                          "arguments": json.dumps({"order_id": "A1002"})}}]},
        {"role": "tool", "tool_call_id": "c2", "content": "Order A1002: shipped"},
        {"role": "tool", "tool_call_id": "c1", "content": "2025-03-14"}]
    conv = read_conversation(messages, tools)
    assert conv.question == "Status of A1002?" and conv.system == ""
    assert conv.steps == (PastStep("get_current_date", {}, "2025-03-14", ""),
                          PastStep("lookup_order", {"order_id": "A1002"}, "Order A1002: shipped", ""))
    assert conv.step == 2 and conv.last_correction is None


def test_new_question_after_a_final_answer_starts_a_new_task() -> None:
    conv = conv_of(
        ("user", "Question: What's the weather in Shanghai today?"),
        ("assistant", "Action: get_weather\nAction Input: {\"city\": \"Shanghai\", \"date\": \"2025-03-14\"}"),
        ("user", "Observation: Shanghai 2025-03-14: Overcast"),
        ("assistant", "Thought: done\nFinal Answer: Overcast."),
        ("user", "Question: the city I asked about last time - check Beijing instead"))
    assert conv.question == "the city I asked about last time - check Beijing instead"
    assert conv.steps == () and conv.memory == {"last_city": "Shanghai"} and conv.step == 3


@pytest.mark.parametrize("messages", [
    [], [{"role": "user"}], [{"role": "assistant", "content": None, "tool_calls": None}],
    [{"role": "user", "content": "q"}, {"role": "tool", "content": "orphan"}],
    [{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": [
        {"id": "x", "function": {"name": "calculator", "arguments": "not json"}}]}],
    [{"role": "developer", "content": [{"type": "text", "text": "Tools:\n- calc: math"}]},
     {"role": "user", "content": None}, {"role": "user", "content": "Observation: x"}],
])
def test_odd_messages_never_raise(messages: list) -> None:
    conv = read_conversation(messages, None)
    assert isinstance(conv, Conversation)


def test_an_unclosed_brace_followed_by_chatter_is_read_as_the_call() -> None:
    from mockllm.reading.replies import parse_input

    assert parse_input('{"expression": "(17 + 5) * 3"\n\nI will wait for the result.') == {
        "expression": "(17 + 5) * 3"}
