"""Wrong solutions of lesson 11's exercises (validate_orders, run_stages)."""
from __future__ import annotations

import datetime as dt

from solutions.agent import run_agent
from solutions.planning.stages import StagedRun, StageResult, run_stage
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


def _iso_day(value, start, end):
    """'' when date.fromisoformat reads `value` as a day from start to end, else the problem (the
    mistake: any form fromisoformat reads passes, '20241105' included)."""
    try:
        day = dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return "has no date"
    return "" if dt.date.fromisoformat(start) <= day <= dt.date.fromisoformat(end) else "is out of range"


def _float_amount(value, catching=(TypeError, ValueError)) -> bool:
    """True when float() reads `value` (a bool aside): the mistake lets 'NaN' and 'inf' through."""
    if isinstance(value, bool):
        return False
    try:
        float(value)
    except catching:
        return False
    return True


def _finite_amount_value_errors_only(value) -> bool:
    """A finite float(value), catching ValueError only: float(None) raises TypeError."""
    if isinstance(value, bool):
        return False
    try:
        return abs(float(value)) != float("inf") and float(value) == float(value)
    except ValueError:
        return False


def _validator(*, rows_checked: str = "dict and keys", inclusive: bool = True, unique: str = "set",
               calendar: bool = True, amounts: str = "numbers", every_row: bool = True,
               every_problem: bool = True, empty_refused: bool = True, list_checked: bool = True,
               iso_dates: bool = False):
    """A validator with everything right but what the arguments turn off (one mistake each).

    rows_checked: "dict and keys", "dict only" (keys read with .get), "nothing" (keys read with
    [], so a missing one raises KeyError), or "keys only" (.keys() on a row that is no dict)."""
    def validate(rows, start, end):
        if (list_checked and not isinstance(rows, list)) or (empty_refused and not rows):
            return ["the order list is empty or not a list"]
        problems, seen = [], set()
        for number, row in enumerate(rows):
            is_dict = rows_checked == "keys only" or isinstance(row, dict)
            has_keys = rows_checked in ("dict only", "nothing") or (is_dict and set(KEYS) <= row.keys())
            if not is_dict or not has_keys:
                problems.append(f"a row is not an order: {row!r}")
                continue
            get = row.get if rows_checked == "dict only" else row.__getitem__
            date, oid = get("date"), get("id")
            if iso_dates and _iso_day(date, start, end):
                problems.append(f"order {oid} {_iso_day(date, start, end)}")
            elif iso_dates:
                pass
            elif calendar and not _is_day(date):
                problems.append(f"order {oid} has no date YYYY-MM-DD")
            elif not (start <= str(date) <= end if inclusive else start < str(date) < end):
                problems.append(f"order {oid} is dated {date}, outside {start} to {end}")
            repeated = oid in seen if unique == "set" else (
                unique == "adjacent" and number > 0 and rows[number - 1].get("id") == oid)
            if repeated:
                problems.append(f"order {oid} is listed twice")
            seen.add(oid)
            amount = get("amount")
            number = {"numbers": _is_amount, "scalars": lambda value: isinstance(value, (int, float, str)),
                      "not text": lambda value: isinstance(value, (int, float)), "float": _float_amount,
                      "finite, ValueError only": _finite_amount_value_errors_only}[amounts]
            if not number(amount):
                problems.append(f"order {oid} has no amount")
            if not every_row or (not every_problem and problems):
                return problems
        return problems
    return validate


for _fault, _says, _mistake in [
        ("does not check the required keys of each order", "every order needs id, date, line and amount",
         {"rows_checked": "dict only"}),
        ("reads the keys with row[...] unchecked: KeyError on a row without a date, a row without a line passes",
         "every order needs id, date, line and amount", {"rows_checked": "nothing"}),
        ("crashes on a row that is not a dict", "without crashing on it", {"rows_checked": "keys only"}),
        ("start and end exclusive", "start and end are inclusive", {"inclusive": False}),
        ("no check for repeated ids", "ids must be unique", {"unique": "none"}),
        ("only compares each id with the one before it", "a repeat need not be next to the first",
         {"unique": "adjacent"}),
        ("compares dates as strings without checking they are days", "a date must be a day the calendar has",
         {"calendar": False}),
        ("accepts True as an amount (bool is an int)", "an amount must be a number: True is a bool",
         {"amounts": "scalars"}),
        ("refuses amounts written as text, as order_rows reads them", "the amount '10.50' is a number written as text",
         {"amounts": "not text"}),
        ("only checks the first order (return inside the loop)", "check every order, not only the first",
         {"every_row": False}),
        ("returns at the first problem, hiding the others", "report every problem, not only the first",
         {"every_problem": False}),
        ("accepts an empty list of orders", "an empty order list is a problem", {"empty_refused": False}),
        ("an amount is whatever float() reads: 'NaN' and 'inf' pass", "'NaN' is 'not a number' by name",
         {"amounts": "float"}),
        ("catches ValueError only around float(amount): None raises TypeError",
         "float(None) raises TypeError", {"amounts": "finite, ValueError only"}),
        ("never checks that the order list is a list: a generator is checked, and used up",
         "the checkpoint must be a list", {"list_checked": False})]:
    CATALOGUE.wrong("validate_orders", fault=_fault, says=_says)(_validator(**_mistake))
CATALOGUE.wrong("validate_orders", fault="reads dates with date.fromisoformat alone, which takes '20241105' too",
                harmless="order_rows reads a date only where the listing has \\d{4}-\\d{2}-\\d{2}, so no row "
                         "of the lesson holds another form, and the lesson names fromisoformat as the check")(
    _validator(iso_dates=True))


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


