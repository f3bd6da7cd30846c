"""The well-behaved model acts like a capable one on questions off the course's favourite topics.

A question needing live data gets the offered tool that fits (or an honest "no tool for that");
one that needs none is answered from general knowledge; a search result is used only when it is
about the question; order ids of any common shape are looked up.
"""
from __future__ import annotations

import pytest

from mockllm import MockLLM
from mockllm.brain.knowledge import order_ids
from mockllm.brain.observations import relevant
from policy_world import BASIC, calls, drive
from solutions.agent import run_agent
from solutions.tools import world_tools

ALL = BASIC + ("list_orders", "search_docs", "get_calendar")


def _world_run(question: str) -> tuple[list[str | None], str]:
    """(the actions, the final answer) of the course's agent on the world's tools."""
    trace = run_agent(question, MockLLM(persona="diligent", seed=0), world_tools(), max_steps=6)
    assert trace.stop_reason == "answered", trace
    return [step.action for step in trace.steps], trace.final_answer


@pytest.mark.parametrize("question, actions, words", [
    ("What is on my calendar on 2025-03-20?", ["get_calendar", None], ["Customer service training"]),
    ("How many days are left until 2025-12-25?", ["get_current_date", None], ["286 days"]),
    ("How many days until Christmas?", ["get_current_date", None], ["286 days", "Christmas"]),
    ("What is the status of order 123456?", ["lookup_order", None], ["123456", "not found"]),
    ("Translate 'good morning' into French.", [None], ["Bonjour"]),
    ("What day of the week is 2025-12-25?", [None], ["Thursday"]),
    ("What's on my schedule tomorrow?", ["get_current_date", "get_calendar", None], ["Dentist"]),
])
def test_the_reported_questions_get_a_fitting_run(question: str, actions: list, words: list) -> None:
    done, answer = _world_run(question)
    assert done == actions
    for word in words:
        assert word in answer, answer
    assert "doc-" not in answer


@pytest.mark.parametrize("question, answer", [("What is 2 + 2?", "2 + 2 = 4"),
                                              ("What is (17 + 5) * 3?", "(17 + 5) * 3 = 66")])
def test_without_tools_or_format_small_arithmetic_is_answered(question: str, answer: str) -> None:
    response = MockLLM(persona="diligent", seed=0).chat.completions.create(
        model="mock-react", messages=[{"role": "user", "content": question}])
    assert answer in response.choices[0].message.content
    assert response.x_mock["rule"] == "arithmetic/in_head"


def test_a_long_calculation_without_a_calculator_is_refused_not_guessed() -> None:
    moves = drive("What is 123456 * 654321?", ("search_docs",))
    assert [m.rule for m in moves] == ["arithmetic/no_tool"]
    assert "cannot do this calculation reliably" in moves[0].final_answer


def test_with_a_calculator_offered_it_is_still_used() -> None:
    moves = drive("What is 2 + 2?")
    assert calls(moves) == [("calculator", '{"expression": "2 + 2"}')] and "4" in moves[-1].final_answer


@pytest.mark.parametrize("text, ids", [
    ("What is the status of order A1003?", ["A1003"]), ("Where is order #1003?", ["1003"]),
    ("What is the status of order 123456?", ["123456"]), ("Has ORD-1003 shipped?", ["ORD-1003"]),
    ("Status of order no. 55501", ["55501"]), ("orders 1001, 1002 and 1003", ["1001", "1002", "1003"]),
    ("订单123456的状态是什么？", ["123456"]), ("orders from 2025-03-01 to 2025-03-07", []),
    ("What is 1234 + 5?", []), ("Is ISO-8601 a date format?", []),
])
def test_order_ids_of_common_shapes(text: str, ids: list) -> None:
    assert order_ids(text) == ids


