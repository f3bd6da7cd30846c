"""Cases for lesson 08 (Memory): `save_fact` and `recall_fact` on a real store file.

Each case gets its own store in the check's temporary folder (made before the cases run and
removed after the last), already holding the facts the case lists, and a fresh connection to
it. A save is judged through a second connection, so that a fact that was never committed is
seen to be missing. The case's connection keeps the SQL text of every statement it is given
(`_Watched`): a key or a value found in that text was formatted into the SQL, even when its quotes
were escaped by hand, and it is refused as such.
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


class _Watched(sqlite3.Connection):
    """A connection that keeps the SQL text of every statement it is given, in `statements`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.statements: list[str] = []

    def _seen(self, sql: Any) -> Any:
        """Note `sql` and hand it on unchanged."""
        self.statements.append(sql if isinstance(sql, str) else repr(sql))
        return sql

    def execute(self, sql: Any, *args: Any) -> sqlite3.Cursor:
        return super().execute(self._seen(sql), *args)

    def executemany(self, sql: Any, *args: Any) -> sqlite3.Cursor:
        return super().executemany(self._seen(sql), *args)

    def executescript(self, script: Any) -> sqlite3.Cursor:
        return super().executescript(self._seen(script))

    def cursor(self, factory: Any = None) -> sqlite3.Cursor:
        return super().cursor(_WatchedCursor)


class _WatchedCursor(sqlite3.Cursor):
    """A cursor of a `_Watched` connection: its statements are noted too."""

    def execute(self, sql: Any, *args: Any) -> sqlite3.Cursor:
        return super().execute(self.connection._seen(sql), *args)

    def executemany(self, sql: Any, *args: Any) -> sqlite3.Cursor:
        return super().executemany(self.connection._seen(sql), *args)

    def executescript(self, script: Any) -> sqlite3.Cursor:
        return super().executescript(self.connection._seen(script))


def _store(name: str, facts: tuple[tuple[str, str], ...], index: bool = False,
           forget_last: bool = False) -> Callable[[], tuple[tuple, dict]]:
    """Setup: a fresh store `name` holding `facts` (with an index on (key, value) when `index`;
    with the last of them deleted again when `forget_last`), and a new watched connection to it
    as the first argument."""
    def make() -> tuple[tuple, dict]:
        from solutions.memory.store import connect, save_fact

        folder = _folder(name)
        shutil.rmtree(folder, ignore_errors=True)
        conn = connect(folder / "memory.sqlite")
        for key, value in facts:
            save_fact(conn, key, value)
        if index:
            conn.execute("CREATE INDEX facts_by_value ON facts (key, value)")
        if forget_last:
            with conn:
                conn.execute("DELETE FROM facts WHERE id = (SELECT MAX(id) FROM facts)")
        conn.close()
        watched = sqlite3.connect(folder / "memory.sqlite", factory=_Watched)
        _CURRENT.clear()
        _CURRENT.update(name=name, conn=watched)
        return (watched,), {}
    return make


def _in_sql(*texts: str) -> bool:
    """True when one of `texts` (as given, or with its quotes doubled as SQL escapes them) is in
    the SQL text of a statement the case's connection was given: it was formatted into the SQL."""
    statements = getattr(_CURRENT.get("conn"), "statements", [])
    forms = {form for text in texts if len(text) >= 2
             for form in (text, text.replace("'", "''"), text.replace('"', '""'))}
    return any(form in sql for sql in statements for form in forms)


def _closed() -> bool:
    """True when the case's connection was closed by the function it was given to."""
    conn = _CURRENT.get("conn")
    try:
        conn.total_changes  # noqa: B018 (raises on a closed connection)
    except sqlite3.ProgrammingError:
        return True
    return False


def _rows(name: str) -> list[tuple]:
    """(id, session, key, value) of every row of the facts table, read by a new connection."""
    with sqlite3.connect(_folder(name) / "memory.sqlite") as other:
        return other.execute("SELECT id, session, key, value FROM facts ORDER BY id").fetchall()


# ---------------------------------------------------------------- save_fact(conn, key, value)

OTHER_SESSION = (7, "units", "celsius")
"""The row another session saves, in the case where it writes right after the function's commit."""


