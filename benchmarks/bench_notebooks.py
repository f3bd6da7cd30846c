"""Benchmark executing the whole course: every notebook against a bare-kernel floor, same run.

Run:  python benchmarks/bench_notebooks.py

Executes each solved notebook (`solutions/NN_*.ipynb`) and each learner notebook
(`lessons/NN_*.ipynb`) with nbclient, one after the other, in a fresh `python3` kernel, and as
the floor the same number of one-cell notebooks (`pass`) with the same kernel and settings. Both
use `shutdown_kernel="immediate"` (the graceful default can stall for seconds) and talk to the
kernel over local IPC sockets (the kernels are local; TCP would make each kernel warn that it is
unencrypted). Goals, what a learner waits for:

- each notebook's Run All at most `ABOVE_FLOOR_GOAL` seconds above its floor;
- the whole course at most `RATIO_GOAL` times the floor;
- every cell that runs over `SILENT_CELL_SECONDS` shows progress (a tqdm bar), so no cell sits
  silent.

Nothing is written: the notebooks are executed in memory.
"""
from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from notebook_tools import kernel_config  # noqa: E402
ABOVE_FLOOR_GOAL = 2.0     # seconds a notebook's Run All may take above a bare kernel's
RATIO_GOAL = 2.0           # the course over the floor
SILENT_CELL_SECONDS = 1.0  # a cell that runs longer shows progress
GLOB = "[0-9][0-9]_*.ipynb"
_PROGRESS = re.compile(r"\d+%\|")  # tqdm's bar, as text or as a widget's text/plain


def run(nb: nbformat.NotebookNode, folder: Path, sockets: Path) -> float:
    """Execute `nb` in a fresh kernel, with `folder` as its working directory; return seconds."""
    client = NotebookClient(nb, timeout=300, kernel_name="python3", record_timing=True,
                            shutdown_kernel="immediate", config=kernel_config(sockets),
                            resources={"metadata": {"path": str(folder)}})
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def floor_once(folder: Path, sockets: Path) -> float:
    """Seconds to start a kernel, run one trivial cell and stop it."""
    return run(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("pass")]), folder, sockets)


def silent_cells(nb: nbformat.NotebookNode) -> list[tuple[int, float]]:
    """(index, seconds) of each code cell that ran over SILENT_CELL_SECONDS without a progress bar."""
    found = []
    for index, cell in enumerate(nb.cells):
        timing = cell.get("metadata", {}).get("execution", {})
        if cell.cell_type != "code" or "iopub.execute_input" not in timing:
            continue
        seconds = (datetime.fromisoformat(timing["shell.execute_reply"].rstrip("Z"))
                   - datetime.fromisoformat(timing["iopub.execute_input"].rstrip("Z"))).total_seconds()
        texts = [output.get("text", "") + str(output.get("data", {}).get("text/plain", ""))
                 for output in cell.get("outputs", [])]
        if seconds > SILENT_CELL_SECONDS and not any(_PROGRESS.search(text) for text in texts):
            found.append((index, seconds))
    return found


def main() -> int:
    """Time the course and the floor, interleaved so a busy machine slows both alike."""
    paths = sorted((ROOT / "solutions").glob(GLOB)) + sorted((ROOT / "lessons").glob(GLOB))
    course, floor, over, silent = [], [], 0, []
    print(f"{'notebook':34} {'seconds':>8} {'floor':>7} {'above':>7}")
    with tempfile.TemporaryDirectory() as sockets:
        for path in paths:
            nb = nbformat.read(str(path), as_version=4)
            seconds = run(nb, path.parent, Path(sockets))
            bare = floor_once(path.parent, Path(sockets))
            course.append(seconds)
            floor.append(bare)
            name = path.parent.name + "/" + path.name
            silent += [(name, index, cell_seconds) for index, cell_seconds in silent_cells(nb)]
            above = seconds - bare
            over += above > ABOVE_FLOOR_GOAL
            verdict = "ok" if above <= ABOVE_FLOOR_GOAL else "OVER GOAL"
            print(f"{name:34} {seconds:8.2f} {bare:7.2f} {above:7.2f}  {verdict}", flush=True)
    total, bare_total = sum(course), sum(floor)
    ratio = total / bare_total
    print(f"\n{len(paths)} notebooks in {total:.1f} s; floor {bare_total:.1f} s "
          f"({len(paths)} one-cell notebooks, median {statistics.median(floor):.2f} s each)")
    print(f"each notebook at most {ABOVE_FLOOR_GOAL:g} s above its floor: {len(paths) - over} of "
          f"{len(paths)} {'ok' if not over else 'OVER GOAL'}")
    print(f"ratio course / floor {ratio:.2f} x   (goal <= {RATIO_GOAL}) "
          f"{'ok' if ratio <= RATIO_GOAL else 'OVER GOAL'}")
    print(f"cells over {SILENT_CELL_SECONDS:g} s without progress: {len(silent)} "
          f"{'ok' if not silent else 'OVER GOAL'}")
    for name, index, cell_seconds in silent:
        print(f"  {name} cell {index}: {cell_seconds:.2f} s, no progress bar")
    return 0


if __name__ == "__main__":
    sys.exit(main())
