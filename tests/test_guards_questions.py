"""Tests for the lesson-05 question set, its grader and the scoreboard."""
from __future__ import annotations

import json

import pytest

import mockllm
from mockllm import MockLLM
from solutions.agent import Trace, run_agent
from solutions.guards import guarded_agent
from solutions.guards.questions import GRADERS, QUESTIONS, check_item, grade
from solutions.guards.scoreboard import Score, compare, score, table
from solutions.tools import world_tools


def test_the_set_is_data_of_at_least_twenty_questions() -> None:
    assert len(QUESTIONS) >= 20 and len({q["question"] for q in QUESTIONS}) == len(QUESTIONS)
    assert json.loads(json.dumps(QUESTIONS)) == list(QUESTIONS)  # plain JSON, for lesson 10 to reuse
    for item in QUESTIONS:
        check_item(item)
    assert {item["grader"] for item in QUESTIONS} == set(GRADERS)


@pytest.mark.parametrize("answer, item, correct", [
    ("(17 + 5) * 3 = 66", {"expected": ["66"], "grader": "number"}, True),
    ("It is 166.", {"expected": ["66"], "grader": "number"}, False),
    ("6.6 or 66.5", {"expected": ["66"], "grader": "number"}, False),
    ("100 / 8 = 12.50", {"expected": ["12.5"], "grader": "number"}, True),
    ("Total: 1,234.00 CNY", {"expected": ["1234"], "grader": "number"}, True),
    ("Order A1002 is SHIPPED.", {"expected": ["shipped"], "grader": "all"}, True),
    ("Partly cloudy? maybe", {"expected": ["partly cloudy", "3°C"], "grader": "all"}, False),
    ("北京今天多云", {"expected": ["多云", "partly cloudy"], "grader": "any"}, True),
    ("I could not get the weather", {"expected": ["dust storm"], "grader": "all"}, False),
    (None, {"expected": ["x"], "grader": "all"}, False),
    ("   ", {"expected": ["x"], "grader": "any"}, False),
])
def test_grade(answer: object, item: dict, correct: bool) -> None:
    assert grade(answer, {"question": "q", **item}) is correct


@pytest.mark.parametrize("item, error", [
    ("q", TypeError), ({"question": "q"}, TypeError),
    ({"question": "q", "expected": ["x"], "grader": "regex"}, ValueError),
    ({"question": "q", "expected": "x", "grader": "all"}, ValueError),
    ({"question": "q", "expected": [], "grader": "all"}, ValueError),
    ({"question": "q", "expected": ["sixty"], "grader": "number"}, ValueError),
])
def test_a_bad_item_is_refused(item: object, error: type) -> None:
    with pytest.raises(error):
        grade("66", item)


def test_the_diligent_model_answers_every_question_so_the_set_can_be_answered() -> None:
    result = score(run_agent, "diligent")
    assert (result.correct, result.questions, result.share) == (len(QUESTIONS), len(QUESTIONS), 1.0)


def test_score_counts_steps_and_tokens_of_every_run() -> None:
    items = list(QUESTIONS[:3])
    runs = [run_agent(i["question"], MockLLM(persona="looper"), world_tools(), 5) for i in items]
    result = score(run_agent, "looper", items, name="bare")
    assert result == Score("looper", "bare", sum(grade(t.final_answer, i) for t, i in zip(runs, items)),
                           3, sum(len(t.steps) for t in runs), sum(t.total_tokens for t in runs))


def test_a_wrong_answer_scores_nothing() -> None:
    def wrong(question, client, tools, max_steps) -> Trace:
        return Trace(question, [], "I do not know", "answered")
    assert score(wrong, "diligent").correct == 0


def test_compare_and_table() -> None:
    scores = compare({"bare": run_agent, "guarded": guarded_agent}, ["looper", "jsonic"], QUESTIONS[:4])
    assert [(s.persona, s.agent) for s in scores] == [("looper", "bare"), ("looper", "guarded"),
                                                      ("jsonic", "bare"), ("jsonic", "guarded")]
    text = table(scores)
    assert text.splitlines()[0].split()[:3] == ["persona", "bare", "correct"]
    assert len(text.splitlines()) == 4 and "looper" in text and "%" in text


def test_the_guards_help_the_looper_and_jsonic_and_not_the_tiny_model() -> None:
    personas = ("looper", "jsonic", "tiny")
    scores = {(s.persona, s.agent): s for s in compare({"bare": run_agent, "guarded": guarded_agent}, personas)}
    for persona in ("looper", "jsonic"):
        assert scores[persona, "guarded"].correct > scores[persona, "bare"].correct
    assert scores["tiny", "guarded"].share < 0.25 and set(personas) <= set(mockllm.personas())
