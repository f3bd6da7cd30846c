"""Staged runs: a long task as short ReAct loops, each ending in a checkpoint that is validated.

Built in lesson 11 (Long tasks). A `Stage` says which questions to ask (from the checkpoints so
far), how to read its checkpoint from the runs' traces, and how to validate it. `run_stages`
runs the stages in order and stops at the first checkpoint that does not hold. A run is bounded:
each stage asks at most MAX_QUESTIONS questions, each a loop of at most its `max_steps` calls.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from solutions.agent import Trace, run_agent
from solutions.tools import ToolRegistry

MAX_QUESTIONS = 20
"""Questions (one loop each) a stage may ask: more fails its checkpoint before any loop runs."""
STOP_REASONS = ("answered", "checkpoint_failed")
"""Why a staged run ended: every checkpoint held, or one did not (`failed` names its stage)."""


@dataclass(frozen=True)
class Stage:
    """One stage: its questions, how to read its checkpoint, and how to check it."""

    name: str
    questions: Callable[[dict], list[str]]          # checkpoints so far -> questions, one loop each
    extract: Callable[[list[Trace], dict], Any]     # (traces, checkpoints) -> the checkpoint
    validate: Callable[[Any, dict], list[str]]      # (checkpoint, checkpoints) -> problems
    max_steps: int = 6


@dataclass
class StageResult:
    """What one stage did: its runs, the checkpoint it read and the problems found in it."""

    name: str
    traces: list[Trace]
    checkpoint: Any
    problems: list[str]

    @property
    def ok(self) -> bool:
        """True when the checkpoint holds."""
        return not self.problems

    @property
    def steps(self) -> int:
        """Model calls of the stage's runs."""
        return sum(len(trace.steps) for trace in self.traces)


@dataclass
class StagedRun:
    """A whole staged run: the stages that ran, the checkpoints that held, where it stopped."""

    results: list[StageResult]
    checkpoints: dict = field(default_factory=dict)
    failed: str | None = None   # the stage whose checkpoint did not hold, None when all held

    @property
    def stop_reason(self) -> str:
        """'checkpoint_failed' when a stage's checkpoint did not hold, else 'answered'."""
        return "checkpoint_failed" if self.failed is not None else "answered"

    @property
    def steps(self) -> int:
        """Model calls of all the stages."""
        return sum(result.steps for result in self.results)

    @property
    def total_tokens(self) -> int:
        """Tokens of all the stages' model calls."""
        return sum(trace.total_tokens for result in self.results for trace in result.traces)


def stage_questions(stage: Stage, checkpoints: dict) -> tuple[list[str], str | None]:
    """The stage's questions, or a problem: its builder raised, gave no list of texts, or more than MAX_QUESTIONS."""
    try:
        questions = stage.questions(checkpoints)
        if not isinstance(questions, (list, tuple)) or not all(isinstance(q, str) for q in questions):
            raise TypeError(f"it returned {type(questions).__name__}, not a list of questions")
    except Exception as error:  # a broken question builder fails the stage, with the reason
        return [], f"could not build the questions ({type(error).__name__}: {error})"
    if len(questions) > MAX_QUESTIONS:
        return [], f"the stage asks {len(questions)} questions, more than {MAX_QUESTIONS}: none was run"
    return list(questions), None


def run_stage(stage: Stage, client: Any, tools: ToolRegistry, checkpoints: dict) -> StageResult:
    """Run one stage's loops, read its checkpoint and validate it (a reading error is a problem)."""
    questions, problem = stage_questions(stage, checkpoints)
    if problem is not None:  # no loop runs: the stage fails with the reason
        return StageResult(stage.name, [], None, [problem])
    traces = [run_agent(question, client, tools, stage.max_steps) for question in questions]
    try:
        checkpoint = stage.extract(traces, checkpoints)
    except (ValueError, KeyError, TypeError) as error:
        return StageResult(stage.name, traces, None, [f"could not read the checkpoint: {error}"])
    try:
        problems = stage.validate(checkpoint, checkpoints)
        if not isinstance(problems, (list, tuple)):
            raise TypeError(f"it returned {type(problems).__name__}, not a list of problems")
    except Exception as error:  # a broken validator fails its checkpoint, with the reason
        return StageResult(stage.name, traces, checkpoint, [f"the checkpoint's validator failed: {error}"])
    return StageResult(stage.name, traces, checkpoint, list(problems))


def run_stages(stages: list[Stage], client: Any, tools: ToolRegistry) -> StagedRun:
    """Run the stages in order, keep each checkpoint that holds, stop at the first that does not."""
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        if not result.ok:
            run.failed = stage.name
            return run
        run.checkpoints[stage.name] = result.checkpoint
    return run


def stages_text(run: StagedRun) -> str:
    """One line per stage: its name, loops, steps, and its checkpoint's verdict."""
    lines = []
    for result in run.results:
        verdict = "checkpoint holds" if result.ok else "FAILED: " + "; ".join(result.problems[:2])
        lines.append(f"{result.name:<8} {len(result.traces)} loop(s), {result.steps:>2} steps  "
                     f"{verdict}")
    return "\n".join(lines)
