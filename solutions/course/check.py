"""The exercise checker: `fn = check(fn)` after each exercise cell.

It runs the exercise's cases (`solutions/course/cases/`), prints a verdict with hints, and returns your
function when every case passes, else the reference, so the rest of the lesson runs either way.

What makes it hard to fool:

- **Time limits.** Every case may work for `CASE_SECONDS` of CPU time, through
  `solutions.course.limits` (a forked child killed at its limit on Linux; a watchdog that
  interrupts Python code elsewhere: read that module for the limits of each). CPU time, not
  elapsed time: a correct function on a busy laptop waits longer but does not work longer, so
  it gets the same verdict as on an idle one. The first case past its limit fails with a hint
  about bounding the work and the remaining cases are not run; no case starts once the check's
  cases have used `CHECK_SECONDS` of CPU time. A case that waits without working is stopped by
  the wall clock after `limits.WALL_FACTOR` times its limit.
  Time only decides a verdict when a case runs out of it; nothing timed is printed.
  The limits, outside Linux only: one long C-level operation written in your own code
  (`2 ** 10 ** 10`, `time.sleep(60)`) runs to its end before the case is stopped, a loop that
  catches BaseException and carries on is never stopped, and memory is not capped. No case of
  the course leads a wrong solution into such work (the power case is `(-1) ** 10 ** 10`).
- **A screen before the cases.** For the exercises that read a model's text, a function that
  uses eval, exec, compile or a way to reach them is refused before any case runs
  (`solutions.course.screen` reads the compiled code, so it works without the source).
- **The reference is recognised.** Checking the function `check` handed back (running
  `fn = check(fn)` twice) says so instead of reporting the reference as yours.
- **Root cause first.** When several cases fail the same way (None returned, a value of the wrong
  type, the same exception), that cause is reported once, before the other failures.
"""
from __future__ import annotations

import contextlib
import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from solutions.course import limits
from solutions.course.exercises import NOTHING, Case, Exercise, exercises
from solutions.course.screen import forbidden_uses

CASE_SECONDS = 2.0     # a case that has worked this many CPU seconds is stopped and fails
CHECK_SECONDS = 6.0    # no case starts once a check's cases have worked this many CPU seconds
MAX_SHOWN = 5          # failing cases printed in full
MAX_TEXT = 200         # characters of an input or a value shown
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

RETURNED_NONE = ("returned None: a path through the function ends without returning its result "
                 "(code that falls off the end, or a bare `return`, gives None); return what the "
                 "case expects on that path too")
TIMED_OUT = ("still running {when}, so it was stopped: bound the work "
             "(every loop needs a limit it cannot miss, every size a check before computing)")
OUT_OF_MEMORY = "ran out of memory (MemoryError): bound the work before allocating or computing"


@dataclass(frozen=True)
class CaseResult:
    """What happened to one case: status "pass", "fail", "todo", "timeout" or "skipped"."""

    number: int
    case: Case
    status: str
    got: str = ""
    cause: str = ""    # why it failed, when that is a reason other cases may share
    hint: str = ""     # what to do about it, shown when the case is reported on its own


def check(fn: Callable) -> Callable:
    """Run the cases of the exercise named `fn.__name__`; return `fn` if all pass, else the reference."""
    exercise = find_exercise(fn)
    reference = exercise.load_reference()
    if _same_function(fn, reference):
        print(f"{exercise.name}: this is still the reference {exercise.reference_path()}: run your "
              f"own cell first (the one that defines {exercise.name}), then this check")
        return reference
    refusals = forbidden_uses(fn) if exercise.screened else []
    if refusals:
        print(refusal_report(exercise, refusals))
        return reference
    results = run_cases(fn, exercise)
    print(report(exercise, results))
    return fn if all(result.status == "pass" for result in results) else reference


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


def _same_function(fn: Callable, reference: Callable) -> bool:
    """True when `fn` is the reference itself (the same object, or the same module and name)."""
    def key(function: Callable) -> tuple:
        return getattr(function, "__module__", None), getattr(function, "__qualname__", None)
    return fn is reference or key(fn) == key(reference)


