"""The regression gate: the current success rates may not fall below the stored baseline."""
from __future__ import annotations

import json

import pytest

from mockllm import personas
from solutions.agent import run_agent
from solutions.evaluation.dataset import EVAL_SET
from solutions.evaluation.gate import RegressionError, baseline_text, gate, load_baseline, regressions
from solutions.evaluation.harness import evaluate, summarise
from solutions.prompt import without


def _rates(**options) -> dict[str, float]:
    """The success rate of every persona over the evaluation set."""
    return {persona: summarise(evaluate(EVAL_SET, persona, **options)).success_rate
            for persona in personas()}


def test_the_current_agent_and_prompt_keep_every_baseline() -> None:
    gate(_rates())


def test_a_change_that_lowers_a_rate_fails_the_gate_and_names_the_persona() -> None:
    worse = {"hallucinator": summarise(evaluate(EVAL_SET, "hallucinator", without("live_data"),
                                                agent=run_agent)).success_rate}
    baseline = {"hallucinator": load_baseline()["hallucinator"]}
    with pytest.raises(RegressionError, match=r"hallucinator: \d+\.\d%, below its baseline 100\.0%"):
        gate(worse, baseline)


def test_regressions_tolerance_missing_personas_and_bad_baselines() -> None:
    assert regressions({"a": 0.9}, {"a": 0.95}, tolerance=0.1) == []
    assert regressions({"a": 0.9}, {"a": 0.95}) == ["a: 90.0%, below its baseline 95.0%"]
    assert regressions({}, {"a": 0.5}) == ["a: not measured (baseline 50.0%)"]
    assert regressions({"a": 1.0, "b": 0.2}, {"a": 1.0}) == []
    with pytest.raises(ValueError, match="tolerance"):
        regressions({}, {}, tolerance=2)
    for text in ('{"success_rate": {"a": 1.5}}', '{"rates": {}}', '{"success_rate": {"a": true}}'):
        with pytest.raises(ValueError, match="success_rate"):
            load_baseline(text)
    assert load_baseline(baseline_text({"a": 2 / 3}, "x")) == {"a": 0.6667}


@pytest.mark.parametrize("rate", [float("nan"), float("inf"), 1.5, -0.1, True, "0.9", None])
def test_a_rate_that_is_not_a_share_is_refused_naming_the_persona(rate) -> None:
    from solutions.evaluation.gate import gate

    with pytest.raises((ValueError, TypeError), match="looper"):
        gate({"diligent": 0.9, "looper": rate}, {"diligent": 0.9, "looper": 0.5})
    with pytest.raises((ValueError, TypeError), match="looper"):
        gate({"diligent": 0.9, "looper": 0.5}, {"diligent": 0.9, "looper": rate})


def test_a_persona_measured_on_no_runs_fails_the_gate_as_no_data() -> None:
    from solutions.evaluation.gate import gate

    current = {"diligent": 1.0, "looper": summarise([]).success_rate}
    with pytest.raises(ValueError, match="'looper' is None: no runs were measured"):
        gate(current, {"diligent": 1.0, "looper": 0.5})


def test_an_empty_baseline_is_an_error_not_a_pass() -> None:
    from solutions.evaluation.gate import gate

    with pytest.raises(ValueError, match="baseline is empty"):
        gate({"diligent": 0.1}, {})


@pytest.mark.parametrize("text, says", [("[]", "must hold 'success_rate'"), ("null", "must hold 'success_rate'"),
                                        ("", "not valid JSON"), ('{"success_rate": {"diligent": 0.9', "not valid JSON"),
                                        ('{"success_rate": {}}', "one persona at least")])
def test_a_broken_baseline_is_a_clear_error_naming_it(text: str, says: str) -> None:
    from solutions.evaluation.gate import load_baseline

    with pytest.raises(ValueError, match=f"the baseline text .*{says}"):
        load_baseline(text)


def test_a_baseline_with_a_byte_order_mark_is_read() -> None:
    from solutions.evaluation.gate import load_baseline

    assert load_baseline('\ufeff{"success_rate": {"diligent": 0.9}}') == {"diligent": 0.9}


def _evaluation_text(new: list, lesson05: list | None = None) -> str:
    """A questions.json text with these entries."""
    return json.dumps({"lesson05": [] if lesson05 is None else lesson05, "new": new})


@pytest.mark.parametrize("text, says", [
    (_evaluation_text([{"id": "q1", "category": "no_tool", "question": "Hi?", "expcted": ["hi"],
                        "grader": "contains"}]), "unknown field"),
    (_evaluation_text([{"id": "q1", "category": "no_tool", "question": "  ", "expected": ["hi"],
                        "grader": "contains"}]), "is empty"),
    (_evaluation_text([], [{"id": "q1", "index": True, "category": "no_tool"}]), "lesson05 entry"),
    (_evaluation_text([]), "holds no questions"),
    ("{", "not valid JSON"),
    ("[]", "is an object with 'lesson05' and 'new' lists"),
])
def test_a_broken_evaluation_set_is_a_clear_error(text: str, says: str) -> None:
    from solutions.evaluation.dataset import load_questions

    with pytest.raises(ValueError, match=says):
        load_questions(text)
