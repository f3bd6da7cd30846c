"""The session store: facts, preferences and task progress in one SQLite file.

Built in lesson 08 (Memory). A real file (`memory/memory.sqlite` next to the notebook by
default) that you can open, inspect and delete. WAL mode lets one session read while another
writes; `busy_timeout` makes a writer wait for the other instead of failing at once; every
write is one transaction that takes the write lock as it begins (BEGIN IMMEDIATE), committed
before the function returns. A file the store cannot use (a folder in the way, no permission,
a full disk, another program's tables) is an error naming the file and saying what to do.
"""
from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
"""The layout of the tables below, stored in the file as `PRAGMA user_version`."""

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another session's write to finish before 'database is locked'."""

DEFAULT_PATH = Path("memory") / "memory.sqlite"
"""Where the store lives unless told otherwise: a `memory` folder next to the notebook."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS facts (id INTEGER PRIMARY KEY AUTOINCREMENT, session INTEGER,
    key TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS preferences (key TEXT PRIMARY KEY, value TEXT NOT NULL,
    session INTEGER);
CREATE TABLE IF NOT EXISTS progress (id INTEGER PRIMARY KEY AUTOINCREMENT, session INTEGER,
    task TEXT NOT NULL, status TEXT NOT NULL);
"""

TABLES = {"sessions": ("id", "label"), "facts": ("id", "session", "key", "value"),
          "preferences": ("key", "value", "session"), "progress": ("id", "session", "task", "status")}
"""The columns of each table of _SCHEMA: a file whose tables of these names differ is not a store."""

_FILE_ERRORS = (  # SQLite's words for a file it cannot use, the error it becomes, what to do
    ("disk is full", OSError, "free some space on that disk, or keep the store on another one"),
    ("readonly", PermissionError, "this session may not write the file: make it writable "
                                  "(chmod u+w), or give another file"),
    ("unable to open", PermissionError, "check that you may write in its folder, or give a "
                                        "path in another folder"),
)


def connect(path: str | Path, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """Open (or create) the store at `path`: WAL mode, busy timeout, tables of SCHEMA_VERSION."""
    path = Path(path)
    _make_folder(path)
    with _naming(path):  # isolation_level: each write transaction begins with BEGIN IMMEDIATE
        conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level="IMMEDIATE",
                               factory=StoreConnection)
    conn.path = path
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ValueError(f"{path} has schema version {version}; this code knows versions up "
                             f"to {SCHEMA_VERSION}: use newer code, or another file")
        _check_tables(conn, path)  # before anything is written, WAL mode included
        _use_wal(conn)
        if version < SCHEMA_VERSION:  # IMMEDIATE: wait for the write lock, then make it all at once
            conn.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} "
                               f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
        else:  # a file this session may not write says so now, not at the first save
            conn.executescript(f"BEGIN IMMEDIATE; PRAGMA user_version = {SCHEMA_VERSION}; ROLLBACK;")
    except BaseException:
        conn.close()
        raise
    return conn


class StoreConnection(sqlite3.Connection):
    """A connection to the store: a write that fails on the file itself (a full disk, a read-only
    file) raises an OSError naming the file and saying what to do."""

    path: Path = Path()

    def execute(self, *args: Any) -> sqlite3.Cursor:
        with _naming(self.path):
            return super().execute(*args)

    def executescript(self, script: str) -> sqlite3.Cursor:
        with _naming(self.path):
            return super().executescript(script)

    def commit(self) -> None:
        with _naming(self.path):
            super().commit()

    def __exit__(self, *exc_info: Any) -> Any:  # `with conn:` commits here
        with _naming(self.path):
            return super().__exit__(*exc_info)


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """Turn SQLite's error about the file itself into an OSError naming it; others pass unchanged
    ('database is locked', a mistake in the SQL: what the caller handles)."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        for words, error, advice in _FILE_ERRORS:
            if words in str(exc):
                raise error(f"{path}: {exc}; {advice}") from exc
        raise


def _make_folder(path: Path) -> None:
    """Make the store's folder, or say which file stands where a folder should be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:
        in_the_way = next(parent for parent in path.parents if parent.exists())
        raise NotADirectoryError(f"{path} cannot be made: {in_the_way} is a file, not a folder; "
                                 "give a path in a folder, or move that file") from exc
    except PermissionError as exc:
        raise PermissionError(f"{path} cannot be made: no permission to make the folder "
                              f"{path.parent}; give a path in a folder you may write in") from exc


