"""Set-up for every pytest run in this repository: `make test` is one pytest process, kept quick.

- nbval is loaded from here (pyproject's addopts say `-p no:nbval`) so that it comes after the
  stand-in below; `--nbval` compares the solved notebooks' outputs exactly, while `lessons/`
  (stored without outputs) only has to run, as with `--nbval-lax`.
- `rfc3987_syntax` builds a parser for a large grammar when imported (most of a second), and
  jsonschema imports it at start-up through nbformat, in every pytest process. The stand-in defers that import to the first IRI
  format check, which the test suite never makes; the check itself behaves as before.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import types

import pytest

GRAMMAR_MODULE = "rfc3987_syntax"
LAX_FOLDERS = {"lessons"}


def _deferred_grammar() -> types.ModuleType:
    """A stand-in for rfc3987_syntax whose `is_valid_syntax` imports the real module when called."""
    stand_in = types.ModuleType(GRAMMAR_MODULE)

    def is_valid_syntax(term: str, value: str) -> bool:
        """rfc3987_syntax.is_valid_syntax, imported on first use."""
        if sys.modules.get(GRAMMAR_MODULE) is stand_in:
            del sys.modules[GRAMMAR_MODULE]
        return importlib.import_module(GRAMMAR_MODULE).is_valid_syntax(term, value)

    stand_in.is_valid_syntax = is_valid_syntax
    return stand_in


if GRAMMAR_MODULE not in sys.modules and importlib.util.find_spec(GRAMMAR_MODULE) is not None:
    sys.modules[GRAMMAR_MODULE] = _deferred_grammar()

pytest_plugins = [] if "nbval.plugin" in sys.modules else ["nbval.plugin"]


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Run the notebooks of `lessons/` without comparing outputs (they are stored without any)."""
    plugin = sys.modules.get("nbval.plugin")
    if plugin is not None and isinstance(collector, plugin.IPyNbFile):
        if collector.path.parent.name in LAX_FOLDERS:
            collector.compare_outputs = False
