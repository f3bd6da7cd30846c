"""Set-up for every pytest run in this repository: `make test` is one pytest process, kept quick.

- nbval is loaded from here (pyproject's addopts say `-p no:nbval`) so that it comes after the
  stand-in below; `--nbval` compares the solved notebooks' outputs exactly, while `lessons/`
  (stored without outputs) only has to run, as with `--nbval-lax`.
- `rfc3987_syntax` builds a parser for a large grammar when imported (most of a second), and
  jsonschema imports it at start-up through nbformat, in every pytest process. `solutions.jsonschema_loader` defers that import to the first IRI
  format check, which the test suite never makes; the check itself behaves as before.
"""
from __future__ import annotations

import sys

import pytest

from solutions.jsonschema_loader import defer_iri_grammar

LAX_FOLDERS = {"lessons"}


defer_iri_grammar()

pytest_plugins = [] if "nbval.plugin" in sys.modules else ["nbval.plugin"]


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Run the notebooks of `lessons/` without comparing outputs (they are stored without any)."""
    plugin = sys.modules.get("nbval.plugin")
    if plugin is not None and isinstance(collector, plugin.IPyNbFile):
        if collector.path.parent.name in LAX_FOLDERS:
            collector.compare_outputs = False
