"""mockllm: an offline, deterministic, OpenAI-shaped chat model and the world its tools read."""
# One request flows through the sub-packages in this order; each imports only those above it
# (tests/test_layout.py checks it, and that there are no import circles):
#
#     reading/    read the conversation: tools and rules in the prompt, earlier steps, corrections
#     brain/      decide the next move: the question's family, its plan, facts from observations
#     behaviour/  the persona: which quirks act on the move and on the text, and when
#     reply/      put it together: decide, apply the quirks, render ReAct text or tool_calls
#     protocol/   the OpenAI-shaped client: validate the request, run the above, build the response
#
# world/ is the simulated world the tools read; the model itself never imports it.
#
# serve/ (above protocol/) puts the mock behind HTTP: `openai_client()` and `async_openai_client()`
# (real openai SDK clients, the mock as their transport) and `python -m mockllm serve`.
#
# `find_rules(prompt)`, `read_tools_text(prompt)`, `read_memory(prompt)` and `find_instruction(text)`
# say what the mock reads in a text: the prompt rules it recognises, the tools it finds in a
# prompt's tool list, the facts it reads in a memory section, the instruction it would obey in an
# observation. They are the public face of the readers the model
# itself uses, so a lesson or a test can ask what the model sees without reaching into its stages.
#
# `personas()` and `rulebook()` are functions defined in `mockllm.behaviour.personas`, and
# `openai_client()` and `async_openai_client()` in `mockllm.serve.sdk`; they load on first use, so
# `import mockllm` stays fast and never imports openai. (The persona table lives in a package named
# `behaviour`, not `personas`, so the function `mockllm.personas` never clashes with a submodule.)
from __future__ import annotations

from mockllm.protocol.client import MockLLM
from mockllm.protocol.errors import (APITimeoutError, MockAPIError, RateLimitError,
                                     ScriptExhaustedError)

__version__ = "0.1.0"   # kept equal to pyproject.toml's version (tests/test_layout.py checks it)

__all__ = [
    "MockLLM", "personas", "rulebook", "openai_client", "async_openai_client",
    "MockAPIError", "RateLimitError", "APITimeoutError", "ScriptExhaustedError",
    "find_rules", "read_tools_text", "read_memory", "find_instruction",
]

_LAZY = {"personas": "mockllm.behaviour.personas", "rulebook": "mockllm.behaviour.personas",
         "openai_client": "mockllm.serve.sdk", "async_openai_client": "mockllm.serve.sdk",
         "find_rules": "mockllm.reading.system_prompt", "read_tools_text": "mockllm.reading.system_prompt",
         "read_memory": "mockllm.reading.system_prompt",
         "find_instruction": "mockllm.behaviour.quirks_move"}


def __getattr__(name: str) -> object:
    """The lazily imported public names (`personas`, `rulebook`, `openai_client`, ...), on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module 'mockllm' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
