"""Tests for the mock model's brain (mockllm.brain: policy, families) and mockllm.reply.render.

Full runs: decide a move, render it, feed back a world-format observation from the tiny
test-only world in `policy_world.py` (not mockllm.world), and read the conversation again until a
final answer.
"""
from __future__ import annotations

import re

import pytest

from mockllm.brain.context import Move
from mockllm.brain.policy import decide
from mockllm.reading.tool_kinds import tool_kind
from mockllm.reading.conversation import ToolSpec, read_conversation
from mockllm.reply.render import render_text, render_tool_calls
from policy_world import BASIC, WORLD, calls, drive, order_text, run_tool, system_prompt


ALL = BASIC + ("list_orders", "search_docs", "get_calendar")
CASES = [  # question, tools, family, words the final answer must hold, number of moves
    ("What is today's date?", BASIC, "date_today", ["2025-03-14"], 2),
    ("What will the date be 3 days from today?", BASIC, "date_offset", ["2025-03-17"], 3),
    ("What date was it a week ago?", BASIC, "date_offset", ["2025-03-07"], 3),
    ("What date is 50 days after 2025-01-01?", BASIC, "date_offset", ["2025-02-20"], 2),
    ("What is (17 + 5) * 3?", BASIC, "arithmetic", ["66"], 2),
    ("What is 100 divided by 8?", BASIC, "arithmetic", ["12.5"], 2),
    ("What is 12 times 7 plus 5?", BASIC, "arithmetic", ["89"], 2),
    ("What is 15% of 80?", BASIC, "arithmetic", ["12"], 2),
    ("What is 2 to the power of 10?", BASIC, "arithmetic", ["1024"], 3),
    ("How many hours are there in 365 days? (365 * 24)", BASIC, "arithmetic", ["8760"], 2),
    ("What's the weather like in Beijing today?", BASIC, "weather",
     ["Partly cloudy", "3°C to 15°C", "N 10 km/h"], 3),
    ("What will the weather be in London tomorrow?", BASIC, "weather",
     ["Sunny intervals", "2025-03-15"], 3),
    ("What was the weather in Shanghai yesterday?", BASIC, "weather", ["Light rain", "2025-03-13"], 3),
    ("Will it rain in Shanghai on 2025-03-15?", BASIC, "weather", ["Yes", "Moderate rain"], 2),
    ("What is the weather in Paris today?", BASIC, "weather", ["no weather data", "Paris"], 3),
    ("Which city is warmer today, Beijing or Shanghai?", BASIC, "weather_compare",
     ["Shanghai is warmer", "17°C", "15°C"], 4),
    ("Compare today's weather in London and Shanghai.", BASIC, "weather_compare",
     ["Light rain", "Overcast", "5°C to 11°C", "10°C to 17°C"], 4),
    ("Is tomorrow a good day for a morning run in Beijing?", BASIC, "run_advice",
     ["No", "dust storm", "45 km/h", "AQI 182"], 3),
    ("Is tomorrow morning good for a run?", ALL, "run_advice", ["No", "Dentist", "07:30"], 4),
    ("Is the morning of 2025-03-16 good for a run in Beijing?", ALL, "run_advice", ["Yes"], 3),
    ("What is the status of order A1002?", BASIC, "order_status", ["shipped"], 2),
    ("How much did order A1004 cost?", BASIC, "order_status", ["249.99 CNY"], 2),
    ("What is the status of order A9999?", BASIC, "order_status", ["not found"], 2),
    ("What is the total amount of orders A1001 and A1002?", BASIC, "order_total", ["179.90 CNY"], 4),
    ("How many orders were placed between 2025-03-01 and 2025-03-10?", ALL, "orders_range",
     ["3 orders", "215.40 CNY"], 2),
    ("How many orders last week?", ALL, "orders_range", ["2025-03-03", "2025-03-09", "was 1 order"], 3),
    ("How many orders this month?", ALL, "orders_range", ["5 orders", "480.39"], 3),
    ("What is the return policy?", ALL, "doc_lookup", ["doc-07", "30 days"], 2),
    ("How long does shipping take?", ALL, "doc_lookup", ["doc-03", "3-5 days"], 2),
    ("What is the capital of France?", BASIC, "general", ["Paris"], 1),
    ("What was the original name of the writer Lu Xun?", BASIC, "general", ["Zhou Shuren"], 1),
    ("Tell me a joke about cats.", BASIC, "unknown", ["not sure"], 1),
    ("今天几号？", BASIC, "date_today", ["2025-03-14"], 2),
    ("今天几号？三天后呢？", BASIC, "date_offset", ["2025-03-14", "2025-03-17"], 3),
    ("50天后是几号？", BASIC, "date_offset", ["2025-05-03"], 3),
    ("北京今天天气怎么样？", BASIC, "weather", ["多云", "3°C 至 15°C", "北风 10 km/h"], 3),
    ("上海明天会下雨吗？", BASIC, "weather", ["会", "中雨"], 3),
    ("北京和上海今天哪个更暖和？", BASIC, "weather_compare", ["上海更暖和", "17°C"], 4),
    ("明天早上适合在北京跑步吗？", ALL, "run_advice", ["不适合", "沙尘暴"], 4),
    ("订单A1001的状态是什么？", BASIC, "order_status", ["已支付", "59.90"], 2),
    ("订单A1001和A1002一共多少钱？", BASIC, "order_total", ["179.90 元"], 4),
    ("(17+5)*3 等于多少？", BASIC, "arithmetic", ["66"], 2),
    ("100除以8等于多少？", BASIC, "arithmetic", ["12.5"], 2),
    ("上周有多少个订单？", ALL, "orders_range", ["1 个订单"], 3),
    ("退货政策是什么？", ALL, "doc_lookup", ["doc-34", "30天内"], 2),
    ("给我讲个笑话。", BASIC, "unknown", ["不确定"], 1),
    ("鲁迅的原名是什么？", BASIC, "general", ["周树人"], 1),
]


