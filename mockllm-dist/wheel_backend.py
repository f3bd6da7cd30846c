"""The build backend of `react-mockllm` (PEP 517): a wheel of ../mockllm, with no build dependency.

setuptools and the other backends build only what lies inside the project's folder; the mock lives
one folder up, where the course imports it. This backend reads `[project]` and
`[tool.wheel_backend]` of the pyproject.toml beside it, writes the core metadata (version 2.4)
and zips the package folder (no `__pycache__`, no dotfiles) with its licence. The wheel is the
same bytes for the same files: sorted entries, a fixed date. The sdist holds the package beside
the pyproject.toml (its `[tool.wheel_backend]` rewritten to say so), so a wheel built from it is
the same bytes again. An editable install is the course's, at the repository's root.
"""
from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
"""The date of every file in the wheel (zip's earliest), so the same files give the same bytes."""
KNOWN_FIELDS = {"name", "dynamic", "description", "readme", "requires-python", "license",
                "keywords", "classifiers", "dependencies", "optional-dependencies", "scripts",
                "urls"}
"""The `[project]` fields this backend writes; any other one is an error, never dropped."""


def _config() -> tuple[dict, dict]:
    """(`[project]`, `[tool.wheel_backend]`) of the pyproject.toml beside this file."""
    data = tomllib.loads(_pyproject_text())
    project, tool = data["project"], data["tool"]["wheel_backend"]
    unknown = sorted(set(project) - KNOWN_FIELDS)
    if unknown:
        raise ValueError(f"wheel_backend does not write the [project] field(s) {unknown}; "
                         f"it writes {sorted(KNOWN_FIELDS)}")
    if project.get("dynamic", []) not in ([], ["version"]):
        raise ValueError("wheel_backend: only `version` may be dynamic (read from __version__)")
    return project, tool


def _pyproject_text() -> str:
    """The pyproject.toml beside this file, as text."""
    return (HERE / "pyproject.toml").read_text(encoding="utf-8")


def _version(package: Path) -> str:
    """`__version__` of the package's __init__.py, read without importing it."""
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__"
                                                for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError(f"{package / '__init__.py'} sets no __version__")


def _metadata(project: dict, version: str) -> str:
    """The METADATA file: core metadata 2.4 from the `[project]` table."""
    lines = ["Metadata-Version: 2.4", f"Name: {project['name']}",
             f"Version: {project.get('version', version)}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if project.get("keywords"):
        lines.append(f"Keywords: {','.join(project['keywords'])}")
    if "license" in project:
        lines += [f"License-Expression: {project['license']}", "License-File: LICENSE"]
    lines += [f"Classifier: {item}" for item in project.get("classifiers", [])]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {req}" for req in project.get("dependencies", [])]
    for extra, reqs in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {req}; extra == "{extra}"' for req in reqs]
    lines += [f"Project-URL: {label}, {url}" for label, url in project.get("urls", {}).items()]
    text = "\n".join(lines) + "\n"
    if "readme" in project:
        text += "Description-Content-Type: text/markdown\n\n"
        text += (HERE / project["readme"]).read_text(encoding="utf-8")
    return text


def _dist_info(project: dict, tool: dict) -> tuple[str, dict[str, bytes]]:
    """The .dist-info folder's name and its files (all but RECORD), as {path inside it: bytes}."""
    package = (HERE / tool["package"]).resolve()
    version = _version(package)
    name = project["name"].replace("-", "_")
    files = {
        "METADATA": _metadata(project, version).encode("utf-8"),
        "WHEEL": b"Wheel-Version: 1.0\nGenerator: wheel_backend\nRoot-Is-Purelib: true\n"
                 b"Tag: py3-none-any\n",
    }
    scripts = project.get("scripts", {})
    if scripts:
        entries = "".join(f"{command} = {target}\n" for command, target in scripts.items())
        files["entry_points.txt"] = f"[console_scripts]\n{entries}".encode("utf-8")
    if "license-file" in tool:
        files["licenses/LICENSE"] = (HERE / tool["license-file"]).read_bytes()
    return f"{name}-{version}.dist-info", files


def _package_files(package: Path) -> dict[str, bytes]:
    """Every file of the package folder, as {path in the wheel: bytes}; no caches, no dotfiles."""
    files = {}
    for path in sorted(package.rglob("*")):
        parts = path.relative_to(package).parts
        if path.is_dir() or any(p == "__pycache__" or p.startswith(".") for p in parts):
            continue
        if path.suffix in (".pyc", ".pyo"):
            continue
        files["/".join((package.name, *parts))] = path.read_bytes()
    return files


def _record_line(path: str, data: bytes) -> str:
    """One RECORD row: path, sha256 in urlsafe base64 without padding, size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    """No build dependency: the standard library builds the wheel."""
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: dict | None = None) -> str:
    """Write the .dist-info folder into `metadata_directory`; return its name."""
    name, files = _dist_info(*_config())
    for path, data in files.items():
        target = Path(metadata_directory, name, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return name


def build_wheel(wheel_directory: str, config_settings: dict | None = None,
                metadata_directory: str | None = None) -> str:
    """Write the wheel into `wheel_directory`; return its file name."""
    project, tool = _config()
    info, meta = _dist_info(project, tool)
    files = _package_files((HERE / tool["package"]).resolve())
    files.update({f"{info}/{path}": data for path, data in meta.items()})
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    wheel_name = f"{info.removesuffix('.dist-info')}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, FIXED_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return wheel_name


def _sdist_pyproject(tool: dict) -> str:
    """The pyproject.toml of the sdist: `[tool.wheel_backend]` names the copies beside it."""
    text = _pyproject_text()
    for key, name in (("package", "mockllm"), ("license-file", "LICENSE")):
        if key not in tool:
            continue
        old = f'{key} = "{tool[key]}"'
        if text.count(old) != 1:
            raise ValueError(f"wheel_backend: write [tool.wheel_backend] {key} as {old}")
        text = text.replace(old, f'{key} = "{name}"')
    return text


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    """Write the sdist (a .tar.gz) into `sdist_directory`; return its file name."""
    project, tool = _config()
    info, meta = _dist_info(project, tool)
    base = info.removesuffix(".dist-info")
    package = (HERE / tool["package"]).resolve()
    files = {"PKG-INFO": meta["METADATA"], "pyproject.toml": _sdist_pyproject(tool).encode(),
             "wheel_backend.py": Path(__file__).read_bytes()}
    if "licenses/LICENSE" in meta:
        files["LICENSE"] = meta["licenses/LICENSE"]
    if "readme" in project:
        files[project["readme"]] = (HERE / project["readme"]).read_bytes()
    files.update(_package_files(package))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, data in sorted(files.items()):
            entry = tarfile.TarInfo(f"{base}/{path}")
            entry.size, entry.mode, entry.mtime = len(data), 0o644, 0
            tar.addfile(entry, io.BytesIO(data))
    name = f"{base}.tar.gz"
    with open(Path(sdist_directory, name), "wb") as out:
        with gzip.GzipFile(filename="", fileobj=out, mode="wb", mtime=0) as archive:
            archive.write(buffer.getvalue())
    return name
