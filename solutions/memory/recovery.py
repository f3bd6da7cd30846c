"""Opening the store whatever state its file is in: missing, locked or damaged.

Built in lesson 08 (Memory). A damaged file is never deleted: it is renamed
`memory.damaged-1.sqlite` (then -2, -3, ...) next to the fresh store, with its WAL and
shared-memory files, so that whatever it still holds can be rescued by hand.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from solutions.memory.store import BUSY_TIMEOUT_MS, connect

_SIDE_FILES = ("-wal", "-shm")
_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


@dataclass
class Opened:
    """An open store and what happened while opening it (`state` is 'ok', 'new', 'damaged' or 'locked')."""

    conn: sqlite3.Connection
    state: str
    message: str
    kept_aside: Path | None = None


def open_store(path: str | Path, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Opened:
    """Open the store at `path`; a missing, locked or damaged file gives a fresh store and a message."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a folder; give the store's file, e.g. {path / 'memory.sqlite'}")
    if not path.exists():
        return Opened(connect(path, busy_timeout_ms), "new",
                      f"No store at {path} yet: a fresh, empty one was made.")
    with path.open("rb") as file:
        header = file.read(len(_HEADER))
    if header and header != _HEADER:  # not SQLite at all: set it aside before SQLite touches it
        return _keep_aside(path, sqlite3.DatabaseError("file is not a database"), busy_timeout_ms)
    try:
        conn = connect(path, busy_timeout_ms)
        _check_readable(conn)
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):  # the file may be fine
            raise OSError(f"{path} cannot be opened ({exc}); it was left untouched: check the "
                          "folder's permissions and the free space on the disk") from exc
        return Opened(connect(":memory:"), "locked",
                      f"{path} is locked by another session (waited {busy_timeout_ms} ms): it was "
                      "left untouched, and this session uses a fresh store in memory, which is "
                      "NOT saved when the session ends. Close the other session and open it again.")
    except sqlite3.DatabaseError as exc:  # 'file is not a database', 'malformed', ...
        return _keep_aside(path, exc, busy_timeout_ms)
    return Opened(conn, "ok", f"Opened {path}.")


def _check_readable(conn: sqlite3.Connection) -> None:
    """Raise sqlite3.DatabaseError unless SQLite finds the file sound."""
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"quick_check says: {verdict}")
    except BaseException:
        conn.close()
        raise


def _keep_aside(path: Path, exc: Exception, busy_timeout_ms: int) -> Opened:
    """Rename the damaged file (and its side files) to the first free numbered name; start afresh."""
    aside = damaged_name(path)
    path.rename(aside)
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(aside.with_name(aside.name + suffix))
    message = (f"{path} could not be read ({type(exc).__name__}: {exc}). It was kept as "
               f"{aside.name}, untouched, and a fresh, empty store was made in its place.")
    return Opened(connect(path, busy_timeout_ms), "damaged", message, aside)


def damaged_name(path: Path) -> Path:
    """The first free name `stem.damaged-N.suffix`, N = 1, 2, ... (no clock in the name)."""
    number = 1
    while True:
        candidate = path.with_name(f"{path.stem}.damaged-{number}{path.suffix}")
        if not candidate.exists():
            return candidate
        number += 1
