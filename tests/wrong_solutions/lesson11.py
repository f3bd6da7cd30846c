"""Wrong solutions of lesson 11's exercises (validate_orders, run_stages)."""
from __future__ import annotations

import datetime as dt

from solutions.planning.stages import StagedRun, run_stage
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("11")
KEYS = ("id", "date", "line", "amount")


def _is_amount(value) -> bool:
    """A number, or text that reads as one (what a careful validator accepts)."""
    if isinstance(value, bool):
        return False
    try:
        return float(value) == float(value) and abs(float(value)) != float("inf")
    except (TypeError, ValueError):
        return False


def _is_day(value) -> bool:
    try:
        return isinstance(value, str) and len(value) == 10 and bool(dt.date.fromisoformat(value))
    except ValueError:
        return False


# ---------------------------------------------------------------- validate_orders(rows, start, end)


@CATALOGUE.wrong("validate_orders", fault="only checks that it got a list",
                 says="a type check alone is not a validation")
def checks_the_type_only(rows, start, end):
    return [] if isinstance(rows, list) and rows else ["the order list is empty or not a list"]


@CATALOGUE.wrong("validate_orders", fault="does not check the required keys of each order",
                 says="every order needs id, date, line and amount")
def no_check_of_the_keys(rows, start, end):
    if not isinstance(rows, list) or not rows:
        return ["no orders"]
    problems, seen = [], set()
    for row in rows:
        if not isinstance(row, dict):
            problems.append(f"not an order: {row!r}")
            continue
        date = row.get("date")
        if not _is_day(date) or not start <= date <= end:
            problems.append(f"order {row.get('id')} is dated {date}")
        if row.get("id") in seen:
            problems.append(f"order {row.get('id')} is listed twice")
        seen.add(row.get("id"))
        if "amount" in row and not _is_amount(row["amount"]):
            problems.append(f"order {row.get('id')} has a bad amount")
    return problems


@CATALOGUE.wrong("validate_orders", fault="reads row['date'] without checking the key, raising KeyError",
                 says="raised KeyError")
def keyerror_on_a_missing_key(rows, start, end):
    if not isinstance(rows, list) or not rows:
        return ["no orders"]
    problems, seen = [], set()
    for row in rows:
        if not isinstance(row, dict):
            problems.append(f"not an order: {row!r}")
            continue
        if not _is_day(row["date"]) or not start <= row["date"] <= end:
            problems.append(f"order {row['id']} is dated {row['date']}")
        if row["id"] in seen:
            problems.append(f"order {row['id']} is listed twice")
        seen.add(row["id"])
        if "line" not in row or not _is_amount(row["amount"]):
            problems.append(f"order {row['id']} has no line or amount")
    return problems


def _validator(*, inclusive: bool = True, unique: str = "set", calendar: bool = True,
               amounts: bool = True, every_row: bool = True, every_problem: bool = True):
    """A validator with everything right but what the arguments turn off (one mistake each)."""
    def validate(rows, start, end):
        if not isinstance(rows, list) or not rows:
            return ["the order list is empty or not a list"]
        problems, seen = [], set()
        for number, row in enumerate(rows):
            if not isinstance(row, dict) or not set(KEYS) <= row.keys():
                problems.append(f"a row is not an order: {row!r}")
                continue
            date = row["date"]
            if calendar and not _is_day(date):
                problems.append(f"order {row['id']} has no date YYYY-MM-DD")
            elif not (start <= date <= end if inclusive else start < date < end):
                problems.append(f"order {row['id']} is dated {date}, outside {start} to {end}")
            repeated = row["id"] in seen if unique == "set" else (
                number > 0 and rows[number - 1].get("id") == row["id"])
            if repeated:
                problems.append(f"order {row['id']} is listed twice")
            seen.add(row["id"])
            if amounts and not _is_amount(row["amount"]):
                problems.append(f"order {row['id']} has no amount")
            elif not amounts and not isinstance(row["amount"], (int, float, str)):
                problems.append(f"order {row['id']} has no amount")
            if not every_problem and problems:
                return problems
            if not every_row:
                return problems
        return problems
    return validate


CATALOGUE.wrong("validate_orders", fault="start and end exclusive",
                says="start and end are inclusive")(_validator(inclusive=False))
CATALOGUE.wrong("validate_orders", fault="no check for repeated ids",
                says="ids must be unique")(_validator(unique="none"))
CATALOGUE.wrong("validate_orders", fault="only compares each id with the one before it",
                says="a repeat need not be next to the first")(_validator(unique="adjacent"))
CATALOGUE.wrong("validate_orders", fault="compares dates as strings without checking they are days",
                says="a date must be a day the calendar has")(_validator(calendar=False))
CATALOGUE.wrong("validate_orders", fault="accepts True as an amount (bool is an int)",
                says="an amount must be a number: True is a bool")(_validator(amounts=False))
CATALOGUE.wrong("validate_orders", fault="only checks the first order (return inside the loop)",
                says="check every order, not only the first")(_validator(every_row=False))
CATALOGUE.wrong("validate_orders", fault="returns at the first problem, hiding the others",
                says="report every problem, not only the first")(_validator(every_problem=False))


@CATALOGUE.wrong("validate_orders", fault="accepts an empty list of orders",
                 says="an empty order list is a problem")
def accepts_no_orders(rows, start, end):
    if not isinstance(rows, list):
        return ["not a list"]
    return _validator()(rows, start, end) if rows else []


@CATALOGUE.wrong("validate_orders", fault="crashes on a row that is not a dict",
                 says="without crashing on it")
