"""Lesson 11's exercises: right solutions pass, the classic wrong ones are refused."""
from __future__ import annotations

from solutions.course.check import check
from solutions.planning.checkpoints import validate_orders as reference_validate
from solutions.planning.stages import StagedRun, run_stage
from solutions.planning.stages import run_stages as reference_run_stages


def _verdict(fn, reference, capsys) -> str:
    """Check `fn`, assert the reference comes back, return the report."""
    assert check(fn) is reference
    return capsys.readouterr().out


def test_a_plain_validator_passes(capsys) -> None:
    def validate_orders(rows, start, end):
        if not isinstance(rows, list) or not rows:
            return ["no orders"]
        problems, seen = [], set()
        for row in rows:
            if not isinstance(row, dict):
                return [f"not a row: {row!r}"]
            if not start <= row["date"] <= end:
                problems.append(f"{row['id']} out of range")
            if row["id"] in seen:
                problems.append(f"{row['id']} twice")
            seen.add(row["id"])
        return problems
    assert check(validate_orders) is validate_orders


def test_a_validator_that_only_checks_the_type_is_refused(capsys) -> None:
    def validate_orders(rows, start, end):
        return [] if isinstance(rows, list) else ["not a list"]
    out = _verdict(validate_orders, reference_validate, capsys)
    assert "2025-01-02" in out and "a type check is not a validation" in out


def test_a_validator_without_the_duplicate_check_is_refused(capsys) -> None:
    def validate_orders(rows, start, end):
        if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
            return ["bad"]
        return [f"{r['id']} out of range" for r in rows if not start <= r["date"] <= end]
    assert "ids must be unique" in _verdict(validate_orders, reference_validate, capsys)


def test_exclusive_bounds_are_refused(capsys) -> None:
    def validate_orders(rows, start, end):
        if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
            return ["bad"]
        ids = [r["id"] for r in rows]
        return [f"{r['id']} out" for r in rows if not start < r["date"] < end] + \
            [f"{i} twice" for i in set(ids) if ids.count(i) > 1]
    assert "inclusive" in _verdict(validate_orders, reference_validate, capsys)


def test_a_plain_stage_runner_passes(capsys) -> None:
    def run_stages(stages, client, tools):
        run = StagedRun([])
        for stage in stages:
            result = run_stage(stage, client, tools, run.checkpoints)
            run.results.append(result)
            if not result.ok:
                run.failed = stage.name
                break
            run.checkpoints[stage.name] = result.checkpoint
        return run
    assert check(run_stages) is run_stages


def test_a_runner_that_continues_after_a_failed_checkpoint_is_refused(capsys) -> None:
    def run_stages(stages, client, tools):
        run = StagedRun([])
        for stage in stages:
            result = run_stage(stage, client, tools, run.checkpoints)
            run.results.append(result)
            run.checkpoints[stage.name] = result.checkpoint
            if not result.ok and run.failed is None:
                run.failed = stage.name
        return run
    out = _verdict(run_stages, reference_run_stages, capsys)
    assert "went on after a failed checkpoint" in out


def test_a_runner_that_never_keeps_checkpoints_is_refused(capsys) -> None:
    def run_stages(stages, client, tools):
        run = StagedRun([])
        for stage in stages:
            result = run_stage(stage, client, tools, {})
            run.results.append(result)
            if not result.ok:
                run.failed = stage.name
                return run
        return run
    assert "keep its checkpoint" in _verdict(run_stages, reference_run_stages, capsys)
