"""How far the learner has got: every exercise of the workspace notebooks, checked headless.

Usage: python scripts/progress.py [--json PATH] [--timeout SECONDS]     (make progress [JSON=PATH])
       options: --workspace DIR  --solutions DIR   (defaults: the repository's)

Each `workspace/NN_slug.ipynb` is read into memory and its cells run, up to its last `check(...)`,
in a fresh kernel of this environment, in the workspace folder as JupyterLab runs them; the file
itself is never written. Each check's verdict (solutions/course/check.py) gives its exercise's
status: `solved` (your function passes), `not yet` (still the stub), `reference` (your function
fails a case or is refused, so the reference runs instead), `catch-up` (the cell holds the
reference code that `make catch-up` put there) or `not run` (no check of it ran: the notebook
stopped before it, or the exercise is an optional one never checked). A notebook that raises, or
runs out of its time limit (default 120 s), is reported with the checks that ran before.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

from mockllm.protocol.jsonschema_loader import defer_iri_grammar

defer_iri_grammar()  # nbformat imports jsonschema, whose IRI grammar takes seconds to build

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402
from nbformat import NotebookNode  # noqa: E402

from solutions.course.exercises import exercises  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace  # noqa: E402
from notebook_tools import kernel_config  # noqa: E402

ROOT = workspace.ROOT
TIMEOUT = 120.0
STATUSES = ("solved", "catch-up", "reference", "not yet", "not run")
CHECK_CALL = re.compile(r"(?<![\w.])check\(")
ITSELF = "check was given the reference itself"  # never hides an earlier verdict


@dataclass(frozen=True)
class ExerciseProgress:
    """One exercise: its name, status (one of STATUSES) and what the check said, shortened."""

    name: str
    status: str
    detail: str = ""


@dataclass
class NotebookProgress:
    """One workspace notebook: how its run ended ("ran", "error", "timeout"), and each exercise."""

    notebook: str
    run: str
    detail: str = ""
    exercises: list[ExerciseProgress] = field(default_factory=list)


def verdict(line: str, name: str) -> tuple[str, str] | None:
    """Read the first line of `check`'s report on exercise `name`: (status, detail), or None."""
    if line.startswith(f"✓ {name}: ") and line.endswith("using your function"):
        return "solved", line.removeprefix(f"✓ {name}: ").split(" — ")[0]
    if line.startswith(f"{name} is not solved yet"):
        return "not yet", "still the stub"
    if line.startswith(f"{name}: this is still the reference"):
        return "not yet", ITSELF
    if line.startswith(f"✗ {name}: "):
        return "reference", line.removeprefix(f"✗ {name}: ")
    return None


def calls_check(source: str) -> bool:
    """True when a code cell's source calls `check(` (not `x.check(` or `_check(`)."""
    return CHECK_CALL.search(source) is not None


def lesson_exercises() -> dict[str, list[str]]:
    """The exercises `check` knows, by lesson number ("03"), in the course's order."""
    by_lesson: dict[str, list[str]] = {}
    for name, exercise in exercises().items():
        by_lesson.setdefault(exercise.lesson, []).append(name)
    return by_lesson


def until_last_check(nb: NotebookNode) -> NotebookNode:
    """The notebook cut after its last cell that calls `check` (later cells decide no verdict)."""
    last = max((index for index, cell in enumerate(nb.cells)
                if cell.cell_type == "code" and calls_check(cell.source)), default=-1)
    cut = nbformat.from_dict(nb)
    cut.cells = cut.cells[: last + 1]
    return cut


def execute(nb: NotebookNode, folder: Path, timeout: float) -> tuple[str, str]:
    """Run `nb` in place (in memory) in a fresh kernel within `timeout` seconds in all; (run, detail).

    Past the limit the kernel is stopped (nbclient shuts it down as the run is cancelled)."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    try:
        with tempfile.TemporaryDirectory(prefix="progress-") as sockets:
            client = NotebookClient(nb, timeout=None, kernel_name="python3", allow_errors=True,
                                    shutdown_kernel="immediate", record_timing=False,
                                    coalesce_streams=True, config=kernel_config(sockets),
                                    resources={"metadata": {"path": str(folder)}})
            finished = asyncio.run(within(client.async_execute(), timeout))
    except Exception as exc:  # a kernel that cannot start, a cell past its limit: reported
        return "error", f"{type(exc).__name__}: {last_line(str(exc))}"
    if not finished:
        return "timeout", f"stopped after {timeout:g} s; the checks before that are counted"
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "raises-exception" in cell.metadata.get("tags", []):
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                said = last_line(output.get("evalue", ""))
                return "error", f"cell {index + 1} raised {output.get('ename')}: {said}"
    return "ran", ""


async def within(work: Awaitable[object], timeout: float) -> bool:
    """Await `work` for at most `timeout` seconds; False when it was cancelled at the limit.

    Its own errors are raised; whatever it raises while being cancelled (a kernel shut down under
    a running cell is a DeadKernelError) is the cancellation, and is not."""
    task = asyncio.ensure_future(work)
    await asyncio.wait({task}, timeout=timeout)
    if task.done():
        task.result()
        return True
    task.cancel()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await task
    return False


def last_line(text: str, limit: int = 160) -> str:
    """The last non-empty line of `text`, cut to `limit` characters."""
    lines = [line for line in str(text).splitlines() if line.strip()]
    line = lines[-1].strip() if lines else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def reference_cells(nb: NotebookNode, solved: Path) -> set[str]:
    """Names of the exercises whose exercise cell holds exactly its solved twin's code."""
    if not solved.is_file():
        return set()
    twins = {cell.get("id"): cell.source for cell in nbformat.read(str(solved), as_version=4).cells}
    names: set[str] = set()
    for cell in nb.cells:
        exercise = cell.metadata.get("exercise")
        if (cell.cell_type == "code" and isinstance(exercise, dict)
                and twins.get(cell.get("id")) == cell.source):
            names.update(entry.partition(":")[2] for entry in exercise.get("inject", []))
    return names


