"""The path to a real model: the same agent code with an OpenAI-compatible client.

Built in lesson 11 (Long tasks). Nothing here runs unless the learner opts in with
COURSE_REAL_MODEL=1 and gives a key (OPENAI_API_KEY) or an endpoint (OPENAI_BASE_URL, such as a
local llama.cpp or Ollama server, or `python -m mockllm serve`). The key is never printed.
"""
from __future__ import annotations

import importlib.util
from types import SimpleNamespace
from typing import Any, Mapping

OPT_IN = "COURSE_REAL_MODEL"
INSTALL = "pip install openai"
DEFAULT_MODEL = "gpt-4o-mini"


def real_model_status(env: Mapping[str, str]) -> tuple[bool, str]:
    """(ready, message): whether a real-model run may start, and what is missing if not."""
    if env.get(OPT_IN) != "1":
        return False, (f"Real model not used: set {OPT_IN}=1 to opt in, plus OPENAI_API_KEY "
                       "(the OpenAI API) or OPENAI_BASE_URL (any OpenAI-compatible endpoint, "
                       "a local server included).")
    if importlib.util.find_spec("openai") is None:
        return False, f"Real model not used: the openai package is missing ({INSTALL})."
    if not env.get("OPENAI_API_KEY") and not env.get("OPENAI_BASE_URL"):
        return False, ("Real model not used: neither OPENAI_API_KEY nor OPENAI_BASE_URL is set. "
                       "Set a key for the OpenAI API, or a base URL such as "
                       "http://127.0.0.1:8000/v1 for a local server.")
    where = "the endpoint in OPENAI_BASE_URL" if env.get("OPENAI_BASE_URL") else "the OpenAI API"
    return True, f"Real model: {model_name(env)} at {where}."


def model_name(env: Mapping[str, str]) -> str:
    """The model to ask for: COURSE_MODEL, else a small OpenAI model."""
    return env.get("COURSE_MODEL") or DEFAULT_MODEL


def real_client(env: Mapping[str, str]) -> Any:
    """An openai.OpenAI for the endpoint the environment names (a local server needs no key)."""
    import openai  # optional: only a learner who opts in needs it

    base_url = env.get("OPENAI_BASE_URL") or None
    api_key = env.get("OPENAI_API_KEY") or ("not-needed" if base_url else None)
    return openai.OpenAI(base_url=base_url, api_key=api_key)


class WithModel:
    """A client that asks for `model` whatever the caller names (the agent code stays as it is)."""

    def __init__(self, client: Any, model: str) -> None:
        self.client, self.model = client, model
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        """The wrapped client's reply to the request, with this client's model."""
        return self.client.chat.completions.create(**{**request, "model": self.model})
