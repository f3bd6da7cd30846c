"""`logprobs=True`: deterministic log probabilities for the tokens of the reply's content.

Each token of the content (as `mockllm.protocol.tokens` splits it) gets an entry shaped like the
API's: `token`, `logprob`, `bytes` (its UTF-8 bytes) and `top_logprobs` (`top_logprobs=` of them,
0 to 20). The numbers come from a stable hash of the completion id, the position and the token:
the same request always gets the same numbers. The chosen token is mostly very likely (logprob
near 0); the alternatives share the rest of the probability, so the probabilities at a position
never sum to more than 1. They are not a model's beliefs, only numbers of the right shape.
A reply that is only tool calls has `logprobs.content == None`.
"""
from __future__ import annotations

import math

from mockllm.protocol.tokens import split_tokens
from mockllm.protocol.types import ChatCompletionTokenLogprob, ChoiceLogprobs, TopLogprob

_ALTERNATIVES = (" the", " a", ",", ".", " and", " to", " of", " is", "\n", " I", " it", " in",
                 " that", ":", " for", " you", " on", " with", " this", " be", " not", " we")


def _unit(*parts: object) -> float:
    """A number in [0, 1) that depends only on `parts` (a stable hash)."""
    from mockllm._hash import stable_int

    return stable_int("logprob", *parts) / 2.0 ** 64


def _alternatives(token: str, count: int) -> list[str]:
    """`count` tokens other than `token`: variants of it first, then common tokens."""
    stripped = token.strip()
    variants = [stripped, " " + stripped, stripped.lower(), stripped.capitalize(), stripped + "s"]
    out: list[str] = []
    for candidate in (*variants, *_ALTERNATIVES):
        if candidate and candidate != token and candidate not in out:
            out.append(candidate)
        if len(out) == count:
            break
    return out


def token_entry(token: str, position: int, salt: str, top: int) -> ChatCompletionTokenLogprob:
    """The logprob entry of one token at `position`, with `top` most likely tokens."""
    chosen = -round(2.5 * _unit(salt, position, token) ** 4, 6)  # mostly close to 0
    rest = max(1.0 - math.exp(chosen), 1e-9)
    ranked = [(token, chosen)]
    share = 1.0
    for rank, other in enumerate(_alternatives(token, max(0, top - 1))):
        share *= 0.2 + 0.3 * _unit(salt, position, token, rank)  # the shares sum to at most 1
        ranked.append((other, round(math.log(max(rest * share, 1e-12)), 6)))
    ranked.sort(key=lambda pair: -pair[1])
    tops = [TopLogprob(token=t, bytes=list(t.encode("utf-8", "surrogatepass")), logprob=lp)
            for t, lp in ranked[:top]]
    return ChatCompletionTokenLogprob(token=token, bytes=list(token.encode("utf-8", "surrogatepass")),
                                      logprob=chosen, top_logprobs=tops)


def content_logprobs(content: str | None, top: int, salt: str) -> ChoiceLogprobs:
    """The `choices[0].logprobs` of a reply: one entry per content token (None without content)."""
    if content is None:
        return ChoiceLogprobs(content=None, refusal=None)
    entries = [token_entry(token, i, salt, top) for i, token in enumerate(split_tokens(content))]
    return ChoiceLogprobs(content=entries, refusal=None)
