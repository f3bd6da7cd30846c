"""Cached and reasoning tokens: read them from `usage`, price them, and count streamed calls too.

Built in lesson 13 (Tokens in practice). `Details` is one call's usage with the API's details
(cached prompt tokens, hidden reasoning tokens); `DetailMeter` is lesson 07's `UsageMeter` that
also keeps them, and counts streamed calls from their last chunk; `cost_with_cache` prices a run
whose cached prompt tokens are billed at a lower rate.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from solutions.budget import Usage, UsageMeter


@dataclass(frozen=True)
class Details:
    """One call's tokens with the API's details: cached prompt tokens and hidden reasoning tokens."""

    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    finish_reason: str | None = None


def details_of(usage: Any, finish_reason: str | None = None) -> Details:
    """The Details of an API `usage` (zeros for the details a client does not report). Built in lesson 13 (Tokens in practice)."""
    prompt = getattr(usage, "prompt_tokens_details", None)
    completion = getattr(usage, "completion_tokens_details", None)
    return Details(getattr(usage, "prompt_tokens", 0) or 0, getattr(prompt, "cached_tokens", 0) or 0,
                   getattr(usage, "completion_tokens", 0) or 0,
                   getattr(completion, "reasoning_tokens", 0) or 0, finish_reason)


class DetailMeter(UsageMeter):
    """Lesson 07's UsageMeter that keeps each call's Details, streamed calls included. Built in lesson 13 (Tokens in practice).

    A streamed call is sent with `stream_options={"include_usage": True}`, so that its last
    chunk carries the usage; the call is counted when that chunk has been read.
    """

    def __init__(self, client: Any) -> None:
        """Wrap `client`, an OpenAI-style client with .chat.completions.create."""
        super().__init__(client)
        self.details: list[Details] = []

    def create(self, **request: Any) -> Any:
        """Call the wrapped client; record the usage now, or at a stream's last chunk."""
        if not request.get("stream"):
            response = super().create(**request)
            self.details.append(details_of(response.usage, self.calls[-1].finish_reason))
            return response
        options = {**(request.get("stream_options") or {}), "include_usage": True}
        return self._counted(self.client.chat.completions.create(**{**request, "stream_options": options}))

    def _counted(self, stream: Any) -> Iterator[Any]:
        """Yield the stream's chunks; record the usage its last chunk carries."""
        finish = None
        for chunk in stream:
            if chunk.choices and chunk.choices[0].finish_reason:
                finish = chunk.choices[0].finish_reason
            if chunk.usage is not None:
                self.calls.append(Usage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens, finish))
                self.details.append(details_of(chunk.usage, finish))
            yield chunk

    @property
    def cached_tokens(self) -> int:
        """Cached prompt tokens of every call so far."""
        return sum(call.cached_tokens for call in self.details)

    @property
    def reasoning_tokens(self) -> int:
        """Hidden reasoning tokens of every call so far (they are completion tokens too)."""
        return sum(call.reasoning_tokens for call in self.details)


@dataclass(frozen=True)
class CachePrice:
    """US dollars per million tokens: input, cached input and output tokens."""

    input: float
    cached_input: float
    output: float


CACHE_PRICES = {"small model": CachePrice(input=0.15, cached_input=0.015, output=0.60),
                "large model": CachePrice(input=2.50, cached_input=0.25, output=10.00)}
"""Illustrative prices, lesson 07's with cached input at a tenth of the input price (as some
providers charge; others take half, and some charge extra to write the cache): read your
provider's price list before you trust a figure."""


def cost_with_cache(calls: list[Details], price: CachePrice) -> float:
    """The price in US dollars of `calls`, cached prompt tokens at their own rate. Built in lesson 13 (Tokens in practice)."""
    return sum((call.prompt_tokens - call.cached_tokens) * price.input + call.cached_tokens * price.cached_input
               + call.completion_tokens * price.output for call in calls) / 1_000_000
