"""Each lesson takes a learner 20-40 minutes, by the estimate of scripts/lesson_time.py."""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import lesson_time  # noqa: E402

ESTIMATES = lesson_time.estimates(ROOT)


@pytest.mark.parametrize("row", ESTIMATES, ids=[row.name for row in ESTIMATES])
def test_each_lesson_takes_20_to_40_minutes(row: lesson_time.Estimate) -> None:
    low, high = lesson_time.LESSON_MINUTES
    assert low <= row.minutes <= high, \
        f"{row.name}: about {row.minutes:.0f} minutes\n{lesson_time.table([row])}"


def test_every_lesson_is_estimated() -> None:
    assert [row.name for row in ESTIMATES] == sorted(p.name for p in (ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))


def _write(path: Path, cells: list) -> None:
    """Write a notebook made of `cells`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), str(path))


def _pair(tmp_path: Path, cells: list, outputs: dict[str, list]) -> Path:
    """A lesson and its solved twin (same cells, with `outputs` by cell id) under tmp_path."""
    for index, cell in enumerate(cells):
        cell["id"] = f"c{index}"
    _write(tmp_path / "lessons" / "00_x.ipynb", cells)
    solved = [nbformat.from_dict(dict(cell)) for cell in cells]
    for cell in solved:
        if cell.cell_type == "code":
            cell.outputs = outputs.get(cell["id"], [])
    _write(tmp_path / "solutions" / "00_x.ipynb", solved)
    return tmp_path


def test_the_formula_counts_words_code_collapsed_cells_outputs_and_exercises(tmp_path: Path) -> None:
    v4 = nbformat.v4
    cells = [
        v4.new_markdown_cell(" ".join(["word"] * 400) + "\n```python\nx = 1\ny = 2\n```"),
        v4.new_code_cell("a = 1\n\nb = 2\nc = 3"),                             # 3 lines shown
        v4.new_code_cell("hidden = 1\nmore = 2", metadata={"jupyter": {"source_hidden": True}}),
        v4.new_code_cell("def f():\n    raise NotImplementedError",
                         metadata={"exercise": {"inject": [], "minutes": 7}}),
    ]
    stream = v4.new_output("stream", name="stdout", text="line\n" * 60)
    row = lesson_time.estimate(*(_pair(tmp_path, cells, {"c1": [stream]}) / d / "00_x.ipynb"
                                 for d in ("lessons", "solutions")))
    assert (row.words, row.code_lines, row.collapsed_cells, row.output_lines) == (400, 7, 1, 60)
    expected = 400 / 200 + (7 * 6 + 5 + 60) / 60 + 7
    assert row.minutes == pytest.approx(expected)


def test_an_exercise_without_minutes_is_refused(tmp_path: Path) -> None:
    cells = [nbformat.v4.new_code_cell("def f(): pass", metadata={"exercise": {"inject": []}})]
    root = _pair(tmp_path, cells, {})
    with pytest.raises(ValueError, match="needs metadata exercise.minutes"):
        lesson_time.estimates(root)
    assert lesson_time.main(["--root", str(root)]) == 2


@pytest.mark.parametrize("row", ESTIMATES, ids=[row.name for row in ESTIMATES])
def test_each_lesson_states_its_estimated_time_at_its_top(row: lesson_time.Estimate) -> None:
    stated = lesson_time.stated_time(ROOT / "lessons" / row.name)
    assert stated == lesson_time.time_line(row), \
        f"{row.name} states {stated!r}: run python scripts/lesson_time.py --write --only {row.name[:2]}, then make lessons"


def test_collapsed_helpers_an_exercise_calls_are_counted_as_read(tmp_path: Path) -> None:
    v4 = nbformat.v4
    hidden = {"jupyter": {"source_hidden": True}}
    cells = [
        v4.new_code_cell("def helper(x):\n    y = x + 1\n    return y\n\n\ndef unused():\n    pass\n\n"
                         "LIMIT = 3", metadata=hidden),
        v4.new_code_cell("def solve(x):\n    return helper(x) < LIMIT",
                         metadata={"exercise": {"inject": [], "minutes": 1}}),
    ]
    row = lesson_time.estimate(*(_pair(tmp_path, cells, {}) / d / "00_x.ipynb" for d in ("lessons", "solutions")))
    assert row.read_lines == 4            # helper's 3 lines and LIMIT; not unused()
    assert row.code_lines == 4 + 2 and row.collapsed_cells == 1


def test_a_going_further_part_is_counted_apart_and_stated(tmp_path: Path) -> None:
    v4 = nbformat.v4
    cells = [
        v4.new_markdown_cell("# Lesson 00 — X\n\nIntro."),
        v4.new_markdown_cell("## Part\n\n" + " ".join(["word"] * 2000)),
        v4.new_markdown_cell("## Going further: more\n\n" + " ".join(["word"] * 1000)),
        v4.new_code_cell("a = 1\nb = 2"),
        v4.new_markdown_cell("## Summary\n\nDone."),
    ]
    root = _pair(tmp_path, cells, {})
    row = lesson_time.estimates(root)[0]
    assert row.optional is not None and row.optional.words == 1004 and row.optional.code_lines == 2
    assert row.words == 6 + 2002 + 3
    assert lesson_time.time_line(row) == ('*About 10 minutes, plus about 5 for the optional parts headed '
                                          '"Going further".*')
    assert lesson_time.stated_time(root / "lessons" / "00_x.ipynb") is None
    assert lesson_time.write_times(root) == [root / "solutions" / "00_x.ipynb"]
    assert lesson_time.stated_time(root / "solutions" / "00_x.ipynb") == lesson_time.time_line(row)
    assert lesson_time.write_times(root, only=("01",)) == []


def test_a_helper_the_exercise_needs_counts_even_in_a_going_further_part(tmp_path: Path) -> None:
    v4 = nbformat.v4
    cells = [
        v4.new_markdown_cell("# Lesson 00 — X"),
        v4.new_code_cell("def solve(x):\n    return helper(x)", metadata={"exercise": {"inject": [], "minutes": 1}}),
        v4.new_markdown_cell("## Going further: the helper's code"),
        v4.new_code_cell("def helper(x):\n    return x + 1", metadata={"jupyter": {"source_hidden": True}}),
    ]
    row = lesson_time.estimates(_pair(tmp_path, cells, {}))[0]
    assert row.read_lines == 2 and row.code_lines == 2 + 2
    assert row.optional is not None and row.optional.read_lines == 0 and row.optional.collapsed_cells == 1
