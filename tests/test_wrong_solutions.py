"""Every wrong solution in the catalogue (`tests/wrong_solutions/`) is refused, naming its fault first.

A harmless one is accepted, with the reason the catalogue gives. Each check runs under the check's
own time limits; a wrong solution that runs until stopped is checked with a shorter case limit.
"""
from __future__ import annotations

import contextlib
import io
import re
from collections import Counter

import pytest

from solutions.course import check as check_module
from solutions.course.check import check
from solutions.course.exercises import exercises
from tests.wrong_solutions import MIN_PER_EXERCISE, Wrong, catalogue

ENTRIES = catalogue()
SLOW_CASE_SECONDS = 0.5  # the case limit for a wrong solution that runs until stopped


def warm_up(reference, case) -> None:
    """Run the reference on a case here, so that the forked child the check runs in starts with
    every module its cases use already imported (a cold first case could run out of time alone)."""
    args, kwargs = case.inputs()
    with contextlib.redirect_stdout(io.StringIO()):
        reference(*args, **kwargs)
_ITEM = re.compile(r"^  (?:case \d+:|\d+ cases fail for one reason:|\S)")


def first_reason(report: str) -> str:
    """The report's first reason: the lines after the verdict line, up to the next case or cause."""
    lines = report.splitlines()[1:]
    block: list[str] = []
    for line in lines:
        if block and _ITEM.match(line) and not line.startswith("    "):
            break
        block.append(line)
    return "\n".join(block)


def test_first_reason_takes_one_block() -> None:
    report = ("✗ f: 1/3 cases pass\n  2 cases fail for one reason: it raised\n    for example, case 1: f()\n"
              "  case 3: f(1)\n    hint:     other\nusing the reference x instead")
    assert first_reason(report) == "  2 cases fail for one reason: it raised\n    for example, case 1: f()"


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.id for entry in ENTRIES])
def test_the_check_refuses_the_wrong_solution_naming_its_fault(entry: Wrong, capsys, monkeypatch) -> None:
    exercise = exercises()[entry.exercise]
    reference = exercise.load_reference()
    if entry.slow:  # it runs until stopped: a shorter limit, and the code its cases use loaded first
        warm_up(reference, exercise.cases[0])
        monkeypatch.setattr(check_module, "CASE_SECONDS", SLOW_CASE_SECONDS)
    returned = check(entry.fn)
    report = capsys.readouterr().out
    if entry.harmless:
        assert returned is entry.fn, f"harmless, so it must be accepted ({entry.harmless}):\n{report}"
        return
    assert returned is reference, f"accepted, but: {entry.fault}\n{report}"
    assert report.startswith(f"✗ {entry.exercise}: "), report
    assert entry.says in first_reason(report), \
        f"the first reason does not name the fault ({entry.says!r}):\n{report}"


def test_every_exercise_has_its_catalogue() -> None:
    per = Counter(entry.exercise for entry in ENTRIES)
    registered = exercises()
    assert not set(per) - set(registered), f"not exercises: {sorted(set(per) - set(registered))}"
    thin = {name: per[name] for name in registered if per[name] < MIN_PER_EXERCISE}
    assert not thin, f"exercises with fewer than {MIN_PER_EXERCISE} wrong solutions: {thin}"


def test_each_fault_is_listed_once() -> None:
    ids = Counter(entry.id for entry in ENTRIES)
    assert not [i for i, n in ids.items() if n > 1]
