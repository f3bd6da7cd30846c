"""A lesson author's check: does every lesson follow the course template?

Usage: python scripts/check_lessons.py [--root DIR] [--only NN ...]      (make check-lessons)

Prints one row per lesson and one column per part of the template, then each problem found,
named by lesson and part; exits with status 1 when there is one. The parts:

    title        the first cell starts `# Lesson NN — <title>`
    objectives   an "Objectives" heading with 3-5 bullet items
    exercises    at least one exercise cell, each followed by a cell that calls check(...)
    wrong        a "What can go wrong" heading
    summary      a "Summary" heading
    prev/next    links to the previous and next lessons (the last lesson links back to 00)
    links        every relative markdown link resolves, in solutions/ and in lessons/
    cells        code cells of at most MAX_CODE_LINES lines (injected ones aside); a collapsed
                 cell is announced by the text before it
    minutes      the estimate of scripts/lesson_time.py within 20-40 minutes, and stated at the top
    facts        facts cells (metadata "facts") present, and holding asserts only
    up to date   lessons/NN_*.ipynb is what scripts/build_lessons.py makes of solutions/NN_*.ipynb

tests/test_lesson_structure.py runs the same checks, so `make test` fails on the same problems.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_lessons  # noqa: E402
import lesson_time  # noqa: E402
from notebook_tools import NOTEBOOK_GLOB, REPO, read_notebook, solved_notebooks  # noqa: E402

MAX_CODE_LINES = 30
BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\S")
HEADING = re.compile(r"^\s*#{1,6}\s+(.*)$")
LINK = re.compile(r"\]\(([^)\s]+)\)")
_EXTERNAL = re.compile(r"[a-z][a-z0-9+.-]*:|#", re.IGNORECASE)  # http:, mailto:, or an anchor


class Lesson:
    """One lesson: its solved notebook, its learner notebook and the repository around them."""

    def __init__(self, solved: Path, root: Path) -> None:
        self.solved_path, self.root = solved, root
        self.number = int(solved.name[:2])
        self.name = solved.name.removesuffix(".ipynb")
        self.nb = read_notebook(solved)
        self.lesson_path = root / "lessons" / solved.name

    def markdown_lines(self) -> list[str]:
        """Every markdown line of the solved notebook, in order."""
        return [line for c in self.nb.cells if c.cell_type == "markdown" for line in c.source.splitlines()]

    def headings(self) -> list[str]:
        """The text of every markdown heading."""
        return [m.group(1).strip() for line in self.markdown_lines() if (m := HEADING.match(line))]

    def last_number(self) -> int:
        """The number of the course's last lesson."""
        return max(int(p.name[:2]) for p in solved_notebooks(self.root))


def title(lesson: Lesson) -> list[str]:
    """The first cell starts with '# Lesson NN — <title>'."""
    first = lesson.nb.cells[0] if lesson.nb.cells else None
    if first is None or first.cell_type != "markdown" or not re.match(
            rf"# Lesson {lesson.number:02d} — \S", first.source.splitlines()[0] if first.source else ""):
        return [f"the first cell must start with '# Lesson {lesson.number:02d} — <title>'"]
    return []


def objectives(lesson: Lesson) -> list[str]:
    """An 'Objectives' heading followed by 3-5 bullet items."""
    lines = lesson.markdown_lines()
    starts = [i for i, line in enumerate(lines)
              if (m := HEADING.match(line)) and "objectives" in m.group(1).lower()]
    if not starts:
        return ["an 'Objectives' heading is missing"]
    items = 0
    for line in lines[starts[0] + 1:]:
        if HEADING.match(line):
            break
        items += bool(BULLET.match(line))
    return [] if 3 <= items <= 5 else [f"Objectives has {items} bullet items; 3-5 expected"]


def exercises(lesson: Lesson) -> list[str]:
    """At least one exercise cell, each followed by a code cell that calls check(...)."""
    code = [c for c in lesson.nb.cells if c.cell_type == "code"]
    marked = [i for i, c in enumerate(code) if "exercise" in c.metadata]
    if not marked:
        return ["no exercise cell (a code cell with metadata 'exercise')"]
    return [f"exercise cell {code[i].get('id')} must be followed by a cell calling check(...)"
            for i in marked if i + 1 >= len(code) or "check(" not in code[i + 1].source]


def _heading(words: str) -> Callable[[Lesson], list[str]]:
    """A part: a heading containing `words`."""
    def part(lesson: Lesson) -> list[str]:
        return [] if any(words in h.lower() for h in lesson.headings()) else [f"no '{words}' heading"]
    part.__doc__ = f"A heading containing '{words}'."
    return part


def prev_next(lesson: Lesson) -> list[str]:
    """Links to the previous and the next lessons; the last one links back to lesson 00."""
    text = "\n".join(lesson.markdown_lines())
    existing = {int(p.name[:2]): p.name for p in solved_notebooks(lesson.root)}
    last = lesson.last_number()
    wanted = [n for n in (lesson.number - 1, lesson.number + 1) if 0 <= n <= last]
    if lesson.number == last:
        wanted.append(0)
    problems = []
    for n in wanted:
        links = re.findall(rf"\]\((?:\./)?({n:02d}_\w+\.ipynb)\)", text)
        if not links:
            problems.append(f"no link to lesson {n:02d} (a markdown link to {n:02d}_slug.ipynb)")
        elif n in existing and existing[n] not in links:
            problems.append(f"the link to lesson {n:02d} should be {existing[n]}, got {links}")
    return problems


