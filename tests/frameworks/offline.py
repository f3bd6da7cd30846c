"""What keeps the agent frameworks offline, and the mock server their tests share.

Both environments of `make test-frameworks` use it (tests/frameworks/conftest.py, and
tests/frameworks/openai2/conftest.py for the frameworks that need openai<3): `go_offline()` sets
the switches that turn off tracing, telemetry, price-list and hub downloads, before any framework
is imported; `served()` runs a mock server on a free loopback port for one test session.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

OFFLINE = {
    "OTEL_SDK_DISABLED": "true",                # OpenTelemetry (pydantic-ai, litellm, crewAI)
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


def go_offline() -> None:
    """Set the OFFLINE switches, and give DSPy and crewAI fresh storage removed at exit."""
    os.environ.update(OFFLINE)
    storage = tempfile.mkdtemp(prefix="frameworks-")
    os.environ["DSPY_CACHEDIR"] = os.path.join(storage, "dspy")    # DSPy's disk cache
    os.environ["CREWAI_STORAGE_DIR"] = os.path.join(storage, "crewai")
    atexit.register(shutil.rmtree, storage, True)


def served() -> Iterator[str]:
    """Yield the base URL of a mock server on 127.0.0.1; stop it (SIGTERM) and check it exited
    cleanly, with no traceback, at the end."""
    from mockllm.serve.spawn import ServerProcess

    server = ServerProcess().start()
    try:
        yield server.url
    finally:
        code = server.stop()
    assert code == 0, f"the mock server exited with {code}: {server.errors()[-2000:]}"
    assert "Traceback" not in server.errors(), server.errors()[-2000:]
