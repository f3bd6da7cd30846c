"""The notebook pipeline: injection into solved notebooks, stubbed lessons, --check, execution."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import build_lessons  # noqa: E402
import execute_notebooks  # noqa: E402
import notebook_tools  # noqa: E402

MODULE = '''\
"""A demo module for the pipeline tests."""
import functools
import math

LIMIT = 10


@functools.lru_cache(maxsize=None)
def area(
    radius: float,
    *,
    digits: int = 2,
) -> float:
    """Return the area of a circle.

    Rounded to `digits`.
    """
    value = math.pi * radius ** 2
    return round(value, digits)


def helper(x):  # no docstring
    return x + LIMIT


class Counter:
    """Counts."""

    def __init__(self) -> None:
        """Start at zero."""
        self.n = 0

    def bump(self, by: int = 1) -> int:
        """Add `by`."""
        self.n += by
        return self.n
'''

REGIONS = '''\
def total(xs):
    """Sum xs."""
    # BEGIN SOLUTION
    return sum(xs)
    # END SOLUTION

# BEGIN SOLUTION: compute the answer
answer = total([1, 2])
# END SOLUTION
# BEGIN SOLUTION
guess = 3
# stub: guess = ...
# END SOLUTION
print(guess)'''


def _solved_notebook() -> nbformat.NotebookNode:
    """A small solved notebook using every kind of marked cell."""
    exercise = new_code_cell("old", metadata={"exercise": {
        "inject": ["pkgdemo.mod:area", "pkgdemo.mod:helper"], "hint": "use math.pi"}})
    exercise.execution_count = 3
    exercise.outputs = [new_output("stream", name="stdout", text="kept\n")]
    cells = [
        new_markdown_cell("# Lesson 01 — Demo"),
        new_code_cell("stale", metadata={"inject": ["pkgdemo.mod:LIMIT"]}),
        exercise,
        new_code_cell("", metadata={"exercise": {"inject": ["pkgdemo.mod:Counter"],
                                                 "hint": "add by", "stub": ["Counter.bump"]}}),
        new_code_cell(REGIONS),
    ]
    nb = new_notebook(cells=cells, metadata={"widgets": {"state": {}}})
    for index, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{index}"
    return nb


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A throwaway repository with one module and one solved notebook."""
    (tmp_path / "pkgdemo").mkdir()
    (tmp_path / "pkgdemo" / "__init__.py").write_text("")
    (tmp_path / "pkgdemo" / "mod.py").write_text(MODULE)
    (tmp_path / "solutions").mkdir()
    nbformat.write(_solved_notebook(), str(tmp_path / "solutions" / "01_demo.ipynb"))
    build_lessons.build(tmp_path, tmp_path / "lessons", write=True)
    return tmp_path


def _cells(path: Path) -> list:
    """The cells of a notebook on disk."""
    return nbformat.read(str(path), as_version=4).cells


