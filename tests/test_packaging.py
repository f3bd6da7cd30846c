"""The set-up: one place for pins, environment.yml in step, the commands the README promises."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11+; these checks run on 3.11 in CI")

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _pins(requirements: list[str]) -> dict[str, str]:
    pins = {}
    for req in requirements:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([A-Za-z0-9_.]+)", req.strip())
        assert match, f"{req!r} is not pinned with ==: pin every course dependency"
        pins[match.group(1).lower()] = match.group(2)
    return pins


def test_distribution_is_not_called_mockllm() -> None:
    assert _pyproject()["project"]["name"] != "mockllm"


def test_environment_yml_matches_pyproject() -> None:
    project = _pyproject()["project"]
    wanted = _pins(project["dependencies"] + project["optional-dependencies"]["test"])
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    listed = _pins([p for p in pip_section if not p.startswith("-e")])
    assert listed == wanted, (
        "environment.yml and pyproject.toml disagree; "
        f"only in pyproject: {sorted(set(wanted.items()) - set(listed.items()))}, "
        f"only in environment.yml: {sorted(set(listed.items()) - set(wanted.items()))}"
    )


def test_python_floor_matches() -> None:
    assert _pyproject()["project"]["requires-python"] == ">=3.10"


def test_readme_begins_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```(?:bash|sh)?\n(.*?)```", text, re.S)
    assert first_block, "README.md has no code block"
    assert first_block.group(1).split() == ["make", "lab", "make", "test"] or [
        line.strip() for line in first_block.group(1).splitlines() if line.strip()
    ][:2] == ["make lab", "make test"]


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", script, re.M)


def test_mockllm_imports_without_openai() -> None:
    code = (
        "import sys; sys.modules['openai'] = None; import mockllm; "
        "assert not any(m.split('.')[0] in {'openai', 'pydantic', 'yaml'} "
        "for m in sys.modules if sys.modules[m] is not None)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_readme_generated_blocks_are_up_to_date() -> None:
    result = subprocess.run([sys.executable, "scripts/sync_readme.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