@pytest.mark.parametrize("question, names, family, words, n_moves", CASES,
                         ids=[c[0][:40] for c in CASES])
def test_question_families_end_to_end(question: str, names: tuple, family: str, words: list,
                                      n_moves: int) -> None:
    moves = drive(question, names)
    final = moves[-1]
    assert final.final_answer and {m.family for m in moves} == {family}
    for word in words:
        assert word in final.final_answer, (word, final.final_answer)
    assert len(moves) == n_moves, [m.rule for m in moves]
    assert len(set(calls(moves))) == len(calls(moves)), "the same call was made twice"
    if re.search(r"[\u4e00-\u9fff]", question):
        assert all(re.search(r"[\u4e00-\u9fff]", m.thought) for m in moves)
        assert re.search(r"[\u4e00-\u9fff]", final.final_answer)


def test_fifty_days_worked_example() -> None:
    moves = drive("What is today's date, and what date is it 50 days from now?")
    assert [(m.action, m.action_input, m.rule) for m in moves[:2]] == [
        ("get_current_date", {}, "date_offset/need_date"),
        ("calculator", {"expression": "2025-03-14 + 50 days"}, "date_offset/try_calculator")]
    assert moves[2].rule == "date_offset/compute_myself"
    assert "2025-03-14" in moves[2].final_answer and "2025-05-03" in moves[2].final_answer
    assert "count them myself" in moves[2].thought and "17 days left in March" in moves[2].thought
    assert "today's date before I can add 50 days" in moves[0].thought


def test_date_tool_for_adding_days_is_preferred() -> None:
    moves = drive("What will the date be 50 days from today?", BASIC + ("add_days",))
    assert moves[1].action == "add_days" and moves[1].action_input == {"date": "2025-03-14", "days": 50}
    assert moves[-1].rule == "date_offset/answer" and "2025-05-03" in moves[-1].final_answer


def test_without_a_calculator_the_model_counts_days_itself() -> None:
    moves = drive("What will the date be 50 days from today?", ("get_current_date",))
    assert [m.rule for m in moves] == ["date_offset/need_date", "date_offset/compute_myself"]
    assert "2025-05-03" in moves[-1].final_answer


@pytest.mark.parametrize("question, tool, wrong, expected", [
    ("What is today's date?", "get_current_date", lambda a: "2031-01-01", "2031-01-01"),
    ("What will the date be 3 days from today?", "get_current_date", lambda a: "2025-01-01",
     "2025-01-04"),
    ("What is 12 * 7 + 5?", "calculator", lambda a: "95", "95"),
    ("What's the weather like in Beijing today?", "get_weather",
     lambda a: f"Beijing {a['date']}: Heavy snow, -8°C to -2°C, wind N 5 km/h", "Heavy snow"),
    ("What is the status of order A1002?", "lookup_order",
     lambda a: "Order A1002: refunded, 1.00 CNY, placed 2020-01-01, product line Toys", "refunded"),
    ("What is the status of order A1002?", "lookup_order", lambda a: "delivered", "delivered"),
    ("Will it rain in Beijing tomorrow?", "get_weather", lambda a: "Sunny, 20°C to 25°C", "No"),
])
def test_a_wrong_observation_leads_to_a_wrong_answer(question: str, tool: str, wrong: object,
                                                     expected: str) -> None:
    moves = drive(question, world={**WORLD, tool: wrong})
    assert expected in moves[-1].final_answer


