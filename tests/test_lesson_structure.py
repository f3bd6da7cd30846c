"""Every solved lesson follows the course template (see COURSE.md, "Lessons")."""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOB = "[0-9][0-9]_*.ipynb"
SOLVED = sorted((ROOT / "solutions").glob(GLOB))
MAX_CODE_LINES = 30
LAST_LESSON = 11   # the course's last lesson, whose next link goes back to lesson 00
BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\S")
HEADING = re.compile(r"^\s*#{1,6}\s+(.*)$")


def _load(path: Path) -> nbformat.NotebookNode:
    """Read a notebook."""
    return nbformat.read(str(path), as_version=4)


def _markdown_lines(nb: nbformat.NotebookNode) -> list[str]:
    """All markdown lines of a notebook, in order."""
    return [line for c in nb.cells if c.cell_type == "markdown" for line in c.source.splitlines()]


def _headings(nb: nbformat.NotebookNode) -> list[str]:
    """The text of every markdown heading."""
    return [m.group(1).strip() for line in _markdown_lines(nb) if (m := HEADING.match(line))]


def _ids(paths: list[Path]) -> list[str]:
    """Test ids: the notebook file names."""
    return [p.name for p in paths]


def test_lessons_and_solutions_hold_the_same_notebooks() -> None:
    lessons = sorted(p.name for p in (ROOT / "lessons").glob(GLOB))
    assert lessons == [p.name for p in SOLVED], "run `make lessons`"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
def test_title(path: Path) -> None:
    first = _load(path).cells[0]
    number = path.name[:2]
    assert first.cell_type == "markdown"
    assert re.match(rf"# Lesson {number} — \S", first.source.splitlines()[0]), \
        f"the first cell must start with '# Lesson {number} — <title>'"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
def test_objectives_have_three_to_five_items(path: Path) -> None:
    lines = _markdown_lines(_load(path))
    starts = [i for i, line in enumerate(lines)
              if (m := HEADING.match(line)) and "objectives" in m.group(1).lower()]
    assert starts, "an 'Objectives' heading is missing"
    items = 0
    for line in lines[starts[0] + 1 :]:
        if HEADING.match(line):
            break
        items += bool(BULLET.match(line))
    assert 3 <= items <= 5, f"Objectives has {items} bullet items; 3-5 expected"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
def test_every_exercise_is_followed_by_a_check(path: Path) -> None:
    code = [c for c in _load(path).cells if c.cell_type == "code"]
    exercises = [i for i, c in enumerate(code) if "exercise" in c.metadata]
    assert exercises, "no exercise cell (code cell with metadata 'exercise')"
    for i in exercises:
        assert i + 1 < len(code) and "check(" in code[i + 1].source, \
            f"exercise cell {code[i].get('id')} must be followed by a cell calling check(...)"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
@pytest.mark.parametrize("heading", ["what can go wrong", "summary"])
def test_required_sections(path: Path, heading: str) -> None:
    assert any(heading in h.lower() for h in _headings(_load(path))), f"no '{heading}' heading"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
def test_links_to_previous_and_next_lessons(path: Path) -> None:
    number = int(path.name[:2])
    text = "\n".join(_markdown_lines(_load(path)))
    existing = {int(p.name[:2]): p.name for p in SOLVED}
    wanted = [n for n in (number - 1, number + 1) if 0 <= n <= LAST_LESSON]
    if number == LAST_LESSON:  # the course's last lesson points back to the start
        wanted.append(0)
    for n in wanted:
        links = re.findall(rf"\]\((?:\./)?({n:02d}_\w+\.ipynb)\)", text)
        assert links, f"no link to lesson {n:02d} (a markdown link to {n:02d}_slug.ipynb)"
        if n in existing:
            assert existing[n] in links, f"the link to lesson {n:02d} should be {existing[n]}, got {links}"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
def test_code_cells_are_short(path: Path) -> None:
    for cell in _load(path).cells:
        injected = "inject" in cell.metadata or "exercise" in cell.metadata
        if cell.cell_type == "code" and not injected:
            lines = len(cell.source.splitlines())
            assert lines <= MAX_CODE_LINES, f"cell {cell.get('id')} has {lines} lines"


@pytest.mark.parametrize("path", SOLVED, ids=_ids(SOLVED))
def test_a_collapsed_cell_is_announced(path: Path) -> None:
    """A learner sees only a bar for a collapsed cell: the text before it must say it is there."""
    last_markdown = ""
    for cell in _load(path).cells:
        if cell.cell_type == "markdown":
            last_markdown = cell.source
        elif cell.metadata.get("jupyter", {}).get("source_hidden"):
            assert "collapsed" in last_markdown, \
                f"cell {cell.get('id')} is collapsed; say so in the text before it"
