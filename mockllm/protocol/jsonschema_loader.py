"""`import jsonschema` without paying for a grammar it builds at import (about a second).

jsonschema imports `rfc3987_syntax` for its `iri` formats, and that module builds a large parser
when it is imported. The mock's check of a `response_format` schema, lesson 06's validator
(`solutions.arguments`) and the test suite's start-up (conftest.py) load jsonschema through here: a stand-in takes the grammar module's place and imports the real one the
first time an `iri` format is checked, so every check behaves as before.
"""
from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

GRAMMAR_MODULE = "rfc3987_syntax"


def load_jsonschema() -> Any:
    """`import jsonschema`, its IRI grammar deferred (see the module docstring) unless loaded already."""
    if "jsonschema" not in sys.modules:
        defer_iri_grammar()
    import jsonschema

    return jsonschema


def defer_iri_grammar(name: str = GRAMMAR_MODULE) -> ModuleType | None:
    """Put a stand-in for module `name` in sys.modules that imports the real one on first use.

    Return the stand-in, or None when the module is loaded already or not installed.
    """
    import importlib
    import importlib.util

    if name in sys.modules or importlib.util.find_spec(name) is None:
        return None
    stand_in = ModuleType(name)

    def real() -> Any:
        """The real module, imported now (the stand-in leaves sys.modules)."""
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        return importlib.import_module(name)

    def is_valid_syntax(term: str, value: str) -> bool:
        """rfc3987_syntax.is_valid_syntax, imported on first use."""
        return real().is_valid_syntax(term, value)

    def other(attribute: str) -> Any:
        """Any other public name of the real module (the import system's dunder probes are not)."""
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(real(), attribute)

    stand_in.is_valid_syntax = is_valid_syntax  # type: ignore[attr-defined]
    stand_in.__getattr__ = other  # type: ignore[attr-defined]
    sys.modules[name] = stand_in
    return stand_in
