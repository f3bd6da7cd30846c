"""Every keyword of openai's `chat.completions.create()`, and how the mock checks each one.

`PARAMETERS` lists the keywords of the pinned SDK (openai 3.57.0), in its order; a test compares
it with the SDK's signature. A keyword outside it is a TypeError with a did-you-mean hint, as in
Python. `None` and openai's not-given sentinels (`openai.NOT_GIVEN`, `openai.omit`) mean "not
given", as the API treats null as the default. Given values are checked against the API's types
and ranges (temperature 0-2, top_p 0-1, penalties -2..2, logit_bias -100..100, ...); the mock uses
those that shape a reply and accepts the others without effect (docs/mock-api-differences.md).
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping

from mockllm.protocol.fields import is_int, is_number, type_error, value_error

PARAMETERS = (
    "messages", "model", "audio", "frequency_penalty", "function_call", "functions", "logit_bias",
    "logprobs", "max_completion_tokens", "max_tokens", "metadata", "modalities", "moderation", "n",
    "parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key",
    "prompt_cache_options", "prompt_cache_retention", "reasoning_effort", "response_format",
    "safety_identifier", "seed", "service_tier", "stop", "store", "stream", "stream_options",
    "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user", "verbosity",
    "web_search_options", "extra_headers", "extra_query", "extra_body", "timeout",
)
"""The keywords of openai's `client.chat.completions.create()`, in the SDK's order."""
SDK_ONLY = ("extra_headers", "extra_query", "extra_body", "timeout")
"""The keywords the SDK itself takes (chat completions' and the Responses API's): never a body field."""
CHOICES = {
    "service_tier": ("auto", "default", "flex", "scale", "priority", "fast"),
    "reasoning_effort": ("none", "minimal", "low", "medium", "high", "xhigh", "max"),
    "verbosity": ("low", "medium", "high"),
    "prompt_cache_retention": ("in_memory", "24h"),
}
"""The values the SDK's types allow for the keywords that take one of a few strings."""
IGNORED = (
    "frequency_penalty", "presence_penalty", "top_p", "logit_bias", "metadata", "store",
    "service_tier", "reasoning_effort", "verbosity", "prediction", "prompt_cache_key",
    "prompt_cache_options", "prompt_cache_retention", "safety_identifier", "user", "moderation",
    "web_search_options", "modalities", "extra_headers", "extra_query", "extra_body", "timeout",
)
"""Keywords checked and accepted that do not change the mock's reply."""
UNSUPPORTED = {
    "functions": "the deprecated functions= is not served by the mock; pass tools= instead",
    "function_call": "the deprecated function_call= is not served by the mock; pass tool_choice= instead",
    "audio": "the mock answers in text only; leave audio= out",
}
"""Keywords whose only accepted value is None (not given): the mock has no such feature."""


def is_not_given(value: object) -> bool:
    """True for None and openai's sentinels (`NOT_GIVEN`, `omit`), without importing openai."""
    if value is None:
        return True
    kind = type(value)
    if kind.__name__ not in ("NotGiven", "Omit"):
        return False
    sdk = sys.modules.get("openai._types")
    if sdk is not None:
        return isinstance(value, (getattr(sdk, "NotGiven", ()), getattr(sdk, "Omit", ())))
    return kind.__module__.split(".")[0] == "openai"


def _number(low: float, high: float) -> Callable[[str, object], float]:
    """A check for a number from `low` to `high` (NaN refused)."""
    def check(field: str, value: object) -> float:
        if not is_number(value):
            raise type_error(field, f"a number from {low:g} to {high:g}", value)
        if not low <= value <= high:
            raise value_error(field, value, f"a number from {low:g} to {high:g}")
        return float(value)
    return check


def _integer(low: int, high: int | None = None) -> Callable[[str, object], int]:
    """A check for an int from `low` (to `high`, if given)."""
    accepted = (f"an int from {low} to {high}" if high is not None else
                "a positive int (at least 1)" if low == 1 else f"an int of at least {low}")

    def check(field: str, value: object) -> int:
        if not is_int(value):
            raise type_error(field, accepted, value)
        if value < low or (high is not None and value > high):
            raise value_error(field, value, accepted)
        return value
    return check


def _of_type(kind: type | tuple, expected: str) -> Callable[[str, object], object]:
    """A check that the value is an instance of `kind` (bools are not ints here)."""
    def check(field: str, value: object) -> object:
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise type_error(field, expected, value)
        return value
    return check


def _choice(field: str, value: object) -> str:
    """A check for one of CHOICES[field]."""
    accepted = ", ".join(repr(choice) for choice in CHOICES[field])
    if not isinstance(value, str):
        raise type_error(field, f"one of {accepted}", value)
    if value not in CHOICES[field]:
        raise value_error(field, value, accepted)
    return value


def _json_object(field: str, value: object) -> Mapping:
    """A check for a JSON object (a dict whose keys JSON can carry), like the SDK sends."""
    if not isinstance(value, Mapping):
        raise type_error(field, "a dict (a JSON object)", value)
    from mockllm.protocol.jsonvalue import check_json

    return check_json(field, value)


