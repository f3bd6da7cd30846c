"""The exercise checker: `fn = check(fn)` after each exercise cell.

It runs the exercise's cases (`solutions/cases/`), prints a verdict with hints, and returns your
function when every case passes, else the reference, so the rest of the lesson runs either way.
"""
from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from typing import Any, Callable

from solutions.exercises import NOTHING, Case, Exercise, exercises

MAX_SHOWN = 5          # failing cases printed in full
MAX_TEXT = 200         # characters of an input or a value shown
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class CaseResult:
    """What happened to one case: status is "pass", "fail", "todo" or "skipped"."""

    number: int
    case: Case
    status: str
    got: str = ""


def check(fn: Callable) -> Callable:
    """Run the cases of the exercise named `fn.__name__`; return `fn` if all pass, else the reference."""
    exercise = find_exercise(fn)
    results = run_cases(fn, exercise)
    print(report(exercise, results))
    if all(result.status == "pass" for result in results):
        return fn
    return exercise.load_reference()


def find_exercise(fn: Callable) -> Exercise:
    """Return the registered exercise for `fn`, or raise a ValueError listing the exercises."""
    if not callable(fn):
        raise TypeError(f"check() takes the function you wrote, got {type(fn).__name__}")
    registry = exercises()
    name = getattr(fn, "__name__", "")
    if name not in registry:
        raise ValueError(f"check() knows no exercise named {name!r}; "
                         f"the exercises are: {', '.join(registry)}")
    return registry[name]


def run_cases(fn: Callable, exercise: Exercise) -> list[CaseResult]:
    """Run every case (risky ones only when all the others pass), in case order."""
    numbered = list(enumerate(exercise.cases, start=1))
    results = {n: run_case(fn, exercise, n, case) for n, case in numbered if not case.risky}
    safe = all(result.status == "pass" for result in results.values())
    for number, case in numbered:
        if case.risky:
            results[number] = (run_case(fn, exercise, number, case) if safe
                               else CaseResult(number, case, "skipped"))
    return [results[number] for number, _ in numbered]


def run_case(fn: Callable, exercise: Exercise, number: int, case: Case) -> CaseResult:
    """Call `fn` on one case (its prints are swallowed) and judge the outcome."""
    args, kwargs = case.inputs()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            value = fn(*args, **kwargs)
    except NotImplementedError as exc:
        return CaseResult(number, case, "todo", describe_exception(exc))
    except Exception as exc:  # the learner's code may fail in any way: that is a failed case
        wanted = case.raises is not None and isinstance(exc, case.raises)
        if wanted and case.match.lower() in str(exc).lower():
            return CaseResult(number, case, "pass")
        return CaseResult(number, case, "fail", describe_exception(exc))
    return judge(exercise, number, case, value)


def judge(exercise: Exercise, number: int, case: Case, value: Any) -> CaseResult:
    """Compare a returned value with what the case expects."""
    got = shorten(clean(exercise.show(value)))
    if case.raises is not None:
        return CaseResult(number, case, "fail", f"returned {got}")
    try:
        if case.expect is not None:
            ok = bool(case.expect(value))
        else:
            ok = case.expected is not NOTHING and bool(value == case.expected)
    except Exception as exc:  # a value of the wrong shape makes the comparison fail
        return CaseResult(number, case, "fail", f"{got} (checking it: {describe_exception(exc)})")
    return CaseResult(number, case, "pass" if ok else "fail", got)


def report(exercise: Exercise, results: list[CaseResult]) -> str:
    """Return the printed verdict."""
    name, reference = exercise.name, exercise.reference_path()
    passed = sum(result.status == "pass" for result in results)
    ran = [result for result in results if result.status != "skipped"]
    if passed == len(results):
        return f"✓ {name}: {passed}/{len(results)} cases pass — using your function"
    if ran and all(result.status == "todo" for result in ran):
        return (f"{name} is not solved yet — using the reference {reference} "
                f"(see lesson {exercise.lesson})")
    lines = [f"✗ {name}: {passed}/{len(results)} cases pass"]
    failing = [result for result in results if result.status in ("fail", "todo")]
    for result in failing[:MAX_SHOWN]:
        lines += describe_failure(exercise, result)
    if len(failing) > MAX_SHOWN:
        lines.append(f"  ... and {len(failing) - MAX_SHOWN} more failing cases")
    skipped = sum(result.status == "skipped" for result in results)
    if skipped:
        lines.append(f"  ({skipped} risky case(s) not run: they run once all the others pass)")
    lines.append(f"using the reference {reference} instead")
    return "\n".join(lines)


def describe_failure(exercise: Exercise, result: CaseResult) -> list[str]:
    """Return the report lines of one failing case: input, expected, got, hint."""
    case = result.case
    lines = [f"  case {result.number}: {call_label(exercise.name, case)}",
             f"    expected: {case.expectation()}",
             f"    got:      {result.got}"]
    if case.hint:
        lines.append(f"    hint:     {case.hint}")
    return lines


def call_label(name: str, case: Case) -> str:
    """Show a case's input as a call, e.g. `calculator('1/0')`."""
    if case.label:
        return shorten(case.label)
    parts = [repr(arg) for arg in case.args]
    parts += [f"{key}={value!r}" for key, value in case.kwargs.items()]
    return shorten(clean(f"{name}({', '.join(parts)})"))


def describe_exception(exc: BaseException) -> str:
    """Return `raised ValueError: message` without memory addresses."""
    return shorten(clean(f"raised {type(exc).__name__}: {exc}"))


def clean(text: str) -> str:
    """Remove memory addresses so the report is the same on every run."""
    return _ADDRESS.sub("", text)


def shorten(text: str, limit: int = MAX_TEXT) -> str:
    """Cut long text, saying how long it was."""
    text = text.replace("\n", "\\n")
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}... ({len(text)} characters)"
