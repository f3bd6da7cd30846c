"""Helpers shared by the notebook scripts: stable reading, writing, cell ids and metadata."""
from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import re
import tokenize
from pathlib import Path

import nbformat
from nbformat import NotebookNode
from traitlets.config import Config

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
LESSON_LANGUAGE_INFO = {"name": "python"}  # lessons must not change when solutions are re-run
BEGIN, END, STUB = "# BEGIN SOLUTION", "# END SOLUTION", "# stub:"


def solved_notebooks(root: Path = REPO) -> list[Path]:
    """Return the solved notebooks `solutions/NN_slug.ipynb`, sorted by name."""
    return sorted((Path(root) / "solutions").glob(NOTEBOOK_GLOB))


def kernel_config(sockets: str | Path) -> Config:
    """nbclient's kernel settings: local sockets in the folder `sockets` (the kernels are local;
    over TCP each would warn that it is unencrypted), TCP on loopback on Windows."""
    if os.name == "nt":
        return Config()
    return Config({"KernelManager": {"transport": "ipc", "ip": str(Path(sockets) / "kernel")}})


def read_notebook(path: Path) -> NotebookNode:
    """Read a notebook as nbformat 4."""
    return nbformat.read(str(path), as_version=4)


def dumps_notebook(nb: NotebookNode) -> str:
    """Serialise a notebook the stable way: indent 1, sorted keys, trailing newline."""
    text = nbformat.writes(nb, version=4)
    return text if text.endswith("\n") else text + "\n"


def write_if_changed(nb: NotebookNode, path: Path) -> bool:
    """Write `nb` to `path` unless the file already holds exactly that text; True if written."""
    text = dumps_notebook(nb)
    path = Path(path)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def stable_cell_id(notebook_name: str, index: int) -> str:
    """Return a cell id derived from the notebook's name and the cell's position (never random)."""
    return hashlib.blake2b(f"{notebook_name}:{index}".encode(), digest_size=4).hexdigest()


def ensure_cell_ids(nb: NotebookNode, notebook_name: str) -> None:
    """Give every cell a unique id (keeping existing ones) and mark the notebook as nbformat 4.5."""
    seen: set[str] = set()
    for index, cell in enumerate(nb.cells):
        cell_id = cell.get("id")
        if not cell_id or cell_id in seen:
            cell_id = stable_cell_id(notebook_name, index)
        cell["id"] = cell_id
        seen.add(cell_id)
    nb.nbformat, nb.nbformat_minor = 4, max(5, nb.get("nbformat_minor", 5))


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PROGRESS_METER = re.compile(r"(?m)^(?P<desc>[^\n:|]{1,40}): *(?P<percent>\d{1,3})%\|(?P<bar>[^|\n]{0,80})\| *"
                            r"(?P<n>\d{1,12})/(?P<total>\d{1,12})$")
"""A progress bar's text form, as the lessons' bars write it (`solutions.progress.BAR_FORMAT`)."""
PROGRESS_SHOWN = r"\g<desc>: [progress bar]"
"""What strict nbval compares a progress bar's text as: it is displayed at 0% and then moves."""


def completed_meter(text: str) -> str:
    """A progress bar's text form as it ends: what a stored notebook shows for the bar."""
    def full(match: re.Match) -> str:
        total = match["total"]
        return f"{match['desc']}: 100%|{'█' * len(match['bar'])}| {total}/{total}"
    return PROGRESS_METER.sub(full, text)


def normalise_metadata(nb: NotebookNode) -> None:
    """Drop widget state, widget views and per-cell timings; set the kernelspec to python3.

    A stored widget view names a model (by a random id) whose state is not stored, so JupyterLab
    could only show an error for it: the output keeps its text form instead, which is also what
    strict nbval compares. A progress bar's text form was taken when it was displayed, at 0%;
    the stored one is the bar as it ended (the cell ran to its end).
    """
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", ()):
            data = output.get("data", {})
            if WIDGET_VIEW in data and len(data) > 1:
                del data[WIDGET_VIEW]
                if isinstance(data.get("text/plain"), str):
                    data["text/plain"] = completed_meter(data["text/plain"])


def notebook_label(path: Path, root: Path = REPO) -> str:
    """Return `path` relative to `root` when possible, for messages."""
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- source surgery