def _load_cell(source: str, folder: Path, name: str) -> object:
    """Import a cell's source as a module (with the imports the demo module has)."""
    path = folder / f"{name}.py"
    path.write_text("import functools\nimport math\nLIMIT = 10\n" + source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_check(root: Path) -> subprocess.CompletedProcess:
    """Run `build_lessons.py --check` on `root`, in this process (a new one would spend its
    start-up importing nbformat: a second per call)."""
    args = ["--check", "--root", str(root)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = build_lessons.main(args)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_injection_refreshes_the_solved_notebook(repo: Path) -> None:
    cells = _cells(repo / "solutions" / "01_demo.ipynb")
    assert cells[1].source == "# Reference: pkgdemo/mod.py\nLIMIT = 10"
    assert cells[2].source.startswith("# Reference: pkgdemo/mod.py\n@functools.lru_cache")
    assert "return round(value, digits)\n\n\ndef helper(x):  # no docstring" in cells[2].source
    assert cells[2].outputs[0]["text"] == "kept\n" and cells[2].execution_count == 3


def test_stubs_keep_signature_and_docstring(repo: Path) -> None:
    solved, lesson = _cells(repo / "solutions" / "01_demo.ipynb"), _cells(repo / "lessons" / "01_demo.ipynb")
    assert "math.pi * radius" not in lesson[2].source and lesson[2].source.startswith("# Reference:")
    ours = _load_cell(lesson[2].source, repo, "lesson_cell")
    theirs = _load_cell(solved[2].source, repo, "solved_cell")
    assert theirs.area(1.0) == 3.14
    for fn in ("area", "helper"):
        assert inspect.signature(getattr(ours, fn)) == inspect.signature(getattr(theirs, fn))
        assert getattr(ours, fn).__doc__ == getattr(theirs, fn).__doc__
    with pytest.raises(NotImplementedError, match="Exercise: use math.pi"):
        ours.area(1.0)
    with pytest.raises(NotImplementedError, match="Exercise: use math.pi"):
        ours.helper(1)


def test_class_kept_whole_except_listed_methods(repo: Path) -> None:
    module = _load_cell(_cells(repo / "lessons" / "01_demo.ipynb")[3].source, repo, "counter_cell")
    counter = module.Counter()
    assert counter.n == 0 and counter.bump.__doc__ == "Add `by`."
    with pytest.raises(NotImplementedError, match="Exercise: add by"):
        counter.bump()


def test_solution_regions_become_stubs(repo: Path) -> None:
    cell = _cells(repo / "lessons" / "01_demo.ipynb")[4]
    assert "sum(xs)" not in cell.source and "answer = total" not in cell.source
    assert cell.source.count("# YOUR CODE HERE") == 3
    assert '    raise NotImplementedError("Exercise: write the missing part' in cell.source
    assert 'raise NotImplementedError("Exercise: compute the answer")' in cell.source
    assert "\nguess = ...\nprint(guess)" in cell.source
    assert "raises-exception" in cell.metadata["tags"]


def test_outputs_stripped_and_metadata_clean(repo: Path) -> None:
    nb = nbformat.read(str(repo / "lessons" / "01_demo.ipynb"), as_version=4)
    assert all(c.outputs == [] and c.execution_count is None for c in nb.cells if c.cell_type == "code")
    assert "widgets" not in nb.metadata
    assert nb.metadata["kernelspec"] == {"name": "python3", "display_name": "Python 3",
                                         "language": "python"}
    assert [c.id for c in nb.cells] == [f"cell-{i}" for i in range(5)]


def test_build_is_idempotent(repo: Path) -> None:
    files = [repo / "solutions" / "01_demo.ipynb", repo / "lessons" / "01_demo.ipynb"]
    before = [f.read_bytes() for f in files]
    assert build_lessons.build(repo, repo / "lessons", write=True) == []
    assert [f.read_bytes() for f in files] == before
    assert before[1].endswith(b"}\n")


def test_executing_the_solutions_keeps_lessons_in_sync(repo: Path) -> None:
    path = repo / "solutions" / "01_demo.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.metadata["language_info"] = {"name": "python", "version": "3.99.0"}
    nb.cells[1].outputs = [new_output("execute_result", data={"text/plain": "10"}, execution_count=1)]
    nb.cells[1].execution_count = 1
    nbformat.write(nb, str(path))
    assert build_lessons.build(repo, repo / "lessons", write=False) == []


def test_check_mode_names_make_lessons_when_stale(repo: Path) -> None:
    assert _run_check(repo).returncode == 0
    lesson = repo / "lessons" / "01_demo.ipynb"
    lesson.write_text(lesson.read_text().replace("YOUR CODE HERE", "edited by hand"))
    result = _run_check(repo)
    assert result.returncode == 1
    assert "make lessons" in result.stderr and "lessons/01_demo.ipynb" in result.stderr
    assert "edited by hand" in lesson.read_text()  # --check changes nothing


def test_check_mode_notices_a_changed_module(repo: Path) -> None:
    module = repo / "pkgdemo" / "mod.py"
    module.write_text(module.read_text().replace("LIMIT = 10", "LIMIT = 11"))
    result = _run_check(repo)
    assert result.returncode == 1
    assert "solutions/01_demo.ipynb" in result.stderr and "make lessons" in result.stderr


def test_cell_ids_are_stable_when_missing(tmp_path: Path) -> None:
    nb = new_notebook(cells=[new_markdown_cell("a"), new_code_cell("1")])
    for cell in nb.cells:
        del cell["id"]
    notebook_tools.ensure_cell_ids(nb, "02_x.ipynb")
    assert [c.id for c in nb.cells] == [notebook_tools.stable_cell_id("02_x.ipynb", i) for i in (0, 1)]


def test_stub_of_a_one_line_def() -> None:
    source = textwrap.dedent('''\
        def f(x): return x
        def g(x): """Doc."""; return x''')
    stubbed = notebook_tools.stub_definitions(source, ["f", "g"], '"E"')
    assert stubbed == ('def f(x):\n    raise NotImplementedError("E")\n'
                       'def g(x):\n    """Doc."""\n    raise NotImplementedError("E")')
    compile(stubbed, "<stub>", "exec")


def test_real_repository_lessons_are_in_sync() -> None:
    result = _run_check(ROOT)
    assert result.returncode == 0, f"lessons/ is stale, run `make lessons`:\n{result.stderr}"


@pytest.mark.allow_hosts(["127.0.0.1"])  # on Windows the kernel's ports are reached on loopback
def test_execute_stores_outputs_with_this_interpreter(tmp_path: Path, capfd: pytest.CaptureFixture) -> None:
    nb = new_notebook(cells=[new_code_cell("import sys\nprint(sys.prefix)"), new_code_cell("6 * 7")])
    path = tmp_path / "01_run.ipynb"
    nbformat.write(nb, str(path))
    execute_notebooks.execute(path)
    assert "without encryption" not in capfd.readouterr().err  # local sockets: the kernel does not warn
    cells = _cells(path)
    assert cells[0].outputs[0]["text"].strip() == sys.prefix
    assert [c.execution_count for c in cells] == [1, 2]
    assert cells[1].outputs[0]["data"]["text/plain"] == "42"
    assert "execution" not in cells[1].metadata


def test_stored_outputs_keep_a_widget_as_text_without_its_view() -> None:
    view = {"model_id": "a1b2", "version_major": 2, "version_minor": 0}
    widget = new_output("execute_result", data={notebook_tools.WIDGET_VIEW: view, "text/plain": "Button()"},
                        execution_count=1)
    only_view = new_output("display_data", data={notebook_tools.WIDGET_VIEW: view})
    nb = new_notebook(cells=[new_code_cell("b", outputs=[widget, only_view])])
    nb.metadata["widgets"] = {"state": {}}
    notebook_tools.normalise_metadata(nb)
    first, second = nb.cells[0].outputs
    assert first["data"] == {"text/plain": "Button()"}
    assert notebook_tools.WIDGET_VIEW in second["data"]  # nothing else to show: kept
    assert "widgets" not in nb.metadata


def test_a_progress_bar_is_stored_as_it_ended_and_compared_as_a_bar() -> None:
    displayed, ended = "sweep:   0%|          | 0/1026", "sweep: 100%|██████████| 1026/1026"
    assert notebook_tools.completed_meter(displayed) == ended
    assert notebook_tools.completed_meter("sweep: a line of text") == "sweep: a line of text"
    shown = {notebook_tools.PROGRESS_METER.sub(notebook_tools.PROGRESS_SHOWN, text) for text in (displayed, ended)}
    assert shown == {"sweep: [progress bar]"}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("bar", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/plain": displayed, notebook_tools.WIDGET_VIEW: {"model_id": "x"}})])])
    notebook_tools.normalise_metadata(nb)
    assert nb.cells[0].outputs[0].data == {"text/plain": ended}


def test_a_path_of_the_reference_in_the_prose_becomes_a_link(tmp_path) -> None:
    (tmp_path / "solutions" / "guards").mkdir(parents=True)
    (tmp_path / "solutions" / "chat.py").write_text("")
    text = ("The reference is `solutions/chat.py` and `solutions/guards/`; `solutions/gone.py` is not.\n"
            "```\n`solutions/chat.py`\n```\n")
    linked = build_lessons.link_paths(text, tmp_path)
    assert linked == ("The reference is [`solutions/chat.py`](../solutions/chat.py) and "
                      "[`solutions/guards/`](../solutions/guards/); `solutions/gone.py` is not.\n"
                      "```\n`solutions/chat.py`\n```\n")
    assert build_lessons.link_paths(linked, tmp_path) == linked
