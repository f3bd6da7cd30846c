"""Cases for lesson 18 (Resumable tasks): `load_checkpoints` on a real store file.

Each case gets its own store in the check's temporary folder (made before the cases run and
removed after the last), opened with `open_checkpoints` and holding the checkpoints the case
lists, and three small stages (one: 2 + 2, two: one * 10, three: two + one). The case's
connection is handed to the function; after it returns, a second connection checks that the
store was neither changed nor left locked.
"""
from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise

_ROOT: list[Path] = []  # the folder of the check being run (a forked case inherits it)
_CURRENT: dict[str, Any] = {}  # the case being run, set by its setup (a forked case inherits it)
TASK = "weekly-report"
OTHER = "monthly-report"
QUOTED = "Q4 \"weekly\" report's"
ALL = {"one": "4", "two": "40", "three": "44"}


@contextlib.contextmanager
def _stores() -> Iterator[None]:
    """The check's temporary folder for the cases' stores, made and removed in the notebook's process."""
    with tempfile.TemporaryDirectory(prefix="course-resume-cases-", ignore_cleanup_errors=True) as root:
        _ROOT[:] = [Path(root)]
        try:
            yield
        finally:
            _ROOT.clear()


def _stages() -> list:
    """one = 2 + 2, two = one * 10, three = two + one; three's validator only checks that it is a
    whole number, so only the inputs' digest tells a `three` saved for other inputs."""
    from solutions.planning.stages import Stage

    def one(value: Any, c: dict) -> list[str]:
        return [] if value == "4" else [f"one is {value!r}, not 2 + 2"]

    def two(value: Any, c: dict) -> list[str]:  # int() raises on a value that is not text
        return [] if int(value) == int(c["one"]) * 10 else [f"two is {value!r}, not one * 10"]

    def three(value: Any, c: dict) -> list[str]:
        return [] if isinstance(value, str) and value.isdigit() else [f"three is {value!r}, no number"]

    unused = lambda *args: None  # noqa: E731  (the loader never asks or extracts)
    return [Stage("one", unused, unused, one), Stage("two", unused, unused, two),
            Stage("three", unused, unused, three)]


def _row(task: str, stage: str, value: Any, inputs: dict | None = None, schema: int | None = None,
         text: str | None = None) -> tuple:
    """A checkpoint row: its value saved as JSON (or `text` as it is) for `inputs` (default: the
    right ones, the checkpoints of ALL before `stage`)."""
    from solutions.planning.saved import CHECKPOINT_SCHEMA, inputs_digest

    names = list(ALL)
    before = {name: ALL[name] for name in names[:names.index(stage)]} if inputs is None else inputs
    return (task, stage, CHECKPOINT_SCHEMA if schema is None else schema,
            inputs_digest(stage, before), json.dumps(value) if text is None else text)


def _table(conn: sqlite3.Connection) -> list[tuple]:
    """Every checkpoint row, in the order saved."""
    return conn.execute("SELECT task, stage, schema, inputs, value FROM checkpoints ORDER BY rowid").fetchall()


def _setup(name: str, rows: tuple[tuple, ...], task: str, expected: dict,
           refused: dict[str, str]) -> Callable[[], tuple[tuple, dict]]:
    """Setup: a fresh store `name` holding `rows`, the three stages, and `task`."""
    def make() -> tuple[tuple, dict]:
        from solutions.planning.saved import open_checkpoints

        if not _ROOT:
            raise RuntimeError("lesson 18's cases run inside their check (solutions.course.check.check)")
        folder = _ROOT[0] / name
        shutil.rmtree(folder, ignore_errors=True)
        opened = open_checkpoints(folder / "memory.sqlite")
        with opened.conn:
            opened.conn.executemany("INSERT INTO checkpoints VALUES (?, ?, ?, ?, ?)", rows)
        stages = _stages()
        _CURRENT.clear()
        _CURRENT.update(path=folder / "memory.sqlite", conn=opened.conn, table=_table(opened.conn),
                        stages=stages, names=[s.name for s in stages], expected=expected,
                        refused=refused)
        return (opened.conn, stages, task), {}
    return make