@pytest.mark.parametrize("question, names, family, words, n_moves", [
    ("What is the capital of Germany?", BASIC, "general", ["Berlin"], 1),
    ("德国的首都是哪里？", BASIC, "general", ["柏林"], 1),
    ("How do you say thank you in Japanese?", ALL, "translate", ["ありがとう"], 1),
    ("早上好用英语怎么说？", ALL, "translate", ["Good morning"], 1),
    ("Translate 'banana' into German.", ALL, "translate", ["don't know"], 1),
    ("What weekday is 2025-03-14?", BASIC, "weekday", ["Friday"], 1),
    ("What day of the week is it tomorrow?", BASIC, "weekday", ["2025-03-15", "Saturday"], 2),
    ("Which day of the week was 1 January 2000?", BASIC, "weekday", ["2000-01-01", "Saturday"], 1),
    ("What day of the week is March 1, 2026?", BASIC, "weekday", ["Sunday"], 1),
    ("今天星期几？", BASIC, "weekday", ["今天（2025-03-14）是星期五"], 2),
    ("2025年10月1日是星期几？", BASIC, "weekday", ["星期三"], 1),
    ("How many days between 2025-03-01 and 2025-04-15?", BASIC, "days_between", ["45 days"], 1),
    ("How many days since 2025-01-01?", BASIC, "days_between", ["72 days ago"], 2),
    ("距离元旦还有多少天？", BASIC, "days_between", ["293 天"], 2),
    ("What appointments do I have tomorrow?", ALL, "calendar", ["07:30-08:30 Dentist"], 3),
    ("What is on my calendar on 2025-03-20?", ALL, "calendar", ["nothing"], 2),
    ("Do I have any meetings on March 15?", ALL, "calendar", ["Dentist", "2025-03-15"], 3),
    ("Is Saturday free in my calendar?", ALL, "calendar", ["2025-03-15", "Dentist"], 3),
    ("周六有什么安排？", ALL, "calendar", ["2025-03-15", "Dentist"], 3),
    ("What is on my calendar next Friday?", ALL, "calendar", ["2025-03-21", "nothing"], 3),
    ("How many days until 25 December?", BASIC, "days_between", ["286 days"], 2),
    ("What is the stock price of Apple today?", ALL, "live_data", ["no access to live data"], 1),
])
def test_families_the_world_can_serve(question: str, names: tuple, family: str, words: list,
                                      n_moves: int) -> None:
    moves = drive(question, names)
    assert {m.family for m in moves} == {family}, [m.rule for m in moves]
    for word in words:
        assert word in moves[-1].final_answer, moves[-1].final_answer
    assert len(moves) == n_moves, [m.rule for m in moves]


def test_a_calendar_question_without_a_calendar_tool_says_so() -> None:
    moves = drive("What is on my calendar on 2025-03-20?", BASIC)
    assert [m.rule for m in moves] == ["calendar/no_tool"]
    assert "cannot check your calendar" in moves[0].final_answer


def test_a_search_result_is_used_only_when_it_is_about_the_question() -> None:
    moves = drive("How many days do I have to pay my invoice?", ALL)
    assert moves[0].action == "search_docs" and moves[-1].rule == "doc_lookup/not_relevant"
    assert "nothing relevant" in moves[-1].final_answer and "30 days" not in moves[-1].final_answer
    assert drive("What is the return policy?", ALL)[-1].rule == "doc_lookup/answer"


@pytest.mark.parametrize("question, text, expected", [
    ("What is the return policy?", "Returns: items can be returned within 30 days.", True),
    ("what's the return policy", "Returns: items can be returned within 30 days.", True),
    ("How long does shipping take?", "Shipping: orders ship within 2 days; delivery takes 3-5 days.", True),
    ("Are there delivery delays to Beijing? Search the documents.",
     "Forum post: delivery delays: my parcel to Beijing is late.", True),
    ("退货政策是什么？", "退货政策: 收货后30天内可以退货。", True),
    ("How many days until Christmas?", "Return policy: return items within 30 days.", False),
    ("Who won the football match?", "Shipping: orders ship within 2 days.", False),
])
def test_relevance_of_a_search_result(question: str, text: str, expected: bool) -> None:
    assert relevant(question, text) is expected
