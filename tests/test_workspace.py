"""The learner's workspace: copies made once, never overwritten, reset with a numbered backup."""
from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import build_lessons  # noqa: E402
import notebook_tools  # noqa: E402
import workspace  # noqa: E402

EDITED = b'{"cells": [], "note": "the learner\'s own solution"}\n'


@pytest.fixture
def lessons(tmp_path: Path) -> Path:
    """A lessons folder with two notebooks (and a file that is not a lesson)."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "00_welcome.ipynb").write_bytes(b'{"lesson": 0}\n')
    (folder / "03_parsing.ipynb").write_bytes(b'{"lesson": 3}\n')
    (folder / "notes.ipynb").write_bytes(b"{}\n")
    return folder


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_sync_copies_each_lesson_once_and_never_overwrites(lessons: Path, tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    assert [p.name for p in workspace.sync(lessons, ws)] == ["00_welcome.ipynb", "03_parsing.ipynb"]
    assert (ws / "03_parsing.ipynb").read_bytes() == b'{"lesson": 3}\n'
    assert not (ws / "notes.ipynb").exists()
    (ws / "03_parsing.ipynb").write_bytes(EDITED)
    (lessons / "03_parsing.ipynb").write_bytes(b'{"lesson": 3, "regenerated": true}\n')
    assert workspace.sync(lessons, ws) == []
    assert (ws / "03_parsing.ipynb").read_bytes() == EDITED


def test_a_lesson_that_appears_later_is_added(lessons: Path, tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    workspace.sync(lessons, ws)
    (ws / "00_welcome.ipynb").write_bytes(EDITED)
    (lessons / "04_loop.ipynb").write_bytes(b'{"lesson": 4}\n')
    assert workspace.sync(lessons, ws) == [ws / "04_loop.ipynb"]
    assert (ws / "04_loop.ipynb").read_bytes() == b'{"lesson": 4}\n'
    assert (ws / "00_welcome.ipynb").read_bytes() == EDITED


def test_reset_keeps_numbered_backups_of_the_old_bytes(lessons: Path, tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    workspace.sync(lessons, ws)
    (ws / "00_welcome.ipynb").write_bytes(EDITED)
    (ws / "03_parsing.ipynb").write_bytes(b"first try")
    target, backup = workspace.reset(lessons, ws, "03")
    assert target == ws / "03_parsing.ipynb" and target.read_bytes() == b'{"lesson": 3}\n'
    assert backup == ws / "backups" / "03_parsing.1.ipynb" and backup.read_bytes() == b"first try"
    target.write_bytes(b"second try")
    assert workspace.reset(lessons, ws, "3")[1] == ws / "backups" / "03_parsing.2.ipynb"
    assert (ws / "backups" / "03_parsing.2.ipynb").read_bytes() == b"second try"
    assert (ws / "backups" / "03_parsing.1.ipynb").read_bytes() == b"first try"
    assert (ws / "00_welcome.ipynb").read_bytes() == EDITED  # the other lesson is untouched


def test_reset_numbers_after_the_highest_backup(lessons: Path, tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    (ws / "backups").mkdir(parents=True)
    (ws / "backups" / "03_parsing.7.ipynb").write_bytes(b"old")
    (ws / "03_parsing.ipynb").write_bytes(b"mine")
    assert workspace.reset(lessons, ws, "03_parsing")[1].name == "03_parsing.8.ipynb"
    assert (ws / "backups" / "03_parsing.7.ipynb").read_bytes() == b"old"


def test_reset_of_an_unedited_or_missing_copy_makes_no_backup(lessons: Path, tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    assert workspace.reset(lessons, ws, "03_parsing.ipynb") == (ws / "03_parsing.ipynb", None)
    assert workspace.reset(lessons, ws, "03") == (ws / "03_parsing.ipynb", None)
    assert not (ws / "backups").exists()


@pytest.mark.parametrize("lesson", ["", "17", "parsing", "03_nope", "lessons/03_parsing.ipynb"])
def test_reset_of_a_bad_lesson_lists_the_lessons(lessons: Path, tmp_path: Path, lesson: str) -> None:
    with pytest.raises(ValueError, match=r"make reset LESSON=03.*Lessons: 00 \(00_welcome\), "
                                         r"03 \(03_parsing\)$"):
        workspace.reset(lessons, tmp_path / "workspace", lesson)
    assert not (tmp_path / "workspace" / "backups").exists()


def test_the_commands_report_what_they_did(lessons: Path, tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    args = ["--lessons", str(lessons), "--workspace", str(ws)]
    workspace.sync(lessons, ws)
    (ws / "03_parsing.ipynb").write_bytes(EDITED)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert workspace.main(["reset", "03", *args]) == 0
    assert f"{ws / 'backups' / '03_parsing.1.ipynb'}" in out.getvalue()
    script = [sys.executable, str(ROOT / "scripts" / "workspace.py")]
    result = subprocess.run([*script, "reset", "", *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "00 (00_welcome), 03 (03_parsing)" in result.stderr
    result = subprocess.run([*script, "sync", *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "never overwritten" in result.stdout


def _demo_repository(root: Path) -> None:
    """A repository with one solved notebook and a learner's edited copy in workspace/."""
    (root / "solutions").mkdir()
    nb = new_notebook(cells=[new_markdown_cell("# Lesson 01"), new_code_cell("x = 1")])
    nbformat.write(nb, str(root / "solutions" / "01_demo.ipynb"))
    (root / "workspace").mkdir()
    (root / "workspace" / "01_demo.ipynb").write_bytes(EDITED)
    (root / "workspace" / "02_gone.ipynb").write_bytes(EDITED)


