"""The layout of `mockllm`: one sub-package per stage, no import circles, small modules."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mockllm

ROOT = Path(mockllm.__file__).parent
# Bottom to top: each part may import only itself and the parts before it.
LAYERS = ("_hash", "world", "reading", "brain", "behaviour", "reply", "protocol", "serve", "mockllm",
          "__main__")
MAX_LINES = 350


def module_name(path: Path) -> str:
    """'mockllm.reading.history' for mockllm/reading/history.py; 'mockllm.brain' for an __init__."""
    parts = ("mockllm", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imported(name: str, path: Path) -> set[str]:
    """Every module `name` imports, anywhere in the file (function bodies, TYPE_CHECKING too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return found


GRAPH = {name: {m for m in imported(name, path) if m in MODULES and m != name}
         for name, path in MODULES.items()}


def part(module: str) -> str:
    """The layer a module belongs to: its sub-package under mockllm, or 'mockllm' itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "mockllm"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in `graph` (as a path that returns to its start), or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def test_the_graph_sees_the_imports_that_matter() -> None:
    assert "mockllm.brain.families" in GRAPH["mockllm.brain.policy"]
    assert "mockllm.behaviour.quirks_move" in GRAPH["mockllm.behaviour.catalogue"]  # from a package
    assert "mockllm.reply.respond" in GRAPH["mockllm.protocol.client"]  # inside a function
    assert "mockllm.world.clock" in GRAPH["mockllm.world.orders"]  # relative import


def test_find_cycle_finds_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circles_between_modules() -> None:
    assert find_cycle(GRAPH) is None, f"import circle: {' -> '.join(find_cycle(GRAPH) or [])}"


def test_each_part_imports_only_the_parts_below_it() -> None:
    assert {part(m) for m in MODULES} == set(LAYERS)
    wrong = [f"{name} imports {dep}" for name, deps in GRAPH.items() for dep in deps
             if LAYERS.index(part(dep)) > LAYERS.index(part(name))]
    order = " < ".join(LAYERS)
    assert not wrong, f"imports against the stage order {order}: " + "; ".join(wrong)


def test_the_model_never_imports_the_world_or_the_solutions() -> None:
    for name, path in MODULES.items():
        deps = imported(name, path)
        assert not any(d == "solutions" or d.startswith("solutions.") for d in deps), name
        if part(name) not in ("world", "mockllm", "_hash"):
            assert not any(d.startswith("mockllm.world") for d in deps), name


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_stay_small(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines < MAX_LINES, f"{name} has {lines} lines; split it (limit {MAX_LINES})"


def test_version_matches_pyproject_and_the_package_is_typed() -> None:
    pyproject = (ROOT.parent / "pyproject.toml").read_text(encoding="utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    version = re.search(r'^version\s*=\s*"([^"]+)"', project, re.M)
    assert version and mockllm.__version__ == version.group(1)
    assert (ROOT / "py.typed").is_file()
    assert re.search(r'^mockllm\s*=\s*\[.*"py\.typed"', pyproject, re.M), "py.typed: package-data"
