"""Text mode against structured mode: the same questions and personas, scored the same way.

Built in lesson 06 (Structured tool calls). The questions and their grader are lesson 05's
(`solutions.guards.questions`); `compare_modes` runs every persona on every question with each
agent of `MODES` and returns one `Run` per run; `summarise`, `table` and `failing_quirks` turn the
runs into the lesson's tables.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from solutions.agent import Trace, run_agent
from solutions.guards.questions import QUESTIONS, grade
from solutions.parsing import Step
from solutions.progress import progress_bar
from solutions.structured import structured_agent
from solutions.structured_text import EMPTY_REPLY
from solutions.tools import ToolRegistry, world_tools


def content_as_answer(content: str | None) -> Step:
    """The naive reading of a reply without tool calls: its content is the final answer. Built in lesson 06 (Structured tool calls)."""
    text = (content or "").strip()
    return Step(final_answer=text, raw=content or "") if text else Step(error=EMPTY_REPLY, raw="")


Agent = Callable[..., Trace]


def modes_with(structured: Agent = structured_agent) -> dict[str, Agent]:
    """The agents compared, with `structured` as the structured loop. Built in lesson 06 (Structured tool calls).

    Lesson 04's loop, `structured`, and `structured` taking any reply without tool calls as the
    answer. The lesson passes its own `structured_agent`, which answers the calls with the
    learner's `tool_messages` and `validate_arguments`.
    """
    def no_fallback(question: str, client: Any, tools: ToolRegistry, max_steps: int) -> Trace:
        """`structured` with the naive reading of replies without tool calls."""
        return structured(question, client, tools, max_steps, read_text=content_as_answer)
    return {"text": run_agent, "structured": structured, "no fallback": no_fallback}


MODES: dict[str, Agent] = modes_with()
"""The agents compared: lesson 04's loop, the structured loop, and the structured loop that takes
any reply without tool calls as the answer."""


@dataclass(frozen=True)
class Run:
    """One run of the comparison: who, how, the trace, and whether the answer was right."""

    persona: str
    mode: str
    question: str
    right: bool
    trace: Trace

    @property
    def quirks(self) -> tuple[str, ...]:
        """The quirks the mock says it acted out in the run, each once, in the order they first fired."""
        fired = [quirk for step in self.trace.steps for quirk in step.explanation.get("quirks_fired", [])]
        return tuple(dict.fromkeys(fired))


def compare_modes(personas: Iterable[str], questions: Iterable[dict] = QUESTIONS,
                  modes: dict[str, Agent] | None = None, *, seed: int = 0, max_steps: int = 6,
                  tools: ToolRegistry | None = None, progress: bool = False) -> list[Run]:
    """Run every persona on every question (lesson 05's items) in every mode, a fresh MockLLM each
    run; with a progress bar when `progress`."""
    from mockllm import MockLLM

    modes = MODES if modes is None else modes
    tools = world_tools() if tools is None else tools
    items, personas = tuple(questions), list(personas)
    runs = []
    with progress_bar(len(personas) * len(modes) * len(items), "modes", progress) as bar:
        for persona in personas:
            for mode, agent in modes.items():
                for item in items:
                    trace = agent(item["question"], MockLLM(persona=persona, seed=seed), tools, max_steps)
                    runs.append(Run(persona, mode, item["question"], grade(trace.final_answer, item), trace))
                    bar.update()
    return runs


def summarise(runs: Iterable[Run]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (persona, mode): the share answered right, mean steps and mean tokens per run."""
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.persona, run.mode), []).append(run)
    return {key: {"right": sum(r.right for r in group) / len(group),
                  "steps": sum(len(r.trace.steps) for r in group) / len(group),
                  "tokens": sum(r.trace.total_tokens for r in group) / len(group), "runs": len(group)}
            for key, group in groups.items()}


def table(summary: dict[tuple[str, str], dict[str, Any]]) -> str:
    """The summary as a text table: a row per persona, right / steps / tokens for each mode."""
    personas = list(dict.fromkeys(persona for persona, _ in summary))
    modes = list(dict.fromkeys(mode for _, mode in summary))
    lines = [f"{'':<13}" + "".join(f"{mode:^24}" for mode in modes),
             f"{'persona':<13}" + f"{'right':>8}{'steps':>7}{'tokens':>9}" * len(modes)]
    for persona in personas:
        cells = [summary.get((persona, mode)) for mode in modes]
        lines.append(f"{persona:<13}" + "".join(
            f"{c['right']:>8.0%}{c['steps']:>7.1f}{c['tokens']:>9.0f}" if c else f"{'-':>24}"
            for c in cells))
    return "\n".join(lines)


def failing_quirks(runs: Iterable[Run], mode: str) -> dict[str, Counter]:
    """Per persona, in how many of its wrong runs in `mode` each quirk fired (personas with none left out)."""
    found: dict[str, Counter] = {}
    for run in runs:
        if run.mode == mode and not run.right:
            found.setdefault(run.persona, Counter()).update(run.quirks or ("(no quirk)",))
    return found