def _locked() -> bool:
    """True when another session cannot take the write lock at once: a transaction was left open."""
    try:
        with contextlib.closing(sqlite3.connect(_CURRENT["path"], timeout=0, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
    except sqlite3.OperationalError:
        return True
    return False


def _closed() -> bool:
    """True when the function closed the connection it was given."""
    try:
        _CURRENT["conn"].total_changes  # noqa: B018 (raises on a closed connection)
    except sqlite3.ProgrammingError:
        return True
    return False


def _changed() -> bool:
    """True when the store's rows differ from what the case put there (read by a new connection)."""
    with contextlib.closing(sqlite3.connect(_CURRENT["path"])) as other:
        return _table(other) != _CURRENT["table"]


def _loads(name: str, rows: tuple[tuple, ...], expected: dict, hint: str, *, task: str = TASK,
           refused: dict[str, str] | None = None, held: str = "") -> Case:
    """A case: load_checkpoints returns (`expected`, a note naming the stage it stopped at) and
    leaves the store as it was, unlocked, its connection open."""
    refused = refused or {}
    stopped = next((stage for stage in ALL if stage not in expected), None)

    def test(value: Any) -> bool:
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], str)):
            return False
        checkpoints, note = value
        return checkpoints == expected and list(checkpoints) == list(expected) \
            and (stopped is None or stopped in note) \
            and not _locked() and not _closed() and not _changed()

    shown = held or (", ".join(f"{row[1]}={row[4]}" for row in rows if row[0] == task) or "nothing")
    says = f"({expected}, a note naming {stopped})" if stopped else f"({expected}, a note)"
    return Case(setup=_setup(name, rows, task, expected, refused), expect=test, hint=hint,
                label=f"load_checkpoints(conn, <one, two, three>, {task!r})  # saved: {shown}",
                says=says + ", the store unchanged and unlocked")


def _good(task: str = TASK, *stages: str) -> tuple[tuple, ...]:
    """The right rows of `stages` (default: all three) for `task`."""
    return tuple(_row(task, stage, ALL[stage]) for stage in (stages or ALL))


_STOP_AT = ("stop loading at the first stage whose checkpoint does not hold, and return the "
            "checkpoints before it: that stage runs again, and every stage after it")
CASES = (
    _loads("empty", (), {}, "an empty store holds no checkpoint: fetchone() is None for the first "
           "stage; return ({}, a note naming it) and the run starts from the beginning"),
    _loads("all", _good(), ALL, "every checkpoint is saved for these inputs and holds: load them "
           "all, in stage order (otherwise each stage runs again and spends its calls again)"),
    _loads("two-wrong", (*_good(TASK, "one"), _row(TASK, "two", "41"), _row(TASK, "three", "44", {"one": "4", "two": "41"})),
           {"one": "4"}, "two's saved value, '41', fails its validator (it is not one * 10): a "
           "checkpoint read back is validated like a new one before it is trusted; " + _STOP_AT,
           refused={"two": "validator"}),
    _loads("two-not-json", (*_good(TASK, "one"), _row(TASK, "two", None, text='{"broken'), *_good(TASK, "three")),
           {"one": "4"}, "two's saved text is not JSON (a torn or damaged record): json.loads "
           "raises; that is a checkpoint that does not hold, not a crash: catch the error and "
           + _STOP_AT, held="one='4', two='{\"broken' (not JSON), three='44'"),
    _loads("two-list", (*_good(TASK, "one"), _row(TASK, "two", ["40"]), _row(TASK, "three", "44", {"one": "4", "two": ["40"]})),
           {"one": "4"}, "two's saved value is a list, and its validator raises on it (int() of a "
           "list): a validator that raises has refused the value; catch it and " + _STOP_AT,
           refused={"two": "validator"}),
    _loads("old-schema", (_row(TASK, "one", "4", schema=0), *_good(TASK, "two", "three")), {},
           "one was saved with schema 0, by code that wrote checkpoints another way: compare the "
           "row's schema with CHECKPOINT_SCHEMA before reading its value, and " + _STOP_AT,
           refused={"one": "schema"}, held="one='4' (schema 0), two='40', three='44'"),
    _loads("other-inputs", (*_good(TASK, "one", "two"), _row(TASK, "three", "55", {"one": "5", "two": "50"})),
           {"one": "4", "two": "40"}, "three was saved for other inputs (one=5, two=50), and its "
           "validator cannot tell: compare the row's inputs digest with inputs_digest(stage.name, "
           "checkpoints), the checkpoints loaded so far, and " + _STOP_AT,
           refused={"three": "digest"}, held="one='4', two='40', three='55' (for one=5, two=50)"),
    _loads("other-task", _good(OTHER), {}, "the store holds the checkpoints of another task only "
           f"({OTHER!r}): select the rows of this task and stage, WHERE task = ? AND stage = ?",
           refused={"one": "task", "two": "task", "three": "task"},
           held=f"nothing (the three checkpoints of {OTHER!r})"),
    _loads("stage-added", (*_good(TASK, "one"), _row(TASK, "three", "44", {"one": "4"})), {"one": "4"},
           "two has no checkpoint (the stage was added to the task after three was saved): stop "
           "AT the first stage without a checkpoint that holds, not after it; three would be built "
           "on a two that was never checked", refused={"three": "after"},
           held="one='4', three='44' (saved when the stages were one, three)"),
    _loads("one-wrong", (_row(TASK, "one", "5"), *_good(TASK, "two", "three")), {},
           "one's value, '5', fails its validator: nothing after it can be trusted; return ({}, a "
           "note naming one)", refused={"one": "validator"}),
    _loads("quoted", (*_good(OTHER), *_good(QUOTED)), ALL, "a task id may hold quotes: pass it "
           "with a ? placeholder, never format it into the SQL", task=QUOTED),
)


