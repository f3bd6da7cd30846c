"""The session store: facts, preferences and task progress in one SQLite file.

Built in lesson 08 (Memory). A real file (`memory/memory.sqlite` next to the notebook by
default) that you can open, inspect and delete. WAL mode lets one session read while another
writes; `busy_timeout` makes a writer wait for the other instead of failing at once; every
write is one transaction, committed before the function returns.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

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


def connect(path: str | Path, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """Open (or create) the store at `path`: WAL mode, busy timeout, tables of SCHEMA_VERSION."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ValueError(f"{path} has schema version {version}; this code knows versions up "
                             f"to {SCHEMA_VERSION}: use newer code, or another file")
        if version < SCHEMA_VERSION:  # IMMEDIATE: wait for the write lock, then make it all at once
            conn.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} "
                               f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
    except BaseException:
        conn.close()
        raise
    return conn


def start_session(conn: sqlite3.Connection, label: str) -> int:
    """Record a new session and return its number (1, 2, ...)."""
    with conn:
        return conn.execute("INSERT INTO sessions (label) VALUES (?)", (label,)).lastrowid


def save_fact(conn: sqlite3.Connection, key: str, value: str, session: int | None = None) -> int:
    """Save `key = value` (older values stay in the table), commit, return the new row's id."""
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
            for table in ("sessions", "facts", "preferences", "progress")}