@pytest.mark.parametrize("guesses, rule, words", [
    (False, "weather/no_tool", "cannot check live weather"), (True, "weather/guess", "sunny")])
def test_missing_weather_tool(guesses: bool, rule: str, words: str) -> None:
    moves = drive("What's the weather like in Beijing today?", ("get_current_date", "calculator"),
                  guesses=guesses)
    assert len(moves) == 1 and moves[0].rule == rule and words in moves[0].final_answer


def test_weather_tool_without_a_date_parameter_needs_no_date() -> None:
    tools = [{"type": "function", "function": {"name": "weather_now", "description": "current weather",
                                               "parameters": {"properties": {"city": {}}}}}]
    conv = read_conversation([{"role": "user", "content": "What's the weather in Beijing?"}], tools)
    assert decide(conv).action_input == {"city": "Beijing"}


def test_relative_day_without_a_date_tool() -> None:
    moves = drive("What will the weather be in London tomorrow?", ("get_weather",))
    assert [m.rule for m in moves] == ["weather/no_tool"] and "date" in moves[0].final_answer
    assert drive("Will it rain in Shanghai on 2025-03-15?", ("get_weather",))[-1].rule == "weather/answer"


@pytest.mark.parametrize("question, guesses, rule", [
    ("What is today's date?", False, "date_today/no_tool"),
    ("What is today's date?", True, "date_today/guess"),
    ("What is the status of order A1002?", False, "order_status/no_tool"),
    ("What is (17 + 5) * 3?", True, "arithmetic/guess"),
    ("北京今天天气怎么样？", False, "weather/no_tool"),
])
def test_missing_tools_other_families(question: str, guesses: bool, rule: str) -> None:
    moves = drive(question, ("search_docs",), guesses=guesses)
    assert [m.rule for m in moves] == [rule]
    if rule == "arithmetic/guess":
        assert "66" in moves[0].final_answer
    if question.startswith("北京"):
        assert "无法" in moves[0].final_answer


MEMORY = "\n## Memory\n- last_city: Shanghai\n"


@pytest.mark.parametrize("question, city", [("What city did I ask about last time?", "Shanghai"),
                                            ("上次我问的是哪个城市？", "上海")])
def test_memory_recall_names_the_remembered_city(question: str, city: str) -> None:
    moves = drive(question, extra=MEMORY)
    assert len(moves) == 1 and moves[0].rule == "memory_recall/answer"
    assert city in moves[0].final_answer


def test_memory_recall_checks_the_new_city_and_mentions_the_old_one() -> None:
    moves = drive("the city I asked about last time - check Beijing instead", extra=MEMORY)
    assert [m.action for m in moves[:-1]] == ["get_current_date", "get_weather"]
    assert moves[1].action_input == {"city": "Beijing", "date": "2025-03-14"}
    answer = moves[-1].final_answer
    assert "Shanghai" in answer and "Partly cloudy" in answer and "Beijing" in answer


@pytest.mark.parametrize("guesses, rule", [(False, "memory_recall/no_memory"),
                                           (True, "memory_recall/guess")])
def test_memory_recall_without_memory(guesses: bool, rule: str) -> None:
    moves = drive("What city did I ask about last time?", guesses=guesses)
    assert [m.rule for m in moves] == [rule]


def test_memory_city_is_the_default_for_weather() -> None:
    moves = drive("Is tomorrow morning good for a run?", extra="\nKnown facts:\nThe user's city is Shanghai.\n")
    assert moves[1].action_input["city"] == "Shanghai" and "rain" in moves[-1].final_answer.lower()


REPORT_TOOLS = ("get_current_date", "list_orders", "calculator", "write_report")
REPORT_Q = ("Pull last quarter's orders, drop cancelled ones, total sales by product line, "
            "and write a weekly report.")


