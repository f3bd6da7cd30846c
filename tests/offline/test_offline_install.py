"""The course installs from a wheelhouse with the network refused, and a lesson runs.

`make test-offline-install` runs this file; `make test` does not collect tests/offline (pyproject's
norecursedirs). Building the wheelhouse for this machine (`scripts/wheelhouse.py --targets this`)
needs PyPI the first time; it is kept in build/offline-install/wheelhouse, and every later run,
this one's second build included, resolves from the folder alone with the network refused. The
course's files are copied to a fresh folder, installed by the documented command of
docs/offline-install.md into a fresh `.venv` (pip finds no index and every proxy is a closed
port), and lesson 00 runs there: the lesson itself, and its solved twin with its stored outputs
compared exactly.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from no_network import refused

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "offline-install" / "wheelhouse"
DOC = ROOT / "docs" / "offline-install.md"
INSTALL = 'PIP_NO_INDEX=1 PIP_FIND_LINKS="$PWD/wheelhouse" make setup'
"""The documented install on Linux and macOS, run in the copied course (its wheelhouse/ linked)."""
WINDOWS = r'.venv\Scripts\python -m pip install --no-index --find-links wheelhouse -e ".[test]"'
"""The documented install on Windows, where there is no make."""
LESSON = ["lessons/00_welcome.ipynb", "solutions/00_welcome.ipynb"]


def offline() -> dict[str, str]:
    """The network refused; make's PYTHON this interpreter (the wheelhouse is for its version)."""
    return refused(PYTHON=sys.executable)


def run(command: list[str] | str, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; its output, or a failure that shows it."""
    done = subprocess.run(command, cwd=cwd, env=env, shell=isinstance(command, str),
                          capture_output=True, text=True)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{output[-4000:]}"
    return output


@pytest.fixture(scope="module")
def wheels() -> Path:
    """This machine's wheelhouse: built (from PyPI when new), then again with no network."""
    script = [sys.executable, str(ROOT / "scripts" / "wheelhouse.py"), "--targets", "this",
              "--dest", str(CACHE)]
    run(script, ROOT)
    again = run(script, ROOT, offline())
    assert "downloaded 0 files" in again, again
    return CACHE


@pytest.fixture(scope="module")
def course(wheels: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course's files in a fresh folder with its wheelhouse, installed as documented."""
    folder = tmp_path_factory.mktemp("offline") / "course"
    listed = run(["git", "ls-files", "-z"], ROOT).split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    (folder / "wheelhouse").symlink_to(wheels, target_is_directory=True)
    run(INSTALL, folder, offline())
    return folder


def test_the_documented_commands_are_the_tested_ones() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert INSTALL in text and WINDOWS in text
    assert "docs/offline-install.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_course_is_installed_from_the_wheelhouse_alone(course: Path) -> None:
    python = course / ".venv" / "bin" / "python"
    imported = run([str(python), "-c", "import mockllm, solutions; print(mockllm.__file__)"],
                   course, offline())
    assert imported.strip() == str(course / "mockllm" / "__init__.py")
    done = subprocess.run(["make", "--question", "setup"], cwd=course, env=offline())
    assert done.returncode == 0, "make lab would install again (and need the network)"


def test_lesson_00_runs_offline(course: Path) -> None:
    run(["make", "workspace"], course, offline())
    assert (course / "workspace" / "00_welcome.ipynb").is_file()
    python = course / ".venv" / "bin" / "python"
    output = run([str(python), "-m", "pytest", "-q", "-p", "no:xdist", *LESSON], course,
                 offline())
    assert " passed" in output and "failed" not in output, output[-2000:]
