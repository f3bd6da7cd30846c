"""Estimate the minutes a learner spends on each lesson, from what it gives them to read and do.

Usage: python scripts/lesson_time.py [--check] [--root DIR]

    minutes = prose words / WORDS_PER_MINUTE
            + code lines shown * CODE_SECONDS_PER_LINE / 60
            + collapsed code cells * COLLAPSED_CELL_SECONDS / 60
            + output lines * OUTPUT_SECONDS_PER_LINE / 60
            + the minutes of each exercise (cell metadata "exercise": {"minutes": N})

Text and code are read from the learner notebook in lessons/ (an exercise is counted as its
stub, which is what the learner sees); outputs from the solved twin in solutions/, since the
learner sees them once the cells have run. Markdown code blocks count as code lines. A cell
whose source is collapsed (metadata "jupyter": {"source_hidden": true}) is run and skipped,
unless the learner chooses to open it. `--check` exits with status 1 when a lesson falls outside
LESSON_MINUTES; the course promises 20 to 40 minutes a lesson.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_tools import NOTEBOOK_GLOB, REPO, read_notebook  # noqa: E402

WORDS_PER_MINUTE = 200        # technical prose read with care (ordinary prose: about 240)
CODE_SECONDS_PER_LINE = 6     # reading a line of code and seeing what it does
COLLAPSED_CELL_SECONDS = 5    # running a collapsed cell and reading its one-line summary
OUTPUT_SECONDS_PER_LINE = 1   # glancing over a line of output (long tables are skimmed)
LESSON_MINUTES = (20, 40)     # the range every lesson must fall in

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Estimate:
    """What one lesson asks of a learner, and the minutes it comes to."""

    name: str
    words: int
    code_lines: int
    collapsed_cells: int
    output_lines: int
    exercise_minutes: float

    @property
    def minutes(self) -> float:
        """The estimated minutes, by the formula in the module docstring."""
        seconds = (self.code_lines * CODE_SECONDS_PER_LINE
                   + self.collapsed_cells * COLLAPSED_CELL_SECONDS
                   + self.output_lines * OUTPUT_SECONDS_PER_LINE)
        return self.words / WORDS_PER_MINUTE + seconds / 60 + self.exercise_minutes


def lines_of(text: str) -> int:
    """Non-blank lines of a text."""
    return sum(1 for line in text.splitlines() if line.strip())


def output_text(output: dict) -> str:
    """The text a learner reads in one output: a stream, or the markdown or plain form of a value."""
    if output.get("output_type") == "stream":
        return output.get("text", "")
    data = output.get("data", {})
    return data.get("text/markdown") or data.get("text/plain", "")


def exercise_minutes(cell: dict, where: str) -> float:
    """The minutes stored in an exercise cell's metadata; a ValueError names the cell without."""
    minutes = cell.metadata["exercise"].get("minutes") if isinstance(cell.metadata["exercise"], dict) else None
    if not isinstance(minutes, (int, float)) or isinstance(minutes, bool) or minutes <= 0:
        raise ValueError(f"{where}: the exercise cell {cell.get('id')} needs metadata "
                         "exercise.minutes, a positive number")
    return float(minutes)


def estimate(lesson: Path, solved: Path) -> Estimate:
    """Estimate one lesson from its learner notebook and its solved twin."""
    outputs = {cell.get("id"): cell.get("outputs", []) for cell in read_notebook(solved).cells}
    words = code = collapsed = shown = 0
    exercises = 0.0
    for cell in read_notebook(lesson).cells:
        if cell.cell_type == "markdown":
            blocks = _FENCE.findall(cell.source)
            code += sum(max(lines_of(block) - 2, 0) for block in blocks)
            words += len(_FENCE.sub(" ", cell.source).split())
            continue
        if cell.cell_type != "code":
            continue
        if cell.metadata.get("jupyter", {}).get("source_hidden"):
            collapsed += 1
        else:
            code += lines_of(cell.source)
        if "exercise" in cell.metadata:
            exercises += exercise_minutes(cell, lesson.name)
        shown += sum(lines_of(output_text(output)) for output in outputs.get(cell.get("id"), []))
    return Estimate(lesson.name, words, code, collapsed, shown, exercises)


def estimates(root: Path = REPO) -> list[Estimate]:
    """Estimate every lesson in `root`/lessons, in order."""
    lessons = sorted((Path(root) / "lessons").glob(NOTEBOOK_GLOB))
    return [estimate(path, Path(root) / "solutions" / path.name) for path in lessons]


def table(rows: list[Estimate]) -> str:
    """The estimates as a text table, one lesson a line."""
    head = f"{'lesson':<20} {'words':>6} {'code':>5} {'hidden':>6} {'output':>6} {'exercise':>8} {'minutes':>7}"
    lines = [head, "-" * len(head)]
    lines += [f"{r.name.removesuffix('.ipynb'):<20} {r.words:>6} {r.code_lines:>5} {r.collapsed_cells:>6} "
              f"{r.output_lines:>6} {r.exercise_minutes:>8g} {r.minutes:>7.1f}" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the table; with --check, exit 1 when a lesson is outside LESSON_MINUTES."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a lesson is out of range")
    parser.add_argument("--root", type=Path, default=REPO, help="repository root")
    args = parser.parse_args(argv)
    try:
        rows = estimates(args.root)
    except ValueError as exc:
        print(f"lesson_time: {exc}", file=sys.stderr)
        return 2
    print(table(rows))
    low, high = LESSON_MINUTES
    outside = [r for r in rows if not low <= r.minutes <= high]
    for row in outside:
        print(f"{row.name}: {row.minutes:.1f} minutes, outside {low}-{high}", file=sys.stderr)
    return 1 if args.check and outside else 0


if __name__ == "__main__":
    sys.exit(main())
