"""The harness: run an agent on every question, keep one `Run` each, and measure the runs.

Built in lesson 10 (Evaluation). A `Run` holds what the metrics need and nothing of the trace's
text; `summarise` turns a list of runs into `Metrics`: success rate, average steps, tool-call
success rate, tokens and step-limit hits. No runs is no data: the rates and the average are None,
not 0 (a 0% would read as an agent that failed every question).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from mockllm import MockLLM
from solutions.evaluation.graders import grade_answer
from solutions.guards.agent import guarded_agent
from solutions.prompt import DEFAULT_PARTS, build_system_prompt
from solutions.tools import world_tools


@dataclass(frozen=True)
class Run:
    """One question run once: its outcome and what it cost."""

    question_id: str
    correct: bool            # the grader accepted the final answer
    stop_reason: str         # "answered", "step_limit", "repeated_call", ...
    steps: int               # model calls
    tool_calls: int          # steps that called a tool
    tool_errors: int         # ... whose observation was an error
    tokens: int
    persona: str = ""
    variant: str = ""


@dataclass(frozen=True)
class Metrics:
    """What a list of runs measures. Rates are from 0 to 1; a rate or average over nothing is None
    (no data): `success_rate` and `average_steps` without runs, `tool_success` without tool calls."""

    runs: int
    success_rate: float | None
    average_steps: float | None
    tool_success: float | None
    tokens: int
    step_limit_hits: int


def summarise(runs: Iterable[Run]) -> Metrics:
    """The Metrics of `runs`; averages are over every run, no runs is no data (None). Built in lesson 10 (Evaluation)."""
    runs = list(runs)
    if not runs:
        return Metrics(0, None, None, None, 0, 0)  # no data, not 0%
    calls = sum(run.tool_calls for run in runs)
    return Metrics(
        runs=len(runs),
        success_rate=sum(run.correct and run.stop_reason == "answered" for run in runs) / len(runs),
        average_steps=sum(run.steps for run in runs) / len(runs),
        tool_success=(calls - sum(run.tool_errors for run in runs)) / calls if calls else None,
        tokens=sum(run.tokens for run in runs),
        step_limit_hits=sum(run.stop_reason == "step_limit" for run in runs),
    )


def run_of(trace: Any, item: dict, persona: str = "", variant: str = "") -> Run:
    """The Run of a finished trace, its answer graded against `item`. Built in lesson 10 (Evaluation)."""
    calls = [step for step in trace.steps if step.action]
    errors = [step for step in calls if (step.observation or "").startswith("Error")]
    return Run(item["id"], grade_answer(trace.final_answer, item), trace.stop_reason,
               len(trace.steps), len(calls), len(errors), trace.total_tokens, persona, variant)


def no_wait(seconds: float) -> None:
    """A sleep that does not wait: retries in an evaluation cost no time."""


def guarded(question: str, client: Any, tools: Any, max_steps: int, *,
            system_prompt: str | None = None) -> Any:
    """Lesson 05's guarded_agent whose retries do not wait. Built in lesson 10 (Evaluation)."""
    return guarded_agent(question, client, tools, max_steps, system_prompt=system_prompt,
                         sleep=no_wait)


def run_question(item: dict, persona: str = "diligent", parts: Iterable[str] = DEFAULT_PARTS, *,
                 variant: str = "", agent: Callable[..., Any] = guarded, seed: int = 0,
                 max_steps: int = 6) -> Run:
    """Run `agent(question, client, tools, max_steps, system_prompt=...)` on one question, fresh mock and world, and grade it. Built in lesson 10 (Evaluation)."""
    tools = world_tools()
    prompt = build_system_prompt(tools, parts)
    trace = agent(item["question"], MockLLM(persona=persona, seed=seed), tools, max_steps,
                  system_prompt=prompt)
    return run_of(trace, item, persona, variant)


def evaluate(questions: Iterable[dict], persona: str = "diligent",
             parts: Iterable[str] = DEFAULT_PARTS, **options: Any) -> list[Run]:
    """One Run per question, in order. Built in lesson 10 (Evaluation)."""
    parts = tuple(parts)
    return [run_question(item, persona, parts, **options) for item in questions]
