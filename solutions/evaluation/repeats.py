"""Repeated runs: every question run n times, each run with its own seed at a temperature above 0.

Built in lesson 17 (Variance). A real model samples: at a temperature above 0 two runs of the same
question differ, and the request's `seed` makes a run reproducible. `Sampled` sends every request
of an agent with one `temperature` and one `seed`; `repeat` runs each question `runs` times (seeds
`first_seed`, `first_seed + 1`, ...) and counts the runs that succeeded, the `c` of n that pass@k,
pass^k and the intervals are computed from.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, Iterable

from solutions.evaluation.harness import guarded, run_question
from solutions.progress import progress_bar
from solutions.prompt import DEFAULT_PARTS


class Sampled:
    """A client whose every request goes to `client` with this `temperature` and `seed` (the API's own parameters)."""

    def __init__(self, client: Any, seed: int, temperature: float) -> None:
        self.client, self.seed, self.temperature = client, seed, temperature
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        """The request, sent with the sampler's temperature and seed."""
        return self.client.chat.completions.create(
            **{**request, "temperature": self.temperature, "seed": self.seed})


def sampled(agent: Callable[..., Any], seed: int, temperature: float) -> Callable[..., Any]:
    """`agent` whose client sends every request with `temperature` and `seed`. Built in lesson 17 (Variance)."""
    def run(question: str, client: Any, tools: Any, max_steps: int, **options: Any) -> Any:
        return agent(question, Sampled(client, seed, temperature), tools, max_steps, **options)
    return run


def repeat(questions: Iterable[dict], persona: str, parts: Iterable[str] = DEFAULT_PARTS, *,
           runs: int, temperature: float = 0.7, first_seed: int = 0,
           agent: Callable[..., Any] = guarded, progress: bool = True) -> dict[str, int]:
    """How many of `runs` runs of each question succeeded (answered and right), by question id. Built in lesson 17 (Variance)."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be a positive int (the n of pass@k), got {runs!r}")
    items, parts = list(questions), tuple(parts)
    successes = {item["id"]: 0 for item in items}
    with progress_bar(len(items) * runs, f"{persona} x {runs} seeds", progress) as bar:
        for seed in range(first_seed, first_seed + runs):
            for item in items:
                run = run_question(item, persona, parts, agent=sampled(agent, seed, temperature))
                successes[item["id"]] += run.correct and run.stop_reason == "answered"
                bar.update()
    return successes
