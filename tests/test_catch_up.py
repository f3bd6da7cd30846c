"""`make catch-up LESSON=NN`: the lessons before NN solved with the reference, nothing of the
learner's lost."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import catch_up  # noqa: E402
import workspace  # noqa: E402

LESSONS, SOLUTIONS = ROOT / "lessons", ROOT / "solutions"


def _lesson(number: str) -> Path:
    """The pristine lesson numbered `number`."""
    return workspace.find_lesson(LESSONS, number)


def _edited(number: str) -> bytes:
    """A learner's copy of a lesson with a cell of their own added (bytes as JupyterLab saves them)."""
    nb = json.loads(_lesson(number).read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "execution_count": 3, "id": "mine", "metadata": {},
                        "outputs": [], "source": ["# my own attempt\n", "answer = 42"]})
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `folder`: its bytes and modification time."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_catch_up_keeps_every_edited_copy_byte_identical_and_never_overwrites_the_lesson(
        tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    ws.mkdir()
    shutil.copyfile(_lesson("00"), ws / _lesson("00").name)          # opened, never edited
    edited = ws / _lesson("01").name
    edited.write_bytes(_edited("01"))
    os.utime(edited, ns=(1_600_000_000_000_000_000,) * 2)
    (ws / "backups").mkdir()
    (ws / "backups" / f"{edited.stem}.1.ipynb").write_bytes(b"an older backup")
    started = ws / _lesson("03").name
    started.write_bytes(_edited("03"))                                 # the lesson to start: theirs
    before = _snapshot(ws)

    done = catch_up.catch_up(LESSONS, SOLUTIONS, ws, "03")

    assert [p.name for p in done.written] == [_lesson(n).name for n in ("00", "01", "02")]
    assert done.backups == [ws / "backups" / f"{edited.stem}.2.ipynb"]   # the untouched 00 needs none
    assert done.backups[0].read_bytes() == before[edited.name][0]
    assert done.backups[0].stat().st_mtime_ns == before[edited.name][1]
    assert (ws / "backups" / f"{edited.stem}.1.ipynb").read_bytes() == b"an older backup"
    assert done.copied is None and _snapshot(ws)[started.name] == before[started.name]
    assert not (ws / _lesson("04").name).exists()
    after = _snapshot(ws)
    catch_up.catch_up(LESSONS, SOLUTIONS, ws, "03")                    # again: nothing new to keep
    assert {name: data for name, (data, _) in _snapshot(ws).items()} == {
        name: data for name, (data, _) in after.items()}


def test_the_lesson_to_start_is_copied_when_missing_and_from_limits_what_is_solved(
        tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    done = catch_up.catch_up(LESSONS, SOLUTIONS, ws, "3", first="02")
    assert [p.name[:2] for p in done.written] == ["02"]
    assert done.copied == ws / _lesson("03").name
    assert done.copied.read_bytes() == _lesson("03").read_bytes()
    assert sorted(p.name[:2] for p in ws.glob("*.ipynb")) == ["02", "03"]
    first = catch_up.catch_up(LESSONS, SOLUTIONS, tmp_path / "new", "00")  # nothing before it
    assert first.written == [] and first.copied == tmp_path / "new" / _lesson("00").name


def _code(nb: dict) -> list[str]:
    """The code cells' sources, in order."""
    return ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]


@pytest.mark.parametrize("lesson", workspace.lesson_files(LESSONS), ids=lambda p: p.name[:2])
def test_a_caught_up_lesson_runs_the_solved_notebooks_code(lesson: Path) -> None:
    """Its code is the solved notebook's, cell for cell, without the facts cells (asserts about
    the prose): what nbval runs in `make test`, so it runs as the solved notebook does."""
    solved = json.loads((SOLUTIONS / lesson.name).read_text(encoding="utf-8"))
    caught_up = json.loads(catch_up.solved_lesson(lesson, SOLUTIONS / lesson.name))
    assert _code(caught_up) == _code({"cells": [c for c in solved["cells"]
                                                if not c["metadata"].get("facts")]})
    assert _code(caught_up) != _code(json.loads(lesson.read_text(encoding="utf-8")))
    assert not any("raises-exception" in c["metadata"].get("tags", []) for c in caught_up["cells"])
    note = caught_up["cells"][0]
    assert note["id"] == catch_up.NOTE_ID and "make catch-up" in note["source"][0]
    assert all(cell.get("outputs") == [] for cell in caught_up["cells"] if cell["cell_type"] == "code")


def test_a_lesson_out_of_date_with_its_solved_notebook_is_refused(tmp_path: Path) -> None:
    solved = json.loads((SOLUTIONS / _lesson("00").name).read_text(encoding="utf-8"))
    solved["cells"] = solved["cells"][:-1]
    stale = tmp_path / _lesson("00").name
    stale.write_text(json.dumps(solved), encoding="utf-8")
    with pytest.raises(ValueError, match=r"has no twin .*run `make lessons`"):
        catch_up.solved_lesson(_lesson("00"), stale)


@pytest.mark.parametrize(("lesson", "first", "says"), [
    ("", "", r"make catch-up LESSON=07.*got nothing\. Lessons: 00 \(00_welcome\)"),
    ("99", "", r"make catch-up LESSON=07.*got '99'"),
    ("03", "05", r"FROM=05 comes after LESSON=03"),
    ("03", "x", r"first lesson to solve .*FROM=04.*got 'x'"),
])
def test_a_bad_lesson_is_a_clear_error_and_writes_nothing(tmp_path: Path, lesson: str, first: str,
                                                          says: str) -> None:
    with pytest.raises(ValueError, match=says):
        catch_up.catch_up(LESSONS, SOLUTIONS, tmp_path / "workspace", lesson, first)
    assert not (tmp_path / "workspace").exists()


def test_the_command_runs_on_the_standard_library_alone_and_says_what_it_kept(tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    ws.mkdir()
    (ws / _lesson("00").name).write_bytes(_edited("00"))
    script = [sys.executable, "-S", str(ROOT / "scripts" / "catch_up.py")]  # -S: no site-packages
    result = subprocess.run([*script, "02", "--workspace", str(ws)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "lessons 00 to 01 solved with the reference" in result.stdout
    assert str(ws / "backups" / f"{_lesson('00').stem}.1.ipynb") in result.stdout
    assert f"{_lesson('02').name} copied there" in result.stdout
    result = subprocess.run([*script, "--workspace", str(ws)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "make catch-up LESSON=07" in result.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_catch_up_passes_the_lesson_and_from() -> None:
    out = subprocess.run(["make", "-n", "catch-up", "LESSON=07", "FROM=04"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert 'scripts/catch_up.py "07" --from "04"' in out