def _metadata(field: str, value: object) -> Mapping:
    """A check for metadata: up to 16 str keys (<= 64 chars) with str values (<= 512 chars)."""
    accepted = "a dict of up to 16 str keys (64 characters at most) and str values (512 at most)"
    if not isinstance(value, Mapping):
        raise type_error(field, accepted, value)
    if len(value) > 16:
        raise value_error(field, value, accepted)
    for key, item in value.items():
        if not (isinstance(key, str) and isinstance(item, str)):
            raise type_error(f"{field}[{key!r}]", accepted, item)
        if len(key) > 64 or len(item) > 512:
            raise value_error(f"{field}[{key!r}]", item, accepted)
    return value


def _logit_bias(field: str, value: object) -> Mapping:
    """A check for logit_bias: {token id (an int, or its digits as a str): bias from -100 to 100}."""
    accepted = "a dict {token id: bias}, token ids as ints or digit strings, biases from -100 to 100"
    if not isinstance(value, Mapping):
        raise type_error(field, accepted, value)
    for key, bias in value.items():
        if not (is_int(key) or (isinstance(key, str) and key.isascii() and key.isdigit())):
            raise value_error(f"{field}", key, accepted)
        if not is_number(bias):
            raise type_error(f"{field}[{key!r}]", "a number from -100 to 100", bias)
        if not -100 <= bias <= 100:
            raise value_error(f"{field}[{key!r}]", bias, "a number from -100 to 100")
    return value


def _modalities(field: str, value: object) -> list:
    """A check for modalities: ['text'] (the mock has no audio output)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise type_error(field, "a list such as ['text']", value)
    if any(item not in ("text", "audio") for item in value):
        raise value_error(field, value, "a list of 'text' and 'audio'")
    if "audio" in value:
        raise value_error(field, value, "['text']: the mock answers in text only")
    return list(value)


def _stream_options(field: str, value: object) -> dict:
    """A check for stream_options: {'include_usage': bool, 'include_obfuscation': bool}."""
    accepted = "a dict with the keys include_usage and include_obfuscation (each True or False)"
    if not isinstance(value, Mapping):
        raise type_error(field, accepted, value)
    for key, item in value.items():
        if key not in ("include_usage", "include_obfuscation"):
            raise value_error(field, key, accepted)
        if not isinstance(item, bool):
            raise type_error(f"{field}.{key}", "True or False", item)
    return dict(value)


def _timeout(field: str, value: object) -> object:
    """A check for timeout: seconds (a number >= 0) or an httpx Timeout."""
    if type(value).__name__ == "Timeout" or (is_number(value) and value >= 0):
        return value
    raise type_error(field, "a number of seconds (>= 0), an httpx.Timeout, or None", value)


def _unsupported(field: str, value: object) -> None:
    """A keyword the mock has no feature for: any given value is refused, saying why."""
    raise ValueError(f"Invalid value for '{field}': {UNSUPPORTED[field]}.")


def _plain(field: str, value: object) -> object:
    """A keyword validated elsewhere (messages, tools, stop, ...): passed on as it is."""
    return value


_STR = _of_type(str, "a str")
_BOOL = _of_type(bool, "True or False")
_MAPPING = _of_type(Mapping, "a dict")
CHECKS: dict[str, Callable[[str, object], object]] = {
    "stop": _plain, "tools": _plain, "tool_choice": _plain,
    "response_format": _plain, "stream": _plain,
    "audio": _unsupported, "functions": _unsupported, "function_call": _unsupported,
    "frequency_penalty": _number(-2, 2), "presence_penalty": _number(-2, 2),
    "temperature": _number(0, 2), "top_p": _number(0, 1), "logit_bias": _logit_bias,
    "logprobs": _BOOL, "top_logprobs": _integer(0, 20), "n": _integer(1),
    "max_completion_tokens": _integer(1), "max_tokens": _integer(1), "seed": _of_type(int, "an int"),
    "metadata": _metadata, "modalities": _modalities, "moderation": _json_object,
    "parallel_tool_calls": _BOOL, "prediction": _json_object, "prompt_cache_key": _STR,
    "prompt_cache_options": _json_object, "prompt_cache_retention": _choice,
    "reasoning_effort": _choice, "service_tier": _choice, "verbosity": _choice,
    "safety_identifier": _STR, "store": _BOOL, "stream_options": _stream_options, "user": _STR,
    "web_search_options": _json_object, "extra_headers": _MAPPING, "extra_query": _MAPPING,
    "extra_body": _MAPPING, "timeout": _timeout,
}
"""The check of each keyword: it returns the value to use, or raises naming the keyword."""


def check_params(params: Mapping[str, object], checks: Mapping[str, Callable] = CHECKS,
                 known: tuple[str, ...] = PARAMETERS) -> dict[str, object]:
    """Return the given keywords (not None, not a sentinel), each checked; TypeError for unknown ones.

    `checks` and `known` are chat completions' unless given (the Responses API has its own).
    """
    given = {}
    for name, value in params.items():
        check = checks.get(name)
        if check is None:
            raise _unknown(name, known)
        if value is not None and not is_not_given(value):
            given[name] = check(name, value)
    return given


def _unknown(name: str, known: tuple[str, ...] = PARAMETERS) -> TypeError:
    """The TypeError for a keyword openai's `create()` does not take either (a typo)."""
    return TypeError(f"create() got an unexpected keyword argument {name!r}{did_you_mean(name, known)}")


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """"; did you mean 'temperature'?" for the known name closest to a mistyped one, else ""."""
    import difflib

    close = difflib.get_close_matches(str(name)[:100], known, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
