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
