"""Lesson 08's checks refuse the classic wrong `save_fact` and `recall_fact`, naming the cause."""
from __future__ import annotations

import pytest

from solutions.course.check import check
from solutions.memory import store


def _refused(fn, reference, capsys: pytest.CaptureFixture) -> str:
    """Check `fn`, assert that the reference comes back, return the printed report."""
    assert check(fn) is reference
    return capsys.readouterr().out


def test_the_references_pass(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        return store.save_fact(conn, key, value, session)

    def recall_fact(conn, key):
        return store.recall_fact(conn, key)

    assert check(save_fact) is save_fact and check(recall_fact) is recall_fact
    assert "9/9" in capsys.readouterr().out


def test_sql_formatted_with_the_value_is_refused(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        cursor = conn.execute(f"INSERT INTO facts (session, key, value) "
                              f"VALUES (?, '{key}', '{value}')", (session,))
        conn.commit()
        return cursor.lastrowid

    out = _refused(save_fact, store.save_fact, capsys)
    assert "injection" in out and "placeholders" in out and "'a' || 'b' is 'ab'" in out


def test_double_quoted_formatting_is_refused(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        cursor = conn.execute(f'INSERT INTO facts (session, key, value) VALUES (?, ?, "{value}")',
                              (session, key))
        conn.commit()
        return cursor.lastrowid

    assert "He said" in _refused(save_fact, store.save_fact, capsys)


def test_forgetting_to_commit_is_refused(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        return conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                            (session, key, value)).lastrowid

    out = _refused(save_fact, store.save_fact, capsys)
    assert "0/9" in out and "conn.commit()" in out


def test_overwriting_the_older_value_is_refused(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        with conn:
            conn.execute("DELETE FROM facts WHERE key = ?", (key,))
            return conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                                (session, key, value)).lastrowid

    assert "older value stays" in _refused(save_fact, store.save_fact, capsys)


def test_not_returning_the_id_is_refused(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        with conn:
            conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                         (session, key, value))

    assert "return" in _refused(save_fact, store.save_fact, capsys)


def test_the_first_value_instead_of_the_latest_is_refused(capsys: pytest.CaptureFixture) -> None:
    def recall_fact(conn, key):
        row = conn.execute("SELECT value FROM facts WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    out = _refused(recall_fact, store.recall_fact, capsys)
    assert "an older value came back" in out and "ORDER BY id DESC" in out


@pytest.mark.parametrize("query", ["SELECT MAX(value) FROM facts WHERE key = ?",
                                   "SELECT value FROM facts WHERE key LIKE ? ORDER BY id DESC"])
def test_largest_value_or_like_is_refused(query: str, capsys: pytest.CaptureFixture) -> None:
    def recall_fact(conn, key):
        row = conn.execute(query, (key,)).fetchone()
        return row[0] if row else None

    assert "✗" in _refused(recall_fact, store.recall_fact, capsys)


def test_a_formatted_key_and_a_whole_row_are_refused(capsys: pytest.CaptureFixture) -> None:
    def recall_fact(conn, key):
        return conn.execute(f"SELECT value FROM facts WHERE key = '{key}' "
                            "ORDER BY id DESC LIMIT 1").fetchone()

    out = _refused(recall_fact, store.recall_fact, capsys)
    assert "injection" in out and "return row[0]" in out


def test_a_check_leaves_no_store_folders_behind(tmp_path) -> None:
    """The cases' stores live in a folder the check makes and removes in the notebook's own
    process (the cases run in forked children, which skip clean-up): nothing is left behind,
    even by a kernel killed right after the check, and loading the cases makes nothing."""
    import os
    import subprocess
    import sys

    script = ("import os\nfrom solutions.course.check import check\nfrom solutions.course.exercises import exercises\n"
              "from solutions.memory import store\nimport pathlib, tempfile\n"
              "exercises()\nassert not list(pathlib.Path(tempfile.gettempdir()).iterdir())\n"
              "def save_fact(conn, key, value, session=None):\n"
              "    return store.save_fact(conn, key, value, session)\n"
              "assert check(save_fact) is save_fact\n"
              "os._exit(0)  # as a killed kernel: no exit handlers\n")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []
