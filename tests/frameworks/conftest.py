"""Agent frameworks against the mock, offline (`make test-frameworks`, in .venv-frameworks).

Each framework gets the mock the way it takes a model: a real openai client from
`mockllm.openai_client()` / `async_openai_client()` where it accepts one, else the URL of a mock
server started here on a free loopback port. Sockets may reach loopback only (pytest-socket's
`--allow-hosts`, set by the Makefile), and `offline.go_offline()` keeps the frameworks from
phoning home: tracing, telemetry, price lists and hub downloads are all off. crewAI and
instructor need openai<3: their tests (openai2/) run in an environment of their own.
"""
from __future__ import annotations

import sys
from pathlib import Path

from offline import go_offline, served

go_offline()
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: prompt_templates

import pytest  # noqa: E402

collect_ignore = ["openai2"]  # crewAI and instructor: their own environment (make test-frameworks)

from mockllm import async_openai_client, openai_client  # noqa: E402


@pytest.fixture(scope="session")
def server_url() -> object:
    """The base URL of a mock server on a free loopback port, stopped (SIGTERM) at the end."""
    yield from served()


@pytest.fixture
def sdk_clients() -> tuple:
    """(openai.OpenAI, openai.AsyncOpenAI), both served by the mock in process, no quirks."""
    return openai_client(persona=None), async_openai_client(persona=None)
