"""Every run ends: each persona x evaluation question x mode x agent x max_steps, counted by its ending.

Usage: python scripts/termination_matrix.py [--max-steps 1 3 6] [--questions N]

A run ends well when it raised nothing, made at most `max_steps` steps and has a known
`stop_reason` (an answer for "answered", none otherwise). The script prints the matrix size,
the count of each stop reason per mode and agent, and every run that ended badly; it exits with
status 1 if there is one. tests/test_termination.py runs the whole matrix in `make test`;
`make test-long` runs this script with max_steps 1 to 8.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from mockllm import MockLLM, personas
from solutions.agent import Trace, run_agent
from solutions.evaluation.dataset import load_questions
from solutions.evaluation.harness import no_wait
from solutions.guards import guarded_agent
from solutions.guards.calls import GuardedTools
from solutions.guards.retry import RetryingClient
from solutions.structured import structured_agent
from solutions.tools import ToolRegistry, world_tools

STOP_REASONS = ("answered", "step_limit", "repeated_call", "retries_exhausted")
"""Every way a run of these agents may end."""
MAX_STEPS = (1, 3, 6)


def _guarded_structured(question: str, client: Any, tools: ToolRegistry, max_steps: int) -> Trace:
    """The structured loop with lesson 05's guarded registry and retrying client."""
    return structured_agent(question, RetryingClient(client, sleep=no_wait), GuardedTools(tools), max_steps)


AGENTS: dict[tuple[str, str], Callable[[str, Any, ToolRegistry, int], Trace]] = {
    ("text", "bare"): run_agent,
    ("text", "guarded"): lambda q, client, tools, n: guarded_agent(q, client, tools, n, sleep=no_wait),
    ("structured", "bare"): structured_agent,
    ("structured", "guarded"): _guarded_structured,
}
"""(mode, agent) -> the loop: lessons 04, 05 and 06, and lesson 06's loop with lesson 05's guards."""


@dataclass(frozen=True)
class Ending:
    """How one run of the matrix ended."""

    persona: str
    question: str
    mode: str
    agent: str
    max_steps: int
    stop_reason: str
    steps: int
    answered: bool

    def problem(self) -> str | None:
        """What is wrong with this ending, or None when the run ended well."""
        if self.steps > self.max_steps:
            return f"{self.steps} steps, more than max_steps={self.max_steps}"
        if self.stop_reason not in STOP_REASONS:
            return f"unknown stop_reason {self.stop_reason!r}"
        if (self.stop_reason == "answered") != self.answered:
            return f"stop_reason {self.stop_reason!r} with final_answer {'set' if self.answered else 'None'}"
        return None


def run_one(persona: str, item: dict, mode: str, agent: str, max_steps: int) -> Ending:
    """Run one cell of the matrix with a fresh mock and world."""
    trace = AGENTS[mode, agent](item["question"], MockLLM(persona=persona, seed=0), world_tools(), max_steps)
    return Ending(persona, item["id"], mode, agent, max_steps, trace.stop_reason, len(trace.steps),
                  trace.final_answer is not None)


def run_matrix(persona_names: Iterable[str], questions: Iterable[dict],
               max_steps: Iterable[int] = MAX_STEPS) -> list[Ending]:
    """Every combination, in a fixed order."""
    questions, max_steps = list(questions), list(max_steps)
    return [run_one(persona, item, mode, agent, steps) for persona in persona_names for item in questions
            for mode, agent in AGENTS for steps in max_steps]


def report(endings: list[Ending], sizes: dict[str, int]) -> str:
    """The matrix size, the stop reasons per mode and agent, and the runs that ended badly."""
    size = " x ".join(f"{count} {name}" for name, count in sizes.items())
    lines = [f"{size} = {len(endings)} runs"]
    counts = Counter((e.mode, e.agent, e.stop_reason) for e in endings)
    lines.append(f"{'mode':<12}{'agent':<9}" + "".join(f"{reason:>19}" for reason in STOP_REASONS))
    for mode, agent in AGENTS:
        lines.append(f"{mode:<12}{agent:<9}" + "".join(f"{counts[mode, agent, r]:>19}" for r in STOP_REASONS))
    total = Counter(e.stop_reason for e in endings)
    lines.append(f"{'all':<21}" + "".join(f"{total[reason]:>19}" for reason in STOP_REASONS))
    bad = [(e, e.problem()) for e in endings if e.problem()]
    lines.append(f"runs that ended badly: {len(bad)}")
    lines += [f"  {e.persona} {e.question} {e.mode}/{e.agent} max_steps={e.max_steps}: {p}" for e, p in bad]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the matrix, print the report, return 1 if a run ended badly."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-steps", type=int, nargs="+", default=list(MAX_STEPS))
    parser.add_argument("--questions", type=int, default=None, help="only the first N questions")
    args = parser.parse_args(argv)
    names, questions = list(personas()), list(load_questions())[:args.questions]
    endings = run_matrix(names, questions, args.max_steps)
    sizes = {"personas": len(names), "questions": len(questions), "modes": 2, "agents": 2,
             "max_steps": len(args.max_steps)}
    print(report(endings, sizes))
    return 1 if any(e.problem() for e in endings) else 0


if __name__ == "__main__":
    sys.exit(main())
