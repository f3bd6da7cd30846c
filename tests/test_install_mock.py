"""The mock alone (`pip install ./mockllm-dist`): a wheel of `mockllm` and nothing of the course.

The wheel is built here and installed into a fresh venv in tmp_path, outside the repository,
with `--no-index`: no network. Its dependencies (jsonschema, PyYAML) are not installed there, so
the venv checks what needs only the standard library: the import, a plain completion, the command
line and the metadata; `test_the_mock_s_pins_follow_the_course` checks the dependencies themselves.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11+")

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "mockllm-dist"
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "--quiet"]
PROBE = """
import importlib.util, json, sys
from importlib import metadata
import mockllm
reply = mockllm.MockLLM().chat.completions.create(
    model="mock-react", messages=[{"role": "user", "content": "What is (17 + 5) * 3?"}])
dist = metadata.distribution("react-mockllm")
print(json.dumps({
    "file": mockllm.__file__, "answer": reply.choices[0].message.content,
    "absent": [name for name in ("solutions", "jupyterlab", "matplotlib", "openai", "starlette")
               if importlib.util.find_spec(name) is not None],
    "requires": dist.requires, "version": dist.version,
    "classifiers": dist.metadata.get_all("Classifier"),
    "urls": dist.metadata.get_all("Project-URL"),
    "scripts": [ep.value for ep in dist.entry_points if ep.group == "console_scripts"],
}))
"""


def _project(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))["project"]


def _run(command: list, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    """Run `command` in `cwd`, with no PYTHONPATH or user site: only the venv's own packages."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1", "PIP_NO_INDEX": "1"}
    result = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel ./mockllm-dist` builds, offline (the backend needs no package)."""
    out = tmp_path_factory.mktemp("wheels")
    _run([*PIP, "wheel", "--no-index", "--no-deps", "--wheel-dir", out, DIST], cwd=out)
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the repository, with the wheel installed by the course's pip."""
    home = tmp_path_factory.mktemp("mock-alone")
    venv.EnvBuilder(with_pip=False).create(home / "venv")
    python = home / "venv" / "bin" / "python"
    _run([*PIP, "--python", python, "install", "--no-index", "--no-deps", wheel], cwd=home)
    return python


def test_the_wheel_holds_the_mock_and_nothing_of_the_course(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert wheel.name == "react_mockllm-0.1.0-py3-none-any.whl"
    assert {name.split("/")[0] for name in names} == {"mockllm", "react_mockllm-0.1.0.dist-info"}
    assert "mockllm/py.typed" in names and "mockllm/world/data/orders.csv" in names
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    on_disk = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mockllm").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert on_disk <= set(names)


def test_the_sdist_builds_the_same_wheel(wheel: Path, tmp_path: Path) -> None:
    """The same files give the same bytes: a wheel built again, from the sdist, is the first one."""
    import tarfile

    code = f"import wheel_backend; print(wheel_backend.build_sdist({str(tmp_path)!r}))"
    name = _run([sys.executable, "-c", code], cwd=DIST).stdout.strip()
    assert name == "react_mockllm-0.1.0.tar.gz"
    with tarfile.open(tmp_path / name) as sdist:
        assert not [m.name for m in sdist.getmembers() if "__pycache__" in m.name]
        sdist.extractall(tmp_path, filter="data")
    unpacked = tmp_path / "react_mockllm-0.1.0"
    assert (unpacked / "mockllm" / "__init__.py").is_file() and (unpacked / "LICENSE").is_file()
    _run([*PIP, "wheel", "--no-index", "--no-deps", "--wheel-dir", tmp_path / "w", unpacked],
         cwd=tmp_path)
    assert (tmp_path / "w" / wheel.name).read_bytes() == wheel.read_bytes()


def test_the_mock_installs_alone_outside_the_repository(installed: Path) -> None:
    home = installed.parents[2]
    found = json.loads(_run([installed, "-I", "-c", PROBE], cwd=home).stdout)
    assert Path(found["file"]).is_relative_to(home / "venv")  # the venv's copy, not the clone's
    assert found["answer"] == "(17 + 5) * 3 = 66"
    assert found["absent"] == []  # no solutions, no JupyterLab, no matplotlib, no extra's package
    assert not [req for req in found["requires"] if re.match(r"(jupyterlab|matplotlib|ipy)", req)]
    assert {req.split(";")[0].split(">=")[0] for req in found["requires"]} == {
        "jsonschema", "pyyaml", "starlette", "uvicorn", "httpx2", "openai"}
    assert all("extra ==" in req for req in found["requires"]
               if req.startswith(("starlette", "uvicorn", "httpx2", "openai")))
    assert "Topic :: Software Development :: Testing :: Mocking" in found["classifiers"]
    assert found["urls"] and found["scripts"] == ["mockllm.__main__:main"]


def test_the_command_line_of_the_mock_alone(installed: Path) -> None:
    home = installed.parents[2]
    from mockllm.behaviour.personas import PERSONAS

    version = _run([installed, "-I", "-m", "mockllm", "--version"], cwd=home)
    assert version.stdout.strip() == f"mockllm {_version()}"
    script = installed.parent / "mockllm"
    helped = _run([script, "--help"], cwd=home).stdout
    assert all(f"  {name} " in helped for name in PERSONAS) and "examples:" in helped
    serve = _run([script, "serve", "--port", "0"], cwd=home, check=False)
    assert serve.returncode == 2
    assert "react-mockllm[serve]" in serve.stderr and "Traceback" not in serve.stderr


def test_openai_client_without_openai_names_the_extra(installed: Path) -> None:
    code = ("import mockllm\ntry:\n    mockllm.openai_client()\n"
            "except ImportError as error:\n    print(error)")
    said = _run([installed, "-I", "-c", code], cwd=installed.parents[2]).stdout
    assert "react-mockllm[openai]" in said


def _version() -> str:
    import mockllm

    return mockllm.__version__


def test_the_mock_s_pins_follow_the_course() -> None:
    """Each of the mock's dependencies starts at the course's pin: the version it is tested with."""
    course = _project(ROOT / "pyproject.toml")
    pins = dict(re.fullmatch(r"([\w.-]+)==(\S+)", req).groups()
                for req in course["dependencies"] + course["optional-dependencies"]["test"])
    mock = _project(DIST / "pyproject.toml")
    for req in mock["dependencies"] + sum(mock["optional-dependencies"].values(), []):
        name, floor, ceiling = re.fullmatch(r"([\w.-]+)>=(\S+),<(\d+)", req).groups()
        assert pins[name] == floor, f"mockllm-dist: {name} from {floor}, course pin {pins[name]}"
        assert int(ceiling) == int(floor.split(".")[0]) + 1, f"{req}: the ceiling is the next major"
    assert mock["requires-python"] == course["requires-python"]
    assert mock["scripts"] == course["scripts"]
