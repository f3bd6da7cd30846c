"""Lesson 10's evaluation set, graders, harness and sweep (solutions/evaluation)."""
from __future__ import annotations

import json

import pytest

from mockllm import personas
from solutions.agent import run_agent
from solutions.evaluation.dataset import CATEGORIES, EVAL_SET, is_chinese, load_questions
from solutions.evaluation.graders import GRADERS, grade_answer, normalise
from solutions.evaluation.harness import Metrics, Run, evaluate, run_question, summarise
from solutions.evaluation.plots import plot_metric
from solutions.evaluation.sweep import VARIANTS, grid, sweep, table
from solutions.guards.questions import QUESTIONS as LESSON_05
from solutions.prompt import DEFAULT_PARTS, PARTS

NUMBER = {"question": "q", "expected": ["66"], "grader": "number"}


# ---------------------------------------------------------------- the set


def test_the_set_holds_lesson_05s_questions_and_at_least_30_in_every_category() -> None:
    assert len(EVAL_SET) >= 30
    assert [item["question"] for item in EVAL_SET[:len(LESSON_05)]] == [q["question"] for q in LESSON_05]
    assert {item["category"] for item in EVAL_SET} == set(CATEGORIES)
    assert sum(is_chinese(item) for item in EVAL_SET) >= 5
    assert len({item["id"] for item in EVAL_SET}) == len(EVAL_SET)


def _category_of(trace) -> str:
    """What the diligent run shows: an error observation, else the number of tool calls."""
    calls = [step for step in trace.steps if step.action]
    if any((step.observation or "").startswith("Error") for step in calls):
        return "tool_error"
    return ("no_tool", "single_tool", "several_tools")[len(calls)] if len(calls) < 3 else "multi_step"


def test_every_expected_answer_is_reached_by_the_diligent_persona_and_the_category_is_what_it_does() -> None:
    from mockllm import MockLLM
    from solutions.evaluation.harness import guarded
    from solutions.tools import world_tools
    for item in EVAL_SET:
        trace = guarded(item["question"], MockLLM(persona="diligent", seed=0), world_tools(), 6)
        assert grade_answer(trace.final_answer, item), (item["id"], trace.final_answer)
        assert _category_of(trace) == item["category"], item["id"]


def test_a_broken_file_is_refused_with_what_is_wrong() -> None:
    good = json.loads(_file_text())
    cases = [
        ({"new": []}, "'lesson05' and 'new'"),
        ({**good, "lesson05": [{"id": "x", "index": 99, "category": "no_tool"}]}, "no index 99"),
        ({**good, "new": good["new"] + good["new"][:1]}, "repeated"),
        ({**good, "new": [{**good["new"][0], "category": "easy"}]}, "category 'easy'"),
        ({**good, "new": [{**good["new"][0], "grader": "fuzzy"}]}, "unknown grader 'fuzzy'"),
        ({**good, "new": [{**good["new"][0], "expected": []}]}, "non-empty list"),
    ]
    for data, message in cases:
        with pytest.raises(ValueError, match=message):
            load_questions(json.dumps(data))


def _file_text() -> str:
    from importlib import resources
    return resources.files("solutions.evaluation").joinpath("questions.json").read_text("utf-8")


# ---------------------------------------------------------------- graders


@pytest.mark.parametrize("answer", ["66", "66.0", "The answer is 66.", "(17 + 5) * 3 = 66", "66 CNY"])
def test_the_numeric_grader_accepts_the_number_written_any_way(answer: str) -> None:
    assert grade_answer(answer, NUMBER)


@pytest.mark.parametrize("answer", ["660", "6.6", "166", "66.5", "", None, "sixty-six"])
def test_the_numeric_grader_refuses_other_numbers_and_no_answer(answer) -> None:
    assert not grade_answer(answer, NUMBER)


def test_exact_and_contained_graders() -> None:
    exact = {"question": "q", "expected": ["Paris"], "grader": "exact"}
    assert grade_answer("paris.", exact) and grade_answer("  Paris ", exact)
    assert not grade_answer("The capital of France is Paris.", exact)
    contained = {**exact, "grader": "all"}
    assert grade_answer("The capital of France is Paris.", contained)
    assert not grade_answer("Lyon", contained)
    assert grade_answer("状态是已取消", {"question": "q", "expected": ["已取消", "cancelled"], "grader": "any"})
    assert normalise("  A\n b。") == "a b"
    assert GRADERS == ("exact", "all", "any", "number")
    with pytest.raises(ValueError, match="graders: exact, all, any, number"):
        grade_answer("x", {**exact, "grader": "close"})