def test_report_task_steps_and_totals() -> None:
    moves = drive(REPORT_Q, REPORT_TOOLS)
    assert [m.action for m in moves] == ["get_current_date", "list_orders", "list_orders",
                                         "list_orders", "calculator", "calculator", "calculator",
                                         "calculator", "write_report", None]
    assert [m.action_input for m in moves[1:4]] == [
        {"start_date": "2024-10-01", "end_date": "2024-10-31"},
        {"start_date": "2024-11-01", "end_date": "2024-11-30"},
        {"start_date": "2024-12-01", "end_date": "2024-12-31"}]
    assert moves[4].action_input == {"expression": "45.00 + 30.00"}  # B2010 (cancelled) dropped
    assert moves[7].action_input == {"expression": "88.00 + 12.00"}  # B2003 (cancelled) dropped
    answer = moves[-1].final_answer
    for part in ("Books: 75.00 CNY", "Electronics: 2198.00 CNY", "Home: 180.50 CNY", "Toys: 100.00 CNY",
                 "2 cancelled dropped", "saved"):
        assert part in answer, part
    assert set(moves[8].action_input) == {"title", "body"}


def test_report_in_chinese() -> None:
    moves = drive("拉取上季度的订单，去掉已取消的，按产品线汇总销售额，并写一份周报。", REPORT_TOOLS)
    assert len(moves) == 10 and {m.family for m in moves} == {"report"}
    assert "已剔除 2 个取消的订单" in moves[-1].final_answer and "Books: 75.00 CNY" in moves[-1].final_answer


def test_report_without_calculator_or_writer_sums_itself() -> None:
    moves = drive(REPORT_Q, ("get_current_date", "list_orders"))
    assert len(moves) == 5 and "Electronics: 2198.00 CNY" in moves[-1].final_answer


@pytest.mark.parametrize("question, words", [
    ("What will the date be 50 days from today?", ["2025-05-03"]),
    ("Which city is warmer today, Beijing or Shanghai?", ["Shanghai is warmer"]),
    ("What is the total amount of orders A1001 and A1002?", ["179.90"]),
    ("上海明天会下雨吗？", ["中雨"]),
])
def test_structured_mode(question: str, words: list) -> None:
    moves = drive(question, structured=True)
    for word in words:
        assert word in moves[-1].final_answer
    assert moves[-1].action is None and len(set(calls(moves))) == len(calls(moves))


FULLWIDTH_SYSTEM = ("你是一个助手。\n\n工具列表：\n- get_current_date：返回今天的日期。输入：{}\n"
                    "- get_weather：查询城市某天的天气。输入：{\"city\": \"<城市>\", \"date\": \"<YYYY-MM-DD>\"}\n\n"
                    "格式：\nThought: ...\nAction: ...\nAction Input: ...\n")


def test_fullwidth_colon_tool_list_drives_a_run() -> None:
    messages = [{"role": "system", "content": FULLWIDTH_SYSTEM}, {"role": "user", "content": "问题：北京明天天气怎么样？"}]
    for _ in range(4):
        conv = read_conversation(messages, None)
        move = decide(conv)
        messages.append({"role": "assistant", "content": render_text(move, conv)})
        if move.action is None:
            break
        messages.append({"role": "user", "content": "Observation: " + run_tool(WORLD, move.action, move.action_input)})
    assert "沙尘暴" in move.final_answer and "2025-03-15" in move.final_answer


def conv_after(question: str, *turns: tuple[str, str], names: tuple = BASIC, tools: list | None = None):
    """A conversation: the question, then alternating (assistant reply, observation) turns."""
    messages = [{"role": "system", "content": system_prompt(names)}, {"role": "user", "content": question}]
    for reply, obs in turns:
        messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": obs}]
    return read_conversation(messages, tools)


def test_unknown_tool_error_leads_to_an_available_tool() -> None:
    conv = conv_after("What's the weather like in Beijing today?",
                      ("Action: weather\nAction Input: {\"city\": \"Beijing\"}",
                       "Observation: Error: unknown tool weather. Available tools: get_current_date, get_weather."),
                      names=())
    move = decide(conv)
    assert move.action == "get_current_date" and "does not exist" in move.thought
    date_seen = conv_after(conv.question, ("Action: weather\nAction Input: {}", "Observation: Error: "
                                           "unknown tool weather. Available tools: get_current_date, get_weather."),
                           ("Action: get_current_date\nAction Input: {}", "Observation: 2025-03-14"), names=())
    assert decide(date_seen).action == "get_weather"


