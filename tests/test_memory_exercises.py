"""Lesson 08's checks pass the references and leave nothing behind (the wrong solutions they refuse are
in tests/wrong_solutions/lesson08.py)."""
from __future__ import annotations

import pytest

from solutions.course.check import check
from solutions.course.exercises import exercises
from solutions.memory import store


def test_the_references_pass(capsys: pytest.CaptureFixture) -> None:
    def save_fact(conn, key, value, session=None):
        return store.save_fact(conn, key, value, session)

    def recall_fact(conn, key):
        return store.recall_fact(conn, key)

    assert check(save_fact) is save_fact and check(recall_fact) is recall_fact
    out = capsys.readouterr().out
    for name in ("save_fact", "recall_fact"):
        count = len(exercises()[name].cases)
        assert f"✓ {name}: {count}/{count} cases pass" in out


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