def run_cases(fn: Callable, exercise: Exercise, runner: str | None = None) -> list[CaseResult]:
    """Run the cases in order, each under CASE_SECONDS; stop at a timeout or after CHECK_SECONDS
    (both of CPU time, see `solutions.course.limits`).

    They run inside the exercise's workspace, when it has one (entered here, in this process).

    `runner` is "fork" or "thread" (see `solutions.course.limits`); None means the platform's default.
    """
    calls = [_call(fn, exercise, case) for case in exercise.cases]
    with exercise.workspace() if exercise.workspace is not None else contextlib.nullcontext():
        outcomes = limits.run_each(calls, CASE_SECONDS, CHECK_SECONDS, runner or limits.DEFAULT_RUNNER)
    results = [_result(number, case, outcome)
               for number, (case, outcome) in enumerate(zip(exercise.cases, outcomes), start=1)]
    return results + [CaseResult(number, case, "skipped")
                      for number, case in enumerate(exercise.cases, start=1) if number > len(results)]


def _call(fn: Callable, exercise: Exercise, case: Case) -> Callable[[], Verdict]:
    """The case as a call: its inputs are built as it starts (a case's set-up may share files with
    the next case's), then it is called and judged."""
    return lambda: attempt(fn, exercise, case, *case.inputs())


def _result(number: int, case: Case, outcome: limits.Outcome) -> CaseResult:
    """The CaseResult of one limited call."""
    if outcome.kind == "done":
        return CaseResult(number, case, *outcome.value)
    if outcome.kind == "timeout":
        when = (f"after {CASE_SECONDS:g} seconds of work" if outcome.detail == "case"
                else f"when the check's {CHECK_SECONDS:g} seconds of work were used up")
        cause = TIMED_OUT.format(when=when)
        return CaseResult(number, case, "timeout", "still running when stopped", cause,
                          f"{cause}; here: {case.hint}" if case.hint else cause)
    detail = clean(outcome.detail)
    return CaseResult(number, case, "fail", shorten(detail), detail, case.hint)


Verdict = tuple[str, str, str, str]
"""(status, got, cause, hint): plain strings, so that a forked case can send them back."""


def attempt(fn: Callable, exercise: Exercise, case: Case, args: tuple, kwargs: dict) -> Verdict:
    """Call `fn` (its prints are swallowed) and judge what it did."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            value = fn(*args, **kwargs)
    except NotImplementedError as exc:
        return "todo", describe_exception(exc), "", case.hint
    except (Exception, SystemExit) as exc:  # the learner's code may fail in any way
        return judge_exception(exercise, case, exc)
    return judge_value(exercise, case, value)


def judge_exception(exercise: Exercise, case: Case, exc: BaseException) -> Verdict:
    """Judge a raised exception: the wanted one passes; any other is a cause cases can share."""
    got = describe_exception(exc)
    if isinstance(exc, MemoryError):
        return "fail", got, OUT_OF_MEMORY, OUT_OF_MEMORY
    if case.raises is None:
        known = known_cause(exercise, exc, raised=True)
        return "fail", got, known or got, known or case.hint  # one error in many cases: one cause
    if not isinstance(exc, case.raises):
        cause = f"raises {type(exc).__name__} where {case.raises.__name__} is expected"
        return "fail", got, cause, f"{cause}; {case.hint}" if case.hint else cause
    if case.match.lower() not in str(exc).lower():
        return "fail", got, "", case.hint
    return "pass", "", "", ""


def judge_value(exercise: Exercise, case: Case, value: Any) -> Verdict:
    """Judge a returned value against the case; name the cause when the value shows one."""
    got = shorten(clean(exercise.show(value)))
    if case.raises is not None:
        if value is None:
            return "fail", "returned None", RETURNED_NONE, RETURNED_NONE
        return "fail", f"returned {got}", "", case.hint
    try:
        if case.expect is not None:
            ok = bool(case.expect(value))
        else:
            ok = case.expected is not NOTHING and bool(value == case.expected)
    except Exception as exc:  # a value of the wrong shape makes the comparison fail
        ok, got = False, f"{got} (checking it: {describe_exception(exc)})"
    if ok:
        return "pass", "", "", ""
    cause = value_cause(exercise, case, value)
    return "fail", got, cause, cause or case.hint


def value_cause(exercise: Exercise, case: Case, value: Any) -> str:
    """The first known mistake the value shows: None returned, then the exercise's own causes."""
    if value is None and case.expected is not None:
        return RETURNED_NONE
    return known_cause(exercise, value, raised=False)