# ---------------------------------------------------------------- metrics


def _run(correct: bool = True, stop: str = "answered", steps: int = 2, calls: int = 1,
         errors: int = 0, tokens: int = 100) -> Run:
    return Run("q", correct, stop, steps, calls, errors, tokens)


def test_summarise_averages_over_every_run_and_counts_step_limits_as_failures() -> None:
    runs = [_run(), _run(False, "step_limit", 6, 6, 2, 900), _run(True, "answered", 1, 0, 0, 50)]
    assert summarise(runs) == Metrics(runs=3, success_rate=2 / 3, average_steps=3.0,
                                      tool_success=5 / 7, tokens=1050, step_limit_hits=1)
    assert summarise([_run(True, "step_limit")]).success_rate == 0.0
    assert summarise([]) == summarise(iter([])) == Metrics(0, None, None, None, 0, 0)  # no data, not 0%
    assert summarise([_run(calls=0)]).tool_success is None


def test_a_run_records_what_the_trace_shows() -> None:
    item = next(item for item in EVAL_SET if item["id"] == "weather-tokyo")
    run = run_question(item, "diligent", variant="full")
    assert (run.correct, run.stop_reason, run.steps, run.tool_calls, run.tool_errors) == (True, "answered", 3, 2, 1)
    assert run.tokens > 0 and (run.persona, run.variant) == ("diligent", "full")


def test_the_bare_loop_plugs_into_the_harness_and_does_worse_with_the_looper() -> None:
    items = [item for item in EVAL_SET if item["category"] == "several_tools"]
    bare = summarise(evaluate(items, "looper", agent=run_agent))
    guarded = summarise(evaluate(items, "looper"))
    assert bare.success_rate < guarded.success_rate == 1.0
    assert bare.step_limit_hits > 0 == guarded.step_limit_hits


# ---------------------------------------------------------------- the sweep


def test_the_variants_each_drop_one_part_of_the_full_prompt() -> None:
    assert len(VARIANTS) >= 3 and VARIANTS["full prompt"] == DEFAULT_PARTS
    for name, parts in VARIANTS.items():
        assert set(parts) <= set(PARTS) and len(DEFAULT_PARTS) - len(parts) == (name != "full prompt")


def test_sweep_runs_every_question_persona_and_variant_and_the_table_shows_them() -> None:
    items = EVAL_SET[:4]
    runs = sweep(items, ["diligent", "tiny"], progress=False)
    assert len(runs) == 4 * 2 * len(VARIANTS)
    cells = grid(runs)
    assert list(cells) == [(p, v) for v in VARIANTS for p in ("diligent", "tiny")]
    assert cells["diligent", "full prompt"].success_rate == 1.0
    assert cells["tiny", "full prompt"].success_rate < 1.0
    text = table(cells)
    assert text.splitlines()[1].split()[:2] == ["diligent", "100%"] and "full prompt" in text
    steps = table(cells, "average_steps").splitlines()[1].split()
    assert steps[:2] == ["diligent", f"{cells['diligent', 'full prompt'].average_steps:.1f}"]


def test_grid_measures_each_group_with_the_function_it_is_given() -> None:
    runs = sweep(EVAL_SET[:2], ["diligent"], {"full prompt": DEFAULT_PARTS}, progress=False)
    groups = []
    cells = grid(runs, lambda group: groups.append(list(group)) or summarise(group))
    assert groups == [runs] and cells == grid(runs)


def test_the_sweep_is_deterministic_and_the_plot_is_the_same_svg_twice() -> None:
    first, second = sweep(EVAL_SET[:3], ["sloppy"], progress=False), sweep(EVAL_SET[:3], ["sloppy"], progress=False)
    assert first == second
    one, two = plot_metric(grid(first)), plot_metric(grid(second))
    assert one.data == two.data and "<svg" in one.data and "Date" not in one.data
    with pytest.raises(ValueError, match="unknown metric"):
        plot_metric(grid(first), "speed")


def test_every_persona_has_a_baseline_entry() -> None:
    from solutions.evaluation.gate import load_baseline
    assert set(load_baseline()) == set(personas())


def test_a_cell_of_no_data_draws_no_bar_not_a_bar_at_zero() -> None:
    measured, zero = Metrics(2, 0.5, 2.0, 1.0, 10, 0), Metrics(1, 0.0, 1.0, None, 1, 0)
    bars = {name: plot_metric({("a", "v"): measured, ("b", "v"): second}).data.count('id="patch_')
            for name, second in (("no data", summarise([])), ("zero", zero))}
    assert bars["no data"] == bars["zero"] - 1
