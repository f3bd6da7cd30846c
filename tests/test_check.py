"""The exercise checker: verdicts, fallbacks, and the case tables themselves."""
from __future__ import annotations

import math

import pytest

from solutions import check as check_module
from solutions.check import check, run_cases
from solutions.exercises import Case, Exercise, exercises

CALLS: list[object] = []


def _risky(value: object) -> bool:
    """Predicate of the risky toy case; records that it ran."""
    CALLS.append(value)
    return value == 20


TOY = Exercise(name="double", lesson="99", reference="math:fabs", cases=(
    Case(args=(2,), expected=4, hint="multiply by two"),
    Case(args=(-1.5,), expected=-3.0),
    Case(args=(0,), expect=lambda v: v == 0 and isinstance(v, int), says="the int 0"),
    Case(args=(None,), raises=TypeError, match="unsupported", hint="let Python raise"),
    Case(args=(10,), expect=_risky, says="20", risky=True),
))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Exercise:
    """Replace the registry by one toy exercise named `double`."""
    monkeypatch.setattr(check_module, "exercises", lambda: {"double": TOY})
    CALLS.clear()
    return TOY


def test_a_correct_function_passes_and_is_returned(toy: Exercise, capsys: pytest.CaptureFixture) -> None:
    def double(x):
        return x * 2
    assert check(double) is double
    assert capsys.readouterr().out == "✓ double: 5/5 cases pass — using your function\n"


def test_a_wrong_function_gets_the_reference_and_a_report(toy: Exercise, capsys) -> None:
    def double(x):
        return x + 2
    assert check(double) is math.fabs
    out = capsys.readouterr().out
    assert out.startswith("✗ double: 2/5 cases pass\n")  # 2 + 2 == 4 and None + 2 raises
    assert "case 2: double(-1.5)\n    expected: -3.0\n    got:      0.5\n" in out
    assert "case 3: double(0)\n    expected: the int 0\n    got:      2\n" in out
    assert "(1 risky case(s) not run" in out and CALLS == []
    assert out.rstrip().endswith("using the reference math.fabs instead")


def test_a_stub_is_not_solved_yet(toy: Exercise, capsys: pytest.CaptureFixture) -> None:
    def double(x):
        """Double x."""
        raise NotImplementedError("Exercise: multiply")
    assert check(double) is math.fabs
    assert capsys.readouterr().out == ("double is not solved yet — using the reference math.fabs "
                                       "(see lesson 99)\n")


def test_exceptions_and_prints_are_contained(toy: Exercise, capsys: pytest.CaptureFixture) -> None:
    def double(x):
        print("debugging", x)
        return object()
    check(double)
    out = capsys.readouterr().out
    assert "debugging" not in out and " at 0x" not in out
    assert "got:      <object object>" in out


def test_the_report_is_deterministic(toy: Exercise, capsys: pytest.CaptureFixture) -> None:
    def double(x):
        raise RuntimeError(f"boom {x}")
    check(double)
    first = capsys.readouterr().out
    check(double)
    assert capsys.readouterr().out == first and "got:      raised RuntimeError: boom 2" in first
    assert "case 4: double(None)\n    expected: raises TypeError mentioning 'unsupported'" in first
    assert "hint:     let Python raise" in first


def test_unknown_exercise_lists_the_exercises() -> None:
    def no_such_exercise():
        return None
    with pytest.raises(ValueError, match="no exercise named 'no_such_exercise'.*calculator"):
        check(no_such_exercise)


REGISTRY = exercises()


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_exercise_has_enough_cases(name: str) -> None:
    exercise = REGISTRY[name]
    minimum = {"calculator": 12, "parse_step": 15}.get(name, 8)
    assert len(exercise.cases) >= minimum
    assert exercise.lesson.isdigit() and len(exercise.lesson) == 2
    assert ":" in exercise.reference
    assert all(case.hint for case in exercise.cases), "every case needs a hint"


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_reference_passes_its_own_cases(name: str) -> None:
    """Fails (not skips) while a reference module is missing: the cases are waiting for it."""
    exercise = REGISTRY[name]
    reference = exercise.load_reference()
    results = run_cases(reference, exercise)
    if any(result.status != "pass" for result in results):
        pytest.fail(check_module.report(exercise, results), pytrace=False)
