"""Build the learner notebooks: refresh injected cells in solutions/, then write lessons/.

Usage: python scripts/build_lessons.py [--check] [--out DIR] [--root DIR]

A code cell with metadata {"inject": ["solutions.tools:calculator", ...]} gets its source from the
modules (shown code, identical in both notebooks). A cell with metadata
{"exercise": {"inject": [...], "hint": "...", "stub": [...]}} is refreshed the same way, and in
lessons/ every function named in "stub" (default: every injected function) keeps its signature
and docstring while its body becomes `raise NotImplementedError("Exercise: <hint>")` ("hint" may
also map each stubbed function's name to a hint of its own).
Regions between `# BEGIN SOLUTION` and `# END SOLUTION` in any code cell become a stub too.
A code cell with metadata {"facts": true} holds only asserts that the prose around it states what
the outputs show; it stays in solutions/ (where nbval runs it) and is left out of lessons/.
"""
from __future__ import annotations

import argparse
import ast
import copy
import importlib.util
import re
import sys
from pathlib import Path

from nbformat import NotebookNode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_tools import (  # noqa: E402
    LESSON_LANGUAGE_INFO, NOTEBOOK_GLOB, REPO, dumps_notebook, ensure_cell_ids, exercise_message,
    find_definition, normalise_metadata, notebook_label, read_notebook, solved_notebooks,
    stub_definitions, stub_regions, write_if_changed,
)

REGION_HINT = "write the missing part (see the text above)"


# ---------------------------------------------------------------- injection (solved notebooks)

