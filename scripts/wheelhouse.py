"""Every wheel the course needs, for each platform and Python a room has, in one folder.

Usage: python scripts/wheelhouse.py [--targets T...] [--dest DIR] [--extras test]  (make wheelhouse)
       python scripts/wheelhouse.py --list        (the targets and the wheel tags each accepts)

The course's pins (pyproject.toml: its dependencies and the `test` extra, exactly as pinned), the
build requirement of its own install (setuptools) and pip itself are downloaded with
`pip download --only-binary=:all:` once per target: Linux (manylinux, x86_64 and aarch64), macOS
(x86_64 and arm64) and Windows (amd64), each with CPython 3.11, 3.12 and 3.13. `--targets`
restricts them: a target is chosen by the parts of its name (`windows`, `cp313`,
`macos-arm64-cp312`), and `this` is this machine's platform and Python only.

Each target is first resolved from the folder alone (`--no-index`): a target whose wheels are all
there downloads nothing and needs no network. pip evaluates the environment markers of a
dependency (`sys_platform == "win32"`) on the machine it runs on, not on the target; this script
runs pip with the target's marker values, so a Windows target gets the Windows-only
dependencies. A package with no wheel for a target is reported; when its source builds into a
pure-Python wheel, that wheel is built once here and kept in the folder.

The folder gets MANIFEST.txt: every file with its sha256 and size, and the targets it was found
complete for. Install from it with no network: docs/offline-install.md. Standard library and pip.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

if sys.version_info < (3, 11):
    sys.exit(f"wheelhouse: Python 3.11 or newer is needed, found {sys.version.split()[0]}")
import tomllib  # noqa: E402
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "wheelhouse"
MANIFEST = "MANIFEST.txt"
PYTHONS = ("3.11", "3.12", "3.13")
MANYLINUX_GLIBC = 28
"""The newest glibc a Linux wheel may need (manylinux_2_28: Debian 10, Ubuntu 18.10, RHEL 8 on)."""
MACOS = {"x86_64": "12_0", "arm64": "11_0"}
"""The newest macOS a wheel may require, per architecture (wheels for older ones are taken too)."""

# pip is run by this program, its marker environment set to the target's (argv[1], JSON), so that
# `Requires-Dist: colorama; platform_system == "Windows"` is followed for a Windows target.
RUN_PIP = """
import json, sys
try:
    from pip._vendor.packaging import markers
    from pip._internal.cli.main import main
except ImportError as error:
    sys.exit(f"wheelhouse: this pip cannot download for another platform's markers ({error}); "
             "upgrade it: python -m pip install --upgrade pip")
target = json.loads(sys.argv[1])
here = markers.default_environment
def default_environment():
    environment = here()
    environment.update(target)
    return environment
markers.default_environment = default_environment
sys.exit(main(sys.argv[2:]))
"""
SAVED = re.compile(r"^\s*(?:Saved|File was already downloaded) (.+\.whl)\s*$", re.MULTILINE)
MISSING = re.compile(r"No matching distribution found for (\S+)")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class Target:
    """One platform and Python: the wheel tags pip accepts for it and its marker values."""

    name: str
    platforms: tuple[str, ...] = ()
    python: str = ""
    markers: dict[str, str] = field(default_factory=dict, hash=False)

    @property
    def native(self) -> bool:
        """Whether this is the running interpreter itself (`this`)."""
        return not self.platforms

    def pip_options(self) -> list[str]:
        """The `pip download` options that select this target's wheels."""
        if self.native:
            return []
        abi = "cp" + self.python.replace(".", "")
        options = ["--implementation", "cp", "--python-version", self.python, "--abi", abi]
        for platform in self.platforms:
            options += ["--platform", platform]
        return options


def manylinux(arch: str) -> tuple[str, ...]:
    """The manylinux tags of glibc 2.28 down to 2.5 and their legacy aliases (pip expands none)."""
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(MANYLINUX_GLIBC, 4, -1)]
    return tuple(tags + [f"manylinux2014_{arch}", f"manylinux2010_{arch}", f"manylinux1_{arch}"])


PLATFORMS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "linux-x86_64": (manylinux("x86_64"), {"sys_platform": "linux", "platform_system": "Linux",
                                           "os_name": "posix", "platform_machine": "x86_64"}),
    "linux-aarch64": (manylinux("aarch64"), {"sys_platform": "linux", "platform_system": "Linux",
                                             "os_name": "posix", "platform_machine": "aarch64"}),
    "macos-x86_64": ((f"macosx_{MACOS['x86_64']}_x86_64",),
                     {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix",
                      "platform_machine": "x86_64"}),
    "macos-arm64": ((f"macosx_{MACOS['arm64']}_arm64",),
                    {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix",
                     "platform_machine": "arm64"}),
    "windows-amd64": (("win_amd64",), {"sys_platform": "win32", "platform_system": "Windows",
                                       "os_name": "nt", "platform_machine": "AMD64"}),
}
"""A room's platforms: the wheel tags of each and the marker values its Python reports."""


def all_targets() -> list[Target]:
    """Every platform with every Python, named `platform-cp3XX`."""
    targets = []
    for platform, (tags, values) in PLATFORMS.items():
        for python in PYTHONS:
            markers = {**values, "python_version": python, "python_full_version": f"{python}.0",
                       "implementation_version": f"{python}.0", "implementation_name": "cpython",
                       "platform_python_implementation": "CPython"}
            targets.append(Target(f"{platform}-cp{python.replace('.', '')}", tags, python, markers))
    return targets


def this_target() -> Target:
    """This machine's platform and Python, resolved by pip as for an ordinary install."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return Target(f"this ({sysconfig.get_platform()}, cp{python.replace('.', '')})", python=python)


def select(tokens: list[str]) -> list[Target]:
    """The targets the tokens name: `all`, `this`, or parts of a name (`windows`, `linux-cp313`)."""
    chosen: list[Target] = []
    for token in tokens:
        if token == "this":
            found = [this_target()]
        elif token == "all":
            found = all_targets()
        else:
            parts = set(token.split("-"))
            found = [t for t in all_targets() if parts <= set(t.name.split("-"))]
        if not found:
            names = ", ".join(t.name for t in all_targets())
            raise SystemExit(f"wheelhouse: no target is named by {token!r}; give `all`, `this`, "
                             f"or parts of these names: {names}")
        chosen += [t for t in found if t not in chosen]
    return chosen


def requirements(pyproject: Path, extras: list[str]) -> list[str]:
    """The course's pinned dependencies and extras, its build requirement, and pip."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    project = data["project"]
    wanted = list(project.get("dependencies", []))
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"wheelhouse: pyproject.toml has no extra {extra!r}; it has "
                             f"{', '.join(sorted(optional))}")
        wanted += optional[extra]
    wanted += data.get("build-system", {}).get("requires", []) + ["pip"]
    return list(dict.fromkeys(wanted))


def run_pip(target: Target, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    """pip run with the target's marker values (this machine's own for `this`)."""
    if target.native:
        command = [sys.executable, "-m", "pip", *arguments]
    else:
        command = [sys.executable, "-c", RUN_PIP, json.dumps(target.markers), *arguments]
    return subprocess.run(command, capture_output=True, text=True)


@dataclass
class Outcome:
    """What one target needed: its wheels, whether it is complete, what was built or is lacking."""

    target: Target
    files: set[str] = field(default_factory=set)
    complete: bool = False
    built: list[str] = field(default_factory=list)
    problem: str = ""


def build_pure(spec: str, dest: Path, native: bool) -> tuple[str, str]:
    """Build `spec` from source here; keep the wheel if the target can use it (file, problem)."""
    name = NAME.match(spec)
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir",
                               scratch, "--no-binary", name.group(0) if name else ":all:", spec],
                              capture_output=True, text=True)
        wheels = list(Path(scratch).glob("*.whl"))
        if done.returncode or not wheels:
            return "", f"{spec} has no wheel for this target and its source did not build here"
        wheel = wheels[0]
        if not (native or wheel.name.endswith("-none-any.whl")):
            return "", (f"{spec} has no wheel for this target and is not pure Python "
                        f"(it builds as {wheel.name}): a laptop of this kind cannot install it "
                        "offline")
        shutil.move(str(wheel), dest / wheel.name)
        return wheel.name, ""


