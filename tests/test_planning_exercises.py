"""Lesson 11's exercises: other right solutions pass the check (the wrong ones are in tests/wrong_solutions/lesson11.py)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from solutions.course.check import check
from solutions.planning.stages import StagedRun, run_stage


def test_a_plain_validator_passes(capsys) -> None:
    def validate_orders(rows, start, end):
        if not isinstance(rows, list) or not rows:
            return ["no orders"]
        problems, seen = [], set()
        for row in rows:
            if not isinstance(row, dict) or any(key not in row for key in ("id", "date", "line", "amount")):
                problems.append(f"not an order: {row!r}")
                continue
            try:
                day = dt.date.fromisoformat(row["date"])
                if not dt.date.fromisoformat(start) <= day <= dt.date.fromisoformat(end):
                    problems.append(f"{row['id']} out of range")
            except (TypeError, ValueError):
                problems.append(f"{row['id']}: bad date")
            if row["id"] in seen:
                problems.append(f"{row['id']} twice")
            seen.add(row["id"])
            try:
                if isinstance(row["amount"], bool) or not Decimal(str(row["amount"])).is_finite():
                    problems.append(f"{row['id']}: bad amount")
            except InvalidOperation:
                problems.append(f"{row['id']}: bad amount")
        return problems
    assert check(validate_orders) is validate_orders, capsys.readouterr().out


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
    assert check(run_stages) is run_stages, capsys.readouterr().out
