"""Every run ends: every persona x evaluation question x text and structured mode x bare and
guarded agent x max_steps 1, 3 and 6 stops within max_steps, with a stop_reason, raising nothing.

The matrix is scripts/termination_matrix.py's (which prints its size and the count of each stop
reason; `make test-long` runs it with max_steps 1 to 8).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import termination_matrix as matrix  # noqa: E402

from mockllm import personas  # noqa: E402
from solutions.evaluation.dataset import load_questions  # noqa: E402

QUESTIONS = load_questions()


@pytest.fixture(scope="module")
def endings() -> list[matrix.Ending]:
    return matrix.run_matrix(personas(), QUESTIONS, matrix.MAX_STEPS)


def test_the_matrix_is_whole(endings: list[matrix.Ending]) -> None:
    assert len(endings) == len(personas()) * len(QUESTIONS) * len(matrix.AGENTS) * len(matrix.MAX_STEPS)
    assert {(e.mode, e.agent) for e in endings} == {("text", "bare"), ("text", "guarded"),
                                                    ("structured", "bare"), ("structured", "guarded")}


def test_every_run_stops_within_max_steps_with_a_stop_reason(endings: list[matrix.Ending]) -> None:
    bad = [(e, e.problem()) for e in endings if e.problem()]
    assert bad == []


def test_both_endings_occur_in_every_mode_and_agent(endings: list[matrix.Ending]) -> None:
    """The matrix exercises the step limit as well as answers, in each of the four loops."""
    for mode, agent in matrix.AGENTS:
        reasons = {e.stop_reason for e in endings if (e.mode, e.agent) == (mode, agent)}
        assert {"answered", "step_limit"} <= reasons, (mode, agent, reasons)
    one_step = {(e.steps, e.stop_reason) for e in endings if e.max_steps == 1}
    assert one_step == {(1, "answered"), (1, "step_limit")}


def test_a_bad_ending_is_reported() -> None:
    """The check can fail: a run over its step limit, an unknown reason, an answer without one."""
    base = dict(persona="p", question="q", mode="text", agent="bare", max_steps=3)
    assert "more than max_steps" in matrix.Ending(**base, stop_reason="step_limit", steps=4, answered=False).problem()
    assert "unknown" in matrix.Ending(**base, stop_reason="tired", steps=1, answered=False).problem()
    assert "final_answer None" in matrix.Ending(**base, stop_reason="answered", steps=1, answered=False).problem()
    text = matrix.report([matrix.Ending(**base, stop_reason="tired", steps=1, answered=False)], {"runs": 1})
    assert text.splitlines()[0] == "1 runs = 1 runs" and "runs that ended badly: 1" in text


def test_the_script_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert matrix.main(["--max-steps", "2", "--questions", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{len(personas())} personas x 3 questions x 2 modes x 2 agents x 1 max_steps = " \
                     f"{len(personas()) * 3 * 4} runs"
    assert out[1].split() == ["mode", "agent", *matrix.STOP_REASONS] and out[-1] == "runs that ended badly: 0"