def _after_commit(conn: sqlite3.Connection, path: Path) -> None:
    """Make another session save OTHER_SESSION as soon as `conn` runs a statement after a commit
    (SQLite calls the trace callback as a statement starts, before it reads the table)."""
    state = {"committed": False, "written": False}

    def trace(sql: str) -> None:
        if state["committed"] and not state["written"]:
            state["written"] = True
            with contextlib.closing(sqlite3.connect(path, timeout=1)) as other, other:
                other.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)", OTHER_SESSION)
        if sql.lstrip().upper().startswith(("COMMIT", "END")):
            state["committed"] = True
    conn.set_trace_callback(trace)


def _saves(name: str, facts: tuple[tuple[str, str], ...], key: str, value: str,
           hint: str, session: int | None = None, other_session: bool = False,
           forget_last: bool = False) -> Case:
    """A case: save_fact adds exactly one committed row (key, value) and returns its id, without
    the key or the value in its SQL text, and leaves the connection open. With `other_session`,
    another session saves a row right after the function's commit; with `forget_last`, the last
    of `facts` was deleted before the call."""
    before = len(facts) - forget_last
    setup = _store(name, facts, forget_last=forget_last)

    def make() -> tuple[tuple, dict]:
        (conn,), _ = setup()
        if other_session:
            _after_commit(conn, _folder(name) / "memory.sqlite")
        _CURRENT.update(row=(key, value), rows=before)
        return (conn, key, value), ({} if session is None else {"session": session})

    def test(returned: Any) -> bool:
        added = _rows(name)[before:]
        ours = [row for row in added if row[1:] == (session, key, value)]
        others = [row for row in added if row[1:] == OTHER_SESSION and other_session]
        return len(ours) == 1 and len(added) == 1 + len(others) and returned == ours[0][0] \
            and not isinstance(returned, bool) and not _in_sql(key, value) and not _closed()

    extra = "" if session is None else f", session={session}"
    shown = f"save_fact(conn, {key!r}, {value!r}{extra})"
    held = f"the store holds {before} fact{'s' * (before != 1)}" if facts else "an empty store"
    if forget_last:
        held += "; one more was saved, then deleted"
    if other_session:
        held += "; another session saves a fact right after your commit"
    return Case(setup=make, expect=test, hint=hint, label=f"{shown}  # {held}",
                says=f"one new row ({key!r}, {value!r}) that a second connection sees; its id returned")


_PLACEHOLDERS = ("build the SQL with ? placeholders and pass the values apart: "
                 "conn.execute('INSERT INTO facts (session, key, value) VALUES (?, ?, ?)', "
                 "(session, key, value)); never format a value into the SQL text")
SAVE_CASES = (
    _saves("save-1", (), "last_city", "Shanghai", "insert the row, commit, return cursor.lastrowid"),
    _saves("save-2", (("last_city", "Shanghai"),), "last_city", "Beijing",
           "save adds a row: the older value stays in the table (do not UPDATE or REPLACE it), "
           "and the id returned is the new row's, cursor.lastrowid"),
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
    _saves("save-11", (("last_city", "Shanghai"),), "last_city", "Shanghai",
           "save adds a row every time, even for the value saved last: the table is the fact's "
           "history (one row per save, with its session); do not skip a value already there"),
    _saves("save-12", (("units", "celsius"), ("note", "x"), ("note", "y"), ("note", "z")),
           "last_city", "Shanghai",
           "rows can be deleted, and an AUTOINCREMENT id is never reused: the new id is neither "
           "COUNT(*) + 1 nor MAX(id) + 1 read before the INSERT; return cursor.lastrowid",
           forget_last=True),
    _saves("save-10", (("last_city", "Shanghai"),), "last_city", "Chengdu",
           "another session may save between your commit and your next query, so the largest id "
           "(SELECT MAX(id)) can be its row: return cursor.lastrowid, the id of your own INSERT",
           other_session=True),
)


def _unused(returned: Any) -> bool:
    """True when no statement went through the case's connection and the fact is not in the file."""
    if "row" not in _CURRENT or getattr(_CURRENT.get("conn"), "statements", None) != []:
        return False
    return tuple(_CURRENT["row"]) not in {row[2:] for row in _rows(_CURRENT["name"])}


