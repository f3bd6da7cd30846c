"""Checkpoints kept in lesson 08's store, so that a killed run can resume where it stopped.

Built in lesson 18 (Resumable tasks). Two tables beside lesson 08's, in the same file, opened
with its `open_store` (WAL mode, a busy timeout, a damaged file kept aside and a fresh store made):
`checkpoints`, one row per (task, stage), and `spent`, the model calls and tokens each task has
used over all its runs. Every write is one transaction (`with conn:`, which begins with BEGIN
IMMEDIATE on the store's connections), committed before the function returns. A checkpoint's row
holds the digest of the stage's inputs and the layout version (CHECKPOINT_SCHEMA) it was written
with, so that a checkpoint saved for other inputs, or by older code, is not taken for this one.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from solutions.memory.recovery import Opened, open_store

CHECKPOINT_SCHEMA = 1
"""The layout of a saved checkpoint, raised when the code changes what a checkpoint holds: a row
of another version (say, order rows saved without their status) is refused on load, and its
stage runs again."""

_TABLES = """
CREATE TABLE IF NOT EXISTS checkpoints (task TEXT NOT NULL, stage TEXT NOT NULL,
    schema INTEGER NOT NULL, inputs TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (task, stage));
CREATE TABLE IF NOT EXISTS spent (task TEXT PRIMARY KEY, calls INTEGER NOT NULL,
    tokens INTEGER NOT NULL);
"""


def open_checkpoints(path: str | Path) -> Opened:
    """Open lesson 08's store at `path` in any state (`open_store`), with the checkpoint tables."""
    opened = open_store(path)
    try:  # IMMEDIATE: wait for the write lock, then make both tables at once
        opened.conn.executescript(f"BEGIN IMMEDIATE; {_TABLES} COMMIT;")
    except BaseException:
        opened.conn.close()
        raise
    return opened


def inputs_digest(stage: str, inputs: dict) -> str:
    """A digest of what a stage reads: its name and the checkpoints before it (SHA-256 of their JSON)."""
    text = json.dumps({"stage": stage, "inputs": inputs}, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def save_checkpoint(conn: sqlite3.Connection, task_id: str, stage: str, digest: str,
                    value: Any) -> None:
    """Save a validated checkpoint as JSON, replacing the stage's older one, in one transaction."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        same = json.loads(text) == value
    except (TypeError, ValueError) as error:
        text, same = f"{type(error).__name__}: {error}", False
    if not same:  # a tuple comes back a list, an int key a str: the loaded value would differ
        raise TypeError(f"the checkpoint of stage {stage!r} cannot be saved as JSON and read back "
                        f"the same ({text[:120]}): make it of dicts with str keys, lists, str, "
                        "finite numbers, bools and None")
    with conn:
        conn.execute("INSERT INTO checkpoints (task, stage, schema, inputs, value) "
                     "VALUES (?, ?, ?, ?, ?) ON CONFLICT(task, stage) DO UPDATE SET "
                     "schema = excluded.schema, inputs = excluded.inputs, value = excluded.value",
                     (task_id, stage, CHECKPOINT_SCHEMA, digest, text))


def saved_stages(conn: sqlite3.Connection, task_id: str) -> list[str]:
    """The stages that have a saved checkpoint for `task_id`, in the order they were first saved."""
    return [stage for (stage,) in conn.execute(
        "SELECT stage FROM checkpoints WHERE task = ? ORDER BY rowid", (task_id,))]


def add_spent(conn: sqlite3.Connection, task_id: str, calls: int = 0, tokens: int = 0) -> None:
    """Add model calls and tokens to what `task_id` has spent, in one transaction."""
    with conn:
        conn.execute("INSERT INTO spent (task, calls, tokens) VALUES (?, ?, ?) ON CONFLICT(task) "
                     "DO UPDATE SET calls = calls + excluded.calls, tokens = tokens + excluded.tokens",
                     (task_id, calls, tokens))


def spent(conn: sqlite3.Connection, task_id: str) -> tuple[int, int]:
    """The model calls and tokens `task_id` has spent over all its runs."""
    row = conn.execute("SELECT calls, tokens FROM spent WHERE task = ?", (task_id,)).fetchone()
    return (row[0], row[1]) if row else (0, 0)
