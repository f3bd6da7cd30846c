"""Benchmark `make test`: its wall time and where the time goes.

Run from anywhere:  python benchmarks/bench_test_time.py   (part of `make bench`)
Goal: `make test` under 12 s of wall time on a 2-core machine for today's lessons.

It runs `make test` once, with pytest writing a JUnit report (PYTEST_ADDOPTS), and splits the
time the tests took (setup + call + teardown, summed over both workers) into unit tests, solved
notebooks and lesson notebooks. The rest of the wall time is start-up and scheduling: the main
pytest process and its two workers each start, load their plugins and collect. The start-up of one
pytest process is measured on its own, as the median of a few runs that collect a single small file.
"""
from __future__ import annotations

import os
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
GOAL_S = 12.0
WORKERS = 2
GROUPS = {"tests": "unit tests (tests/)", "solutions": "solved notebooks", "lessons": "lesson notebooks"}
STARTUP_RUNS = 3
STARTUP_PROBE = ["-p", "no:xdist", "--collect-only", "-q", "tests/test_packaging.py"]


def run_make_test(report: Path) -> tuple[float, str]:
    """Run `make test` with a JUnit report; return its wall time in seconds and pytest's summary."""
    env = dict(os.environ, PYTEST_ADDOPTS=f"{os.environ.get('PYTEST_ADDOPTS', '')} --junitxml={report}")
    start = time.perf_counter()
    result = subprocess.run(["make", "--no-print-directory", "test"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    wall = time.perf_counter() - start
    lines = [line.strip("= ") for line in result.stdout.splitlines() if line.startswith("=")]
    if result.returncode != 0 and not report.exists():
        print((result.stdout + result.stderr)[-3000:])
        sys.exit(f"make test failed (exit {result.returncode}) before running the tests")
    return wall, lines[-1] if lines else f"exit {result.returncode}"


def split_by_folder(report: Path) -> tuple[Counter, Counter]:
    """Seconds and test counts per top-level folder, from the JUnit report."""
    seconds: Counter = Counter()
    counts: Counter = Counter()
    for case in ET.parse(report).iter("testcase"):
        folder = case.get("classname", "").split(".", 1)[0]
        seconds[folder] += float(case.get("time", 0.0))
        counts[folder] += 1
    return seconds, counts


def startup_seconds() -> float:
    """Median wall time of one pytest process that starts, loads its plugins and collects one file."""
    times = []
    for _ in range(STARTUP_RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pytest", *STARTUP_PROBE], cwd=ROOT, check=True,
                       capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    """Measure and print; return the exit status."""
    if shutil.which("make") is None:
        sys.exit("bench_test_time needs `make` (it times the `make test` command)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        wall, summary = run_make_test(report)
        seconds, counts = split_by_folder(report)
    startup = startup_seconds()
    verdict = "ok" if wall < GOAL_S else "over"
    print(f"make test               {wall:6.1f} s   wall (goal < {GOAL_S:.0f} s on 2 cores) {verdict}; {summary}")
    for folder, label in GROUPS.items():
        print(f"  {label:<21} {seconds[folder]:6.1f} s   {counts[folder]} tests, summed over {WORKERS} workers")
    for folder in sorted(set(seconds) - set(GROUPS)):
        print(f"  {folder + '/':<21} {seconds[folder]:6.1f} s   {counts[folder]} tests")
    busy = sum(seconds.values()) / WORKERS
    print(f"  start-up, scheduling  {max(wall - busy, 0.0):6.1f} s   wall - test time / {WORKERS} workers")
    print(f"pytest start-up         {startup:6.1f} s   one process (median of {STARTUP_RUNS}; "
          f"{WORKERS + 1} start in make test)")
    print(f"load average before     {load:6.2f}     (other work on the machine slows every figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