def module_file(module: str, root: Path) -> Path:
    """Locate a module's source file, under `root` first, else wherever Python finds it."""
    base = Path(root) / Path(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise ValueError(f"cannot find the source of module {module!r}")
    return Path(spec.origin)


def definition_source(module: str, name: str, root: Path) -> tuple[str, Path]:
    """Return the source text of `module:name` (decorators included) and the module's file."""
    path = module_file(module, root)
    text = path.read_text(encoding="utf-8")
    node = find_definition(ast.parse(text), name)
    if node is None:
        raise ValueError(f"{module} has no top-level definition of {name!r}")
    decorators = getattr(node, "decorator_list", [])
    start = min([d.lineno for d in decorators] + [node.lineno])
    lines = text.splitlines()[start - 1 : node.end_lineno]
    return "\n".join(line.rstrip() for line in lines), path


def injected_source(entries: list[str], root: Path) -> str:
    """Build a cell's source: `# Reference: <files>` then each definition, two blank lines apart."""
    files: list[str] = []
    parts: list[str] = []
    for entry in entries:
        module, sep, name = entry.partition(":")
        if not sep or not module or not name:
            raise ValueError(f"inject entry {entry!r} must look like 'package.module:name'")
        source, path = definition_source(module, name, root)
        label = notebook_label(path, root)
        if label not in files:
            files.append(label)
        parts.append(source)
    return f"# Reference: {', '.join(files)}\n" + "\n\n\n".join(parts)


def cell_injections(cell: NotebookNode) -> list[str]:
    """Return the `module:name` entries a cell asks for (plain or exercise metadata)."""
    exercise = cell.metadata.get("exercise")
    if isinstance(exercise, dict) and exercise.get("inject"):
        return list(exercise["inject"])
    return list(cell.metadata.get("inject", []))


_PATH_MENTION = re.compile(r"(?<!\[)`(solutions/[A-Za-z0-9_./-]*)`")
_CODE_FENCE = re.compile(r"(^```.*?^```)", re.MULTILINE | re.DOTALL)


def link_paths(text: str, root: Path) -> str:
    """Make each `solutions/...` path a markdown text mentions a link to it (`../solutions/...`,
    right from lessons/, solutions/ and workspace/ alike), so it opens from JupyterLab; a path
    that does not exist, or one inside a code block, stays as it is."""
    def link(match: re.Match) -> str:
        path = match.group(1)
        return f"[`{path}`](../{path})" if (Path(root) / path).exists() else match.group(0)
    pieces = _CODE_FENCE.split(text)
    return "".join(piece if index % 2 else _PATH_MENTION.sub(link, piece) for index, piece in enumerate(pieces))


def refresh_solved(nb: NotebookNode, name: str, root: Path) -> NotebookNode:
    """Return a copy of a solved notebook with injected cells refreshed, each `solutions/...` path
    the prose mentions linked, and cell ids ensured."""
    new = copy.deepcopy(nb)
    for index, cell in enumerate(new.cells):
        if cell.cell_type == "markdown":
            cell.source = link_paths(cell.source, root)
        entries = cell_injections(cell) if cell.cell_type == "code" else []
        if entries:
            try:
                cell.source = injected_source(entries, root)
            except (ValueError, SyntaxError, OSError) as exc:
                raise ValueError(f"{name} cell {index}: {exc}") from exc
    ensure_cell_ids(new, name)
    return new


# ---------------------------------------------------------------- stubs (lesson notebooks)

def lesson_cell(cell: NotebookNode) -> NotebookNode:
    """Return the learner's version of one solved cell."""
    new = copy.deepcopy(cell)
    new.metadata.pop("execution", None)
    if new.cell_type != "code":
        return new
    new.outputs, new.execution_count = [], None
    exercise = new.metadata.get("exercise")
    hint = REGION_HINT
    if isinstance(exercise, dict):
        hint = exercise.get("hint") or hint
        names = exercise.get("stub")
        if names is None:
            names = [e.partition(":")[2] for e in exercise.get("inject", [])]
            tree = ast.parse(new.source) if names else ast.Module(body=[], type_ignores=[])
            defs = (ast.FunctionDef, ast.AsyncFunctionDef)
            names = [n for n in names if isinstance(find_definition(tree, n), defs)]
        hints = hint if isinstance(hint, dict) else dict.fromkeys(names, hint)  # one, or one per function
        hint = REGION_HINT if isinstance(hint, dict) else hint
        for name in names:
            new.source = stub_definitions(new.source, [name], exercise_message(hints.get(name, hint)))
    new.source, raises = stub_regions(new.source, hint)
    if raises and "raises-exception" not in new.metadata.get("tags", []):
        new.metadata["tags"] = list(new.metadata.get("tags", [])) + ["raises-exception"]
    return new


def make_lesson(solved: NotebookNode, name: str) -> NotebookNode:
    """Return the learner notebook generated from a (refreshed) solved notebook."""
    lesson = copy.deepcopy(solved)
    cells = []
    for index, cell in enumerate(solved.cells):
        if cell.metadata.get("facts"):
            continue  # asserts about the prose, for the solved notebook only
        try:
            cells.append(lesson_cell(cell))
        except (ValueError, SyntaxError) as exc:
            raise ValueError(f"{name} cell {index}: {exc}") from exc
    lesson.cells = cells
    normalise_metadata(lesson)
    lesson.metadata["language_info"] = dict(LESSON_LANGUAGE_INFO)
    return lesson


# ---------------------------------------------------------------- the command

def build(root: Path, out: Path, write: bool, only: tuple[str, ...] = ()) -> list[str]:
    """Regenerate everything (or the lessons numbered in `only`); write it (write=True) or return
    what differs from disk."""
    stale: list[str] = []
    expected_lessons = set()
    for path in solved_notebooks(root):
        if only and path.name[:2] not in only:
            expected_lessons.add(path.name)
            continue
        original = read_notebook(path)
        solved = refresh_solved(original, path.name, root)
        if solved != original:
            stale.append(f"{notebook_label(path, root)} (injected cells or cell ids)")
            if write:
                write_if_changed(solved, path)
        lesson_path = out / path.name
        expected_lessons.add(lesson_path.name)
        text = dumps_notebook(make_lesson(solved, path.name))
        if not lesson_path.exists() or lesson_path.read_text(encoding="utf-8") != text:
            stale.append(notebook_label(lesson_path, root))
            if write:
                out.mkdir(parents=True, exist_ok=True)
                lesson_path.write_text(text, encoding="utf-8")
    for extra in sorted(out.glob(NOTEBOOK_GLOB)):
        if extra.name not in expected_lessons:
            stale.append(f"{notebook_label(extra, root)} (no solved notebook)")
            if write:
                extra.unlink()
    return stale


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    parser.add_argument("--out", type=Path, help="folder for the lessons (default: ROOT/lessons)")
    parser.add_argument("--root", type=Path, default=REPO, help="repository root")
    parser.add_argument("--only", nargs="+", default=(), metavar="NN",
                        help="only these lessons, by number (e.g. --only 03 04); the others are left as they are")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out = (args.out or root / "lessons").resolve()
    try:
        stale = build(root, out, write=not args.check, only=tuple(args.only))
    except ValueError as exc:
        print(f"build_lessons: {exc}", file=sys.stderr)
        return 2
    if args.check and stale:
        print("lessons/ is out of date with solutions/: run `make lessons` "
              "(python scripts/build_lessons.py). Differing files:", file=sys.stderr)
        print("\n".join(f"  {item}" for item in stale), file=sys.stderr)
        return 1
    verb = "up to date" if args.check or not stale else f"updated {len(stale)} file(s)"
    print(f"build_lessons: {len(solved_notebooks(root))} notebook(s), {verb}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