def _not_committed(returned: Any) -> bool:
    """True when the call returned but a second connection finds neither a new row nor the fact."""
    if "row" not in _CURRENT:
        return False
    rows = _rows(_CURRENT["name"])
    return len(rows) == _CURRENT["rows"] and tuple(_CURRENT["row"]) not in {row[2:] for row in rows}


def _row_count(returned: Any) -> bool:
    """True when the function returned 1, the number of rows its INSERT changed, not the row's id."""
    if returned != 1 or isinstance(returned, bool) or "row" not in _CURRENT:
        return False
    ids = [row[0] for row in _rows(_CURRENT["name"]) if row[2:] == tuple(_CURRENT["row"])]
    return bool(ids) and 1 not in ids


def _formatted_sql(exc: Any) -> bool:
    """True for the SQL errors a value formatted into the SQL text makes."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.Error) and any(
        word in text for word in ("syntax error", "unrecognized token", "no such column",
                                  "values for", "one statement", "incomplete input"))


_FORMATTED = ("formatted into it (an f-string, even with its quotes doubled by hand: escaping by "
              "hand is one slip away from an injection)")
SAVE_CAUSES = (
    Cause(_formatted_sql, "the SQL breaks on a quote in the value, so the value was formatted "
          "into the SQL text (injection): " + _PLACEHOLDERS, raised=True),
    Cause(lambda exc: isinstance(exc, sqlite3.IntegrityError) and "not null" in str(exc).lower(),
          "a NOT NULL column got None: the values are in another order than the columns; write "
          "INSERT INTO facts (session, key, value) VALUES (?, ?, ?) with (session, key, value)",
          raised=True),
    Cause(lambda returned: _in_sql(*_CURRENT.get("row", ())),
          f"the SQL text holds the key or the value, {_FORMATTED}: " + _PLACEHOLDERS),
    Cause(lambda returned: _closed(), "it closed the connection it was given: the caller goes on "
          "using conn (the agent saves the task's progress next); leave closing to whoever opened it"),
    Cause(_unused, "nothing went through conn, the connection it was given: a connection of your "
          "own (or a global one) writes to another store; write with conn.execute(...)"),
    Cause(_not_committed, "nothing reached the file: a second connection cannot see the row. "
          "Call conn.commit() after the INSERT (or write it inside `with conn:`)"),
    Cause(_row_count, "returns 1, the number of rows the INSERT changed (cursor.rowcount), not "
          "the new row's id: return cursor.lastrowid"),
)


# ---------------------------------------------------------------- recall_fact(conn, key)

def _recalls(name: str, facts: tuple[tuple[str, str], ...], key: str, expected: str | None,
             hint: str, index: bool = False) -> Case:
    """A case: recall_fact(conn, key) on a store holding `facts` returns `expected`, without the
    key in its SQL text."""
    setup = _store(name, facts, index)

    def make() -> tuple[tuple, dict]:
        (conn,), _ = setup()
        _CURRENT.update(key=key, older=[v for k, v in facts if k == key][:-1],
                        others=[v for k, v in facts if k != key])
        return (conn, key), {}

    def test(returned: Any) -> bool:  # `expected` is shown in the report; this judges
        return returned == expected and (returned is None) == (expected is None) and not _in_sql(key) \
            and _CURRENT["conn"].row_factory is None

    listed = ", ".join(f"{k}={v!r}" for k, v in facts) or "nothing"
    where = "; the store has an index on (key, value)" if index else ""
    return Case(setup=make, expected=expected, expect=test, hint=hint,
                label=f"recall_fact(conn, {key!r})  # saved, oldest first: {listed}{where}")


_LATEST = ("the latest value is the row saved last: ORDER BY id DESC LIMIT 1 (without ORDER BY, "
           "rows come in whatever order SQLite reads them, often the oldest first; MAX(value) is "
           "the largest value, not the latest)")
RECALL_CASES = (
    _recalls("recall-1", (), "units", None, "a key never saved gives None (fetchone() is None)"),
    _recalls("recall-2", (("last_city", "Shanghai"),), "last_city", "Shanghai",
             "select the value of the row whose key is `key`"),
    _recalls("recall-3", (("last_city", "Shanghai"), ("last_city", "Beijing")), "last_city",
             "Beijing", _LATEST),
    _recalls("recall-4", (("last_city", "Beijing"), ("last_city", "Shanghai"), ("units", "celsius"),
                          ("last_city", "Chengdu"), ("units", "fahrenheit")), "last_city", "Chengdu",
             "latest means saved last, not the largest or smallest value: " + _LATEST),
    _recalls("recall-5", (("last_city", "Shanghai"), ("last-city", "Paris")), "last_city", "Shanghai",
             "compare the key with =, not LIKE ('_' matches any character in LIKE)"),
    _recalls("recall-6", (("user's city", "Xi'an"), ("user's city", "上海")), "user's city", "上海",
             "a key may hold a quote: pass it with a ? placeholder, never format it into the SQL"),
    _recalls("recall-7", (("city", "Shanghai"), ("City", "Beijing")), "city", "Shanghai",
             "keys are case-sensitive: compare with = (LIKE and COLLATE NOCASE ignore case)"),
    _recalls("recall-8", (("last_city", "Shanghai"), ("units", "celsius")), "language", None,
             "a key never saved gives None, whatever other keys the store holds"),
    _recalls("recall-9", (("last_city", "Shanghai"), ("last_city", "Beijing"), ("last_city", "Xi'an"),
                          ("last_city", "Chengdu")), "last_city", "Chengdu",
             "with an index, rows without ORDER BY come in the index's order (by value here), "
             "not in the order they were saved: " + _LATEST, index=True),
)


def _missing_row(exc: Any) -> bool:
    """True for the TypeError of `fetchone()[0]` when no row was found."""
    return isinstance(exc, TypeError) and "nonetype" in str(exc).lower() and "subscript" in str(exc).lower()


RECALL_CAUSES = (
    Cause(_formatted_sql, "the SQL breaks on a quote in the key, so the key was formatted into "
          "the SQL text (injection): use conn.execute('... WHERE key = ? ...', (key,))", raised=True),
    Cause(_missing_row, "fetchone() is None for a key never saved, and None[0] raises: return None "
          "when no row comes back (row[0] if row else None)", raised=True),
    Cause(lambda value: _in_sql(_CURRENT.get("key", "")), f"the SQL text holds the key, "
          f"{_FORMATTED}: use conn.execute('... WHERE key = ? ...', (key,))"),
    Cause(lambda value: _CURRENT["conn"].row_factory is not None, "it changed conn.row_factory, "
          "a setting of the caller's connection: every later query through conn (the summary, the "
          "cells that print rows) gets sqlite3.Row objects instead of tuples; read row[0], or set "
          "row_factory on a cursor of your own"),
    Cause(lambda value: getattr(_CURRENT.get("conn"), "statements", None) == [], "nothing was read "
          "through conn: a value kept from an earlier call (a cache, a global) or read through "
          "another connection; query conn every time, since another session may have saved since"),
    Cause(lambda value: isinstance(value, (tuple, list, sqlite3.Row)),
          "returns the whole row: return row[0], the value itself"),
    Cause(lambda value: value is not None and value == _CURRENT.get("key"),
          "returns the key itself: select the value column (SELECT value FROM facts WHERE key = ?)"),
    Cause(lambda value: value in _CURRENT.get("older", ()), "an older value came back: " + _LATEST),
    Cause(lambda value: value is not None and value in _CURRENT.get("others", ()),
          "returns the value of another key: keep only the rows whose key is `key` exactly, WHERE "
          "key = ? (LIKE reads '_' as any character and ignores case, as COLLATE NOCASE does)"),
    Cause(lambda value: value in ("", "None"), "a key never saved gives None itself, not "
          "an empty or 'None' text: return None when no row comes back"),
)


EXERCISES = [
    Exercise(name="save_fact", lesson="08", reference="solutions.memory.store:save_fact",
             cases=SAVE_CASES, causes=SAVE_CAUSES, workspace=_stores),
    Exercise(name="recall_fact", lesson="08", reference="solutions.memory.store:recall_fact",
             cases=RECALL_CASES, causes=RECALL_CAUSES, workspace=_stores),
]
