"""Set-up for every pytest run in this repository: `make test` is one pytest process, kept quick.

- nbval is loaded from here (pyproject's addopts say `-p no:nbval`) so that it comes after the
  stand-in below; `--nbval` compares the solved notebooks' outputs exactly, while `lessons/`
  (stored without outputs) only has to run, as with `--nbval-lax`. A progress bar's text is
  compared as "[progress bar]": it is stored as it ended and displayed at 0%.
- Scheduling (`make test` runs `-n 2 --dist loadscope`): the tests of a file stay together on
  one worker (a notebook's cells share a kernel; a module's fixtures are built once), except the
  files of `SPREAD`, many independent cases with no shared fixture, whose tests go to whichever
  worker is free: one 400-case file no longer keeps a worker busy while the other waits.
- `rfc3987_syntax` builds a parser for a large grammar when imported (most of a second), and
  jsonschema imports it at start-up through nbformat, in every pytest process. `mockllm.protocol.jsonschema_loader` defers that import to the first IRI
  format check, which the test suite never makes; the check itself behaves as before.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mockllm.protocol.jsonschema_loader import defer_iri_grammar

SCRIPTS = Path(__file__).parent / "scripts"

LAX_FOLDERS = {"lessons"}
SPREAD = {"tests/test_wrong_solutions.py", "tests/test_linear_time.py", "tests/test_check.py",
          "tests/test_gate_wrapped.py", "tests/test_fuzz_parsers.py"}
"""Files whose tests are spread over the workers one by one (no module-scoped fixture in them)."""


defer_iri_grammar()

pytest_plugins = [] if "nbval.plugin" in sys.modules else ["nbval.plugin"]


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Run the notebooks of `lessons/` without comparing outputs (they are stored without any);
    compare a progress bar as "[progress bar]" (stored as it ended, displayed at 0%)."""
    plugin = sys.modules.get("nbval.plugin")
    if plugin is not None and isinstance(collector, plugin.IPyNbFile):
        if str(SCRIPTS) not in sys.path:
            sys.path.insert(0, str(SCRIPTS))
        from notebook_tools import PROGRESS_METER, PROGRESS_SHOWN  # after defer_iri_grammar()
        collector.sanitize_patterns[PROGRESS_METER.pattern] = PROGRESS_SHOWN
        if collector.path.parent.name in LAX_FOLDERS:
            collector.compare_outputs = False



@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown, and unused, under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Under `--dist loadscope`: a file's tests are one unit of work, except in the files of SPREAD."""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileOrTestScheduling(LoadScopeScheduling):
        """LoadScopeScheduling whose scope is the file, or the test itself in a SPREAD file."""

        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return nodeid if file in SPREAD else file

    return FileOrTestScheduling(config, log)
