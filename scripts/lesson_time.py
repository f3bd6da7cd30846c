"""Estimate the minutes a learner spends on each lesson, from what it gives them to read and do.

Usage: python scripts/lesson_time.py [--check] [--write] [--root DIR]

    minutes = prose words / WORDS_PER_MINUTE
            + code lines read * CODE_SECONDS_PER_LINE / 60
            + collapsed code cells * COLLAPSED_CELL_SECONDS / 60
            + output lines * OUTPUT_SECONDS_PER_LINE / 60
            + the minutes of each exercise (cell metadata "exercise": {"minutes": N})

Text and code are read from the learner notebook in lessons/ (an exercise is counted as its
stub, which is what the learner sees); outputs from the solved twin in solutions/, since the
learner sees them once the cells have run. Markdown code blocks count as code lines. A cell
whose source is collapsed (metadata "jupyter": {"source_hidden": true}) is run and skipped,
unless an exercise needs it: every definition in a collapsed cell whose name an exercise's
solution uses (a helper it calls, a constant it reads) is code the learner must open and read,
and its lines count as code lines read.

A part headed `## Going further...` (up to the next level-2 heading) is optional: it is counted
apart, as `optional` minutes, and not in the lesson's time; but a collapsed definition that an
exercise needs counts in the lesson's time wherever it sits. Each lesson states its time in its
first cell, in the line `TIME_LINE` writes; `--write` rewrites that line in the solved notebooks
(run `make lessons` afterwards), and tests/test_lesson_time.py checks it against the estimate.
`--check` exits with status 1 when a lesson falls outside LESSON_MINUTES; the course promises 20
to 40 minutes a lesson.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import Counter
from dataclasses import dataclass, fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_tools import NOTEBOOK_GLOB, REPO, read_notebook, solved_notebooks, write_if_changed  # noqa: E402

WORDS_PER_MINUTE = 200        # technical prose read with care (ordinary prose: about 240)
CODE_SECONDS_PER_LINE = 6     # reading a line of code and seeing what it does
COLLAPSED_CELL_SECONDS = 5    # running a collapsed cell and reading its one-line summary
OUTPUT_SECONDS_PER_LINE = 1   # glancing over a line of output (long tables are skimmed)
LESSON_MINUTES = (20, 40)     # the range every lesson must fall in

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_OPTIONAL = re.compile(r"^##\s+going further", re.IGNORECASE)
_LEVEL_TWO = re.compile(r"^##\s", re.MULTILINE)
_TIME = re.compile(r"^\*About \d+ minutes[^\n]*\*$", re.MULTILINE)


@dataclass(frozen=True)
class Estimate:
    """What one lesson asks of a learner, and the minutes it comes to."""

    name: str
    words: int
    code_lines: int
    collapsed_cells: int
    output_lines: int
    exercise_minutes: float
    read_lines: int = 0              # of code_lines: collapsed lines an exercise needs read
    optional: "Estimate | None" = None   # the "Going further" parts, counted apart

    @property
    def minutes(self) -> float:
        """The estimated minutes, by the formula in the module docstring."""
        seconds = (self.code_lines * CODE_SECONDS_PER_LINE
                   + self.collapsed_cells * COLLAPSED_CELL_SECONDS
                   + self.output_lines * OUTPUT_SECONDS_PER_LINE)
        return self.words / WORDS_PER_MINUTE + seconds / 60 + self.exercise_minutes

    @property
    def optional_minutes(self) -> float:
        """The minutes of the optional parts (0 when there are none)."""
        return self.optional.minutes if self.optional is not None else 0.0


COUNTED = tuple(f.name for f in fields(Estimate) if f.name not in ("name", "optional"))
"""What `estimate` counts in each part of a lesson."""


def time_line(row: Estimate) -> str:
    """The line each lesson's first cell holds: its time, and the optional parts' time."""
    line = f"*About {round(row.minutes)} minutes"
    if row.optional is not None and round(row.optional_minutes) > 0:
        line += f", plus about {round(row.optional_minutes)} for the optional parts headed \"Going further\""
    return line + ".*"


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


def _parsed(source: str) -> ast.Module | None:
    """The cell's code as a tree, or None for a cell that is not plain Python (a magic, a stub)."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def names_used(source: str) -> set[str]:
    """Every name and attribute a piece of code reads."""
    tree = _parsed(source)
    if tree is None:
        return set()
    return ({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            | {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)})