def _use_wal(conn: sqlite3.Connection) -> None:
    """WAL mode. Two sessions switching a new file at once: SQLite refuses the second at once,
    without waiting (it read the file, then needs to write it); it waits for the first and retries."""
    try:
        conn.execute("PRAGMA journal_mode = WAL")
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc):
            raise
        conn.execute("BEGIN IMMEDIATE")  # waits, up to the busy timeout, for the other session
        conn.rollback()
        conn.execute("PRAGMA journal_mode = WAL")  # the file is in WAL mode now: nothing to write


def _check_tables(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a file whose tables of TABLES' names have other columns (another program's file),
    before anything is written to it."""
    for table, columns in TABLES.items():
        found = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]  # fixed names
        if found and set(found) != set(columns):
            missing = [column for column in columns if column not in found]
            raise ValueError(f"{path} is not a memory store (another program's file?): its table "
                             f"{table!r} has the columns {found}, not {list(columns)}"
                             f"{f' (missing: {missing})' if missing else ''}; it was left "
                             "untouched: give another file")


def start_session(conn: sqlite3.Connection, label: str) -> int:
    """Record a new session and return its number (1, 2, ...)."""
    with conn:
        return conn.execute("INSERT INTO sessions (label) VALUES (?)", (label,)).lastrowid


def save_fact(conn: sqlite3.Connection, key: str, value: str, session: int | None = None) -> int:
    """Save `key = value` (older values stay in the table), commit, return the new row's id."""
    for name, text in (("key", key), ("value", value)):
        if not isinstance(text, str):  # SQLite would refuse a dict with no word of which argument
            raise TypeError(f"save_fact: {name} must be a str, got {type(text).__name__} "
                            f"{text!r:.60}; turn it into text first (json.dumps for a dict or a list)")
    with conn:  # commits (without it the fact vanishes when the connection closes), or rolls a
        # failed write back, so that no lock is left held for the other sessions
        cursor = conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                              (session, key, value))  # placeholders: a value may hold any quote
    return cursor.lastrowid


def recall_fact(conn: sqlite3.Connection, key: str) -> str | None:
    """The latest value saved for `key`, or None when it was never saved."""
    row = conn.execute("SELECT value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1",
                       (key,)).fetchone()
    return row[0] if row else None


def fact_keys(conn: sqlite3.Connection) -> list[str]:
    """Every key of the facts table, in the order the keys were first saved."""
    return [key for (key,) in conn.execute("SELECT key FROM facts GROUP BY key ORDER BY MIN(id)")]


def latest_facts(conn: sqlite3.Connection) -> dict[str, str]:
    """Every key with its latest value, in the order the keys were first saved."""
    return {key: recall_fact(conn, key) for key in fact_keys(conn)}


def set_preference(conn: sqlite3.Connection, key: str, value: str,
                   session: int | None = None) -> None:
    """Set a preference (one value per key: a new one replaces the old)."""
    with conn:
        conn.execute("INSERT INTO preferences (key, value, session) VALUES (?, ?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET value = excluded.value, "
                     "session = excluded.session", (key, value, session))


def preferences(conn: sqlite3.Connection) -> dict[str, str]:
    """Every preference, by key."""
    return dict(conn.execute("SELECT key, value FROM preferences ORDER BY key").fetchall())


def save_progress(conn: sqlite3.Connection, task: str, status: str,
                  session: int | None = None) -> None:
    """Record where `task` stands (each call adds a row: the history of the task stays)."""
    with conn:
        conn.execute("INSERT INTO progress (session, task, status) VALUES (?, ?, ?)",
                     (session, task, status))


def task_progress(conn: sqlite3.Connection) -> dict[str, str]:
    """Every task with its latest status."""
    rows = conn.execute("SELECT task, status FROM progress WHERE id IN "
                        "(SELECT MAX(id) FROM progress GROUP BY task) ORDER BY id").fetchall()
    return dict(rows)


def table_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """How many rows each table holds."""
    return {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # fixed names
            for table in TABLES}
