"""The GitHub Actions workflow runs README's test commands on push and pull request, for a fork."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "test.yml"
NEWEST_PYTHON = "3.13"  # the newest Python the course supports, with the oldest: pyproject's minimum


def _section(title: str) -> str:
    """The text of README's section `## title`, up to the next section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start: end if end != -1 else len(text)]


def _make_commands(text: str) -> list[str]:
    """The `make <target>` commands named in `text`, in order, each once."""
    found = re.findall(r"`(make [a-z][a-z-]*)`", text)
    return list(dict.fromkeys(found))


@pytest.fixture(scope="module")
def workflow() -> dict:
    """The workflow, read by a YAML parser (the file must be valid YAML)."""
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _runs(job: dict) -> list[str]:
    """The shell lines a job's steps run."""
    return [line.strip() for step in job["steps"] for line in step.get("run", "").splitlines()]


def _setups(job: dict) -> list[dict]:
    """The `with` of each actions/setup-python step of a job."""
    return [step.get("with", {}) for step in job["steps"]
            if step.get("uses", "").startswith("actions/setup-python@")]


def _ci_commands() -> list[str]:
    """The `make` lines of .ci/run, the repository's own CI script, in order."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip().startswith("make ")]


def test_readme_and_the_ci_script_name_the_same_commands() -> None:
    readme = _make_commands(_section("How we test"))
    assert readme[0] == _ci_commands()[0]  # README's test command is the script's first
    assert {"make test-long", "make test-ui"} <= set(readme) & set(_ci_commands())


def test_it_runs_on_push_and_pull_request(workflow: dict) -> None:
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    assert workflow["permissions"] == {"contents": "read"}
    assert "secrets." not in WORKFLOW.read_text(encoding="utf-8")


def test_readmes_test_command_runs_on_linux_with_the_oldest_and_newest_python(workflow: dict) -> None:
    command = _make_commands(_section("How we test"))[0]
    jobs = [job for job in workflow["jobs"].values() if command in _runs(job)]
    assert len(jobs) == 1, f"one job runs {command!r}"
    job = jobs[0]
    assert job["runs-on"].startswith("ubuntu")
    versions = job["strategy"]["matrix"]["python-version"]
    oldest = re.fullmatch(r">=(\d+\.\d+)", tomllib.loads(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]).group(1)
    assert versions == [oldest, NEWEST_PYTHON]  # strings: a bare 3.10 would be read as 3.1
    assert [setup["python-version"] for setup in _setups(job)] == ["${{ matrix.python-version }}"]


def test_the_rest_of_the_ci_script_runs_on_one_of_those_pythons(workflow: dict) -> None:
    rest = _ci_commands()[1:]  # the long gates, the frameworks, the browser test
    jobs = [job for job in workflow["jobs"].values() if rest[0] in _runs(job)]
    assert len(jobs) == 1, f"one job runs {rest[0]!r}"
    runs = _runs(jobs[0])
    assert [line for line in runs if line.startswith("make ")] == rest
    install = "sudo apt-get install -y chromium"
    assert install in runs and runs.index(install) < runs.index("make test-ui")
    assert "matrix" not in jobs[0].get("strategy", {})
    (setup,) = _setups(jobs[0])
    matrix = next(job for job in workflow["jobs"].values() if "strategy" in job)
    assert setup["python-version"] in matrix["strategy"]["matrix"]["python-version"]


def test_pip_is_cached_and_every_make_target_exists(workflow: dict) -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, flags=re.MULTILINE))
    for name, job in workflow["jobs"].items():
        setups = _setups(job)
        assert setups and all(setup.get("cache") == "pip" for setup in setups), name
        for line in _runs(job):
            if line.startswith("make "):
                assert line.split()[1] in targets, f"{name}: {line!r} is not a Makefile target"
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), step["uses"]