def _defined(statement: ast.stmt) -> set[str]:
    """The names a top-level statement defines (a function, a class, an assignment)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    targets = statement.targets if isinstance(statement, ast.Assign) else (
        [statement.target] if isinstance(statement, ast.AnnAssign) else [])
    return {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}


def lines_needed(source: str, used: set[str]) -> int:
    """The non-blank lines of the definitions in `source` whose names are in `used`."""
    tree = _parsed(source)
    if tree is None:
        return 0
    lines = source.splitlines()
    needed = 0
    for statement in tree.body:
        if _defined(statement) & used:
            first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", []))])
            needed += lines_of("\n".join(lines[first - 1:statement.end_lineno]))
    return needed


def _is_optional(cell, optional: bool) -> bool:
    """Whether `cell` is in an optional part: a "Going further" heading opens one, any other
    level-2 heading closes it."""
    if cell.cell_type != "markdown":
        return optional
    headings = [line for line in cell.source.splitlines() if _LEVEL_TWO.match(line)]
    return bool(_OPTIONAL.match(headings[-1])) if headings else optional


def estimate(lesson: Path, solved: Path) -> Estimate:
    """Estimate one lesson from its learner notebook and its solved twin."""
    solved_cells = read_notebook(solved).cells
    outputs = {cell.get("id"): cell.get("outputs", []) for cell in solved_cells}
    used = set().union(*(names_used(cell.source) for cell in solved_cells
                         if cell.cell_type == "code" and "exercise" in cell.metadata))
    parts = {False: Counter(), True: Counter()}  # the lesson, and its optional parts
    optional = False
    for cell in read_notebook(lesson).cells:
        optional = _is_optional(cell, optional)
        part = parts[optional]
        if cell.cell_type == "markdown":
            blocks = _FENCE.findall(cell.source)
            part["code_lines"] += sum(max(lines_of(block) - 2, 0) for block in blocks)
            part["words"] += len(_FENCE.sub(" ", cell.source).split())
            continue
        if cell.cell_type != "code":
            continue
        if cell.metadata.get("jupyter", {}).get("source_hidden"):
            part["collapsed_cells"] += 1
            needed = lines_needed(cell.source, used)  # read for the exercise, in whichever part
            parts[False]["code_lines"] += needed
            parts[False]["read_lines"] += needed
        else:
            part["code_lines"] += lines_of(cell.source)
        if "exercise" in cell.metadata:
            part["exercise_minutes"] += exercise_minutes(cell, lesson.name)
        part["output_lines"] += sum(lines_of(output_text(output)) for output in outputs.get(cell.get("id"), []))
    further = _counted(lesson.name, parts[True]) if any(parts[True].values()) else None
    return replace(_counted(lesson.name, parts[False]), optional=further)


def _counted(name: str, counts: Counter) -> Estimate:
    """The Estimate of `counts` (words, code_lines, ... by name; a missing one is 0)."""
    return Estimate(name, **{key: counts[key] for key in COUNTED})


def estimates(root: Path = REPO) -> list[Estimate]:
    """Estimate every lesson in `root`/lessons, in order."""
    lessons = sorted((Path(root) / "lessons").glob(NOTEBOOK_GLOB))
    return [estimate(path, Path(root) / "solutions" / path.name) for path in lessons]


def table(rows: list[Estimate]) -> str:
    """The estimates as a text table, one lesson a line (`read`: collapsed lines an exercise needs)."""
    head = (f"{'lesson':<20} {'words':>6} {'code':>5} {'read':>5} {'hidden':>6} {'output':>6} "
            f"{'exercise':>8} {'minutes':>7} {'optional':>8}")
    lines = [head, "-" * len(head)]
    lines += [f"{r.name.removesuffix('.ipynb'):<20} {r.words:>6} {r.code_lines:>5} {r.read_lines:>5} "
              f"{r.collapsed_cells:>6} {r.output_lines:>6} {r.exercise_minutes:>8g} {r.minutes:>7.1f} "
              f"{r.optional_minutes:>8.1f}" for r in rows]
    return "\n".join(lines)


def stated_time(path: Path) -> str | None:
    """The time line in a notebook's first cell, or None when it has none."""
    cells = read_notebook(path).cells
    found = _TIME.search(cells[0].source) if cells else None
    return found.group(0) if found else None


def write_times(root: Path = REPO, only: tuple[str, ...] = ()) -> list[Path]:
    """Put each lesson's time line (or only those of the lessons numbered in `only`) in its solved
    notebook's first cell, after the title; return the notebooks changed."""
    rows = {row.name: row for row in estimates(root)}
    changed = []
    for path in solved_notebooks(root):
        if only and path.name[:2] not in only:
            continue
        nb = read_notebook(path)
        first = nb.cells[0]
        line = time_line(rows[path.name])
        if _TIME.search(first.source):
            first.source = _TIME.sub(line, first.source, count=1)
        else:
            title, _, rest = first.source.partition("\n")
            first.source = f"{title}\n\n{line}\n{rest}" if rest.strip() else f"{title}\n\n{line}"
        if write_if_changed(nb, path):
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    """Print the table; with --check, exit 1 when a lesson is outside LESSON_MINUTES."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a lesson is out of range")
    parser.add_argument("--write", action="store_true",
                        help="write each lesson's time line into its solved notebook")
    parser.add_argument("--only", nargs="+", default=(), metavar="NN",
                        help="with --write: only these lessons, by number")
    parser.add_argument("--root", type=Path, default=REPO, help="repository root")
    args = parser.parse_args(argv)
    try:
        if args.write:
            for path in write_times(args.root, tuple(args.only)):
                print(f"lesson_time: wrote the time line of {path.name} (now run make lessons)")
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
