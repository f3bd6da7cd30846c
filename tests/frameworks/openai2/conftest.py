"""crewAI and instructor against the mock server, offline (`make test-frameworks`, in
.venv-frameworks-openai2, whose openai is 2.x: they reach the mock by its URL only)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # offline.py, agent_task.py

from offline import go_offline, served  # noqa: E402

go_offline()

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def server_url() -> object:
    """The base URL of a mock server on a free loopback port, stopped (SIGTERM) at the end."""
    yield from served()
