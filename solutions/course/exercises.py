"""The exercise registry: what `check()` knows about each exercise and the cases it runs.

The case tables live in `solutions/course/cases/lessonNN.py`; each module defines `EXERCISES`, a list
of `Exercise`. Reference functions are imported only when a case or the fallback needs them.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager

NOTHING: Any = object()
"""Marks a case without an `expected` value (it uses `expect` or `raises` instead)."""

CASE_MODULES = tuple(sorted(path.stem for path in (Path(__file__).parent / "cases").glob("lesson[0-9][0-9].py")))
"""The case modules, one per lesson that has exercises: every `solutions/course/cases/lessonNN.py`."""


@dataclass(frozen=True)
class Case:
    """One input for an exercise's function and what the function must do with it."""

    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    expected: Any = NOTHING          # the return value must equal this
    expect: Callable[[Any], bool] | None = None   # or satisfy this predicate ...
    says: str = ""                   # ... described in words for the report
    raises: type[BaseException] | None = None     # or raise this exception
    match: str = ""                  # whose message contains this text
    hint: str = ""                   # what to fix when the function returns the wrong value
    label: str = ""                  # how to show the input (default: the call with its args)
    setup: Callable[[], tuple[tuple, dict]] | None = None  # builds (args, kwargs) lazily

    def inputs(self) -> tuple[tuple, dict]:
        """Return the (args, kwargs) to call the function with."""
        return self.setup() if self.setup is not None else (self.args, dict(self.kwargs))

    def expectation(self) -> str:
        """Describe in words what the case expects."""
        if self.raises is not None:
            text = f"raises {self.raises.__name__}"
            return text + (f" mentioning {self.match!r}" if self.match else "")
        return self.says or repr(self.expected)


@dataclass(frozen=True)
class Cause:
    """A mistake that makes many cases fail at once, recognised from a returned value or an exception."""

    test: Callable[[Any], bool]      # True when the value (or the exception) shows the mistake
    says: str                        # what happened and what to do, reported once
    raised: bool = False             # test the exception the function raised, not a value


def returns(kind: type | tuple[type, ...], says: str) -> Cause:
    """A cause: the function returned something that is not a `kind` (bools are not numbers)."""
    def wrong(value: Any) -> bool:
        return isinstance(value, bool) or not isinstance(value, kind)
    return Cause(wrong, says)


def has_attributes(*names: str, says: str) -> Cause:
    """A cause: the value lacks one of the attributes `names` (wrong kind of object)."""
    return Cause(lambda value: not all(hasattr(value, name) for name in names), says)


@dataclass(frozen=True)
class Exercise:
    """An exercise: the function's name, its lesson, its reference and its cases."""

    name: str
    lesson: str                      # "01"
    reference: str                   # "solutions.tools:calculator"
    cases: tuple[Case, ...]
    show: Callable[[Any], str] = repr  # how to show a returned value in the report
    causes: tuple[Cause, ...] = ()   # mistakes recognised from a value or an exception, in order
    screened: bool = False           # refuse eval, exec & co. before running (solutions.course.screen)
    workspace: Callable[[], ContextManager[Any]] | None = None
    """A context the cases run in, entered in the notebook's own process before they start and
    left after the last one (their files, made and removed whatever the cases do)."""

    def reference_path(self) -> str:
        """Return the dotted path of the reference, e.g. `solutions.tools.calculator`."""
        return self.reference.replace(":", ".")

    def load_reference(self) -> Callable:
        """Import and return the reference function."""
        module, _, name = self.reference.partition(":")
        return getattr(importlib.import_module(module), name)


def exercises() -> dict[str, Exercise]:
    """Return every registered exercise by function name, in lesson order."""
    registry: dict[str, Exercise] = {}
    for module_name in CASE_MODULES:
        module = importlib.import_module(f"solutions.course.cases.{module_name}")
        for exercise in module.EXERCISES:
            if exercise.name in registry:
                raise ValueError(f"exercise {exercise.name!r} is registered twice")
            registry[exercise.name] = exercise
    return registry