def test_building_the_lessons_never_touches_the_workspace(tmp_path: Path) -> None:
    _demo_repository(tmp_path)
    before = _snapshot(tmp_path / "workspace")
    with contextlib.redirect_stdout(io.StringIO()):
        assert build_lessons.main(["--root", str(tmp_path)]) == 0
    assert (tmp_path / "lessons" / "01_demo.ipynb").exists()
    assert _snapshot(tmp_path / "workspace") == before


def test_re_executing_the_notebooks_runs_only_the_solved_ones() -> None:
    paths = notebook_tools.solved_notebooks()
    assert paths and all(p.parent == ROOT / "solutions" for p in paths)


def test_the_test_suite_never_collects_the_workspace(request: pytest.FixtureRequest,
                                                     tmp_path: Path) -> None:
    config = request.config
    assert all("workspace" not in Path(p).parts for p in config.getini("testpaths"))
    for name, ignored in (("workspace", True), ("lessons", None)):
        (tmp_path / name).mkdir()
        assert config.hook.pytest_ignore_collect(collection_path=tmp_path / name, config=config) is ignored


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_only_lab_workspace_and_reset_use_the_workspace() -> None:
    def dry_run(*targets: str) -> str:
        return subprocess.run(["make", "-n", *targets], cwd=ROOT, capture_output=True, text=True,
                              timeout=60, check=True).stdout

    assert "workspace" not in dry_run("lessons", "notebooks", "test", "unit", "lint")
    lab = dry_run("lab").splitlines()
    sync = next(i for i, line in enumerate(lab) if "scripts/workspace.py sync" in line)
    assert any("-m solutions.course.lab" in line for line in lab[sync + 1:])  # opens in workspace/
    assert "scripts/workspace.py reset \"03\"" in dry_run("reset", "LESSON=03")


def _relative_paths(source: str) -> list[str]:
    """String constants of a code cell that look like relative file paths.

    A name given to `importlib.resources.files(...).joinpath(...)` is a file of an installed
    package, found wherever the notebook runs: not a relative path. Nor is a name joined onto a
    folder the code computes (`Path(folder.name) / "outbox.db"`, a temporary folder).
    """
    found = []
    tree = ast.parse(source)
    resources = {id(arg) for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and node.func.attr == "joinpath" for arg in node.args}
    resources |= {id(node.right) for node in ast.walk(tree)
                  if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                  and not isinstance(node.left, ast.Constant)
                  and not (isinstance(node.left, ast.Call) and all(isinstance(a, ast.Constant) for a in node.left.args))}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in resources:
            text = node.value
            if re.search(r"(^\.{1,2}/)|\.(ipynb|json|ya?ml|csv|txt|db|py)$", text):
                found.append(text)
    return found


def test_relative_paths_are_found_and_anchored_ones_are_not() -> None:
    assert _relative_paths('open("data.json"); Path("memory") / "store.db"; Path() / "a.csv"') == [
        "data.json", "store.db", "a.csv"]
    assert _relative_paths('Path(folder.name) / "outbox.db"; base / "x.txt"; '
                           'resources.files("pkg").joinpath("set.json")') == []


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file (lower case, punctuation dropped,
    spaces as hyphens)."""
    if path.suffix != ".md":
        return set()
    headings = re.findall(r"^#+\s+(.+?)\s*$", path.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("path", sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")),
                         ids=lambda p: p.name)
def test_a_lesson_runs_from_the_workspace_as_from_lessons(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            assert _relative_paths(source) == [], f"{path.name}: a relative path breaks in workspace/"
        for target in re.findall(r"\]\(([^)\s]+)\)", source):
            if target.startswith("../"):  # the reference, its cases and tests, read from the repository
                file, _, anchor = target.removeprefix("../").partition("#")
                assert (ROOT / file).exists(), f"{path.name}: {target!r} is missing"
                assert not anchor or anchor in _anchors(ROOT / file), (
                    f"{path.name}: {target!r}: {file} has no heading whose anchor is #{anchor}")
                continue
            assert re.fullmatch(r"https?://\S+|#\S*|\d\d_[a-z0-9_]+\.ipynb", target), (
                f"{path.name}: link {target!r} does not resolve from workspace/")


def test_the_packages_import_from_any_folder(tmp_path: Path) -> None:
    code = "import mockllm, solutions.course.check, solutions.agent; print(mockllm.__file__)"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60, check=True)
    assert Path(result.stdout.strip()).is_relative_to(ROOT)
