"""The learner's workspace: own copies of the lesson notebooks, never overwritten.

Usage: python scripts/workspace.py sync            (make workspace)
       python scripts/workspace.py reset LESSON    (make reset LESSON=03)
       options: --lessons DIR  --workspace DIR     (defaults: lessons/ and workspace/)

`sync` copies every lesson notebook `NN_slug.ipynb` that the workspace does not hold yet, so a
lesson added later arrives with the next `make workspace`; a notebook already there is left
alone, edited or not. `reset` puts a fresh copy of one lesson into the workspace and first keeps
the learner's version as `backups/NN_slug.K.ipynb` (K = the next free number). Standard library
only, so it runs before any install and on every system (`python scripts/workspace.py ...`).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSON_NAME = re.compile(r"(\d\d)_[A-Za-z0-9_]+\.ipynb")
BACKUPS = "backups"


def lesson_files(lessons: Path) -> list[Path]:
    """Return the lesson notebooks `NN_slug.ipynb` in `lessons`, sorted by name."""
    if not Path(lessons).is_dir():
        raise ValueError(f"no lessons folder at {lessons}")
    return sorted(p for p in Path(lessons).iterdir() if LESSON_NAME.fullmatch(p.name) and p.is_file())


def copy_new(source: Path, target: Path) -> None:
    """Copy `source` to `target`, which must not exist (exclusive create: never overwrites)."""
    with open(source, "rb") as src, open(target, "xb") as dst:
        shutil.copyfileobj(src, dst)


def sync(lessons: Path, workspace: Path) -> list[Path]:
    """Copy into `workspace` each lesson it lacks; return the copies made (existing ones untouched)."""
    workspace = Path(workspace)
    workspace.mkdir(parents=True, exist_ok=True)
    added = []
    for source in lesson_files(lessons):
        target = workspace / source.name
        if target.exists():
            continue
        try:
            copy_new(source, target)
        except FileExistsError:
            continue
        added.append(target)
    return added


RESET_USAGE = ("name the lesson to reset by its number, e.g. `make reset LESSON=03` "
               "(`python scripts/workspace.py reset 03`)")


def find_lesson(lessons: Path, lesson: str, usage: str = RESET_USAGE) -> Path:
    """Return the lesson that `lesson` names ("03", "3", "03_parsing" or "03_parsing.ipynb").

    A name that fits no lesson is a ValueError that starts with `usage` and lists the lessons.
    """
    files = lesson_files(lessons)
    wanted = str(lesson).strip()
    for path in files:
        number = path.name[:2]
        if wanted in (number, path.stem, path.name) or (
                wanted.isdigit() and wanted.lstrip("0") == number.lstrip("0")):
            return path
    listing = ", ".join(f"{p.name[:2]} ({p.stem})" for p in files) or "none found"
    given = repr(wanted if len(wanted) <= 40 else wanted[:40] + "...") if wanted else "nothing"
    raise ValueError(f"{usage}; got {given}. Lessons: {listing}")


def next_backup(workspace: Path, name: str) -> Path:
    """Return `workspace/backups/<stem>.K.ipynb` with K one more than the highest K in use."""
    stem = Path(name).stem
    pattern = re.compile(re.escape(stem) + r"\.(\d+)\.ipynb")
    folder = Path(workspace) / BACKUPS
    used = [int(m.group(1)) for p in (folder.iterdir() if folder.is_dir() else [])
            if (m := pattern.fullmatch(p.name))]
    return folder / f"{stem}.{max(used, default=0) + 1}.ipynb"


def reset(lessons: Path, workspace: Path, lesson: str) -> tuple[Path, Path | None]:
    """Put a fresh copy of `lesson` in `workspace`; return it and the backup of the old one (or None).

    No backup is made when the workspace copy is missing or still identical to the lesson.
    """
    source = find_lesson(lessons, lesson)
    target = Path(workspace) / source.name
    content = source.read_bytes()
    backup = keep_copy(workspace, target, unless=(content,))
    replace(target, content)
    return target, backup


def keep_copy(workspace: Path, target: Path, unless: tuple[bytes, ...] = ()) -> Path | None:
    """Copy `target` to the next `backups/<stem>.K.ipynb` (bytes and times kept); return the backup.

    Nothing is kept (None) when `target` is missing or holds exactly one of the `unless` contents
    (a copy the course can make again).
    """
    target = Path(target)
    if not target.exists() or target.read_bytes() in unless:
        return None
    backup = next_backup(workspace, target.name)
    backup.parent.mkdir(parents=True, exist_ok=True)
    copy_new(target, backup)
    shutil.copystat(target, backup)
    return backup


def replace(target: Path, content: bytes) -> None:
    """Write `content` to `target` in one step (a temporary file beside it, then renamed over it)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = target.with_name(f".{target.name}.fresh")
    fresh.write_bytes(content)
    os.replace(fresh, target)


def shown(path: Path) -> str:
    """A path for messages: relative to the repository when inside it."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["sync", "reset"])
    parser.add_argument("lesson", nargs="?", default="", help="for reset: the lesson number, e.g. 03")
    parser.add_argument("--lessons", type=Path, default=ROOT / "lessons")
    parser.add_argument("--workspace", type=Path, default=ROOT / "workspace")
    args = parser.parse_args(argv)
    try:
        if args.command == "sync":
            added = sync(args.lessons, args.workspace)
        else:
            target, backup = reset(args.lessons, args.workspace, args.lesson)
    except ValueError as exc:
        print(f"{args.command}: {exc}", file=sys.stderr)
        return 2
    if args.command == "sync":
        names = ", ".join(p.name for p in added) or "nothing new"
        print(f"{shown(args.workspace)}/: added {names}; "
              f"{len(lesson_files(args.lessons))} lesson(s), your copies are never overwritten")
        return 0
    kept = (f"your previous version is now {shown(backup)}" if backup
            else "there was no edited copy to keep")
    print(f"reset: fresh copy in {shown(target)}; {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
