"""Cases for lesson 08 (Memory): `save_fact` and `recall_fact` on a real store file.

Each case gets its own store in the check's temporary folder (made before the cases run and
removed after the last), already holding the facts the case lists, and a fresh connection to
it. A save is judged through a second connection, so that a fact that was never committed is
seen to be missing.
"""
from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise

_ROOT: list[Path] = []  # the folder of the check being run (a forked case inherits it)
_CURRENT: dict[str, Any] = {}  # the case being run, set by its setup (a forked case inherits it)


@contextlib.contextmanager
def _stores() -> Iterator[None]:
    """The check's temporary folder for the cases' stores. It is made and removed in the
    notebook's own process: a case runs in a forked child, which ends without cleaning up."""
    with tempfile.TemporaryDirectory(prefix="course-memory-cases-", ignore_cleanup_errors=True) as root:
        _ROOT[:] = [Path(root)]
        try:
            yield
        finally:
            _ROOT.clear()


def _folder(name: str) -> Path:
    """The case's folder in the check's temporary folder."""
    if not _ROOT:
        raise RuntimeError("lesson 08's cases run inside their check (solutions.course.check.check)")
    return _ROOT[0] / name


def _store(name: str, facts: tuple[tuple[str, str], ...]) -> Callable[[], tuple[tuple, dict]]:
    """Setup: a fresh store `name` holding `facts`, and a new connection to it as the first argument."""
    def make() -> tuple[tuple, dict]:
        from solutions.memory.store import connect, save_fact

        folder = _folder(name)
        shutil.rmtree(folder, ignore_errors=True)
        conn = connect(folder / "memory.sqlite")
        for key, value in facts:
            save_fact(conn, key, value)
        conn.close()
        return (sqlite3.connect(folder / "memory.sqlite"),), {}
    return make


def _rows(name: str) -> list[tuple]:
    """(id, session, key, value) of every row of the facts table, read by a new connection."""
    with sqlite3.connect(_folder(name) / "memory.sqlite") as other:
        return other.execute("SELECT id, session, key, value FROM facts ORDER BY id").fetchall()


# ---------------------------------------------------------------- save_fact(conn, key, value)

def _saves(name: str, facts: tuple[tuple[str, str], ...], key: str, value: str,
           hint: str, session: int | None = None) -> Case:
    """A case: save_fact adds exactly one committed row (key, value) and returns its id."""
    before = len(facts)
    setup = _store(name, facts)

    def make() -> tuple[tuple, dict]:
        (conn,), _ = setup()
        _CURRENT.update(name=name, row=(key, value), rows=before)
        return (conn, key, value), ({} if session is None else {"session": session})

    def test(returned: Any) -> bool:
        rows = _rows(name)
        return len(rows) == before + 1 and rows[-1][1:] == (session, key, value) \
            and returned == rows[-1][0] and not isinstance(returned, bool)

    extra = "" if session is None else f", session={session}"
    shown = f"save_fact(conn, {key!r}, {value!r}{extra})"
    return Case(setup=make, expect=test, hint=hint,
                label=shown + (f"  # the store holds {len(facts)} fact{'s' * (len(facts) > 1)}" if facts else "  # an empty store"),
                says=f"one new row ({key!r}, {value!r}) that a second connection sees; its id returned")


_PLACEHOLDERS = ("build the SQL with ? placeholders and pass the values apart: "
                 "conn.execute('INSERT INTO facts (session, key, value) VALUES (?, ?, ?)', "
                 "(session, key, value)); never format a value into the SQL text")
SAVE_CASES = (
    _saves("save-1", (), "last_city", "Shanghai", "insert the row, commit, return cursor.lastrowid"),
    _saves("save-2", (("last_city", "Shanghai"),), "last_city", "Beijing",
           "save adds a row: the older value stays in the table (do not UPDATE or REPLACE it)"),
    _saves("save-3", (), "favourite_city", "Xi'an", "a value may hold a quote: " + _PLACEHOLDERS),
    _saves("save-4", (), "note", 'He said "sunny"', "a value may hold double quotes: " + _PLACEHOLDERS),
    _saves("save-5", (), "note", "a' || 'b", "the value must come back exactly as given, not "
           "read as SQL ('a' || 'b' is 'ab' in SQL): " + _PLACEHOLDERS),
    _saves("save-6", (), "user's city", "上海", "keys are values too: pass the key with a ? as well"),
    _saves("save-7", (("units", "celsius"),), "last_city", "Shanghai",
           "save the session given as a keyword, in the session column", session=3),
    _saves("save-8", (), "note", "line one\nline two; -- not a comment",
           "a value may span lines and hold SQL's comment mark: it is data, kept as given"),
    _saves("save-9", (("note", "x"),) * 3, "note", "y" * 1000,
           "a long value is saved whole, and the three older rows stay"),
)


