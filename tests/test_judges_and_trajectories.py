"""Lesson 16's reference code: the judge's prompts and mitigations (solutions/evaluation/judge.py)
and the trajectory grader with its data (solutions/evaluation/trajectory.py, trajectories.json)."""
from __future__ import annotations

import copy
import json

import pytest

from mockllm import MockLLM
from solutions.agent import Trace, TraceStep
from solutions.evaluation.dataset import EVAL_SET
from solutions.evaluation.harness import guarded
from solutions.evaluation.judge import (agreement, judge_messages, judge_pair, judge_score, pad,
                                        pair_messages, swap_and_agree, verdict_of)
from solutions.evaluation.trajectory import (check_expected, grade_trajectory, load_trajectories,
                                             same_value)
from solutions.tools import world_tools

JUDGE = MockLLM()


def test_the_prompts_are_the_shapes_the_mock_judge_reads() -> None:
    system, user = judge_messages("66", reference="66", question="Q?", length_controlled=True)
    assert "length does not matter" in system["content"]
    assert user["content"] == "Question: Q?\nReference: 66\nAnswer: 66"
    assert pair_messages("x", "y")[1]["content"] == "Answer A: x\nAnswer B: y"
    assert judge_messages("a", rubric=["one", "two"])[1]["content"] == "Rubric: \n- one\n- two\nAnswer: a"


def test_scores_and_pairs_from_the_mock_judge() -> None:
    assert judge_score(JUDGE, "It is 66.", reference="66") == 1
    assert judge_score(JUDGE, "It is 67.", reference="66") == 0
    assert judge_score(JUDGE, pad("It is 67."), reference="66") == 1  # verbosity
    assert judge_score(JUDGE, pad("It is 67."), reference="66", length_controlled=True) == 0
    assert judge_score(JUDGE, pad("It is 67.", 6), rubric=['states "66"']) == 0
    assert judge_pair(JUDGE, "66", "67", reference="66") == "A"
    assert judge_pair(JUDGE, "67", "66", reference="66") == "B"


def test_swap_and_agree_keeps_a_winner_only_when_both_orders_agree() -> None:
    assert swap_and_agree(JUDGE, "It is 66.", "It is 67.", reference="66") == "A"
    assert swap_and_agree(JUDGE, "It is 67.", "It is 66.", reference="66") == "B"
    assert swap_and_agree(JUDGE, "It is 66.", "It is 66!", length_controlled=True) == "tie"


@pytest.mark.parametrize("reply", [None, "", "66", '{"score": 2}', '{"score": true}', '["score", 1]',
                                   '{"winner": "A"}'])
def test_a_reply_that_is_not_a_verdict_is_refused_by_name(reply: object) -> None:
    with pytest.raises(ValueError, match="not a verdict with 'score'"):
        verdict_of(reply, "score", (0, 1))


def test_a_verdict_in_chatter_or_a_fence_is_read() -> None:
    assert verdict_of('Here: ```json\n{"score": 1, "reason": "ok"}\n```', "score", (0, 1)) == 1


def test_agreement() -> None:
    assert agreement([1, 0, 1], [True, True, True]) == 2 / 3
    with pytest.raises(ValueError, match="nothing to measure"):
        agreement([], [])
    with pytest.raises(ValueError):
        agreement([1], [True, False])


def test_every_expected_trajectory_names_a_question_and_holds_for_the_diligent_persona() -> None:
    trajectories = load_trajectories()
    by_id = {item["id"]: item for item in EVAL_SET}
    assert set(trajectories) <= set(by_id)
    tools = set(world_tools().names())
    for question_id, expected in trajectories.items():
        assert {call["tool"] for call in expected["calls"]} <= tools, question_id
        trace = guarded(by_id[question_id]["question"], MockLLM(persona="diligent", seed=0), world_tools(), 6)
        assert grade_trajectory(trace, expected), question_id


def test_a_broken_trajectories_file_names_the_question() -> None:
    text = json.dumps({"trajectories": {"calc-66": {"calls": [{"tool": ""}]}}})
    with pytest.raises(ValueError, match="trajectory 'calc-66': expected call 1 must be a dict with a tool name"):
        load_trajectories(text)


@pytest.mark.parametrize("expected, error, words", [
    (None, TypeError, "an expected trajectory is a dict"),
    ({"calls": [], "extra": True}, ValueError, "unknown key(s) ['extra']"),
    ({"calls": [], "extra_calls": "yes"}, TypeError, "'extra_calls' is True or False"),
    ({"calls": ["calculator"]}, TypeError, "expected call 1 must be a dict"),
    ({"calls": [{"tool": "calculator", "args": {}}]}, ValueError, "takes 'tool' and 'arguments'"),
    ({"calls": [{"tool": "calculator", "arguments": "2 + 2"}]}, ValueError, "'arguments' (a dict)"),
])
def test_a_malformed_expected_trajectory_is_refused_naming_the_fault(expected: object, error: type,
                                                                      words: str) -> None:
    with pytest.raises(error) as raised:
        check_expected(expected)
    assert words in str(raised.value)


@pytest.mark.parametrize("got, want, same", [
    ("(17+5)*3", "(17 + 5) * 3", True), ("BEIJING", "Beijing", True), ("Beijing", "Shanghai", False),
    (50.0, 50, True), ("50", 50, False), (50, "50", False), (True, 1, False), (1, True, False),
    (True, True, True), ([1, 2], [1, 2], True), (None, None, True), (None, "x", False),
])
def test_same_value(got: object, want: object, same: bool) -> None:
    assert same_value(got, want) is same


def test_grading_reads_the_trace_and_changes_nothing() -> None:
    steps = [TraceStep(error="no Action"), TraceStep(action="calculator", action_input={"expression": "2+2"}),
             TraceStep(final_answer="4")]
    trace = Trace("What is 2 + 2?", steps, "4", "answered")
    expected = {"calls": [{"tool": "calculator", "arguments": {"expression": "2 + 2"}}]}
    before, expected_before = copy.deepcopy(trace), copy.deepcopy(expected)
    assert grade_trajectory(trace, expected) is True
    assert trace == before and expected == expected_before


def test_the_subsequence_match_is_linear_in_the_calls() -> None:
    calls = [TraceStep(action="get_current_date")] * 20_000 + [TraceStep(action="calculator")]
    trace = Trace("q", calls, None, "step_limit")
    assert grade_trajectory(trace, {"calls": [{"tool": "calculator"}], "extra_calls": True})
    assert not grade_trajectory(trace, {"calls": [{"tool": "calculator"}], "extra_calls": False})
