"""Every solved lesson follows the course template (see COURSE.md, "Lessons"), by the checks of
scripts/check_lessons.py (`make check-lessons` prints them as a table)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import check_lessons  # noqa: E402

GLOB = "[0-9][0-9]_*.ipynb"
SOLVED = sorted((ROOT / "solutions").glob(GLOB))
PARTS = [part for part in check_lessons.PARTS if part not in ("minutes", "up to date")]
"""The parts checked here; the minutes are tests/test_lesson_time.py's, the build tests/test_pipeline.py's."""


def test_lessons_and_solutions_hold_the_same_notebooks() -> None:
    lessons = sorted(p.name for p in (ROOT / "lessons").glob(GLOB))
    assert lessons == [p.name for p in SOLVED], "run `make lessons`"


@pytest.fixture(scope="module")
def lessons() -> dict[str, check_lessons.Lesson]:
    """Every solved lesson, read once."""
    return {path.name: check_lessons.Lesson(path, ROOT) for path in SOLVED}


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("name", [p.name for p in SOLVED])
def test_the_lesson_has_the_part(lessons: dict, name: str, part: str) -> None:
    assert check_lessons.PARTS[part](lessons[name]) == []


# ---------------------------------------------------------------- the checks catch what they name

@pytest.fixture(scope="module")
def course_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the lessons, their solutions and what their links name: a root to plant faults in."""
    root = tmp_path_factory.mktemp("course")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
    for folder in ("solutions", "lessons", "docs", "mockllm", "appendix"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, root / folder, ignore=ignore)
    for name in ("README.md", "pyproject.toml", "Makefile"):
        shutil.copy(ROOT / name, root / name)
    return root


@pytest.fixture
def lesson_03(course_copy: Path):
    """The solved lesson 03 of the copy (its path); both its notebooks are restored afterwards."""
    solved = next((course_copy / "solutions").glob("03_*.ipynb"))
    learner = course_copy / "lessons" / solved.name
    saved = solved.read_bytes(), learner.read_bytes()
    yield solved
    solved.write_bytes(saved[0])
    learner.write_bytes(saved[1])


def test_the_copy_of_lesson_03_has_every_part(course_copy: Path, lesson_03: Path) -> None:
    """So a planted fault below is the only one its part can see."""
    assert check_lessons.check(course_copy, ("03",)) == {lesson_03.stem: {part: [] for part in check_lessons.PARTS}}


def _edit(path: Path, change) -> None:
    """Apply `change(nb)` to the notebook at `path`."""
    nb = nbformat.read(path, as_version=4)
    change(nb)
    nbformat.write(nb, path)


def _drop_heading(words: str):
    """A change that removes the markdown cells holding a heading with `words`."""
    return lambda nb: setattr(nb, "cells", [c for c in nb.cells if not (
        c.cell_type == "markdown" and any(line.lstrip().startswith("#") and words in line.lower()
                                          for line in c.source.splitlines()))])


def _first_markdown_with(nb, text: str):
    """The first markdown cell whose source holds `text`."""
    return next(c for c in nb.cells if c.cell_type == "markdown" and text in c.source)


PLANTED = {
    "title": lambda nb: setattr(nb.cells[0], "source", "# Parsing\n" + nb.cells[0].source),
    "objectives": _drop_heading("objectives"),
    "exercises": lambda nb: [c.metadata.pop("exercise", None) for c in nb.cells],
    "wrong": _drop_heading("what can go wrong"),
    "summary": _drop_heading("summary"),
    "prev/next": lambda nb: [setattr(c, "source", c.source.replace("04_loop.ipynb", "04.ipynb"))
                             for c in nb.cells if c.cell_type == "markdown"],
    "links": lambda nb: setattr(nb.cells[0], "source", nb.cells[0].source + "\n\nSee [the notes](no_such_file.md)."),
    "cells": lambda nb: nb.cells.insert(3, nbformat.v4.new_code_cell("\n".join(f"x{i} = {i}" for i in range(40)))),
    "facts": lambda nb: [c.metadata.pop("facts", None) for c in nb.cells],
}


@pytest.mark.parametrize("part", sorted(PLANTED))
def test_a_planted_fault_is_seen_by_its_part(course_copy: Path, lesson_03: Path, part: str) -> None:
    _edit(lesson_03, PLANTED[part])
    assert check_lessons.PARTS[part](check_lessons.Lesson(lesson_03, course_copy)), f"{part}: the planted fault was not seen"


def test_the_table_names_the_lesson_and_the_part_and_the_status_is_1(course_copy: Path, lesson_03: Path, capsys) -> None:
    solved = lesson_03
    _edit(solved, PLANTED["summary"])
    assert check_lessons.main(["--root", str(course_copy), "--only", "03"]) == 1
    out = capsys.readouterr().out
    assert f"{solved.stem}: summary: no 'summary' heading" in out and "✗" in out


def test_a_stale_learner_notebook_and_a_wrong_time_are_named(course_copy: Path, lesson_03: Path) -> None:
    solved, root = lesson_03, course_copy
    _edit(root / "lessons" / solved.name, lambda nb: nb.cells.append(nbformat.v4.new_markdown_cell("extra")))
    _edit(solved, lambda nb: setattr(nb.cells[0], "source", nb.cells[0].source.replace("*About ", "*About 1")))
    parts = check_lessons.check(root, ("03",))[solved.stem]
    assert any("differs" in problem for problem in parts["up to date"]), parts["up to date"]
    assert any("time stated" in problem for problem in parts["minutes"]), parts["minutes"]


def test_the_course_passes_and_prints_a_row_per_lesson(capsys) -> None:
    assert check_lessons.main(["--only", "00", "11"]) == 0
    out = capsys.readouterr().out
    assert "00_welcome" in out and "11_long_tasks" in out and "all 2 lessons follow the template" in out
