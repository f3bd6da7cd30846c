"""The catalogue of wrong solutions: for every exercise, the classic mistakes learners make.

Each lesson's module here (`lessonNN.py`) defines `CATALOGUE = Catalogue("NN")` and adds its wrong
solutions with the decorator:

    @CATALOGUE.wrong("parse_step", fault="raises KeyError when an Action has no Action Input",
                     says="an Action without an Action Input")
    def parse_step_without_input(text): ...

The function is renamed to the exercise's name (as the learner's cell names it), and
`tests/test_wrong_solutions.py` runs `check` on it: the reference must come back, and the first
reason the report gives must contain `says`, the words that name the fault. A wrong solution that
does no harm (the lesson's later cells give the same results) is added with `harmless="why"`
instead: then `check` must accept it, and the catalogue says why that is right.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

LESSON_MODULES = tuple(sorted(p.stem for p in Path(__file__).parent.glob("lesson[0-9][0-9].py")))
MIN_PER_EXERCISE = 6   # classic wrong solutions each exercise's catalogue holds at least


@dataclass(frozen=True)
class Wrong:
    """One wrong solution: the exercise, the mistake, the function, and what the check must say."""

    exercise: str          # the exercise's function name, e.g. "parse_step"
    fault: str             # the mistake, in a sentence
    fn: Callable           # the wrong solution, named like the exercise
    says: str = ""         # what the first reason of the report must contain (it names the fault)
    harmless: str = ""     # instead of `says`: why accepting it is right (then check accepts it)
    slow: bool = False     # it runs until stopped: checked with a short case limit

    @property
    def id(self) -> str:
        """A test id: the exercise and the fault."""
        return f"{self.exercise}: {self.fault}"


class Catalogue:
    """The wrong solutions of one lesson's exercises, added with `wrong(...)` as a decorator."""

    def __init__(self, lesson: str) -> None:
        self.lesson = lesson
        self.entries: list[Wrong] = []

    def wrong(self, exercise: str, *, fault: str, says: str = "", harmless: str = "",
              slow: bool = False) -> Callable[[Callable], Callable]:
        """Add the decorated function as a wrong solution of `exercise`; it is renamed to `exercise`."""
        if bool(says) == bool(harmless):
            raise ValueError(f"{exercise}: {fault!r} needs exactly one of says= or harmless=")

        def add(fn: Callable) -> Callable:
            fn.__name__ = exercise
            fn.__qualname__ = f"wrong.{fn.__qualname__}"
            self.entries.append(Wrong(exercise, fault, fn, says, harmless, slow))
            return fn
        return add


def catalogue() -> list[Wrong]:
    """Every wrong solution of every lesson, in lesson order."""
    found: list[Wrong] = []
    for name in LESSON_MODULES:
        found += importlib.import_module(f"tests.wrong_solutions.{name}").CATALOGUE.entries
    return found


def counts() -> dict[str, int]:
    """The figures README "How we test" prints: exercises, wrong solutions, refused, harmless."""
    from solutions.course.exercises import exercises

    entries = catalogue()
    return {"exercises": len(exercises()), "wrong": len(entries),
            "refused": sum(not entry.harmless for entry in entries),
            "harmless": sum(bool(entry.harmless) for entry in entries)}
