"""`make progress`: each exercise of the learner's notebooks, read from its check run headless,
with every notebook left byte for byte as it was."""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from solutions.course.check import CaseResult, refusal_report, report
from solutions.course.exercises import exercises

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import catch_up  # noqa: E402
import progress  # noqa: E402
import workspace  # noqa: E402

LESSONS, SOLUTIONS = ROOT / "lessons", ROOT / "solutions"
WRONG_PROMPT = '''def build_system_prompt(tools, parts=DEFAULT_PARTS):
    """A first try: the tool lines alone."""
    return "\\n".join(f"- {tool.name}: {tool.description}" for tool in tools)
'''


def _lesson(number: str) -> Path:
    return workspace.find_lesson(LESSONS, number)


def _save(nb: dict, path: Path) -> None:
    """Write a notebook as JupyterLab does (an outdated output left in, to show it is not read)."""
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": ["stale\n"]}]
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _exercise_cell(nb: dict, name: str) -> dict:
    """The exercise cell that defines `name`."""
    return next(cell for cell in nb["cells"] if any(
        entry.endswith(f":{name}") for entry in cell["metadata"].get("exercise", {}).get("inject", [])))


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def learner(tmp_path: Path) -> Path:
    """A workspace: lesson 00 untouched; lesson 01 caught up, then its calculator rewritten by the
    learner (still right); lesson 02 with a wrong build_system_prompt; lesson 04 saved broken."""
    ws = tmp_path / "workspace"
    ws.mkdir()
    shutil.copyfile(_lesson("00"), ws / _lesson("00").name)
    tools = json.loads(catch_up.solved_lesson(_lesson("01"), SOLUTIONS / _lesson("01").name))
    cell = _exercise_cell(tools, "calculator")
    cell["source"] = "".join(cell["source"]).replace('"""\n', '"""\n    # my own version\n', 1)
    _save(tools, ws / _lesson("01").name)
    prompt = json.loads(_lesson("02").read_text(encoding="utf-8"))
    _exercise_cell(prompt, "build_system_prompt")["source"] = WRONG_PROMPT
    _save(prompt, ws / _lesson("02").name)
    (ws / _lesson("04").name).write_text('{"cells": [', encoding="utf-8")  # a save cut short
    (ws / "backups").mkdir()
    shutil.copyfile(_lesson("03"), ws / "backups" / f"{_lesson('03').stem}.1.ipynb")
    for number, path in enumerate(sorted(ws.rglob("*.ipynb"))):
        os.utime(path, ns=(1_600_000_000_000_000_000 + number,) * 2)
    return ws


@pytest.mark.allow_hosts(["127.0.0.1"])
def test_progress_reads_each_exercise_and_changes_no_file(learner: Path) -> None:
    before = _snapshot(learner)
    results = progress.progress(learner, SOLUTIONS)
    assert _snapshot(learner) == before  # bytes and modification times: nothing written, nothing added
    assert [nb.notebook[:2] for nb in results] == ["00", "01", "02", "04"]  # backups/ aside
    rows = {ex.name: (ex.status, ex.detail) for nb in results for ex in nb.exercises}
    assert rows["ask"] == ("not yet", "still the stub")
    assert rows["_evaluate"][0] == "catch-up" and rows["_evaluate"][1].startswith("the reference code")
    cases = len(exercises()["calculator"].cases)
    assert rows["calculator"] == ("solved", f"{cases}/{cases} cases pass")
    status, detail = rows["build_system_prompt"]
    total = len(exercises()["build_system_prompt"].cases)
    assert status == "reference" and detail.endswith(f"/{total} cases pass")
    assert rows["run_agent"] == ("not run", "the notebook could not be read")
    assert [nb.run for nb in results] == ["ran", "ran", "ran", "error"]
    assert "not a readable notebook" in results[3].detail
    text = progress.table(results)
    assert text.splitlines()[-1] == "1 solved, 1 catch-up, 1 reference, 1 not yet, 1 not run"
    assert text.index("_evaluate") < text.index("build_system_prompt") < text.index("(notebook)")


