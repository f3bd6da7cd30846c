"""Refuse a function that could run text as code, by reading its compiled code before running it.

`check` screens the exercises that handle a model's text (the calculator, the parser) with
`forbidden_uses(fn)`. It reads the function's bytecode rather than its source, because the
bytecode always exists (the source may not: a function made in a console, or a cell edited since)
and it tells a builtin `compile(...)` from `re.compile(...)`. It follows the helpers the function
calls that are defined next to it (same module or notebook), and their nested functions.

What it cannot see: a forbidden name reached through data (`getattr(obj, name)` with `name`
built at run time, where `obj` is not one of the names below), or code in a class the function
instantiates. The cases still run for anything the screen lets through.
"""
from __future__ import annotations

import dis
import inspect
import linecache
from types import CodeType, FunctionType
from typing import Callable, Iterator

_RUNS_TEXT = ("runs any Python expression or statement, so text a model wrote could run code, "
              "read files or hang the process; restricted globals do not make it safe")
FORBIDDEN_NAMES = {
    "eval": f"eval {_RUNS_TEXT}",
    "exec": f"exec {_RUNS_TEXT}",
    "compile": "compile turns text into code for eval or exec to run",
    "__import__": "__import__ loads any module, os and subprocess included",
    "__builtins__": "__builtins__ hands out eval, exec and __import__ by name",
    "builtins": "the builtins module hands out eval, exec and __import__ by name",
    "importlib": "importlib loads any module, os and subprocess included",
    "globals": "globals() reaches every name by a string, eval included",
    "vars": "vars() reaches every name by a string, eval included",
}
"""Names a screened function may not load as a global, import, or import from."""

FORBIDDEN_ATTRIBUTES = {
    "eval": FORBIDDEN_NAMES["eval"], "exec": FORBIDDEN_NAMES["exec"],
    "__import__": FORBIDDEN_NAMES["__import__"], "__builtins__": FORBIDDEN_NAMES["__builtins__"],
    "__subclasses__": "__subclasses__() climbs from any object to every class loaded",
    "__globals__": "__globals__ reaches every name of a module, eval included",
}
"""Attributes a screened function may not read (`re.compile` stays allowed)."""

_GLOBAL_OPS = {"LOAD_GLOBAL", "LOAD_NAME", "IMPORT_NAME", "IMPORT_FROM"}
_ATTRIBUTE_OPS = {"LOAD_ATTR", "LOAD_METHOD"}


def forbidden_uses(fn: Callable) -> list[str]:
    """Return one line per forbidden name `fn` (or a helper it calls) uses; [] when none."""
    found: dict[str, str] = {}
    for function in _functions(fn):
        for code in _code_objects(function.__code__):
            for name, line in _loads(code):
                if name not in found:
                    where = _where(function, code, line)
                    reason = FORBIDDEN_NAMES.get(name) or FORBIDDEN_ATTRIBUTES[name]
                    found[name] = f"it uses {name}{where}: {reason}"
    return list(found.values())


def _functions(fn: Callable) -> Iterator[FunctionType]:
    """`fn` and every function it reaches by a global name or a closure, from the same module."""
    start = inspect.unwrap(fn)
    if not isinstance(start, FunctionType):
        return
    todo, seen = [start], {id(start)}
    while todo:
        function = todo.pop()
        yield function
        named = [function.__globals__.get(name) for code in _code_objects(function.__code__)
                 for name in code.co_names]
        named += [cell.cell_contents for cell in function.__closure__ or ()
                  if _has_contents(cell)]
        for helper in named:
            if (isinstance(helper, FunctionType) and id(helper) not in seen
                    and helper.__module__ == start.__module__):
                seen.add(id(helper))
                todo.append(helper)


def _has_contents(cell: object) -> bool:
    """True when a closure cell holds a value (an empty cell raises ValueError when read)."""
    try:
        cell.cell_contents  # type: ignore[attr-defined]  # noqa: B018
    except ValueError:
        return False
    return True


def _code_objects(code: CodeType) -> Iterator[CodeType]:
    """A code object and all those nested in it (inner functions, lambdas, comprehensions)."""
    todo = [code]
    while todo:
        current = todo.pop()
        yield current
        todo.extend(const for const in current.co_consts if isinstance(const, CodeType))


def _loads(code: CodeType) -> Iterator[tuple[str, int | None]]:
    """Yield (forbidden name, line number) for each forbidden load in one code object."""
    line = None
    for instruction in dis.get_instructions(code):
        positions = getattr(instruction, "positions", None)
        if positions is not None and positions.lineno is not None:
            line = positions.lineno
        elif isinstance(instruction.starts_line, int) and instruction.starts_line is not True:
            line = instruction.starts_line  # Python 3.10
        name = instruction.argval if isinstance(instruction.argval, str) else ""
        root = name.partition(".")[0]
        if instruction.opname in _GLOBAL_OPS and root in FORBIDDEN_NAMES:
            yield root, line
        elif instruction.opname in _ATTRIBUTE_OPS and name in FORBIDDEN_ATTRIBUTES:
            yield name, line


def _where(function: FunctionType, code: CodeType, line: int | None) -> str:
    """Say where a use is: the function it is in, and the line's text when it can be read."""
    text = linecache.getline(code.co_filename, line).strip() if line else ""
    return f" in {function.__name__} (`{text}`)" if text else f" in {function.__name__}"