def dead_links(text: str, folder: Path) -> list[str]:
    """The relative markdown links of `text` that name no file, read from `folder`."""
    return [target for target in LINK.findall(text)
            if not _EXTERNAL.match(target) and not (folder / target.split("#")[0]).exists()]


def links(lesson: Lesson) -> list[str]:
    """Every relative markdown link of the solved and the learner notebook names a file that exists."""
    problems = []
    for path in (lesson.solved_path, lesson.lesson_path):
        if not path.exists():
            continue
        for cell in read_notebook(path).cells:
            if cell.cell_type == "markdown":
                problems += [f"{path.parent.name}/{path.name}: dead link {target}"
                             for target in dead_links(cell.source, path.parent)]
    return problems


def cells(lesson: Lesson) -> list[str]:
    """Short code cells (injected ones aside), and each collapsed cell announced before it."""
    problems, before = [], ""
    for cell in lesson.nb.cells:
        if cell.cell_type == "markdown":
            before = cell.source
            continue
        injected = "inject" in cell.metadata or "exercise" in cell.metadata
        count = len(cell.source.splitlines())
        if cell.cell_type == "code" and not injected and count > MAX_CODE_LINES:
            problems.append(f"cell {cell.get('id')} has {count} lines (at most {MAX_CODE_LINES})")
        if cell.metadata.get("jupyter", {}).get("source_hidden") and "collapsed" not in before:
            problems.append(f"cell {cell.get('id')} is collapsed; say so in the text before it")
    return problems


def minutes(lesson: Lesson) -> list[str]:
    """The estimated minutes within lesson_time.LESSON_MINUTES, and stated in the first cell."""
    if not lesson.lesson_path.exists():
        return ["no learner notebook to estimate (run make lessons)"]
    row = lesson_time.estimate(lesson.lesson_path, lesson.solved_path)
    low, high = lesson_time.LESSON_MINUTES
    problems = [] if low <= row.minutes <= high else [
        f"about {row.minutes:.0f} minutes; a lesson takes {low}-{high} (scripts/lesson_time.py)"]
    if lesson_time.stated_time(lesson.solved_path) != lesson_time.time_line(row):
        problems.append("the time stated at the top is not the estimate: run "
                        f"python scripts/lesson_time.py --write --only {lesson.number:02d}")
    return problems


def facts(lesson: Lesson) -> list[str]:
    """Facts cells are present, and hold nothing but asserts (and imports or names they need)."""
    found = [c for c in lesson.nb.cells if c.cell_type == "code" and c.metadata.get("facts")]
    if not found:
        return ["no facts cell (a code cell with metadata 'facts' pinning the prose's figures)"]
    problems = []
    for cell in found:
        try:
            statements = ast.parse(cell.source).body
        except SyntaxError as error:
            problems.append(f"facts cell {cell.get('id')} does not parse: {error.msg}")
            continue
        if not any(isinstance(s, ast.Assert) for s in statements):
            problems.append(f"facts cell {cell.get('id')} asserts nothing")
    return problems


def up_to_date(lesson: Lesson) -> list[str]:
    """lessons/NN_*.ipynb is what build_lessons makes of the solved notebook."""
    stale = build_lessons.build(lesson.root, lesson.root / "lessons", write=False,
                                only=(f"{lesson.number:02d}",))
    mine = [item for item in stale if lesson.solved_path.name in item]
    return [f"{item} differs: run python scripts/build_lessons.py --only {lesson.number:02d}"
            for item in mine]


PARTS: dict[str, Callable[[Lesson], list[str]]] = {
    "title": title, "objectives": objectives, "exercises": exercises,
    "wrong": _heading("what can go wrong"), "summary": _heading("summary"),
    "prev/next": prev_next, "links": links, "cells": cells, "minutes": minutes,
    "facts": facts, "up to date": up_to_date,
}
"""Each part of the template, by the column name the table prints."""


def check(root: Path = REPO, only: tuple[str, ...] = ()) -> dict[str, dict[str, list[str]]]:
    """{lesson name: {part: problems}} for every solved lesson (or those numbered in `only`)."""
    results = {}
    for path in solved_notebooks(root):
        if only and path.name[:2] not in only:
            continue
        lesson = Lesson(path, root)
        results[lesson.name] = {part: run(lesson) for part, run in PARTS.items()}
    return results


def table(results: dict[str, dict[str, list[str]]]) -> str:
    """The results as a text table (ok / ✗ per part), then each problem named by lesson and part."""
    widths = {part: max(len(part), 2) for part in PARTS}
    head = f"{'lesson':<22}" + " ".join(f"{part:>{widths[part]}}" for part in PARTS)
    lines = [head, "-" * len(head)]
    for name, parts in results.items():
        lines.append(f"{name:<22}" + " ".join(
            f"{'ok' if not parts[part] else '✗':>{widths[part]}}" for part in PARTS))
    problems = [f"{name}: {part}: {problem}" for name, parts in results.items()
                for part, found in parts.items() for problem in found]
    lines += ["", *problems] if problems else ["", f"all {len(results)} lessons follow the template"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the table; exit 1 when a lesson misses a part."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO, help="repository root")
    parser.add_argument("--only", nargs="+", default=(), metavar="NN", help="only these lessons")
    args = parser.parse_args(argv)
    results = check(args.root.resolve(), tuple(args.only))
    if not results:
        print(f"check_lessons: no solved lesson matches {NOTEBOOK_GLOB} in {args.root}/solutions",
              file=sys.stderr)
        return 2
    print(table(results))
    return 1 if any(found for parts in results.values() for found in parts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