def verdicts(nb: NotebookNode, names: list[str]) -> dict[str, tuple[str, str]]:
    """The last verdict printed on each exercise in `names`, read from the executed cells' output."""
    found: dict[str, tuple[str, str]] = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.get("output_type") != "stream":
                continue
            for line in output.get("text", "").splitlines():
                for name in names:
                    read = verdict(line, name)
                    if read and not (read[1] == ITSELF and name in found):
                        found[name] = read
    return found


def not_run_reason(nb: NotebookNode, name: str) -> str:
    """Why no check of `name` ran: the notebook has none, or its run stopped before it."""
    call = re.compile(rf"(?<![\w.])check\(\s*{re.escape(name)}\s*\)")
    if any(cell.cell_type == "code" and call.search(cell.source) for cell in nb.cells):
        return "the run stopped before its check"
    return f"no check({name}) in the notebook"


def notebook_progress(path: Path, solutions: Path, names: list[str], timeout: float = TIMEOUT
                      ) -> NotebookProgress:
    """Check one workspace notebook (never written) and give each of `names` its status."""
    path = Path(path)
    try:
        nb = nbformat.read(str(path), as_version=4)
    except Exception as exc:  # not a notebook any more (a bad save, an edit by hand)
        return NotebookProgress(path.name, "error",
                                f"not a readable notebook: {type(exc).__name__}: {last_line(str(exc))}",
                                [ExerciseProgress(name, "not run", "the notebook could not be read")
                                 for name in names])
    filled = reference_cells(nb, Path(solutions) / path.name)
    run_nb = until_last_check(nb)
    run, detail = execute(run_nb, path.parent, timeout) if run_nb.cells else ("ran", "no check in it")
    read = verdicts(run_nb, names)
    rows = []
    for name in names:
        status, said = read.get(name, ("not run", not_run_reason(nb, name)))
        if status == "solved" and name in filled:
            status, said = "catch-up", f"the reference code; {said}"
        rows.append(ExerciseProgress(name, status, said))
    return NotebookProgress(path.name, run, detail, rows)


def progress(ws: Path, solutions: Path, timeout: float = TIMEOUT, jobs: int = 1,
             say: Callable[[str], None] = lambda line: None) -> list[NotebookProgress]:
    """Check every lesson notebook in the workspace (backups aside), `jobs` at a time; sorted by
    lesson. `say` is told of each notebook when it is done."""
    by_lesson = lesson_exercises()
    notebooks = workspace.lesson_files(ws) if Path(ws).is_dir() else []

    def one(path: Path) -> NotebookProgress:
        result = notebook_progress(path, solutions, by_lesson.get(path.name[:2], []), timeout)
        say(f"progress: checked {path.name} ({result.run})")
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:  # the work is in the kernels
        return list(pool.map(one, notebooks))


def table(results: list[NotebookProgress]) -> str:
    """The results as a text table, one row an exercise, and a count of each status."""
    rows = [("lesson", "exercise", "status", "what the check said")]
    for nb in results:
        if nb.run != "ran" or not nb.exercises:
            rows.append((nb.notebook[:2], "(notebook)", nb.run, nb.detail or "no exercise"))
        rows += [(nb.notebook[:2], ex.name, ex.status, ex.detail) for ex in nb.exercises]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3]
             for row in rows]
    counts = [sum(ex.status == status for nb in results for ex in nb.exercises) for status in STATUSES]
    lines.append(", ".join(f"{count} {status}" for status, count in zip(STATUSES, counts)))
    return "\n".join(line.rstrip() for line in lines)


def summary(results: list[NotebookProgress]) -> dict:
    """The results as JSON-ready data: each notebook, its exercises and the count of each status."""
    counts = {status: sum(ex.status == status for nb in results for ex in nb.exercises)
              for status in STATUSES}
    return {"counts": counts, "notebooks": [asdict(nb) for nb in results]}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", type=Path, default=ROOT / "workspace")
    parser.add_argument("--solutions", type=Path, default=ROOT / "solutions")
    parser.add_argument("--json", type=Path,
                        help="also write the results there, e.g. build/progress.json")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds a notebook may run")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="notebooks run at once (default 2)")
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error(f"--timeout must be a positive number of seconds, got {args.timeout:g}")
    if args.json and args.json.resolve().is_relative_to(args.workspace.resolve()):
        parser.error(f"--json {args.json}: write it outside the workspace (e.g. build/progress.json)")
    results = progress(args.workspace, args.solutions, args.timeout, args.jobs,
                       say=lambda line: print(line, file=sys.stderr, flush=True))
    if not results:
        print(f"progress: no lesson notebooks in {workspace.shown(args.workspace)}/ "
              "(make workspace copies them there)")
        return 0
    print(table(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary(results), indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
        print(f"progress: written to {workspace.shown(args.json)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