def _not_committed(returned: Any) -> bool:
    """True when the call returned but a second connection finds neither a new row nor the fact."""
    if "row" not in _CURRENT:
        return False
    rows = _rows(_CURRENT["name"])
    return len(rows) == _CURRENT["rows"] and tuple(_CURRENT["row"]) not in {row[2:] for row in rows}


def _formatted_sql(exc: Any) -> bool:
    """True for the SQL errors a value formatted into the SQL text makes."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.Error) and any(
        word in text for word in ("syntax error", "unrecognized token", "no such column",
                                  "values for", "one statement", "incomplete input"))


SAVE_CAUSES = (
    Cause(_formatted_sql, "the SQL breaks on a quote in the value, so the value was formatted "
          "into the SQL text (injection): " + _PLACEHOLDERS, raised=True),
    Cause(_not_committed, "nothing reached the file: a second connection cannot see the row. "
          "Call conn.commit() after the INSERT (or write it inside `with conn:`)"),
)


# ---------------------------------------------------------------- recall_fact(conn, key)

def _recalls(name: str, facts: tuple[tuple[str, str], ...], key: str, expected: str | None,
             hint: str) -> Case:
    """A case: recall_fact(conn, key) on a store holding `facts` returns `expected`."""
    setup = _store(name, facts)

    def make() -> tuple[tuple, dict]:
        (conn,), _ = setup()
        _CURRENT.update(older=[v for k, v in facts if k == key][:-1])
        return (conn, key), {}

    listed = ", ".join(f"{k}={v!r}" for k, v in facts) or "nothing"
    return Case(setup=make, expected=expected, hint=hint,
                label=f"recall_fact(conn, {key!r})  # saved, oldest first: {listed}")


_LATEST = ("the latest value is the row saved last: ORDER BY id DESC LIMIT 1 "
           "(fetchone() alone gives the first row, the oldest)")
RECALL_CASES = (
    _recalls("recall-1", (), "last_city", None, "a key never saved gives None (fetchone() is None)"),
    _recalls("recall-2", (("last_city", "Shanghai"),), "last_city", "Shanghai",
             "select the value of the row whose key is `key`"),
    _recalls("recall-3", (("last_city", "Shanghai"), ("last_city", "Beijing")), "last_city",
             "Beijing", _LATEST),
    _recalls("recall-4", (("last_city", "Beijing"), ("last_city", "Shanghai"), ("units", "celsius"),
                          ("last_city", "Chengdu"), ("units", "fahrenheit")), "last_city", "Chengdu",
             _LATEST + "; latest means saved last, not the largest or smallest value"),
    _recalls("recall-5", (("last_city", "Shanghai"), ("last-city", "Paris")), "last_city", "Shanghai",
             "compare the key with =, not LIKE ('_' matches any character in LIKE)"),
    _recalls("recall-6", (("user's city", "Xi'an"), ("user's city", "上海")), "user's city", "上海",
             "a key may hold a quote: pass it with a ? placeholder, never format it into the SQL"),
    _recalls("recall-7", (("city", "Shanghai"), ("City", "Beijing")), "city", "Shanghai",
             "keys are case-sensitive: compare with = (LIKE ignores case)"),
    _recalls("recall-8", (("last_city", "Shanghai"), ("units", "celsius")), "language", None,
             "a key never saved gives None, whatever other keys the store holds"),
)
RECALL_CAUSES = (
    Cause(_formatted_sql, "the SQL breaks on a quote in the key, so the key was formatted into "
          "the SQL text (injection): use conn.execute('... WHERE key = ? ...', (key,))", raised=True),
    Cause(lambda value: value in _CURRENT.get("older", ()), "an older value came back: " + _LATEST),
    Cause(lambda value: isinstance(value, (tuple, sqlite3.Row)),
          "returns the whole row: return row[0], the value itself"),
)


EXERCISES = [
    Exercise(name="save_fact", lesson="08", reference="solutions.memory.store:save_fact",
             cases=SAVE_CASES, causes=SAVE_CAUSES, workspace=_stores),
    Exercise(name="recall_fact", lesson="08", reference="solutions.memory.store:recall_fact",
             cases=RECALL_CASES, causes=RECALL_CAUSES, workspace=_stores),
]
