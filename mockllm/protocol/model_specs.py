"""What each model name is: its context window, and whether it is a reasoning model.

A request names its model; the part before the first `:` is the base (`mock-react:sloppy:3` is
`mock-react`, as the server reads it). The base names the mock knows are in MODELS; any other name
(a framework may send `gpt-4o-mini`) is read as `mock-react`. Every model is the same policy and
persona behind the name: only the limits below differ, except `mock-judge`, which answers a judging
prompt with a verdict (mockllm/reply/judge.py) and reads no persona.

- **Context window**: the prompt tokens (`usage.prompt_tokens`), plus `max_completion_tokens` (or
  `max_tokens`) when given, must fit in it, else the request is refused with the API's 400
  `context_length_exceeded` (`check_window`). `mock-react`'s is larger than any request the
  server accepts (8 MiB), so the default model never refuses for length.
- **Reasoning**: a reasoning model thinks before it writes, in tokens the caller never sees:
  REASONING_PER_TOKEN[reasoning_effort] hidden tokens for each token of its reply ("medium" when
  not given). They count in `completion_tokens` and are reported in
  `completion_tokens_details.reasoning_tokens`; `max_completion_tokens` bounds them and the reply
  together. Like the API's reasoning models it refuses `max_tokens` (deprecated: use
  `max_completion_tokens`), `stop`, `logprobs`, `top_logprobs` and `logit_bias`, and a
  `temperature`, `top_p`, `presence_penalty` or `frequency_penalty` other than the default
  (`check_reasoning_params`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import NamedTuple

from mockllm.protocol.errors import (ContextLengthExceededError, UnsupportedParameterError,
                                     UnsupportedValueError, raise_bad_request)


class ModelSpec(NamedTuple):
    """A model's limits: its context window in tokens, whether it reasons before replying, and
    whether it is the judge (mockllm/reply/judge.py) rather than the agent's model."""

    context_window: int
    reasoning: bool = False
    judge: bool = False


DEFAULT_MODEL = "mock-react"
MODELS: dict[str, ModelSpec] = {
    "mock-react": ModelSpec(16_777_216),
    "mock-react-4k": ModelSpec(4_096),
    "mock-reasoning": ModelSpec(200_000, reasoning=True),
    "mock-judge": ModelSpec(128_000, judge=True),
}
"""The base model names the mock knows, and their limits (any other name is `mock-react`)."""
REASONING_PER_TOKEN = {"none": 0, "minimal": 1, "low": 2, "medium": 4, "high": 8, "xhigh": 16,
                       "max": 32}
"""Hidden reasoning tokens per token of the reply, by `reasoning_effort` (a reasoning model only)."""
DEFAULT_EFFORT = "medium"
REFUSED = ("max_tokens", "stop", "logprobs", "top_logprobs", "logit_bias")
"""The parameters a reasoning model refuses whatever their value."""
DEFAULTS_ONLY = {"temperature": 1, "top_p": 1, "presence_penalty": 0, "frequency_penalty": 0}
"""The parameters a reasoning model takes only at their default value."""


@lru_cache(maxsize=1024)
def spec_of(model: str) -> ModelSpec:
    """The limits of `model` (its base name before `:`; an unknown name is `mock-react`).
    Memoised: every request asks several times, and MODELS does not change."""
    return MODELS.get(model.partition(":")[0], MODELS[DEFAULT_MODEL])


def check_reasoning_params(model: str, params: Mapping[str, object]) -> None:
    """Refuse, as the API does, what a reasoning model does not take (nothing for other models)."""
    if not spec_of(model).reasoning:
        return
    for name in REFUSED:
        if name in params:
            hint = " Use 'max_completion_tokens' instead." if name == "max_tokens" else ""
            raise_bad_request(UnsupportedParameterError,
                              f"Unsupported parameter: '{name}' is not supported with this model.{hint}",
                              name)
    for name, default in DEFAULTS_ONLY.items():
        value = params.get(name, default)
        if value != default:
            raise_bad_request(UnsupportedValueError,
                              f"Unsupported value: '{name}' does not support {value:g} with this "
                              f"model. Only the default ({default}) value is supported.", name)


def reasoning_tokens(model: str, effort: str | None, reply: object,
                     count: Callable[[object], int]) -> int:
    """The hidden tokens a reasoning model spends before `reply`, whose tokens `count` gives
    (0 for other models, whose replies are not counted here)."""
    if not spec_of(model).reasoning:
        return 0
    return REASONING_PER_TOKEN[effort or DEFAULT_EFFORT] * count(reply)


def check_window(model: str, prompt_tokens: int, completion: int | None,
                 tools: Callable[[], int]) -> None:
    """Refuse a request whose prompt (and the completion asked for) is over the model's window,
    with the API's message: the messages' tokens, the tools' ("functions": `tools()` counts them)
    and the completion's."""
    window = spec_of(model).context_window
    asked = prompt_tokens + (completion or 0)
    if asked <= window:
        return
    tools_tokens = tools()
    head = f"This model's maximum context length is {window} tokens. However, "
    parts = [f"{prompt_tokens - tools_tokens} in the messages"]
    reduce = ["messages"]
    if tools_tokens:
        parts.append(f"{tools_tokens} in the functions")
        reduce.append("functions")
    if completion:
        parts.append(f"{completion} in the completion")
        reduce.append("completion")
    verb = "you requested" if completion else "your messages resulted in"
    detail = f" ({', '.join(parts)})" if len(parts) > 1 else ""
    raise_bad_request(ContextLengthExceededError,
                      f"{head}{verb} {asked} tokens{detail}. Please reduce the length of the "
                      f"{' or '.join(reduce)}.")