def _extra(kind: str) -> Callable[[Any], bool]:
    """A cause's test: a checkpoint loaded that the case refuses for `kind`."""
    def test(value: Any) -> bool:
        refused = _CURRENT.get("refused", {})
        return any(refused.get(stage) == kind for stage in value[0] if stage not in _CURRENT["expected"])
    return test


def _went_past(value: Any) -> bool:
    """True when the checkpoints are right but the note does not name the stage loading stopped at."""
    stopped = next((stage for stage in _CURRENT["names"] if stage not in _CURRENT["expected"]), None)
    return value[0] == _CURRENT["expected"] and stopped is not None and stopped not in value[1]


def _missing_row(exc: Any) -> bool:
    """True for the TypeError of reading a row when fetchone() found none."""
    text = str(exc).lower()
    return isinstance(exc, TypeError) and "nonetype" in text and ("subscript" in text or "unpack" in text
                                                                   or "iterable" in text)


CAUSES = (
    Cause(lambda value: not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], dict)
                             and isinstance(value[1], str)),
          "returns something that is not (checkpoints, note): return the dict of the checkpoints "
          "that hold and a str saying why loading stopped"),
    Cause(lambda value: _locked(), "the store was left locked: a write (a DELETE, an UPDATE) began a "
          "transaction that was never committed, and every other session now waits on it; the "
          "loader only reads: leave a refused checkpoint in the store, its stage's new one replaces it"),
    Cause(lambda value: _closed(), "it closed the connection it was given: the caller goes on "
          "using conn (the run saves its new checkpoints through it)"),
    Cause(lambda value: _changed(), "the store was changed: the loader only reads; a refused "
          "checkpoint stays for you to inspect, and its stage's new checkpoint replaces it"),
    Cause(_extra("validator"), "a checkpoint that fails its validator was loaded: validate each "
          "value read back with stage.validate(value, checkpoints) before trusting it (a file can "
          "be damaged, a bug can have saved a wrong value), and stop there"),
    Cause(_extra("schema"), "a checkpoint saved with another schema was loaded: compare the row's "
          "schema with CHECKPOINT_SCHEMA, and stop there; code that wrote checkpoints another way "
          "may have left out what this code needs"),
    Cause(_extra("digest"), "a checkpoint saved for other inputs was loaded: compare the row's "
          "inputs digest with inputs_digest(stage.name, checkpoints) of the checkpoints loaded so "
          "far, and stop there"),
    Cause(_extra("task"), "another task's checkpoint was loaded: select by task and stage, WHERE "
          "task = ? AND stage = ?, with (task_id, stage.name)"),
    Cause(_extra("after"), "a checkpoint after one that does not hold was loaded (resuming after "
          "the first refused checkpoint instead of at it): " + _STOP_AT),
    Cause(_went_past, "the note does not name the stage where loading had to stop: the loader went "
          "on past it (resuming after the first refused checkpoint instead of at it), or left it "
          "out of the note; " + _STOP_AT + ", with a note naming it and why"),
    Cause(lambda value: value[0] == {} and _CURRENT.get("expected"),
          "nothing was loaded where checkpoints that hold are saved: every stage would run again; "
          "read each stage's row and keep the value when it holds"),
    Cause(_missing_row, "fetchone() is None when a stage has no checkpoint saved (an empty store, "
          "a new task): return the checkpoints so far, with a note, instead of reading the missing "
          "row", raised=True),
    Cause(lambda exc: isinstance(exc, json.JSONDecodeError), "a saved value that is not JSON (a "
          "damaged record) raised: catch the error; that checkpoint does not hold, so " + _STOP_AT,
          raised=True),
    Cause(lambda exc: isinstance(exc, sqlite3.OperationalError) and any(
        word in str(exc).lower() for word in ("syntax", "unrecognized", "no such column")),
          "the SQL broke on a quote in the task id, so it was formatted into the SQL text: use "
          "conn.execute('... WHERE task = ? AND stage = ?', (task_id, stage.name))", raised=True),
    Cause(lambda exc: isinstance(exc, (TypeError, ValueError, KeyError, AttributeError)),
          "a validator raised on a saved value, and the error escaped: a value its validator "
          "cannot read does not hold; catch the error and " + _STOP_AT, raised=True),
)


EXERCISES = [
    Exercise(name="load_checkpoints", lesson="18", reference="solutions.planning.resume:load_checkpoints",
             cases=CASES, causes=CAUSES, workspace=_stores),
]
