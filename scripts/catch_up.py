"""Catch up to a lesson: the lessons before it, solved with the reference, in the workspace.

Usage: python scripts/catch_up.py LESSON [--from FIRST]     (make catch-up LESSON=07 [FROM=04])
       options: --lessons DIR  --solutions DIR  --workspace DIR   (defaults: the repository's)

Each lesson from FIRST (default: the first) up to the one before LESSON is written into the
workspace as its learner notebook with every cell the learner completes (the exercises, the
solution regions) holding its solved twin's code from `solutions/NN_slug.ipynb`, and a note at
the top saying so: every check then passes and the lesson runs as solved. A copy already there is
kept first as `backups/NN_slug.K.ipynb`, as `reset` keeps it (scripts/workspace.py), unless it is
the untouched lesson or this same caught-up copy: nothing the learner wrote is lost, solved or
not. LESSON itself is copied when the workspace lacks it, and never overwritten. Standard library
only, like scripts/workspace.py.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace  # noqa: E402

ROOT = workspace.ROOT
USAGE = ("name the lesson to catch up to by its number, e.g. `make catch-up LESSON=07` "
         "(`python scripts/catch_up.py 07`)")
FROM_USAGE = ("name the first lesson to solve by its number, e.g. `make catch-up LESSON=07 FROM=04` "
              "(`python scripts/catch_up.py 07 --from 04`)")
NOTE_ID = "catch-up-note"
NOTE = ("*Caught up with `make catch-up`: the exercise cells of this copy hold the reference "
        "code, so every check passes and the lesson runs as solved. Your own version, if you had "
        "one, is in `backups/`.*")


@dataclass
class CatchUp:
    """What a catch-up did: the notebooks written, the backups kept, the lesson copied (or None)."""

    written: list[Path] = field(default_factory=list)
    backups: list[Path] = field(default_factory=list)
    copied: Path | None = None


def dumps(nb: dict) -> bytes:
    """Serialise a notebook as the course stores its notebooks (indent 1, sorted keys, newline)."""
    return (json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def solved_lesson(lesson: Path, solved: Path) -> bytes:
    """Return the lesson notebook with each code cell that differs from its solved twin (matched by
    cell id) holding the twin's code and metadata, and the catch-up note first."""
    nb = json.loads(Path(lesson).read_text(encoding="utf-8"))
    solved_cells = json.loads(Path(solved).read_text(encoding="utf-8"))["cells"]
    twins = {cell.get("id"): cell for cell in solved_cells}
    for index, cell in enumerate(nb["cells"]):
        twin = twins.get(cell.get("id"))
        if twin is None or twin["cell_type"] != cell["cell_type"]:
            raise ValueError(f"{Path(lesson).name} cell {index} has no twin in {Path(solved).name}: "
                             "lessons/ is out of date with solutions/ (run `make lessons`)")
        if cell["cell_type"] == "code" and cell["source"] != twin["source"]:
            cell["source"] = twin["source"]
            cell["metadata"] = {key: value for key, value in twin["metadata"].items()
                                if key != "execution"}
    note = {"cell_type": "markdown", "id": NOTE_ID, "metadata": {}, "source": [NOTE]}
    nb["cells"] = [note] + [cell for cell in nb["cells"] if cell.get("id") != NOTE_ID]
    return dumps(nb)


def catch_up(lessons: Path, solutions: Path, ws: Path, lesson: str, first: str = "") -> CatchUp:
    """Solve every lesson from `first` (default: the first) up to the one before `lesson` in `ws`
    with the reference, keeping the learner's copies; copy `lesson` itself if it is missing."""
    files = workspace.lesson_files(lessons)
    target = workspace.find_lesson(lessons, lesson, USAGE)
    start = workspace.find_lesson(lessons, first, FROM_USAGE) if first else files[0]
    if start.name > target.name:
        raise ValueError(f"FROM={start.name[:2]} comes after LESSON={target.name[:2]}: nothing to "
                         "catch up (the first lesson to solve comes before the one to start)")
    done = CatchUp()
    for source in files:
        if not start.name <= source.name < target.name:
            continue
        solved = Path(solutions) / source.name
        if not solved.is_file():
            raise ValueError(f"{source.name} has no solved notebook in {workspace.shown(solutions)}")
        content = solved_lesson(source, solved)
        path = Path(ws) / source.name
        backup = workspace.keep_copy(ws, path, unless=(content, source.read_bytes()))
        if backup is not None:
            done.backups.append(backup)
        workspace.replace(path, content)
        done.written.append(path)
    copy = Path(ws) / target.name
    if not copy.exists():
        Path(ws).mkdir(parents=True, exist_ok=True)
        try:
            workspace.copy_new(target, copy)
            done.copied = copy
        except FileExistsError:
            pass
    return done


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lesson", nargs="?", default="", help="the lesson to start, e.g. 07")
    parser.add_argument("--from", dest="first", default="",
                        help="the first lesson to solve (default: the first lesson)")
    parser.add_argument("--lessons", type=Path, default=ROOT / "lessons")
    parser.add_argument("--solutions", type=Path, default=ROOT / "solutions")
    parser.add_argument("--workspace", type=Path, default=ROOT / "workspace")
    args = parser.parse_args(argv)
    try:
        done = catch_up(args.lessons, args.solutions, args.workspace, args.lesson, args.first)
    except ValueError as exc:
        print(f"catch-up: {exc}", file=sys.stderr)
        return 2
    if done.written:
        names = [path.name[:2] for path in done.written]
        span = f"lesson {names[0]}" if len(names) == 1 else f"lessons {names[0]} to {names[-1]}"
        print(f"catch-up: {span} solved with the reference in {workspace.shown(args.workspace)}/ "
              "(close any of their tabs open in JupyterLab without saving, so the old version is not "
              "saved back over)")
    for backup in done.backups:
        print(f"  your previous {backup.name.split('.')[0]}.ipynb is now {workspace.shown(backup)}")
    target = workspace.find_lesson(args.lessons, args.lesson, USAGE)
    state = "copied there" if done.copied else "already there, left as it is"
    print(f"catch-up: {target.name} {state}; start there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
