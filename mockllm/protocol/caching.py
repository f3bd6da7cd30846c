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
from collections.abc import Callable
from functools import lru_cache

from mockllm.protocol.tokens import _count, _token_re
from mockllm.reading.recent import Recent

Part = tuple[bytes, "str | None"]

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

    def cached_tokens(self, model: str, parts_from: Callable[[int], list[Part]], total: int,
                      head: tuple | None = None, cut: int = 0, whole: tuple | None = None,
                      closing: int = 0) -> int:
        """The cached tokens of a prompt of `total` tokens; its cacheable prefixes are remembered.

        `parts_from(k)` gives the prompt's parts (see `prefix_digests`) from its message `k` on;
        `head`, when given, names the prompt's first `cut` messages (their roles and contents),
        so that the digests after them are remembered and a resent conversation hashes only its
        new messages (`whole` names every message, `closing` counts the parts after them)."""
        if total <= MIN_TOKENS:
            return 0
        prefixes = prefix_digests(model, parts_from, total, head, cut, whole, closing)
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


class _Chain:
    """The digest's state partway through a prompt: tokens read, the next boundary, the digests."""

    __slots__ = ("state", "done", "boundary", "out")

    def __init__(self, state: object, done: int, boundary: int, out: list[tuple[int, bytes]]) -> None:
        self.state, self.done, self.boundary, self.out = state, done, boundary, out

    def copy(self) -> _Chain:
        """An independent copy, to read on from."""
        return _Chain(self.state.copy(), self.done, self.boundary, list(self.out))


_CHAINS = Recent(64)
"""(model, the first messages' roles and contents) -> the _Chain after them (a bounded memo)."""


def prefix_digests(model: str, parts_from: Callable[[int], list[Part]], total: int,
                   head: tuple | None = None, cut: int = 0, whole: tuple | None = None,
                   closing: int = 0) -> list[tuple[int, bytes]]:
    """(length, digest) of each cacheable prefix of the prompt, shortest first.

    A part is (marker, None), one token such as a message's role, or (b"", text), the tokens of
    `text` as `tokens.count_tokens` counts them. With `head`, the chain after the first `cut`
    messages is remembered under it, and under `whole` the chain after every message (the
    prompt's last `closing` parts, the reply's start, come after them); their prefixes all end
    before the prompt's last token, so the chains do not depend on its length."""
    if head is None:
        return _read(_start(model), parts_from(0), total - 1).out
    chain, tail = _CHAINS.get(head), parts_from(cut)
    if chain is None:
        every = parts_from(0)
        chain = _CHAINS.remember(head, _read(_start(model), every[:len(every) - len(tail)], None))
    chain = _read(chain.copy(), tail[:len(tail) - closing], None)  # the messages: before the last token
    if whole is not None:  # the next request of an agent's run starts with all of these messages
        _CHAINS.remember(whole, chain.copy())
    return _read(chain, tail[len(tail) - closing:], total - 1).out


def _start(model: str) -> _Chain:
    """The chain at the start of a prompt to `model`."""
    import hashlib

    return _Chain(hashlib.sha1(model.encode("utf-8", "surrogatepass") + _MARK), 0, MIN_TOKENS, [])


def _read(chain: _Chain, parts: list[Part], last: int | None) -> _Chain:
    """Read `parts` into `chain` (in place), recording a digest at each boundary up to `last`."""
    state, done, boundary, out = chain.state, chain.done, chain.boundary, chain.out
    for marker, text in parts:
        if last is not None and boundary > last:
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
        begin = 0
        most = done + tokens if last is None else min(done + tokens, last)
        for end in _ends(text, boundary - done, most - done):
            state.update(_encoded(text[begin:end]))
            begin = end
            out.append((boundary, state.copy().digest()))
            boundary += BLOCK
        state.update(_encoded(text[begin:]))
        done += tokens
    chain.done, chain.boundary = done, boundary
    return chain


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
