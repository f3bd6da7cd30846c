"""The lessons' text states what their outputs show, and what the repository holds.

Sentences that quote a cell's output are backed by a `facts` cell after it: asserts on the same
values, run by nbval in the solved notebook, so a change of the mock that makes the text false
fails loudly (see scripts/build_lessons.py). This file checks the mechanism itself, and the
statements about the repository that no cell prints.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLVED = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
ALLOWED = (ast.Assert, ast.Import, ast.ImportFrom)


def _cells(path: Path) -> list:
    """The cells of a notebook."""
    return nbformat.read(str(path), as_version=4).cells


def _facts(path: Path) -> list:
    """The facts cells of a notebook."""
    return [cell for cell in _cells(path) if cell.metadata.get("facts")]


@pytest.mark.parametrize("path", SOLVED, ids=[p.name for p in SOLVED])
def test_facts_cells_only_assert(path: Path) -> None:
    for cell in _facts(path):
        assert cell.cell_type == "code"
        statements = ast.parse(cell.source).body
        assert statements and all(isinstance(s, ALLOWED) for s in statements), \
            f"facts cell {cell.id} may hold only asserts (and imports): no state, no output"
        assert not cell.get("outputs"), f"facts cell {cell.id} printed something"


@pytest.mark.parametrize("path", SOLVED, ids=[p.name for p in SOLVED])
def test_facts_cells_stay_out_of_the_lessons(path: Path) -> None:
    facts = {cell.id for cell in _facts(path)}
    lesson = {cell.id for cell in _cells(ROOT / "lessons" / path.name)}
    assert not facts & lesson, "run `make lessons`: facts cells belong to the solved notebook only"


def test_lesson_00_names_the_lessons_that_exist() -> None:
    text = "\n".join(c.source for c in _cells(SOLVED[0]) if c.cell_type == "markdown")
    numbers = sorted(int(path.name[:2]) for path in SOLVED)
    assert numbers == list(range(len(numbers))), "lessons are numbered 00, 01, ... without gaps"
    last = numbers[-1]
    here = re.search(r"lessons, `00` to `(\d\d)`", text)
    assert here and int(here[1]) == last, f"lesson 00 must say that the lessons are 00 to {last:02d}"
    if last < 11:
        coming = re.search(r"`(\d\d)` to `11` are being written", text)
        assert coming and int(coming[1]) == last + 1


def test_lesson_00_says_where_reset_keeps_the_old_copy() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import workspace

    text = "\n".join(c.source for c in _cells(SOLVED[0]) if c.cell_type == "markdown")
    assert "`make lab`" in text and "`workspace/`" in text and "`make reset LESSON=" in text
    assert f"`workspace/{workspace.BACKUPS}/`" in text