def find_definition(tree: ast.Module, name: str) -> ast.stmt | None:
    """Return the top-level def, class or assignment that defines `name`."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if name in names:
                return node
    return None


def header_colon(lines: list[str], node: ast.AST) -> tuple[int, int]:
    """Return (line, column) of the colon that ends a def's signature."""
    text = "\n".join(lines[node.lineno - 1 :]) + "\n"
    depth = 0
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        elif tok.type == tokenize.OP and tok.string == ":" and depth == 0:
            return node.lineno + tok.start[0] - 1, tok.start[1]
    raise ValueError(f"no signature colon found for {getattr(node, 'name', '?')}")


def stub_lines(lines: list[str], node: ast.FunctionDef, message: str) -> list[str]:
    """Return the lines of `node` with its body (after the docstring) replaced by a raise."""
    start = min([d.lineno for d in node.decorator_list] + [node.lineno])
    line, col = header_colon(lines, node)
    head = lines[start - 1 : line - 1] + [lines[line - 1][: col + 1]]
    first = node.body[0]
    inline = first.lineno == line
    indent = " " * (node.col_offset + 4) if inline else lines[first.lineno - 1][: first.col_offset]
    doc: list[str] = []
    if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) \
            and isinstance(first.value.value, str):
        doc = lines[first.lineno - 1 : first.end_lineno]
        if inline:  # `def f(): """Doc."""; ...` keeps only the docstring, on its own line
            data = lines[first.lineno - 1].encode()
            end = first.end_col_offset if first.end_lineno == first.lineno else len(data)
            doc = [indent + data[first.col_offset : end].decode()] + doc[1:]
    return head + doc + [f"{indent}raise NotImplementedError({message})"]


def functions_to_stub(tree: ast.Module, names: list[str]) -> list[ast.FunctionDef]:
    """Find the defs named in `names` ("func" or "Class.method") in a parsed cell."""
    found = []
    for name in names:
        outer, _, inner = name.partition(".")
        node = find_definition(tree, outer)
        if inner and isinstance(node, ast.ClassDef):
            node = next((n for n in node.body if getattr(n, "name", None) == inner), None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node)
        elif node is None or inner:
            raise ValueError(f"exercise stub {name!r} is not a function in this cell")
    return found


def stub_definitions(source: str, names: list[str], message: str) -> str:
    """Replace the bodies of the named functions in `source` by a raise, keeping docstrings."""
    if not names:
        return source
    lines = source.split("\n")
    nodes = functions_to_stub(ast.parse(source), names)
    for node in sorted(nodes, key=lambda n: n.lineno, reverse=True):
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        lines[start - 1 : node.end_lineno] = stub_lines(lines, node, message)
    return "\n".join(lines)


def stub_regions(source: str, hint: str) -> tuple[str, bool]:
    """Stub `# BEGIN SOLUTION` ... `# END SOLUTION` regions; True if a top-level raise was left."""
    out: list[str] = []
    region: dict | None = None
    raises_at_top = False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if region is not None:
                raise ValueError("nested '# BEGIN SOLUTION'")
            own_hint = stripped[len(BEGIN):].strip(" :")
            region = {"indent": line[: len(line) - len(line.lstrip())], "stub": None,
                      "hint": own_hint or hint}
        elif stripped.startswith(END):
            if region is None:
                raise ValueError("'# END SOLUTION' without '# BEGIN SOLUTION'")
            stub = region["stub"] or f"raise NotImplementedError({exercise_message(region['hint'])})"
            out += [region["indent"] + "# YOUR CODE HERE", region["indent"] + stub]
            raises_at_top |= region["stub"] is None and region["indent"] == ""
            region = None
        elif region is None:
            out.append(line)
        elif stripped.startswith(STUB):
            region["stub"] = stripped[len(STUB):].strip()
    if region is not None:
        raise ValueError("'# BEGIN SOLUTION' without '# END SOLUTION'")
    return "\n".join(out), raises_at_top


def exercise_message(hint: str) -> str:
    """Return the Python literal `"Exercise: <hint>"` for a NotImplementedError."""
    return json.dumps(f"Exercise: {hint}", ensure_ascii=False)
