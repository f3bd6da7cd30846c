"""Benchmark executing the whole course: every notebook against a bare-kernel floor, same run.

Run:  python benchmarks/bench_notebooks.py

Executes each solved notebook (`solutions/NN_*.ipynb`) and each learner notebook
(`lessons/NN_*.ipynb`) with nbclient, one after the other, in a fresh `python3` kernel, and as
the floor the same number of one-cell notebooks (`pass`) with the same kernel and settings. Both
use `shutdown_kernel="immediate"` (the graceful default can stall for seconds). Prints each
notebook's time, the totals and their ratio (goal: the course within 1.3 x the floor). Nothing
is written: the notebooks are executed in memory.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
RATIO_GOAL = 1.3
GLOB = "[0-9][0-9]_*.ipynb"


def run(nb: nbformat.NotebookNode, folder: Path) -> float:
    """Execute `nb` in a fresh kernel, with `folder` as its working directory; return seconds."""
    client = NotebookClient(nb, timeout=300, kernel_name="python3", record_timing=False,
                            shutdown_kernel="immediate", resources={"metadata": {"path": str(folder)}})
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def floor_once(folder: Path) -> float:
    """Seconds to start a kernel, run one trivial cell and stop it."""
    return run(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("pass")]), folder)


def main() -> int:
    """Time the course and the floor, interleaved so a busy machine slows both alike."""
    paths = sorted((ROOT / "solutions").glob(GLOB)) + sorted((ROOT / "lessons").glob(GLOB))
    course, floor = [], []
    print(f"{'notebook':34} {'seconds':>8} {'floor':>7}")
    for path in paths:
        seconds = run(nbformat.read(str(path), as_version=4), path.parent)
        bare = floor_once(path.parent)
        course.append(seconds)
        floor.append(bare)
        print(f"{path.parent.name + '/' + path.name:34} {seconds:8.2f} {bare:7.2f}", flush=True)
    total, bare_total = sum(course), sum(floor)
    ratio = total / bare_total
    print(f"\n{len(paths)} notebooks in {total:.1f} s; floor {bare_total:.1f} s "
          f"({len(paths)} one-cell notebooks, median {statistics.median(floor):.2f} s each)")
    verdict = "ok" if ratio <= RATIO_GOAL else "OVER GOAL"
    print(f"ratio course / floor {ratio:.2f} x   (goal <= {RATIO_GOAL}) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
