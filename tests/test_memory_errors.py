"""A store file that cannot be used is a clear error naming it and saying what to do (lesson 08):
a file where its folder should be, a folder or a file this session may not write, a full disk,
another program's SQLite file, a value that is not text."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from solutions.memory import store
from solutions.memory.recovery import open_store
from solutions.memory.store import TABLES, connect, recall_fact, save_fact

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
AS_ROOT = "run as root, whom file permissions do not stop: the simulated test stands in for it"


@pytest.mark.parametrize("under", ["blocker", "blocker/memory"])
def test_a_file_where_the_folder_should_be_is_named(tmp_path: Path, under: str) -> None:
    (tmp_path / "blocker").write_text("notes")
    path = tmp_path / under / "memory.sqlite"
    for opener in (connect, open_store):
        with pytest.raises(NotADirectoryError) as raised:
            opener(path)
        assert str(path) in str(raised.value)
        assert f"{tmp_path / 'blocker'} is a file, not a folder" in str(raised.value)
    assert (tmp_path / "blocker").read_text() == "notes"


@pytest.mark.skipif(ROOT, reason=AS_ROOT)
def test_a_folder_this_session_may_not_write_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        for path in (folder / "memory.sqlite", folder / "memory" / "memory.sqlite"):
            with pytest.raises(PermissionError, match="folder") as raised:
                connect(path)
            assert str(path) in str(raised.value)
    finally:
        folder.chmod(0o755)


def test_a_folder_this_session_may_not_write_is_named_simulated(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")  # SQLite's words for it
    monkeypatch.setattr(store.sqlite3, "connect", refuse)
    path = tmp_path / "memory.sqlite"
    with pytest.raises(PermissionError) as raised:
        connect(path)
    assert str(raised.value).startswith(f"{path}: unable to open database file; ")
    assert "may write in its folder" in str(raised.value)


def _read_only(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `path` a file this session may only read: by its permissions, or, for root (whom they
    do not stop), by opening it read-only as SQLite does a file it may not write."""
    if not ROOT:
        path.chmod(0o444)
        return
    real = sqlite3.connect
    monkeypatch.setattr(store.sqlite3, "connect", lambda database, **options: real(
        f"file:{database}?mode=ro", uri=True, **options))


def test_a_file_this_session_may_not_write_is_refused_when_opened(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "memory.sqlite"
    with connect(path) as conn:
        save_fact(conn, "city", "Paris")
    conn.close()
    _read_only(path, monkeypatch)
    try:
        for opener in (connect, open_store):  # not 'ok', then a failure at the first save
            with pytest.raises(PermissionError) as raised:
                opener(path)
            assert str(path) in str(raised.value) and "make it writable" in str(raised.value)
    finally:
        path.chmod(0o644)
    assert not list(tmp_path.glob("*damaged*"))


def test_a_full_disk_is_named_and_leaves_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    conn, other = connect(path), connect(path, busy_timeout_ms=200)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: SQLite says 'full'
    with pytest.raises(OSError) as raised:
        save_fact(conn, "notes", "x" * 100_000)
    assert str(raised.value).startswith(f"{path}: database or disk is full; free some space")
    assert not conn.in_transaction
    with pytest.raises(OSError, match="disk is full"):  # a learner's write through conn, too
        conn.execute("INSERT INTO facts (key, value) VALUES (?, ?)", ("notes", "x" * 100_000))
    conn.rollback()
    save_fact(other, "city", "Paris")  # no lock left for another session
    assert recall_fact(conn, "city") == "Paris" and recall_fact(conn, "notes") is None
    conn.close()
    other.close()


@pytest.mark.parametrize("columns", ["name TEXT, amount REAL", "id INTEGER PRIMARY KEY, key, value"])
def test_another_programs_file_is_refused_and_left_untouched(tmp_path: Path, columns: str) -> None:
    path = tmp_path / "memory.sqlite"
    with sqlite3.connect(path) as other:
        other.execute(f"CREATE TABLE facts ({columns})")
    other.close()
    before = path.read_bytes()
    for opener in (connect, open_store):
        with pytest.raises(ValueError) as raised:
            opener(path)
        message = str(raised.value)
        assert message.startswith(f"{path} is not a memory store") and "'facts'" in message
        assert "missing: [" in message and "'session'" in message and "left untouched" in message
    assert path.read_bytes() == before and not list(tmp_path.glob("*damaged*"))
    with sqlite3.connect(path) as other:
        assert [name for (name,) in other.execute("SELECT name FROM sqlite_master")] == ["facts"]
    other.close()


def test_the_columns_checked_are_the_columns_made(tmp_path: Path) -> None:
    conn = connect(tmp_path / "memory.sqlite")
    for table, columns in TABLES.items():
        assert tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})")) == columns
    conn.close()
    assert connect(tmp_path / "memory.sqlite").execute("PRAGMA user_version").fetchone()[0] == 1


@pytest.mark.parametrize(("key", "value", "argument"), [
    ("preferences", {"units": "celsius"}, "value"), ("cities", ["Paris"], "value"),
    ("count", 3, "value"), (("a", "b"), "x", "key"), (None, "x", "key")])
def test_a_value_that_is_not_text_is_refused_naming_the_argument(tmp_path: Path, key: object,
                                                                 value: object, argument: str) -> None:
    conn = connect(tmp_path / "memory.sqlite")
    with pytest.raises(TypeError, match=f"save_fact: {argument} must be a str, got {type(locals()[argument]).__name__}"):
        save_fact(conn, key, value)
    assert conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == 0 and not conn.in_transaction
    conn.close()