def known_cause(exercise: Exercise, found: Any, raised: bool) -> str:
    """The first of the exercise's causes that recognises `found` (a value, or an exception)."""
    for cause in exercise.causes:
        try:
            if cause.raised == raised and cause.test(found):
                return cause.says
        except Exception:  # a cause's test must not break the check
            continue
    return ""


def report(exercise: Exercise, results: list[CaseResult]) -> str:
    """Return the printed verdict: a timeout first, then shared causes, then the other failures."""
    name, reference = exercise.name, exercise.reference_path()
    passed = sum(result.status == "pass" for result in results)
    ran = [result for result in results if result.status != "skipped"]
    if passed == len(results):
        return f"✓ {name}: {passed}/{len(results)} cases pass — using your function"
    if ran and all(result.status == "todo" for result in ran):
        return (f"{name} is not solved yet — using the reference {reference} "
                f"(see lesson {exercise.lesson})")
    lines = [f"✗ {name}: {passed}/{len(results)} cases pass"]
    failing = [result for result in results if result.status in ("fail", "todo", "timeout")]
    for result in failing:  # a case that ran out of time stopped the check: say it first
        if result.status == "timeout":
            lines += describe_failure(exercise, result)
    failing = [result for result in failing if result.status != "timeout"]
    counts = Counter(result.cause for result in failing if result.cause)
    shared = [cause for cause, count in counts.most_common() if count > 1]
    for cause in shared:
        group = [result for result in failing if result.cause == cause]
        lines.append(f"  {len(group)} cases fail for one reason: {cause}")
        example = describe_failure(exercise, group[0], hint=False)
        lines += [f"    for example, {example[0].lstrip()}", *(f"    {line}" for line in example[1:])]
    others = [result for result in failing if result.cause not in shared]
    for result in others[:MAX_SHOWN]:
        lines += describe_failure(exercise, result)
    if len(others) > MAX_SHOWN:
        lines.append(f"  ... and {len(others) - MAX_SHOWN} more failing cases")
    skipped = sum(result.status == "skipped" for result in results)
    if skipped:
        why = ("a case ran out of time" if any(r.status == "timeout" for r in results)
               else f"the check's {CHECK_SECONDS:g} seconds of work were used up")
        lines.append(f"  ({skipped} case(s) not run: {why})")
    lines.append(f"using the reference {reference} instead")
    return "\n".join(lines)


def refusal_report(exercise: Exercise, refusals: list[str]) -> str:
    """Return the verdict for a function refused before its cases ran."""
    lines = [f"✗ {exercise.name}: refused without running the cases"]
    lines += [f"  {shorten(refusal, 400)}" for refusal in refusals]
    lines.append(f"  see lesson {exercise.lesson}: read the text and build the result yourself, "
                 "never run it")
    lines.append(f"using the reference {exercise.reference_path()} instead")
    return "\n".join(lines)


def describe_failure(exercise: Exercise, result: CaseResult, hint: bool = True) -> list[str]:
    """Return the report lines of one failing case: input, expected, got, and the hint."""
    case = result.case
    lines = [f"  case {result.number}: {call_label(exercise.name, case)}",
             f"    expected: {case.expectation()}",
             f"    got:      {result.got}"]
    if hint and result.hint:
        lines.append(f"    hint:     {result.hint}")
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