def test_transient_error_is_retried_once_then_given_up() -> None:
    call = "Action: lookup_order\nAction Input: {\"order_id\": \"A1002\"}"
    err = "Observation: Error: database timeout, try again"
    first = decide(conv_after("Status of order A1002?", (call, err)))
    assert first.action == "lookup_order" and first.rule == "order_status/lookup"
    assert "try once more" in first.thought
    second = decide(conv_after("Status of order A1002?", (call, err), (call, err)))
    assert second.rule == "order_status/give_up" and "failed twice" in second.final_answer


def test_a_format_correction_is_not_taken_as_a_result() -> None:
    conv = conv_after("What is today's date?", ("Action: get_current_date\nAction Input: {}",
                                               "Observation: Error: could not parse your reply."))
    assert decide(conv).action == "get_current_date"


def test_a_fullwidth_rendering_of_a_call_counts_as_that_call() -> None:
    conv = conv_after("What is (17 + 5) * 3?", ("Action: calculator\nAction Input: "
                                                "{\"expression\": \"（17 + 5） * 3\"}", "Observation: 66"))
    assert decide(conv).final_answer == "(17 + 5) * 3 = 66"


def test_decide_is_a_pure_function() -> None:
    conv = conv_after("What is the total amount of orders A1001 and A1002?",
                      ("Action: lookup_order\nAction Input: {\"order_id\": \"A1001\"}",
                       "Observation: " + order_text("A1001")))
    before = repr(conv)
    assert decide(conv) == decide(conv) == decide(conv, guesses=False)
    assert decide(conv).action_input == {"order_id": "A1002"} and repr(conv) == before


def test_parameter_names_follow_the_offered_tool() -> None:
    tools = [{"type": "function", "function": {"name": "weather_now", "description": "current weather",
                                               "parameters": {"properties": {"location": {}, "day": {}}}}},
             {"type": "function", "function": {"name": "today", "description": "today's date"}},
             {"type": "function", "function": {"name": "order_status", "description": "look up an order",
                                               "parameters": {"properties": {"ref": {}}}}}]
    conv = read_conversation([{"role": "user", "content": "Weather in London on 2025-03-15?"}], tools)
    assert decide(conv).action_input == {"location": "London", "day": "2025-03-15"}
    conv = read_conversation([{"role": "user", "content": "Status of order A1002?"}], tools)
    assert decide(conv).action_input == {"ref": "A1002"}


@pytest.mark.parametrize("name, description, kind", [
    ("get_current_date", "returns today's date", "date"), ("now", "", "date"),
    ("calculator", "", "calculator"), ("calc", "", "calculator"), ("get_weather", "", "weather"),
    ("天气", "查询天气", "weather"), ("add_days", "add days to a date", "date_add"),
    ("lookup_order", "", "order_lookup"), ("list_orders", "orders between start_date and end_date",
                                           "order_range"),
    ("search_docs", "", "search"), ("get_calendar", "", "calendar"), ("write_report", "", "write_report"),
    ("send_email", "email the order status", "send_email"), ("delete_orders", "", "delete_orders"),
    ("get_order", "returns the order's status and customer email", "order_lookup"),
    ("mystery", "does things", None)])
def test_tool_kind(name: str, description: str, kind: str | None) -> None:
    assert tool_kind(ToolSpec(name, description, ())) == kind


def test_render_text_and_tool_calls() -> None:
    conv = conv_after("今天几号？")
    call = Move("我需要查询今天的日期。", action="get_weather", action_input={"city": "北京"})
    assert render_text(call, conv) == ("Thought: 我需要查询今天的日期。\nAction: get_weather\n"
                                       "Action Input: {\"city\": \"北京\"}")
    answer = Move("done", final_answer="今天是 2025-03-14。")
    assert render_text(answer, conv) == "Thought: done\nFinal Answer: 今天是 2025-03-14。"
    assert render_tool_calls(call, "call_1") == ({"id": "call_1", "type": "function", "function": {
        "name": "get_weather", "arguments": "{\"city\": \"北京\"}"}},)
    assert render_tool_calls(answer, "call_2") == ()
    structured = read_conversation([{"role": "user", "content": "q"}], [{"type": "function",
                                                                        "function": {"name": "x"}}])
    assert render_text(answer, structured) == "今天是 2025-03-14。"
    assert render_text(Move("t", action="x", action_input={}), structured) == "t"
