"""A missing, locked or damaged store, and two sessions writing at once (lesson 08)."""
from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest

from solutions.memory import connect, damaged_name, open_store, recall_fact, save_fact

ROWS = 150


def _filled(path: Path) -> Path:
    """A sound store holding one fact, closed."""
    conn = connect(path)
    save_fact(conn, "last_city", "Shanghai")
    conn.close()
    return path


def test_a_missing_store_is_made_and_said(tmp_path: Path) -> None:
    opened = open_store(tmp_path / "memory" / "memory.sqlite")
    assert opened.state == "new" and "fresh" in opened.message
    assert (tmp_path / "memory" / "memory.sqlite").exists()


def test_a_sound_store_opens_with_its_facts(tmp_path: Path) -> None:
    opened = open_store(_filled(tmp_path / "memory.sqlite"))
    assert opened.state == "ok" and recall_fact(opened.conn, "last_city") == "Shanghai"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "half", "last_page", "torn_page"])
def test_a_damaged_store_is_kept_aside_and_replaced(tmp_path: Path, damage: str) -> None:
    path = _filled(tmp_path / "memory.sqlite")
    data = path.read_bytes()
    if damage == "garbage":
        data = b"these are not the bytes of a database\n" * 200
    elif damage == "truncated":
        data = data[:100]  # the header survives, the pages are gone
    elif damage in ("half", "last_page"):  # a copy or a disk that stopped part-way
        data = data[:len(data) // 2] if damage == "half" else data[:-4096]
    else:
        data = data[:4096] + b"\xff" * (len(data) - 4096)  # every page after the first torn
    path.write_bytes(data)
    opened = open_store(path)
    assert opened.state == "damaged", opened.message
    assert opened.kept_aside == tmp_path / "memory.damaged-1.sqlite"
    assert opened.kept_aside.read_bytes() == data  # nothing dropped: the bytes are all kept
    assert "memory.damaged-1.sqlite" in opened.message and "fresh" in opened.message
    assert recall_fact(opened.conn, "last_city") is None
    save_fact(opened.conn, "last_city", "Beijing")  # the fresh store works


def test_an_empty_file_is_an_empty_store(tmp_path: Path) -> None:
    """SQLite reads a 0-byte file as a database with no tables: nothing to keep aside."""
    path = tmp_path / "memory.sqlite"
    path.write_bytes(b"")
    opened = open_store(path)
    assert opened.state == "ok" and recall_fact(opened.conn, "last_city") is None
    save_fact(opened.conn, "last_city", "Beijing")
    assert not list(tmp_path.glob("*damaged*"))


def test_damaged_names_are_numbered_and_side_files_follow(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    for number in (1, 2, 3):
        path.write_bytes(b"not a database" * 100)
        (tmp_path / "memory.sqlite-wal").write_bytes(b"wal")
        opened = open_store(path)
        opened.conn.close()
        assert opened.kept_aside == tmp_path / f"memory.damaged-{number}.sqlite"
        assert (tmp_path / f"memory.damaged-{number}.sqlite-wal").read_bytes() == b"wal"
    assert damaged_name(path) == tmp_path / "memory.damaged-4.sqlite"


def test_a_locked_store_is_left_untouched_and_said(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE other (x)")
    holder.execute("BEGIN EXCLUSIVE")  # another session holds the file
    opened = open_store(path, busy_timeout_ms=20)
    assert opened.state == "locked" and "locked" in opened.message and "NOT saved" in opened.message
    save_fact(opened.conn, "city", "Paris")  # the session goes on, in memory
    holder.execute("ROLLBACK")
    assert path.exists() and not list(tmp_path.glob("*damaged*"))


def test_a_file_sqlite_cannot_open_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _filled(tmp_path / "memory.sqlite")
    from solutions.memory import recovery

    def refuse(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")
    monkeypatch.setattr(recovery, "connect", refuse)
    with pytest.raises(OSError, match="left untouched"):
        open_store(path)
    assert not list(tmp_path.glob("*damaged*"))


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="folder"):
        open_store(tmp_path)


def _write_facts(path: str, label: str) -> None:
    """One session: ROWS facts, each committed on its own."""
    conn = connect(path)
    for n in range(ROWS):
        save_fact(conn, f"{label}-{n}", f"{label} wrote {n}")
    conn.close()


def _check_all_rows(path: Path, labels: tuple[str, ...]) -> None:
    """Every row of every writer is there, and SQLite finds the file sound."""
    conn = connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == ROWS * len(labels)
    for label in labels:
        assert recall_fact(conn, f"{label}-{ROWS - 1}") == f"{label} wrote {ROWS - 1}"


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    connect(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_facts, args=(str(path), label)) for label in "ab"]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    _check_all_rows(path, ("a", "b"))


def test_two_connections_in_threads_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    connect(path).close()
    threads = [threading.Thread(target=_write_facts, args=(str(path), label)) for label in "xy"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    _check_all_rows(path, ("x", "y"))
