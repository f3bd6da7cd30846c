"""Execute the solved notebooks and store their outputs, normalised for comparison.

Usage: python scripts/execute_notebooks.py [-j N] [NOTEBOOK...]   (default: solutions/NN_*.ipynb)

Each notebook runs in a fresh `python3` kernel of the current environment (jupyter_client
starts the kernelspec's `python` with this interpreter), with the notebook's folder as the
working directory and a 300 s limit per cell, over local sockets (`kernel_config`), stopped
at once when done. Widget state and cell timings are not saved,
the kernelspec is set to python3 and execution counts are renumbered 1..n.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from nbclient import NotebookClient
from nbformat import NotebookNode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_tools import (  # noqa: E402
    kernel_config, normalise_metadata, notebook_label, read_notebook, solved_notebooks, write_if_changed,
)

CELL_TIMEOUT = 300


def renumber(nb: NotebookNode) -> None:
    """Number executed code cells 1..n in order, in the cells and their execute_result outputs."""
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if cell.get("execution_count") is None:
            continue
        count += 1
        cell.execution_count = count
        for output in cell.get("outputs", []):
            if output.get("output_type") == "execute_result":
                output["execution_count"] = count


def execute(path: Path) -> str:
    """Execute one notebook in place; return a one-line report."""
    path = Path(path).resolve()
    nb = read_notebook(path)
    with tempfile.TemporaryDirectory(prefix="execute-") as sockets:
        client = NotebookClient(
            nb, timeout=CELL_TIMEOUT, kernel_name="python3", record_timing=False, coalesce_streams=True,
            shutdown_kernel="immediate", config=kernel_config(sockets),
            resources={"metadata": {"path": str(path.parent)}},
        )
        client.execute()
    normalise_metadata(nb)
    renumber(nb)
    changed = write_if_changed(nb, path)
    return f"{notebook_label(path)}: executed, {'outputs changed' if changed else 'unchanged'}"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: solutions/NN_*.ipynb")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="notebooks run in parallel")
    args = parser.parse_args(argv)
    paths = args.notebooks or solved_notebooks()
    if not paths:
        print("execute_notebooks: no notebooks to execute")
        return 0
    failed = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {path: pool.submit(execute, path) for path in paths}
        for path, future in futures.items():
            try:
                print(future.result(), flush=True)
            except Exception as exc:  # report every notebook, then fail
                failed += 1
                print(f"{path}: FAILED\n{exc}", file=sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
