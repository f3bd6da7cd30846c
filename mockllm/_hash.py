"""Stable hashing: the only source of variation in the mock (never `hash()` or `random`)."""
from __future__ import annotations

from hashlib import blake2b


def _digest(parts: tuple) -> bytes:
    """The 8-byte blake2b digest of the repr of `parts`."""
    return blake2b(repr(parts).encode("utf-8"), digest_size=8).digest()


def stable_int(*parts: object) -> int:
    """Return a 64-bit integer that depends only on the reprs of `parts`."""
    return int.from_bytes(_digest(parts), "big")


def stable_id(prefix: str, *parts: object) -> str:
    """Return an id like `chatcmpl-3f2a...` derived from `parts` (16 hex digits: `stable_int`'s)."""
    return f"{prefix}-{_digest(parts).hex()}"
