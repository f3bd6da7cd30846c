"""Prompt caching: the tokens of a prompt's start that an earlier request already sent.

The rule, modelled on the hosted APIs' automatic caching (OpenAI's: prompts of 1,024 tokens or
more, cache hits in increments of 128 tokens):

- A prompt is read as one sequence of tokens, in the order a model reads it: the tools (as the
  token count sees them), then each message (the PER_MESSAGE_TOKENS tokens of its role and
  separators, its content, its tool calls), then the tokens that start the reply. Its length is
  `usage.prompt_tokens`.
- Its prefixes that end at 1,024 tokens, 1,152, 1,280, ... (every BLOCK tokens from MIN_TOKENS),
  and before its last token, are its cacheable prefixes. Each is remembered by a digest of the
  model name and the prefix's text (SHA-1; never Python's `hash()`).
- `cached_tokens` is the length of the longest cacheable prefix of this prompt that an earlier
  request to the same memory sent; 0 when there is none (always 0 below 1,024 tokens). Then the
  prompt's own prefixes are remembered.
- The memory belongs to one client: a `MockLLM` (so a fresh client starts cold), an
  `openai_client()`, or a server (shared by all its sessions; a request answered in its second
  process, `--offload-bytes`, meets that process's memory). It keeps the newest MAX_PREFIXES
  digests, a hit counting as new; nothing expires with time, as the mock has no wall clock.
"""
from __future__ import annotations

import threading
from functools import lru_cache

from mockllm.protocol.tokens import _count, _token_re

MIN_TOKENS = 1024
"""The shortest prompt, and prefix, that is cached."""
BLOCK = 128
"""Cached prefixes grow in steps of this many tokens."""
MAX_PREFIXES = 16384
"""Prefix digests a memory keeps (the least recently used is dropped first)."""
_MARK = b"\xff"  # never in UTF-8 text: separates the parts of the prompt unambiguously


class PromptCache:
    """One client's memory of the prompt prefixes it was sent (bounded, deterministic)."""

    def __init__(self, size: int = MAX_PREFIXES) -> None:
        self.size = size
        self._seen: dict[bytes, None] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._seen)

    def cached_tokens(self, model: str, parts: list[tuple[bytes, str | None]], total: int) -> int:
        """The cached tokens of a prompt of `total` tokens made of `parts` (see `prompt_parts`);
        its cacheable prefixes are remembered."""
        if total <= MIN_TOKENS:
            return 0
        prefixes = prefix_digests(model, parts, total)
        with self._lock:
            seen = self._seen
            hit = 0
            for length, digest in prefixes:
                if digest in seen:
                    hit = length
            for _, digest in prefixes:
                seen.pop(digest, None)
                seen[digest] = None
            while len(seen) > self.size:
                del seen[next(iter(seen))]
        return hit


def prefix_digests(model: str, parts: list[tuple[bytes, str | None]], total: int) -> list[tuple[int, bytes]]:
    """(length, digest) of each cacheable prefix of the prompt, shortest first.

    `parts` are (marker, text): a marker (bytes, one token) such as a message's role, or a text
    (its tokens as `tokens.count_tokens` counts them)."""
    import hashlib

    state = hashlib.sha1(model.encode("utf-8", "surrogatepass") + _MARK)
    last = total - 1  # the prompt's last token is never cached
    boundary, done, out = MIN_TOKENS, 0, []
    for marker, text in parts:
        if boundary > last:
            break
        if text is None:
            state.update(_MARK + marker)
            done += 1
            if done == boundary:
                out.append((boundary, state.copy().digest()))
                boundary += BLOCK
            continue
        tokens = _count(text)
        if done + tokens < boundary:
            state.update(_MARK + _encoded(text))
            done += tokens
            continue
        state.update(_MARK)
        start = 0
        for end in _ends(text, boundary - done, min(done + tokens, last) - done):
            state.update(_encoded(text[start:end]))
            start = end
            out.append((boundary, state.copy().digest()))
            boundary += BLOCK
        state.update(_encoded(text[start:]))
        done += tokens
    return out


def _ends(text: str, first: int, most: int) -> list[int]:
    """The character offsets in `text` after its token number `first`, `first + BLOCK`, ... up to
    token number `most` (1-based counts of whole tokens)."""
    if len(text) <= 4096:
        ends = _token_ends(text)
    else:
        ends = [match.end() for match in _token_re().finditer(text)]
    return [ends[count - 1] for count in range(first, min(most, len(ends)) + 1, BLOCK)]


@lru_cache(maxsize=512)
def _token_ends(text: str) -> list[int]:
    """The end offset of every token of a short text (memoised: a system prompt comes every call)."""
    return [match.end() for match in _token_re().finditer(text)]


def _encoded(text: str) -> bytes:
    """The text as the digests read it (UTF-8, lone surrogates kept)."""
    return text.encode("utf-8", "surrogatepass")
