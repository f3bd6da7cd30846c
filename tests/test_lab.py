"""`make lab`: JupyterLab rooted at the repository, opening in workspace/, writing only there.

A real JupyterLab starts with the course's own options (`solutions.course.lab.lab_arguments`) on
127.0.0.1, in a temporary root that holds copies of a lesson, its solved twin and its reference
module, so the repository's files and the learner's workspace/ are never touched.
"""
from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from solutions.course.lab import OPEN_AT, in_workspace, lab_arguments
from tests.servers import jupyterlab

ROOT = Path(__file__).resolve().parents[1]
FILES = ("solutions/parsing.py", "solutions/03_parsing.ipynb", "lessons/03_parsing.ipynb",
         "workspace/03_parsing.ipynb")

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep a redirect as the response, to read where it points."""

    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003 - urllib's signature
        return None


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """(base URL, token, root) of the course's JupyterLab over a copy of a few files; stopped after."""
    home = tmp_path_factory.mktemp("course-lab")
    root = home / "repo"
    for name in FILES:
        source = ROOT / (name if not name.startswith("workspace/") else "lessons/03_parsing.ipynb")
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, root / name)
    with jupyterlab("solutions.course.lab", home, root) as (base, token):  # its root replaces the repository
        yield base, token, root


def call(lab: tuple[str, str, Path], method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """Send one contents-API request; return (status, JSON body)."""
    base, token, _ = lab
    request = urllib.request.Request(f"{base}/api/contents/{path}?token={token}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return response.status, json.loads(text) if text else {}
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "{}")


def test_the_lab_opens_in_the_workspace(lab) -> None:
    base, token, _ = lab
    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(f"{base}/?token={token}", timeout=30)
    assert redirect.value.code == 302
    assert redirect.value.headers["Location"].split("?")[0] == OPEN_AT


def test_a_reference_module_opens_read_only(lab) -> None:
    status, model = call(lab, "GET", "solutions/parsing.py")
    assert status == 200 and model["writable"] is False
    assert "def parse_step" in model["content"]
    status, model = call(lab, "GET", "workspace/03_parsing.ipynb")
    assert status == 200 and model["writable"] is True


@pytest.mark.parametrize("method, path, body", [
    ("PUT", "solutions/parsing.py", {"type": "file", "format": "text", "content": "x = 1\n"}),
    ("PUT", "lessons/03_parsing.ipynb", {"type": "file", "format": "text", "content": "{}"}),
    ("PUT", "new.py", {"type": "file", "format": "text", "content": ""}),
    ("DELETE", "solutions/03_parsing.ipynb", None),
    ("DELETE", "workspace", None),
    ("PATCH", "lessons/03_parsing.ipynb", {"path": "workspace/moved.ipynb"}),
    ("PATCH", "workspace/03_parsing.ipynb", {"path": "lessons/03_parsing.ipynb"}),
    ("POST", "solutions", {"copy_from": "solutions/parsing.py"}),
])
def test_nothing_outside_the_workspace_changes(lab, method: str, path: str, body: dict | None) -> None:
    root = lab[2]
    before = {name: (root / name).read_bytes() for name in FILES}
    status, answer = call(lab, method, path, body)
    assert status == 403, answer
    assert "workspace/" in answer["message"]
    assert {name: (root / name).read_bytes() for name in FILES} == before
    assert not (root / "new.py").exists() and not (root / "workspace" / "moved.ipynb").exists()


def test_the_learner_writes_in_the_workspace_and_copies_the_reference_there(lab) -> None:
    root = lab[2]
    status, _ = call(lab, "PUT", "workspace/scratch.py", {"type": "file", "format": "text", "content": "y = 2\n"})
    assert status == 201 and (root / "workspace" / "scratch.py").read_text() == "y = 2\n"
    status, model = call(lab, "POST", "workspace", {"copy_from": "solutions/parsing.py"})
    assert status == 201 and model["path"].startswith("workspace/")
    assert (root / model["path"]).read_bytes() == (root / "solutions" / "parsing.py").read_bytes()


def test_only_paths_inside_the_workspace_are_writable() -> None:
    assert in_workspace("workspace/03_parsing.ipynb") and in_workspace("/workspace/backups/x.ipynb")
    assert not in_workspace("workspace/../solutions/parsing.py")
    assert not in_workspace("workspaces/x.ipynb") and not in_workspace("") and not in_workspace("lessons")


def test_make_lab_runs_the_course_lab() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "-m solutions.course.lab" in makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert any(option.startswith("--ServerApp.contents_manager_class=") for option in lab_arguments())


def _prerequisites(target: str) -> set[str]:
    """The prerequisites of a Makefile rule, as written."""
    makefile = (ROOT / "Makefile").read_text()
    line = next(line for line in makefile.splitlines() if line.startswith(f"{target}:"))
    return set(line.split(":", 1)[1].replace("|", " ").split())


def test_make_setup_installs_all_that_lab_and_test_need() -> None:
    assert "setup" in _prerequisites("lab")
    installs = {p for p in _prerequisites("test") | _prerequisites("unit") if ".installed" in p}
    assert installs <= _prerequisites("setup"), "make test would install more than make setup did"
