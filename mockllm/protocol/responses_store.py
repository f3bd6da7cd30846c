"""The responses kept for `previous_response_id`: the conversation each one ends, in a bounded memo.

A response created with `store` not False (the API's default) is kept as the chat messages of its
conversation without the instructions (its input after the earlier responses' conversations, and
its own output as an assistant message), so a request that names it in `previous_response_id`
continues from there, as the API carries the input and output over (and not the instructions).
The memo is the process's, shared by every client in it (the server's sessions too), and holds the
newest responses, at most CAPACITY of them and MAX_CHARS characters of their conversations (the
oldest are dropped first): an older or unknown id is a 400, as the API answers for an id it does
not have. Nothing is written to disk; a new process starts empty.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

CAPACITY = 1024
"""Responses kept at most."""
MAX_CHARS = 64 * 1024 * 1024
"""Characters of message text kept at most, over all the conversations kept (a server's memory)."""


class _Store:
    """Conversations by response id, the newest last, within CAPACITY entries and MAX_CHARS."""

    def __init__(self) -> None:
        self.entries: OrderedDict[str, tuple[tuple[dict, ...], int]] = OrderedDict()
        self.chars = 0
        self.lock = threading.Lock()  # the server's worker threads store and read at once

    def put(self, key: str, conversation: tuple[dict, ...], size: int) -> None:
        """Keep `conversation` (`size` characters) under `key`; drop the oldest beyond the bounds."""
        with self.lock:
            old = self.entries.pop(key, None)
            self.chars += size - (old[1] if old else 0)
            self.entries[key] = (conversation, size)
            while len(self.entries) > CAPACITY or (self.chars > MAX_CHARS
                                                   and len(self.entries) > 1):
                self.chars -= self.entries.popitem(last=False)[1][1]


_STORED = _Store()


def _size(conversation: tuple[dict, ...]) -> int:
    """The characters of a conversation's contents and tool-call arguments."""
    total = 0
    for message in conversation:
        total += len(message.get("content") or "")
        for call in message.get("tool_calls") or ():
            total += len(call["function"]["arguments"])
    return total


def remember(response_id: str, conversation: tuple[dict, ...]) -> None:
    """Keep `conversation` (chat messages, the response's output last) under `response_id`."""
    _STORED.put(response_id, conversation, _size(conversation))


def known(response_id: object) -> tuple[dict, ...]:
    """The conversation of a stored response, or () (never raises: for naming a conversation)."""
    entry = _STORED.entries.get(response_id) if isinstance(response_id, str) else None
    return entry[0] if entry is not None else ()


def recall(response_id: object) -> tuple[dict, ...]:
    """The conversation a stored response ended, or the 400 for an id the mock does not have."""
    conversation = known(response_id)
    if not conversation:
        raise ValueError(f"Invalid value for 'previous_response_id': previous response with id "
                         f"{response_id!r:.80} not found. The mock keeps the newest responses "
                         "created with store=True in this process (none after a restart); or "
                         "send the whole conversation in input.")
    return conversation
