"""Agent frameworks against the mock, offline (`make test-frameworks`, in .venv-frameworks).

Each framework gets the mock the way it takes a model: a real openai client from
`mockllm.openai_client()` / `async_openai_client()` where it accepts one, else the URL of a mock
server started here on a free loopback port. Sockets may reach loopback only (pytest-socket's
`--allow-hosts`, set by the Makefile), and the switches below keep the frameworks from phoning
home: tracing, telemetry, price lists and hub downloads are all off.
"""
from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

OFFLINE = {
    "OTEL_SDK_DISABLED": "true",                # OpenTelemetry (pydantic-ai via logfire-api, litellm)
    "LANGCHAIN_TRACING_V2": "false",            # LangSmith tracing
    "LANGSMITH_TRACING": "false",
    "OPENAI_AGENTS_DISABLE_TRACING": "1",       # openai-agents' trace export to the OpenAI API
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",     # litellm: the bundled price list, not a download
    "LITELLM_TELEMETRY": "False",
    "HF_HUB_OFFLINE": "1",                      # smolagents: no Hugging Face Hub calls
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "OPENAI_API_KEY": "mock",                   # some frameworks insist on a key being set
    "CREWAI_DISABLE_TELEMETRY": "true",         # crewAI: no telemetry, no trace upload
    "CREWAI_DISABLE_TRACKING": "true",
    "CREWAI_TRACING_ENABLED": "false",
    "ANONYMIZED_TELEMETRY": "False",            # chromadb (crewAI's memory)
}
os.environ.update(OFFLINE)
_CACHE = tempfile.mkdtemp(prefix="dspy-cache-")
os.environ["DSPY_CACHEDIR"] = _CACHE            # DSPy's disk cache: a fresh one, removed at exit
atexit.register(shutil.rmtree, _CACHE, True)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: prompt_templates

import pytest  # noqa: E402

from mockllm import async_openai_client, openai_client  # noqa: E402
from mockllm.serve.spawn import ServerProcess  # noqa: E402


@pytest.fixture(scope="session")
def server_url() -> object:
    """The base URL of a mock server on a free loopback port, stopped (SIGTERM) at the end."""
    server = ServerProcess().start()
    try:
        yield server.url
    finally:
        code = server.stop()
    assert code == 0, f"the mock server exited with {code}: {server.errors()[-2000:]}"
    assert "Traceback" not in server.errors(), server.errors()[-2000:]


@pytest.fixture
def sdk_clients() -> tuple:
    """(openai.OpenAI, openai.AsyncOpenAI), both served by the mock in process, no quirks."""
    return openai_client(persona=None), async_openai_client(persona=None)