def fetch(target: Target, wanted: list[str], dest: Path) -> Outcome:
    """Resolve the target from the folder alone; failing that, download what it lacks."""
    outcome = Outcome(target)
    common = ["download", "--only-binary=:all:", "--dest", str(dest), "--find-links", str(dest),
              *target.pip_options(), *wanted]
    done = run_pip(target, [*common[:1], "--no-index", *common[1:]])
    while done.returncode:
        done = run_pip(target, common)
        missing = MISSING.search(done.stdout + done.stderr)
        if not done.returncode or not missing:
            break
        if missing.group(1) in outcome.built:
            outcome.problem = f"{missing.group(1)} was built but pip still finds no wheel for it"
            return outcome
        built, outcome.problem = build_pure(missing.group(1), dest, target.native)
        if not built:
            return outcome
        outcome.built.append(missing.group(1))
    if done.returncode:
        lines = (done.stderr or done.stdout).strip().splitlines()
        outcome.problem = "pip failed: " + (lines[-1] if lines else f"exit {done.returncode}")
        return outcome
    outcome.files = {Path(line).name for line in SAVED.findall(done.stdout)}
    outcome.complete = True
    return outcome


def sha256(path: Path) -> str:
    """The file's sha256, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def size(count: int) -> str:
    """A byte count in MB, one decimal."""
    return f"{count / 1e6:.1f} MB"


def write_manifest(dest: Path, wanted: list[str], outcomes: list[Outcome]) -> None:
    """MANIFEST.txt: the requirements, the targets found complete, each file's sha256 and size."""
    key = hashlib.sha256("\n".join(wanted).encode()).hexdigest()[:16]
    path = dest / MANIFEST
    complete = {o.target.name: f"# target {o.target.name}: complete for requirements {key}"
                for o in outcomes if o.complete}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            old = re.match(r"# target (.+): complete for requirements (\w+)$", line)
            if old and old.group(2) == key and old.group(1) not in complete:
                complete[old.group(1)] = line
    lines = ["# Wheels of the course (pyproject.toml), to install with no network:",
             "#   pip install --no-index --find-links <this folder> -e '.[test]'"
             "   (docs/offline-install.md)",
             f"# requirements {key}: {' '.join(wanted)}", *sorted(complete.values()),
             "# sha256  bytes  file"]
    for wheel in sorted(dest.glob("*.whl")):
        lines.append(f"{sha256(wheel)}  {wheel.stat().st_size}  {wheel.name}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def report(outcomes: list[Outcome], before: set[str], dest: Path) -> None:
    """Print each target's state, the files downloaded by this run and the sizes."""
    for outcome in outcomes:
        state = "complete" if outcome.complete else f"INCOMPLETE: {outcome.problem}"
        built = f" (built here, pure Python: {', '.join(outcome.built)})" if outcome.built else ""
        print(f"  {outcome.target.name}: {len(outcome.files)} wheels, {state}{built}")
    new = sorted(p for p in dest.glob("*.whl") if p.name not in before)
    for wheel in new:
        print(f"  + {wheel.name}  {size(wheel.stat().st_size)}")
    added = sum(p.stat().st_size for p in new)
    total = sum(p.stat().st_size for p in dest.glob("*.whl"))
    print(f"wheelhouse: downloaded {len(new)} files, {size(added)}; {dest} holds "
          f"{len(list(dest.glob('*.whl')))} wheels, {size(total)}")


def main(argv: list[str] | None = None) -> int:
    """Fill the folder for the chosen targets; exit 1 when a target lacks a wheel."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", nargs="+", default=["all"],
                        help="all (default), this, or parts of target names (see --list)")
    parser.add_argument("--dest", type=Path, default=DEST, help="the folder (default: wheelhouse/)")
    parser.add_argument("--extras", nargs="*", default=["test"],
                        help="extras of pyproject.toml to include (default: test)")
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    parser.add_argument("--list", action="store_true", help="print the targets and stop")
    options = parser.parse_args(argv)
    if importlib.util.find_spec("pip") is None:
        raise SystemExit(f"wheelhouse: {sys.executable} has no pip; run it with a Python that has "
                         "(python3 -m ensurepip, or on Debian: sudo apt install python3-pip)")
    targets = select(options.targets)
    if options.list:
        for target in targets:
            print(target.name, " ".join(target.platforms[:1]) or "(this interpreter's tags)")
        return 0
    wanted = requirements(options.pyproject, options.extras)
    dest = options.dest.resolve()
    dest.mkdir(parents=True, exist_ok=True)
    before = {p.name for p in dest.glob("*.whl")}
    print(f"wheelhouse: {len(wanted)} requirements for {len(targets)} targets into {dest}")
    outcomes = []
    for target in targets:
        outcomes.append(fetch(target, wanted, dest))
        print(f"  {target.name}: {'complete' if outcomes[-1].complete else 'incomplete'}",
              flush=True)
    write_manifest(dest, wanted, outcomes)
    print("wheelhouse: summary")
    report(outcomes, before, dest)
    return 0 if all(o.complete for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
