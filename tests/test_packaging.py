"""The set-up: one place for pins, environment.yml and Binder's requirements in step, the commands
the README promises."""
from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml

tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11+; these checks run on 3.11 in CI")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import check_lessons  # noqa: E402


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


def _assert_pins_match(listed: list[str], name: str, *extras: str) -> None:
    """The requirements `listed` in the file `name` (the course itself, `-e .`, left out) pin exactly
    pyproject.toml's dependencies and those of its `extras`."""
    project = _pyproject()["project"]
    wanted = _pins(project["dependencies"] + [req for extra in extras for req in project["optional-dependencies"][extra]])
    listed = _pins([p for p in listed if not p.startswith("-e")])
    assert listed == wanted, (
        f"{name} and pyproject.toml disagree; "
        f"only in pyproject: {sorted(set(wanted.items()) - set(listed.items()))}, "
        f"only in {name}: {sorted(set(listed.items()) - set(wanted.items()))}"
    )


def test_environment_yml_matches_pyproject() -> None:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    _assert_pins_match(pip_section, "environment.yml", "test", "ui")


def test_binder_requirements_match_pyproject() -> None:
    """Binder installs what `make setup` installs: the course's pins and its test tools'."""
    lines = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    requirements = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    assert "-e ." in requirements, "binder/requirements.txt must install the course itself (-e .)"
    _assert_pins_match(requirements, "binder/requirements.txt", "test")


def test_python_floor_matches() -> None:
    assert _pyproject()["project"]["requires-python"] == ">=3.11"


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


def test_readme_starts_with_the_learners_path() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    steps = ["make lab", "token", "workspace/00_welcome.ipynb", "second terminal",
             "make reset LESSON=03", "python scripts/workspace.py sync", "## Lessons",
             "docs/mock.md", "## How this repository works"]
    missing = [step for step in steps if step not in text]
    assert missing == [], f"README.md no longer says: {missing}"
    places = [text.index(step) for step in steps]
    assert places == sorted(places), "README.md: the learner's path comes first, the internals last"


LINKED_DOCS = ("README.md", "docs/mock.md", "docs/instructors.md")
"""The documents whose relative links must resolve."""


def test_readme_links_resolve_and_map_every_lesson() -> None:
    for doc in (ROOT / name for name in LINKED_DOCS):
        dead = check_lessons.dead_links(doc.read_text(encoding="utf-8"), doc.parent)
        assert dead == [], f"{doc.name}: dead links {dead}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for lesson in sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb")):
        assert f"](lessons/{lesson.name})" in readme, f"README.md's lesson map lacks {lesson.name}"


# ---------------------------------------------------------------- the test suite's own set-up

TEST_PLUGINS = {"hypothesis", "nbval", "pytest-socket", "pytest-xdist"}
"""The distributions whose pytest plugins the suite uses; any other plugin must be switched off."""


def _blocked_plugins(config: pytest.Config) -> set[str]:
    """The plugin names that pyproject's addopts switch off with `-p no:NAME`."""
    return {arg.split(":", 1)[1] for arg in config.getini("addopts") if arg.startswith(("no:", "-pno:"))}


def test_only_the_test_plugins_load(request: pytest.FixtureRequest) -> None:
    config = request.config
    blocked = _blocked_plugins(config)
    assert "langsmith_plugin" in blocked  # langchain-core (make bench) installs it
    loose = [f"{ep.name} (from {ep.dist.name})" for ep in metadata.entry_points(group="pytest11")
             if ep.dist.name not in TEST_PLUGINS and ep.name not in blocked]
    assert loose == [], f"add `-p no:NAME` to addopts in pyproject.toml for: {loose}"
    assert not any(config.pluginmanager.has_plugin(name) for name in blocked - {"nbval"})
    assert config.pluginmanager.has_plugin("nbval.plugin")


def test_lessons_run_without_output_comparison_and_solutions_with(
        request: pytest.FixtureRequest) -> None:
    from nbval.plugin import IPyNbFile

    checks = {}
    for folder in ("solutions", "lessons"):
        path = sorted((ROOT / folder).glob("[0-9][0-9]_*.ipynb"))[0]
        collector = IPyNbFile.from_parent(request.session, path=path)
        request.config.hook.pytest_collectstart(collector=collector)
        checks[folder] = {item.options["check"] for item in collector.collect()}
    assert checks == {"solutions": {True}, "lessons": {False}}


def test_the_grammar_module_is_imported_only_when_used(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from mockllm.protocol.jsonschema_loader import defer_iri_grammar

    assert "rfc3987_syntax.syntax_helpers" not in sys.modules  # no grammar built at start-up
    (tmp_path / "grammar_demo.py").write_text(
        "LOADS = []\nLOADS.append(1)\n"
        "def is_valid_syntax(term, value):\n    return (term, value, len(LOADS))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "grammar_demo", raising=False)
    stand_in = defer_iri_grammar("grammar_demo")
    assert sys.modules["grammar_demo"] is stand_in
    assert stand_in.is_valid_syntax("iri", "http://a/b") == ("iri", "http://a/b", 1)
    assert sys.modules["grammar_demo"] is not stand_in
    assert stand_in.is_valid_syntax("iri_reference", "b") == ("iri_reference", "b", 1)


SAYS_BLOCKED = pytest.mark.filterwarnings("ignore:A test tried to use socket:UserWarning")
"""pytest-socket warns as it refuses; here the refusal is what is tested."""


@SAYS_BLOCKED
def test_the_suite_is_offline(request: pytest.FixtureRequest) -> None:
    """`make test` runs with network sockets refused: a test cannot reach the internet, even by mistake."""
    import socket

    import pytest_socket

    assert request.config.getoption("--disable-socket") and request.config.getoption("--allow-unix-socket")
    assert socket.socket is not pytest_socket._true_socket  # the guard is in place: nothing is sent below
    with pytest.raises(pytest_socket.SocketBlockedError):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with pytest.raises(pytest_socket.SocketBlockedError):
        socket.getaddrinfo("example.com", 443)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM):  # asyncio's self-pipe needs these
        pass


@SAYS_BLOCKED
@pytest.mark.allow_hosts(["127.0.0.1"])
def test_a_loopback_test_cannot_reach_another_address() -> None:
    """The server's tests may connect to 127.0.0.1 and nowhere else."""
    import socket

    import pytest_socket

    assert socket.socket.connect is not pytest_socket._true_connect  # guarded: the refusal comes first
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        with pytest.raises(pytest_socket.SocketConnectBlockedError, match="192.0.2.1"):
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: reserved for documentation, never routed


def test_pytest_runs_without_xdist() -> None:
    """`make test-ui` and `make test-frameworks` run with `-p no:xdist`: conftest.py's xdist hook
    must not stop them."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "--collect-only", "-q",
                             "tests/test_packaging.py"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
