"""Benchmark `make test`: its wall time and where the time goes.

Run from anywhere:  python benchmarks/bench_test_time.py   (part of `make bench`)
                    python benchmarks/bench_test_time.py --against ../old-checkout
Goal: `make test` at most 0.6 x the wall time of the suite at commit f98a1b4, both measured back
to back on the same machine: `--against` names a checkout of that commit (or any other) with its
own virtual environment set up (`make setup` there), whose `make test` is timed right before
this one's, and the ratio is printed. Without it, only this checkout's figures are printed.

It runs `make test` once, with pytest writing a JUnit report (PYTEST_ADDOPTS), and splits the
time the tests took (setup + call + teardown, summed over both workers) into unit tests, solved
notebooks and lesson notebooks. The rest of the wall time is start-up and scheduling: the main
pytest process and its two workers each start, load their plugins and collect. The start-up of one
pytest process is measured on its own, as the median of a few runs that collect a single small file.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RATIO_GOAL = 0.6
WORKERS = 2
GROUPS = {"tests": "unit tests (tests/)", "solutions": "solved notebooks", "lessons": "lesson notebooks"}
STARTUP_RUNS = 3
SLOWEST = 5
STARTUP_PROBE = ["-p", "no:xdist", "--collect-only", "-q", "tests/test_packaging.py"]


def _children_cpu() -> float:
    """CPU seconds (user + system) used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_make_test(report: Path, root: Path = ROOT) -> tuple[float, float, str]:
    """Run `make test` in `root` with a JUnit report; return its wall and CPU seconds and pytest's summary."""
    env = dict(os.environ, PYTEST_ADDOPTS=f"{os.environ.get('PYTEST_ADDOPTS', '')} --junitxml={report}")
    cpu, start = _children_cpu(), time.perf_counter()
    result = subprocess.run(["make", "--no-print-directory", "test"], cwd=root, env=env,
                            capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    lines = [line.strip("= ") for line in result.stdout.splitlines() if line.startswith("=")]
    if result.returncode != 0 and not report.exists():
        print((result.stdout + result.stderr)[-3000:])
        sys.exit(f"make test failed (exit {result.returncode}) before running the tests")
    for line in [line for line in result.stdout.splitlines() if line.startswith("FAILED")][:5]:
        print(line)
    return wall, cpu, lines[-1] if lines else f"exit {result.returncode}"


def read_report(report: Path) -> tuple[Counter, Counter]:
    """Seconds (setup + call + teardown) and test counts per test file or notebook, from the report."""
    seconds: Counter = Counter()
    counts: Counter = Counter()
    for case in ET.parse(report).iter("testcase"):
        name = case.get("classname", "")
        seconds[name] += float(case.get("time", 0.0))
        counts[name] += 1
    return seconds, counts


def by_folder(per_file: Counter) -> Counter:
    """The same figures summed per top-level folder (tests, solutions, lessons)."""
    folders: Counter = Counter()
    for name, value in per_file.items():
        folders[name.split(".", 1)[0]] += value
    return folders


def startup_seconds() -> float:
    """Median wall time of one pytest process that starts, loads its plugins and collects one file."""
    times = []
    for _ in range(STARTUP_RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pytest", *STARTUP_PROBE], cwd=ROOT, check=True,
                       capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Measure and print; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="a checkout whose make test is the baseline")
    args = parser.parse_args(argv)
    if shutil.which("make") is None:
        sys.exit("bench_test_time needs `make` (it times the `make test` command)")
    if args.against is not None and not (args.against / "Makefile").is_file():
        sys.exit(f"--against {args.against}: not a checkout of the course (no Makefile there)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        if args.against is not None:
            base_wall, _, base_summary = run_make_test(Path(tmp) / "baseline.xml", args.against.resolve())
            print(f"baseline make test      {base_wall:6.1f} s   wall, in {args.against}; {base_summary}")
        report = Path(tmp) / "junit.xml"
        wall, cpu, summary = run_make_test(report)
        per_file, per_file_counts = read_report(report)
    seconds, counts, slowest = by_folder(per_file), by_folder(per_file_counts), per_file.most_common(SLOWEST)
    startup = startup_seconds()
    print(f"make test               {wall:6.1f} s   wall on {WORKERS} workers; {summary}")
    if args.against is not None:
        ratio = wall / base_wall
        print(f"  ratio to the baseline {ratio:6.2f} x   (goal <= {RATIO_GOAL}) "
              f"{'ok' if ratio <= RATIO_GOAL else 'OVER GOAL'}")
    print(f"  CPU, all processes    {cpu:6.1f} s   kernels included; / {WORKERS} cores = "
          f"{cpu / WORKERS:.1f} s, the wall time on an otherwise idle machine at best")
    for folder, label in GROUPS.items():
        print(f"  {label:<21} {seconds[folder]:6.1f} s   {counts[folder]} tests, summed over {WORKERS} workers")
    for folder in sorted(set(seconds) - set(GROUPS)):
        print(f"  {folder + '/':<21} {seconds[folder]:6.1f} s   {counts[folder]} tests")
    print("  slowest: " + ", ".join(f"{name} {secs:.1f} s" for name, secs in slowest))
    busy = sum(seconds.values()) / WORKERS
    print(f"  start-up, scheduling  {max(wall - busy, 0.0):6.1f} s   wall - test time / {WORKERS} workers")
    print(f"pytest start-up         {startup:6.1f} s   one process (median of {STARTUP_RUNS}; "
          f"{WORKERS + 1} start in make test)")
    print(f"load average before     {load:6.2f}     (other work on the machine slows every figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
