"""scripts/wheelhouse.py on a folder of small hand-made wheels, with the network refused.

A dependency behind an environment marker follows the target, not the machine pip runs on; a
package with no wheel for a target is reported by name; a second run downloads nothing; the
manifest lists every file with its sha256.
"""
from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import wheelhouse  # noqa: E402
from no_network import REFUSED  # noqa: E402


def make_wheel(folder: Path, name: str, tag: str = "py3-none-any",
               requires: tuple[str, ...] = ()) -> Path:
    """A minimal wheel `name-1.0-TAG.whl` whose metadata lists `requires`."""
    info = f"{name}-1.0.dist-info"
    metadata = "".join([f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
                        *(f"Requires-Dist: {r}\n" for r in requires)])
    path = folder / f"{name}-1.0-{tag}.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{info}/METADATA", metadata)
        wheel = f"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: {tag}\n"
        archive.writestr(f"{info}/WHEEL", wheel)
        archive.writestr(f"{info}/RECORD", "")
    return path


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip finds no index and no proxy that answers."""
    for key, value in REFUSED.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A package whose dependencies depend on the platform, its dependencies, and pip."""
    make_wheel(tmp_path, "demo", requires=('colorama; platform_system == "Windows"',
                                           'ptyfake; sys_platform != "win32"'))
    make_wheel(tmp_path, "colorama")
    make_wheel(tmp_path, "ptyfake")
    make_wheel(tmp_path, "pip")
    return tmp_path


def target(name: str) -> wheelhouse.Target:
    """The one target of that name."""
    [found] = wheelhouse.select([name])
    return found


def test_a_marker_follows_the_target_not_this_machine(folder: Path) -> None:
    windows = wheelhouse.fetch(target("windows-amd64-cp313"), ["demo"], folder)
    linux = wheelhouse.fetch(target("linux-aarch64-cp311"), ["demo"], folder)
    assert windows.complete and linux.complete, (windows.problem, linux.problem)
    assert windows.files == {"demo-1.0-py3-none-any.whl", "colorama-1.0-py3-none-any.whl"}
    assert linux.files == {"demo-1.0-py3-none-any.whl", "ptyfake-1.0-py3-none-any.whl"}


def test_a_package_without_a_wheel_for_the_target_is_named(folder: Path) -> None:
    make_wheel(folder, "winonly", tag="cp313-cp313-win_amd64")
    outcome = wheelhouse.fetch(target("macos-arm64-cp313"), ["winonly"], folder)
    assert not outcome.complete
    assert "winonly" in outcome.problem
    assert wheelhouse.fetch(target("windows-amd64-cp313"), ["winonly"], folder).complete


def test_the_targets_are_chosen_by_the_parts_of_their_names() -> None:
    assert len(wheelhouse.select(["all"])) == 15
    assert [t.name for t in wheelhouse.select(["windows"])] == [
        "windows-amd64-cp311", "windows-amd64-cp312", "windows-amd64-cp313"]
    assert len(wheelhouse.select(["cp313", "macos-cp313"])) == 5
    assert wheelhouse.select(["this"])[0].native
    with pytest.raises(SystemExit, match="no target is named by 'beos'"):
        wheelhouse.select(["beos"])


def test_the_manifest_lists_each_file_and_a_second_run_downloads_nothing(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["demo==1.0"]\n'
                         '[project.optional-dependencies]\ntest = ["ptyfake"]\n')
    dest = tmp_path / "house"
    arguments = ["--targets", "windows-cp311", "linux-x86_64-cp312", "--dest", str(dest),
                 "--pyproject", str(pyproject)]
    for wheel in folder.glob("*.whl"):
        (dest / wheel.name).parent.mkdir(exist_ok=True)
        (dest / wheel.name).write_bytes(wheel.read_bytes())
    assert wheelhouse.main(arguments) == 0
    manifest = (dest / "MANIFEST.txt").read_text()
    assert "# target windows-amd64-cp311: complete" in manifest
    assert "# target linux-x86_64-cp312: complete" in manifest
    for wheel in dest.glob("*.whl"):
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        assert f"{digest}  {wheel.stat().st_size}  {wheel.name}" in manifest
    capsys.readouterr()
    assert wheelhouse.main(arguments) == 0
    assert "downloaded 0 files" in capsys.readouterr().out
    assert wheelhouse.main([*arguments[:1], "linux-cp313", *arguments[3:]]) == 0
    kept = (dest / "MANIFEST.txt").read_text()
    assert "# target windows-amd64-cp311: complete" in kept, "a later run keeps earlier targets"
