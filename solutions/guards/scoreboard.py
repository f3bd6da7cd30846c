"""Run agents over the question set for each persona and score them. Built in lesson 05 (Failure clinic)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from mockllm import MockLLM
from solutions.guards.questions import QUESTIONS, grade
from solutions.tools import world_tools


@dataclass(frozen=True)
class Score:
    """How one agent did with one persona over a question set."""

    persona: str
    agent: str
    correct: int
    questions: int
    steps: int
    tokens: int

    @property
    def share(self) -> float:
        """The share of questions answered correctly, from 0 to 1."""
        return self.correct / self.questions if self.questions else 0.0


def score(agent: Callable[..., Any], persona: str, questions: Iterable[dict] = QUESTIONS, *,
          name: str = "", seed: int = 0, max_steps: int = 5) -> Score:
    """Run `agent(question, MockLLM(persona, seed), world_tools(), max_steps)` on each question and grade it. Built in lesson 05 (Failure clinic)."""
    correct = steps = tokens = count = 0
    for item in questions:
        trace = agent(item["question"], MockLLM(persona=persona, seed=seed), world_tools(), max_steps)
        correct += grade(trace.final_answer, item)
        steps, tokens, count = steps + len(trace.steps), tokens + trace.total_tokens, count + 1
    return Score(persona, name or getattr(agent, "__name__", "agent"), correct, count, steps, tokens)


def compare(agents: dict[str, Callable[..., Any]], personas: Iterable[str],
            questions: Iterable[dict] = QUESTIONS, **options: Any) -> list[Score]:
    """Every agent's Score for every persona, persona by persona. Built in lesson 05 (Failure clinic)."""
    items = list(questions)
    return [score(agent, persona, items, name=name, **options)
            for persona in personas for name, agent in agents.items()]


def table(scores: list[Score]) -> str:
    """The scores as a text table, one persona a line, the agents side by side."""
    agents = list(dict.fromkeys(s.agent for s in scores))
    head = f"{'persona':<13}" + "".join(f"{a + ' correct':>18}{'steps':>7}{'tokens':>9}" for a in agents)
    lines = [head, "-" * len(head)]
    for persona in dict.fromkeys(s.persona for s in scores):
        row = {s.agent: s for s in scores if s.persona == persona}
        lines.append(f"{persona:<13}" + "".join(
            f"{row[a].correct:>11}/{row[a].questions:<2} {row[a].share:>4.0%}{row[a].steps:>7}{row[a].tokens:>9}"
            for a in agents))
    return "\n".join(lines)
