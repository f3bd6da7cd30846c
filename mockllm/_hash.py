"""Stable hashing: the only source of variation in the mock (never `hash()` or `random`)."""
from __future__ import annotations

import hashlib


def stable_int(*parts: object) -> int:
    """Return a 64-bit integer that depends only on the reprs of `parts`."""
    digest = hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def stable_id(prefix: str, *parts: object) -> str:
    """Return an id like `chatcmpl-3f2a...` derived from `parts`."""
    return f"{prefix}-{stable_int(*parts):016x}"
