"""The responses kept for `previous_response_id`: the conversation each one ends, in a bounded memo.

A response created with `store` not False (the API's default) is kept as the chat messages of its
conversation without the instructions (its input after the earlier responses' conversations, and
its own output as an assistant message), so a request that names it in `previous_response_id`
continues from there, as the API carries the input and output over (and not the instructions).
The memo is the process's, shared by every client in it (the server's sessions too), and holds the
newest CAPACITY responses: an older or unknown id is a 400, as the API answers for an id it does
not have. Nothing is written to disk; a new process starts empty.
"""
from __future__ import annotations

from mockllm.reading.recent import Recent

CAPACITY = 1024
"""Responses kept at most (the oldest is dropped first)."""
_STORED = Recent(CAPACITY)


def remember(response_id: str, conversation: tuple[dict, ...]) -> None:
    """Keep `conversation` (chat messages, the response's output last) under `response_id`."""
    _STORED.remember(response_id, conversation)


def recall(response_id: object) -> tuple[dict, ...]:
    """The conversation a stored response ended, or the 400 for an id the mock does not have."""
    conversation = _STORED.get(response_id) if isinstance(response_id, str) else None
    if conversation is None:
        raise ValueError(f"Invalid value for 'previous_response_id': previous response with id "
                         f"{response_id!r:.80} not found. The mock keeps the newest {CAPACITY} "
                         "responses created with store=True in this process (none after a "
                         "restart); or send the whole conversation in input.")
    return conversation


def known(response_id: object) -> tuple[dict, ...]:
    """The conversation of a stored response, or () (never raises: for naming a conversation)."""
    return (_STORED.get(response_id) or ()) if isinstance(response_id, str) else ()
