"""The context window before the call: estimate the next prompt, fit it, and cut long results well.

Built in lesson 13 (Tokens in practice). `estimate_prompt_tokens` counts a prompt as the mock's
`usage.prompt_tokens` does, before it is sent; `fit_to_window` drops the oldest steps until the
prompt and the room kept for the reply fit in the model's window; `truncate_middle` keeps a long
result's head and tail; `ResultStore` keeps whole results and gives the model a handle instead.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from mockllm.protocol.tokens import count_tokens
from solutions.tools import ToolRegistry

PER_MESSAGE_TOKENS = 4
"""Prompt tokens each message costs besides its content (its role and separators)."""
REPLY_PRIMING_TOKENS = 3
"""Prompt tokens that start the model's reply."""


def estimate_prompt_tokens(messages: list[dict]) -> int:
    """The prompt tokens `messages` will cost, counted before the call. Built in lesson 13 (Tokens in practice).

    The mock's rule (`usage.prompt_tokens` for messages of text): each message's content in the
    mock's tokens, 4 tokens a message, 3 for the reply's start. For a real model, count with its
    own tokenizer (OpenAI's is tiktoken) and the overheads its provider documents.
    """
    return REPLY_PRIMING_TOKENS + sum(PER_MESSAGE_TOKENS + count_tokens(message.get("content") or "")
                                      for message in messages)


def fit_to_window(messages: list[dict], window: int, reserve: int = 0) -> list[dict]:
    """The messages to send: the oldest steps left out until the prompt and `reserve` fit in `window`.

    Built in lesson 13 (Tokens in practice). The opening (every message up to the first user
    message: the system prompt and the question) and the last step are always kept; a step (an
    assistant reply with the observations after it) is left out whole, oldest first. `messages`
    is not changed. ValueError when even the opening and the last step do not fit.
    """
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"window must be an int of at least 1, got {window!r}")
    if isinstance(reserve, bool) or not isinstance(reserve, int) or reserve < 0:
        raise ValueError(f"reserve must be an int of 0 or more, got {reserve!r}")
    if not isinstance(messages, list) or not all(isinstance(message, dict) for message in messages):
        raise TypeError("messages must be a list of message dicts, {'role': ..., 'content': ...}")
    question = next((i for i, message in enumerate(messages) if message.get("role") == "user"), None)
    if question is None:
        raise ValueError("messages need a user message (the question) to keep")
    opening, rest = list(messages[:question + 1]), list(messages[question + 1:])
    starts = [i for i, message in enumerate(rest) if message.get("role") == "assistant"]
    steps = [rest[a:b] for a, b in zip([0, *starts], [*starts, len(rest)]) if a < b]
    sizes = [estimate_prompt_tokens(step) - REPLY_PRIMING_TOKENS for step in steps]  # what each step adds
    total, first = estimate_prompt_tokens(opening) + sum(sizes), 0
    while total + reserve > window and first < len(steps) - 1:
        total -= sizes[first]  # leave out the oldest step still kept
        first += 1
    if total + reserve > window:
        raise ValueError(f"cannot fit the prompt in the window: the opening and the last step take "
                         f"{total} tokens, and the reply {reserve}, over the window of {window}")
    return opening + [message for step in steps[first:] for message in step]


def truncate_middle(text: str, limit: int) -> str:
    """The first and last `limit // 2` characters of `text`, a marker between them. Built in lesson 13 (Tokens in practice).

    Tools often end with what matters most (a summary line, an error, a total): a cut that keeps
    only the head loses it.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be an int of at least 1 (characters), got {limit!r}")
    if len(text) <= limit:
        return text
    head, tail = text[:limit // 2], text[len(text) - (limit - limit // 2):]
    return f"{head}\n... [{len(text) - limit:,} of {len(text):,} characters left out here] ...\n{tail}"


def cutting_tools(tools: ToolRegistry, cut: Callable[[str], str]) -> ToolRegistry:
    """A copy of `tools` whose results, as text, go through `cut` (every other field, the dangerous flag too, kept). Built in lesson 13 (Tokens in practice)."""
    def cutting(function: Any) -> Any:
        return lambda **arguments: cut(str(function(**arguments)))
    return ToolRegistry(replace(tool, function=cutting(tool.function)) for tool in tools)


class ResultStore:
    """Whole tool results kept by the program; the model is shown a preview and a handle. Built in lesson 13 (Tokens in practice)."""

    def __init__(self) -> None:
        self.results: dict[str, str] = {}

    def keep(self, text: str, limit: int) -> str:
        """Store `text`; return it whole when short, else its head and tail and the handle."""
        if len(text) <= limit:
            return text
        handle = f"result-{len(self.results) + 1}"
        self.results[handle] = text
        return (f"{truncate_middle(text, limit)}\n[the whole result, {len(text):,} characters, is "
                f"stored as {handle}]")

    def tools(self, tools: ToolRegistry, limit: int) -> ToolRegistry:
        """A copy of `tools` whose long results are stored here and previewed (`keep`)."""
        return cutting_tools(tools, lambda text: self.keep(text, limit))
