"""The hash of a request's messages (the start of a completion's id), resumed from an earlier state.

An agent resends its whole conversation at every step, two messages longer each time (the
model's reply and its observation). Hashing all of it again costs as much as it is long, so the
hash state after a request's messages but its last two, and after all of them, is remembered (at
most MAX_STATES of them): a later request that starts with the same messages only hashes the rest.
The state is byte for byte the one hashing the joined text from scratch gives (`digest_of`).
"""
from __future__ import annotations

from functools import lru_cache

from mockllm.reading.recent import Recent

MAX_STATES = 64
"""Hash states remembered (a bounded memo: the oldest is dropped first)."""
MIN_HEAD = 8
"""Parts before the last two messages below which hashing from scratch is cheaper than a look-up."""
_SEP = "\x1f"
_STATES = Recent(MAX_STATES)
"""Parts already hashed -> the hash state after them (never updated in place: copied first)."""


@lru_cache(maxsize=1)
def _sha1() -> object:
    """hashlib.sha1, imported on first use: `import mockllm` stays fast. An id needs no secrecy,
    and SHA-1 hashes a prompt faster than blake2b where the processor has SHA instructions."""
    import hashlib
    return hashlib.sha1


def _encoded(text: str) -> bytes:
    """The text as the digest hashes it (UTF-8, lone surrogates kept)."""
    return text.encode("utf-8", "surrogatepass")


def _state_of(parts: list[str] | tuple[str, ...]) -> object:
    """The hash state after `parts` joined by U+001F, hashed from scratch."""
    return _sha1()(_encoded(_SEP.join(parts)))


def digest_of(parts: list[str] | tuple[str, ...]) -> str:
    """The hex digest of `parts` joined by U+001F, hashed from scratch."""
    return _state_of(parts).hexdigest()


def messages_state(parts: list[str], cut: int) -> object:
    """The state `_state_of(parts)` (the caller's own copy, to update or finish), resumed from
    the remembered state after `parts[:cut]` when there is one."""
    if cut < MIN_HEAD:
        return _state_of(parts)
    head = tuple(parts[:cut])
    state = _STATES.get(head)
    if state is None:
        state = _STATES.remember(head, _state_of(head))
    full = state.copy()
    if cut < len(parts):
        full.update(_encoded((_SEP if head else "") + _SEP.join(parts[cut:])))
        _STATES.remember(tuple(parts), full.copy())
    return full


def messages_digest(parts: list[str], cut: int) -> str:
    """`digest_of(parts)`, resumed from the remembered state after `parts[:cut]` when there is one."""
    return messages_state(parts, cut).hexdigest()


def finish_id(state: object, parts: tuple) -> str:
    """16 hex digits from a messages state (updated in place) and the repr of the other `parts`."""
    state.update(_encoded(_SEP + repr(parts)))
    return state.hexdigest()[:16]