def crashes_on_a_row_that_is_no_dict(rows, start, end):
    if not isinstance(rows, list) or not rows:
        return ["no orders"]
    problems, seen = [], set()
    for row in rows:
        if not set(KEYS) <= row.keys():
            problems.append(f"a row lacks a key: {row!r}")
            continue
        if not _is_day(row["date"]) or not start <= row["date"] <= end:
            problems.append(f"order {row['id']} is dated {row['date']}")
        if row["id"] in seen:
            problems.append(f"order {row['id']} is listed twice")
        seen.add(row["id"])
        if not _is_amount(row["amount"]):
            problems.append(f"order {row['id']} has a bad amount")
    return problems


@CATALOGUE.wrong("validate_orders", fault="sorts the caller's list in place to check the first and last dates",
                 says="a validator only reads")
def sorts_the_rows_in_place(rows, start, end):
    problems = _validator()(rows, start, end)
    if problems:
        return problems
    rows.sort(key=lambda row: row["date"])
    if rows[0]["date"] < start or rows[-1]["date"] > end:
        return [f"orders outside {start} to {end}"]
    return []


@CATALOGUE.wrong("validate_orders", fault="converts each row's date to a datetime.date in place",
                 says="a validator only reads")
def converts_the_dates_in_place(rows, start, end):
    problems = _validator()(rows, start, end)
    for row in rows if not problems else []:
        row["date"] = dt.date.fromisoformat(row["date"])
    return problems


# ---------------------------------------------------------------- run_stages(stages, client, tools)


@CATALOGUE.wrong("run_stages", fault="carries on after a failed checkpoint",
                 says="went on after a failed checkpoint")
def carries_on_after_a_failure(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        run.checkpoints[stage.name] = result.checkpoint
        if not result.ok and run.failed is None:
            run.failed = stage.name
    return run


@CATALOGUE.wrong("run_stages", fault="never keeps the checkpoints for the next stage",
                 says="keep each checkpoint in run.checkpoints")
def never_keeps_checkpoints(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, {})
        run.results.append(result)
        if not result.ok:
            run.failed = stage.name
            return run
    return run


@CATALOGUE.wrong("run_stages", fault="hands each stage only the checkpoint of the stage before it",
                 says="not only the last")
def only_the_last_checkpoint(stages, client, tools):
    run, last = StagedRun([]), {}
    for stage in stages:
        result = run_stage(stage, client, tools, last)
        run.results.append(result)
        if not result.ok:
            run.failed = stage.name
            return run
        run.checkpoints[stage.name] = result.checkpoint
        last = {stage.name: result.checkpoint}
    return run


@CATALOGUE.wrong("run_stages", fault="skips the checkpoint validation: runs the loops and reads the checkpoint, never validates it",
                 says="run_stage validated it")
def skips_the_validation(stages, client, tools):
    from solutions.agent import run_agent
    from solutions.planning.stages import StageResult
    run = StagedRun([])
    for stage in stages:
        traces = [run_agent(question, client, tools, stage.max_steps)
                  for question in stage.questions(run.checkpoints)]
        checkpoint = stage.extract(traces, run.checkpoints)
        run.results.append(StageResult(stage.name, traces, checkpoint, []))
        run.checkpoints[stage.name] = checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="keeps the checkpoint of the stage that failed",
                 says="its checkpoint is not kept")
def keeps_the_failed_checkpoint(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        run.checkpoints[stage.name] = result.checkpoint
        if not result.ok:
            run.failed = stage.name
            return run
    return run


@CATALOGUE.wrong("run_stages", fault="returns at a failure before recording the stage's result",
                 says="record its result once in run.results")
def failure_not_recorded(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        if not result.ok:
            run.failed = stage.name
            return run
        run.results.append(result)
        run.checkpoints[stage.name] = result.checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="sets failed to True instead of the stage's name",
                 says="set run.failed to the stage's name")
def failed_is_a_flag(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        if not result.ok:
            run.failed = True
            return run
        run.checkpoints[stage.name] = result.checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="retries a failed stage until it holds, without a limit",
                 says="every loop needs a limit", slow=True)
def retries_without_a_limit(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        while not result.ok:
            result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        run.checkpoints[stage.name] = result.checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="retries a failed stage twice and keeps only the last try, hiding its calls",
                 says="no retry (each model call must show in run.results)")
def retries_and_hides_the_calls(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        for _attempt in range(3):
            result = run_stage(stage, client, tools, run.checkpoints)
            if result.ok:
                break
        run.results.append(result)
        if not result.ok:
            run.failed = stage.name
            return run
        run.checkpoints[stage.name] = result.checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="retries a failed stage twice and records every try",
                 says="a stage's result is in run.results twice")
def retries_and_records_every_try(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        for _attempt in range(3):
            result = run_stage(stage, client, tools, run.checkpoints)
            run.results.append(result)
            if result.ok:
                break
        if not result.ok:
            run.failed = stage.name
            return run
        run.checkpoints[stage.name] = result.checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="one StagedRun shared between calls (a default argument)",
                 says="start every call with a new StagedRun([])")
def shares_the_run_between_calls(stages, client, tools, run=StagedRun([])):  # noqa: B008
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        if not result.ok:
            run.failed = stage.name
            return run
        run.checkpoints[stage.name] = result.checkpoint
    return run


@CATALOGUE.wrong("run_stages", fault="forgets to return the run when every stage held",
                 says="returned None")
def no_return_at_the_end(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        result = run_stage(stage, client, tools, run.checkpoints)
        run.results.append(result)
        if not result.ok:
            run.failed = stage.name
            return run
        run.checkpoints[stage.name] = result.checkpoint