def _runner(mistake: str):
    """The stage runner of the exercise with one mistake, named by `mistake`."""
    shared = StagedRun([])

    def run_stages(stages, client, tools):
        run = shared if mistake == "one run for every call" else StagedRun([])
        last: dict = {}
        for stage in stages:
            handed = {"no checkpoints": {}, "the last checkpoint": last}.get(mistake, run.checkpoints)
            result = run_stage(stage, client, tools, handed)
            if result.ok or mistake != "failure not recorded":
                run.results.append(result)
            if mistake in ("keeps the failed checkpoint", "carries on"):
                run.checkpoints[stage.name] = result.checkpoint
            if not result.ok and mistake == "carries on":
                run.failed = run.failed or stage.name
            elif not result.ok:
                run.failed = True if mistake == "failed is a flag" else stage.name
                return run
            if mistake != "no checkpoints":
                run.checkpoints[stage.name] = result.checkpoint
            last = {stage.name: result.checkpoint}
        return None if mistake == "no return at the end" else run
    return run_stages


for _mistake, _fault, _says in [
        ("carries on", "carries on after a failed checkpoint", "went on after a failed checkpoint"),
        ("no checkpoints", "never hands the checkpoints to the next stage",
         "keep each checkpoint in run.checkpoints"),
        ("the last checkpoint", "hands each stage only the checkpoint of the stage before it",
         "not only the last"),
        ("keeps the failed checkpoint", "keeps the checkpoint of the stage that failed",
         "its checkpoint is not kept"),
        ("failure not recorded", "returns at a failure before recording the stage's result",
         "record its result once in run.results"),
        ("failed is a flag", "sets failed to True instead of the stage's name",
         "set run.failed to the stage's name"),
        ("one run for every call", "one StagedRun shared between calls (a default argument, a global)",
         "start every call with a new StagedRun([])"),
        ("no return at the end", "forgets to return the run when every stage held", "returned None")]:
    CATALOGUE.wrong("run_stages", fault=_fault, says=_says)(_runner(_mistake))


@CATALOGUE.wrong("run_stages", fault="skips the checkpoint validation: runs the loops and reads the checkpoint, never validates it",
                 says="run_stage validated it")
def skips_the_validation(stages, client, tools):
    run = StagedRun([])
    for stage in stages:
        traces = [run_agent(question, client, tools, stage.max_steps)
                  for question in stage.questions(run.checkpoints)]
        checkpoint = stage.extract(traces, run.checkpoints)
        run.results.append(StageResult(stage.name, traces, checkpoint, []))
        run.checkpoints[stage.name] = checkpoint
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


def _retrying(record_every_try: bool):
    """A runner that tries a failed stage three times, recording every try or only the last."""
    def run_stages(stages, client, tools):
        run = StagedRun([])
        for stage in stages:
            tries = [run_stage(stage, client, tools, run.checkpoints)]
            while not tries[-1].ok and len(tries) < 3:
                tries.append(run_stage(stage, client, tools, run.checkpoints))
            run.results += tries if record_every_try else tries[-1:]
            if not tries[-1].ok:
                run.failed = stage.name
                return run
            run.checkpoints[stage.name] = tries[-1].checkpoint
        return run
    return run_stages


CATALOGUE.wrong("run_stages", fault="retries a failed stage twice and keeps only the last try, hiding its calls",
                says="no retry (each model call must show in run.results)")(_retrying(False))
CATALOGUE.wrong("run_stages", fault="retries a failed stage twice and records every try",
                says="a stage's result is in run.results twice")(_retrying(True))


def _own_stage(stage, client, tools, checkpoints) -> StageResult:
    """run_stage written again, without its care for a checkpoint that cannot be read."""
    traces = [run_agent(question, client, tools, stage.max_steps) for question in stage.questions(checkpoints)]
    checkpoint = stage.extract(traces, checkpoints)
    return StageResult(stage.name, traces, checkpoint, list(stage.validate(checkpoint, checkpoints)))


def _stopping_runner(run_one, failed):
    """The exercise's runner, with `run_one` for run_stage and `failed(result, checkpoints)` for `not result.ok`."""
    def run_stages(stages, client, tools):
        run = StagedRun([])
        for stage in stages:
            run.results.append(run_one(stage, client, tools, run.checkpoints))
            if failed(run.results[-1], stage, run.checkpoints):
                run.failed = stage.name
                break
            run.checkpoints[stage.name] = run.results[-1].checkpoint
        return run
    return run_stages


CATALOGUE.wrong("run_stages", fault="runs the loops, reads and validates the checkpoint itself, not with run_stage",
                says="run_stage turns that into a problem")(
    _stopping_runner(_own_stage, lambda result, stage, checkpoints: not result.ok))
CATALOGUE.wrong("run_stages", fault="a stage fails when its checkpoint is falsy or has problems",
                harmless="no checkpoint of the report's stages that holds is falsy (a period, a non-empty "
                         "order list, a dict of totals, a report text), so every run stops where the "
                         "reference's does")(
    _stopping_runner(run_stage, lambda result, stage, checkpoints: not result.checkpoint or bool(result.problems)))
CATALOGUE.wrong("run_stages", fault="validates the checkpoint again instead of reading result.ok",
                harmless="the validators only read their checkpoint, so a second validation finds the same "
                         "problems, and the run stops at the same stage")(
    _stopping_runner(run_stage, lambda result, stage, checkpoints: bool(stage.validate(result.checkpoint, checkpoints))))


@CATALOGUE.wrong("run_stages", fault="takes each stage off the caller's list with pop(0)",
                 says="the list of stages was changed")
def pops_the_stages(stages, client, tools):
    def taken():  # the stages as a queue
        while stages:
            yield stages.pop(0)
    return _stopping_runner(run_stage, lambda result, stage, checkpoints: not result.ok)(taken(), client, tools)
