"""One question, one answer: the smallest useful call to a chat model. Built in lesson 00 (Welcome)."""
from __future__ import annotations

from typing import Any


def ask(client: Any, question: str, *, system: str | None = None, model: str = "mock-react") -> str:
    """Ask `question` once and return the reply text. Built in lesson 00 (Welcome)."""
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    messages = []
    if system is not None:
        messages.append({"role": "system", "content": system})
    messages.append({"role": "user", "content": question})
    response = client.chat.completions.create(model=model, messages=messages)
    return response.choices[0].message.content
