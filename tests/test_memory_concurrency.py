"""Sessions writing one store at once lose nothing (lesson 08): four processes on a new file, the
switch of a new file to WAL mode, and write transactions that take the write lock as they begin."""
from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from solutions.memory.store import (connect, recall_fact, save_fact, save_progress, set_preference,
                                    start_session)

WRITERS = 4
WRITES = 50
TRIALS = 20


def _write(path: str, label: str) -> tuple[int, list[str]]:
    """One session on `path` (opened here, as a new session would): WRITES facts, each committed on
    its own. Returns how many were saved and the error of each one that was not."""
    saved, errors = 0, []
    try:
        conn = connect(path)
    except (sqlite3.Error, OSError) as exc:
        return 0, [f"connect: {exc}"]
    for number in range(WRITES):
        try:
            save_fact(conn, f"{label}-{number}", f"{label} wrote {number}")
            saved += 1
        except (sqlite3.Error, OSError) as exc:
            errors.append(str(exc))
    conn.close()
    return saved, errors


@pytest.fixture(scope="module")
def pool() -> Iterator[multiprocessing.pool.Pool]:
    """WRITERS processes, started once: each trial hands them their work at the same moment."""
    with multiprocessing.get_context("spawn").Pool(WRITERS) as workers:
        yield workers


def test_four_processes_writing_a_new_store_at_once_lose_no_write(tmp_path: Path, pool) -> None:
    lost = []
    for trial in range(TRIALS):
        path = tmp_path / f"trial-{trial}" / "memory.sqlite"  # a new file: the processes make it
        results = pool.starmap(_write, [(str(path), f"w{n}") for n in range(WRITERS)])
        with sqlite3.connect(path) as conn:
            rows = conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0]
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        errors = [error for _, found in results for error in found]
        if rows != WRITERS * WRITES or errors:
            lost.append((trial, WRITERS * WRITES - rows, errors[:2]))
    assert lost == [], f"(trial, writes lost, errors) in {TRIALS} trials: {lost}"


def test_a_new_file_another_session_is_writing_is_waited_for(tmp_path: Path) -> None:
    """Switching a new file to WAL mode reads it, then writes it; SQLite refuses that second step at
    once, without the busy timeout, while another session writes. connect waits for it instead."""
    path = tmp_path / "memory.sqlite"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE notes (text)")  # a file in SQLite's default mode, not WAL yet
    other.execute("BEGIN IMMEDIATE")  # the other session is writing
    done = threading.Event()
    release = threading.Thread(target=lambda: done.wait(0.3) or other.execute("ROLLBACK"))
    release.start()
    try:
        conn = connect(path)  # fails at once, 'database is locked', unless it waits
    finally:
        release.join()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    save_fact(conn, "city", "Paris")
    assert recall_fact(other, "city") == "Paris"
    conn.close()
    other.close()


def test_every_write_transaction_begins_immediate(tmp_path: Path) -> None:
    """The store's writes and a learner's own (`conn.execute` then `conn.commit()`, or `with conn:`)
    each begin with BEGIN IMMEDIATE: the write lock is taken, waiting for it, before anything is read."""
    conn = connect(tmp_path / "memory.sqlite")
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    session = start_session(conn, "question")
    save_fact(conn, "city", "Paris", session)
    set_preference(conn, "units", "celsius")
    save_progress(conn, "question", "answered", session)
    conn.execute("INSERT INTO facts (key, value) VALUES (?, ?)", ("units", "kelvin"))
    conn.commit()
    with conn:
        conn.execute("INSERT INTO facts (key, value) VALUES (?, ?)", ("units", "kelvin"))
    begins = [sql for sql in statements if sql.upper().startswith("BEGIN")]
    assert begins == ["BEGIN IMMEDIATE"] * 6
    conn.close()
