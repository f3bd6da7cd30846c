"""Set-up of the unit tests.

- tests/frameworks/ needs the agent frameworks, installed only in .venv-frameworks: `make test`
  does not collect it; `make test-frameworks` runs it by path, where it is collected as usual.
- Hypothesis profiles: "default" (`make test`) gives each property of tests/test_fuzz_parsers.py
  its share of 3,000 examples; "long" (`make test-long`: HYPOTHESIS_PROFILE=long, or
  `--hypothesis-profile=long`) its share of 200,000. Both are derandomized (the same examples on
  every run, so CI is deterministic), write no example database and have no deadline.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

collect_ignore = ["frameworks"]

FUZZ_PROPERTIES = 8
"""The number of property tests in tests/test_fuzz_parsers.py (that module checks it)."""
EXAMPLES = {"default": 3_000, "long": 200_000}
"""Examples per profile, in total over the fuzz properties."""

for _name, _total in EXAMPLES.items():
    settings.register_profile(
        _name, max_examples=_total // FUZZ_PROPERTIES, deadline=None, derandomize=True,
        database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
