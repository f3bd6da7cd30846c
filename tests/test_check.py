"""The exercise checker: verdicts, fallbacks, root causes, time limits, and the case tables."""
from __future__ import annotations

import math
import time

import pytest

from solutions.course import check as check_module
from solutions.course import limits
from solutions.course.check import check, run_cases
from solutions.course.exercises import Case, Exercise, exercises, returns

TOY = Exercise(name="double", lesson="99", reference="math:fabs", cases=(
    Case(args=(2,), expected=4, hint="multiply by two"),
    Case(args=(-1.5,), expected=-3.0),
    Case(args=(0,), expect=lambda v: v == 0 and isinstance(v, int), says="the int 0"),
    Case(args=(None,), raises=TypeError, match="unsupported", hint="let Python raise"),
    Case(args=(10,), expected=20, hint="multiply by two"),
), causes=(returns((int, float), "returns something that is not a number"),))

RUNNERS = [pytest.param("fork", marks=pytest.mark.skipif(
    limits.DEFAULT_RUNNER != "fork", reason="fork runner: Linux only")), "thread"]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Exercise:
    """Replace the registry by one toy exercise named `double`."""
    monkeypatch.setattr(check_module, "exercises", lambda: {"double": TOY})
    return TOY


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shorter limits, so the tests that time out stay quick."""
    monkeypatch.setattr(check_module, "CASE_SECONDS", 0.5)
    monkeypatch.setattr(check_module, "CHECK_SECONDS", 3.0)


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
    assert "case 5: double(10)\n    expected: 20\n    got:      12\n    hint:     multiply by two" in out
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
    assert "raises RuntimeError where TypeError is expected; let Python raise" in first


def test_unknown_exercise_lists_the_exercises() -> None:
    def no_such_exercise():
        return None
    with pytest.raises(ValueError, match="no exercise named 'no_such_exercise'.*calculator"):
        check(no_such_exercise)


# ---------------------------------------------------------------- root cause first

def test_none_from_falling_off_the_end_is_reported_once_first(toy: Exercise, capsys) -> None:
    def double(x):
        x * 2  # no return
    check(double)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].startswith("  4 cases fail for one reason: returned None: a path through the "
                               "function ends without returning its result")
    assert lines[2] == "    for example, case 1: double(2)"
    assert out.count("returned None: a path through the function") == 1
    assert "hint:" not in out and "multiply by two" not in out


def test_the_same_exception_everywhere_is_one_cause(toy: Exercise, capsys) -> None:
    def double(x):
        return undefined_name * x  # noqa: F821
    check(double)
    out = capsys.readouterr().out
    assert "4 cases fail for one reason: raised NameError: name 'undefined_name' is not defined" in out
    assert "case 4: double(None)" in out  # the raising case has its own cause: a wrong exception


def test_a_value_of_the_wrong_type_is_one_cause(toy: Exercise, capsys) -> None:
    def double(x):
        return str(x * 2)
    check(double)
    out = capsys.readouterr().out
    assert "4 cases fail for one reason: returns something that is not a number" in out
    assert "multiply by two" not in out


def test_none_is_not_mistaken_for_true_is_an_int(capsys: pytest.CaptureFixture) -> None:
    import ast

    def _evaluate(node):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return node.value
        # every other node falls off the end: True too, which returns None
    check(_evaluate)
    out = capsys.readouterr().out
    assert "cases fail for one reason: returned None" in out
    assert "True is an int" not in out


# ---------------------------------------------------------------- time limits

@pytest.mark.parametrize("runner", RUNNERS)
def test_an_endless_loop_is_stopped_and_the_rest_skipped(toy: Exercise, quick: None, runner: str,
                                                         monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(limits, "DEFAULT_RUNNER", runner)

    def double(x):
        while True:
            pass
    assert check(double) is math.fabs
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "  case 1: double(2)"
    assert "still running after 0.5 seconds of work, so it was stopped: bound the work" in out
    assert "(4 case(s) not run: a case ran out of time)" in out


@pytest.mark.parametrize("runner", RUNNERS)
def test_no_case_starts_once_the_check_time_is_used_up(toy: Exercise, monkeypatch, runner) -> None:
    monkeypatch.setattr(check_module, "CHECK_SECONDS", 0.75)

    def double(x):
        start = time.process_time()
        while time.process_time() - start < 0.3:  # each case works 0.3 s of CPU time
            pass
        return x * 2
    results = run_cases(double, toy, runner=runner)
    assert [result.status for result in results] == ["pass", "pass", "timeout", "skipped", "skipped"]
    assert "still running when the check's 0.75 seconds of work were used up" in results[2].cause


@pytest.mark.parametrize("runner", RUNNERS)
def test_waiting_is_not_work_but_the_wall_clock_stops_it(runner: str, monkeypatch) -> None:
    """A call that sleeps uses no CPU time: the wall-clock backstop stops it, later than its limit."""
    monkeypatch.setattr(limits, "WALL_FACTOR", 3.0)
    start = time.monotonic()
    def waits():
        for _ in range(300):  # short sleeps, so that the thread runner can interrupt between them
            time.sleep(0.1)
    assert limits.run_limited(waits, 0.2, runner) == limits.Outcome("timeout", detail="case")
    assert time.monotonic() - start >= 0.6  # not before WALL_FACTOR times the limit


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_busy_machine_does_not_stop_a_case_that_works_little(runner: str) -> None:
    """The case limit is CPU time: a call that works 0.05 s but waits 0.5 s passes a 0.2 s limit,
    as it does when other programs take the CPU from it."""
    def slow_but_light():
        time.sleep(0.5)
        return "done"
    assert limits.run_limited(slow_but_light, 0.2, runner) == limits.Outcome("done", "done")


@pytest.mark.skipif(limits.DEFAULT_RUNNER != "fork", reason="fork runner: Linux only")
def test_a_single_long_c_operation_is_killed(toy: Exercise, quick: None, capsys) -> None:
    def double(x):
        return 2 ** 10 ** 10 and x * 2  # one C-level operation, minutes long
    assert check(double) is math.fabs
    assert "still running after 0.5 seconds of work" in capsys.readouterr().out


@pytest.mark.skipif(limits.DEFAULT_RUNNER != "fork", reason="fork runner: Linux only")
def test_a_huge_allocation_fails_with_memory_error(toy: Exercise, capsys) -> None:
    def double(x):
        return len(bytes(limits.MEMORY_HEADROOM + 2 ** 30)) and x * 2
    assert check(double) is math.fabs
    assert "5 cases fail for one reason: ran out of memory (MemoryError)" in capsys.readouterr().out


@pytest.mark.skipif(limits.DEFAULT_RUNNER != "fork", reason="fork runner: Linux only")
def test_the_fork_runner_stops_code_that_swallows_every_exception() -> None:
    def stubborn():
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the point of the test
                continue
    assert limits.run_limited(stubborn, 0.3, "fork").kind == "timeout"


@pytest.mark.parametrize("runner", RUNNERS)
def test_the_runners_agree_on_values_and_errors(runner: str) -> None:
    assert limits.run_limited(lambda: ("ok", 1), 5, runner) == limits.Outcome("done", ("ok", 1))
    crashed = limits.run_limited(lambda: 1 / 0, 5, runner)
    assert crashed.kind == "crashed" and crashed.detail == "ZeroDivisionError: division by zero"
    with pytest.raises(ValueError, match="runner must be one of"):
        limits.run_limited(lambda: 1, 5, "process")


# ---------------------------------------------------------------- the case tables

REGISTRY = exercises()


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_exercise_has_enough_cases(name: str) -> None:
    exercise = REGISTRY[name]
    minimum = {"calculator": 12, "parse_step": 15}.get(name, 8)
    assert len(exercise.cases) >= minimum
    assert exercise.lesson.isdigit() and len(exercise.lesson) == 2
    assert ":" in exercise.reference
    assert all(case.hint for case in exercise.cases), "every case needs a hint"
    assert exercise.causes, "every exercise names the wrong value types it recognises"


@pytest.mark.parametrize("runner", RUNNERS)
@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_reference_passes_its_own_cases(name: str, runner: str) -> None:
    """Fails (not skips) while a reference module is missing: the cases are waiting for it."""
    exercise = REGISTRY[name]
    reference = exercise.load_reference()
    results = run_cases(reference, exercise, runner=runner)
    if any(result.status != "pass" for result in results):
        pytest.fail(check_module.report(exercise, results), pytrace=False)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_reference_handed_back_is_recognised(name: str, capsys: pytest.CaptureFixture) -> None:
    reference = REGISTRY[name].load_reference()
    assert check(reference) is reference
    assert capsys.readouterr().out == (
        f"{name}: this is still the reference {REGISTRY[name].reference_path()}: run your own cell "
        f"first (the one that defines {name}), then this check\n")


@pytest.mark.skipif(limits.DEFAULT_RUNNER != "fork", reason="fork runner: Linux only")
def test_a_case_that_kills_its_process_fails_and_the_next_cases_still_run(toy: Exercise) -> None:
    import os

    def double(x):
        if x == -1.5:
            os._exit(3)  # the process running the cases dies in case 2
        return x * 2
    results = run_cases(double, toy, runner="fork")
    assert [result.status for result in results] == ["pass", "fail", "pass", "pass", "pass"]
    assert results[1].got == "the process running the case died (no result)"


@pytest.mark.skipif(limits.DEFAULT_RUNNER != "fork", reason="fork runner: Linux only")
def test_the_fork_runner_runs_a_whole_check_in_one_child() -> None:
    import os
    outcomes = limits.run_each([os.getpid] * 4, 5, runner="fork")
    pids = {outcome.value for outcome in outcomes}
    assert len(outcomes) == 4 and len(pids) == 1 and os.getpid() not in pids