@pytest.mark.allow_hosts(["127.0.0.1"])
def test_a_notebook_past_its_time_limit_is_reported_with_the_checks_before(tmp_path: Path) -> None:
    lesson = json.loads(_lesson("00").read_text(encoding="utf-8"))
    code = ["".join(cell["source"]) for cell in lesson["cells"] if cell["cell_type"] == "code"]
    imports = code[0]
    assert "import check" in imports
    stub = "".join(_exercise_cell(lesson, "ask")["source"])
    cells = [imports, stub, "ask = check(ask)", "import time\ntime.sleep(600)", "ask = check(ask)"]
    path = tmp_path / _lesson("00").name
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells[:3]])
    nbformat.write(nb, str(path))
    started = time.monotonic()  # the cells before the limit, timed on this machine as it is now
    assert progress.notebook_progress(path, SOLUTIONS, ["ask"], timeout=600).run == "ran"
    limit = round(max(5.0, 3 * (time.monotonic() - started)))  # a busy machine gets a longer limit
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    nbformat.write(nb, str(path))
    before = _snapshot(tmp_path)
    result = progress.notebook_progress(path, SOLUTIONS, ["ask"], timeout=limit)
    assert result.run == "timeout" and f"stopped after {limit:g} s" in result.detail
    assert result.exercises[0].status == "not yet"  # the check before the limit counts
    assert _snapshot(tmp_path) == before


def test_the_verdicts_are_read_from_what_check_prints() -> None:
    exercise = exercises()["calculator"]
    case = exercise.cases[0]
    def results(*statuses: str) -> list[CaseResult]:
        return [CaseResult(number, case, status) for number, status in enumerate(statuses, 1)]
    first = lambda text: text.splitlines()[0]  # noqa: E731
    assert progress.verdict(first(report(exercise, results("pass", "pass"))), "calculator") == (
        "solved", "2/2 cases pass")
    assert progress.verdict(first(report(exercise, results("todo", "todo"))), "calculator") == (
        "not yet", "still the stub")
    assert progress.verdict(first(report(exercise, results("pass", "fail", "skipped"))),
                            "calculator") == ("reference", "1/3 cases pass")
    refused = first(refusal_report(exercise, ["calls eval"]))
    assert progress.verdict(refused, "calculator") == ("reference", "refused without running the cases")
    assert progress.verdict(refused, "_evaluate") is None
    assert progress.verdict("✓ calculator: 2/2 cases pass", "calc") is None


def test_a_check_of_the_reference_itself_never_hides_the_verdict_before() -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
            "stream", name="stdout", text="✗ ask: 3/20 cases pass\nusing the reference x instead\n")]),
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
            "stream", name="stdout", text="ask: this is still the reference x: run your own cell\n")])])
    assert progress.verdicts(nb, ["ask"]) == {"ask": ("reference", "3/20 cases pass")}
    assert progress.verdicts(nb, ["ask", "other"])["ask"][0] == "reference"


def test_only_the_cells_up_to_the_last_check_run() -> None:
    cells = ["x = 1", "f = check(f)", "self.check(x)", "_check(y)", "print('later')"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    assert [cell.source for cell in progress.until_last_check(nb).cells] == cells[:2]
    assert len(nb.cells) == len(cells)


def test_the_json_file_is_written_outside_the_workspace_only(tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    ws.mkdir()
    (ws / _lesson("04").name).write_text("not a notebook", encoding="utf-8")
    target = tmp_path / "build" / "progress.json"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert progress.main(["--workspace", str(ws), "--json", str(target)]) == 0
    written = json.loads(target.read_text(encoding="utf-8"))
    assert written["counts"]["not run"] == len([e for e in exercises().values() if e.lesson == "04"])
    assert written["notebooks"][0]["notebook"] == _lesson("04").name
    assert written["notebooks"][0]["run"] == "error"
    said = io.StringIO()
    with contextlib.redirect_stderr(said), pytest.raises(SystemExit) as exit:
        progress.main(["--workspace", str(ws), "--json", str(ws / "p.json")])
    assert exit.value.code == 2 and "outside the workspace" in said.getvalue()
    assert not (ws / "p.json").exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_progress_passes_the_json_path() -> None:
    out = subprocess.run(["make", "-n", "progress", "JSON=build/progress.json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert 'scripts/progress.py --json "build/progress.json"' in out
