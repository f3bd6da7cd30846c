"""Every keyword of openai's `responses.create()`, and how the mock checks each one.

`PARAMETERS` lists the keywords of the pinned SDK (openai 3.57.0), in its order; a test compares
it with the SDK's signature. The keywords chat completions also has are checked by the same
checks (`mockllm.protocol.params.CHECKS`); `input`, `instructions`, `tools`, `tool_choice`,
`text`, `max_output_tokens`, `previous_response_id`, `store` and `stream` are read by
`responses_request`; the rest are checked and accepted without effect, or refused when they ask
for what the mock does not keep (conversation objects, prompt templates, background runs).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from mockllm.protocol.fields import is_int, type_error, value_error
from mockllm.protocol.params import CHECKS as CHAT_CHECKS
from mockllm.protocol.params import _integer, _json_object, _of_type, _plain
from mockllm.protocol.params import check_params as check_chat_params

PARAMETERS = (
    "access_programs", "background", "background_options", "context_management", "conversation",
    "image", "include", "input", "instructions", "max_output_tokens", "max_tool_calls", "metadata",
    "model", "moderation", "parallel_tool_calls", "previous_response_id", "prompt",
    "prompt_cache_key", "prompt_cache_options", "prompt_cache_retention", "reasoning",
    "safety_identifier", "service_tier", "store", "stream", "stream_options", "temperature", "text",
    "tool_choice", "tools", "top_logprobs", "top_p", "truncation", "user", "extra_headers",
    "extra_query", "extra_body", "timeout",
)
"""The keywords of openai's `client.responses.create()`, in the SDK's order."""
SHARED = ("metadata", "parallel_tool_calls", "prompt_cache_key", "prompt_cache_options",
          "prompt_cache_retention", "safety_identifier", "store", "temperature", "top_p", "user",
          "moderation", "extra_headers", "extra_query", "extra_body", "timeout")
"""Keywords chat completions has too, checked the same way."""
IGNORED = ("access_programs", "background_options", "context_management", "image", "include",
           "max_tool_calls", "metadata", "moderation", "prompt_cache_key", "prompt_cache_options",
           "prompt_cache_retention", "reasoning", "safety_identifier", "service_tier",
           "top_logprobs", "top_p", "truncation", "user", "extra_headers", "extra_query",
           "extra_body", "timeout")
"""Keywords checked and accepted that do not change the mock's reply."""
UNSUPPORTED = {
    "conversation": "the mock stores no conversations; send the whole conversation in input",
    "prompt": "the mock stores no prompt templates; send the prompt as instructions or input",
}
"""Keywords whose only accepted value is None (not given): the mock keeps no state for them."""
SERVICE_TIERS = ("auto", "default", "flex", "scale", "priority", "fast", "ultrafast")
TRUNCATIONS = ("auto", "disabled")
INCLUDABLE = ("file_search_call.results", "web_search_call.results", "web_search_call.action.sources",
              "message.input_image.image_url", "computer_call_output.output.image_url",
              "code_interpreter_call.outputs", "reasoning.encrypted_content",
              "message.output_text.logprobs")
"""The values `include` takes (the SDK's `ResponseIncludable`)."""
MIN_OUTPUT_TOKENS = 16
"""The smallest `max_output_tokens` the API accepts."""


def _unsupported(field: str, value: object) -> None:
    """A keyword whose state the mock does not keep: any given value is refused, saying why."""
    raise ValueError(f"Invalid value for '{field}': {UNSUPPORTED[field]}. "
                     "The mock answers each request from what it carries.")


def _background(field: str, value: object) -> bool:
    """`background`: only False (the mock answers at once and keeps nothing to poll)."""
    if not isinstance(value, bool):
        raise type_error(field, "True or False", value)
    if value:
        raise value_error(field, value, "False: the mock answers at once and stores no "
                                        "response to poll")
    return value


def _one_of(choices: tuple[str, ...]) -> Callable[[str, object], str]:
    """A check for one of `choices`."""
    def check(field: str, value: object) -> str:
        accepted = ", ".join(repr(choice) for choice in choices)
        if not isinstance(value, str):
            raise type_error(field, f"one of {accepted}", value)
        if value not in choices:
            raise value_error(field, value, accepted)
        return value
    return check


def _max_output_tokens(field: str, value: object) -> int:
    """`max_output_tokens`: an int of at least MIN_OUTPUT_TOKENS, as the API accepts."""
    accepted = f"an int of at least {MIN_OUTPUT_TOKENS}"
    if not is_int(value):
        raise type_error(field, accepted, value)
    if value < MIN_OUTPUT_TOKENS:
        raise value_error(field, value, accepted)
    return value


def _includable(field: str, value: object) -> list:
    """A list of the names `include` takes (INCLUDABLE)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise type_error(field, "a list of str such as ['message.output_text.logprobs']", value)
    for index, item in enumerate(value):
        if item not in INCLUDABLE:
            raise value_error(f"{field}[{index}]", item, "one of " + ", ".join(map(repr, INCLUDABLE)))
    return list(value)


def _list_of_dicts(field: str, value: object) -> list:
    """A list of JSON objects (`context_management`)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, Mapping) for item in value):
        raise type_error(field, "a list of dicts", value)
    return [_json_object(f"{field}[{index}]", item) for index, item in enumerate(value)]


def _stream_options(field: str, value: object) -> dict:
    """`stream_options`: {'include_obfuscation': bool} (the mock sends no obfuscation field)."""
    accepted = "a dict with the key include_obfuscation (True or False)"
    if not isinstance(value, Mapping):
        raise type_error(field, accepted, value)
    for key, item in value.items():
        if key != "include_obfuscation":
            raise value_error(field, key, accepted)
        if not isinstance(item, bool):
            raise type_error(f"{field}.{key}", "True or False", item)
    return dict(value)


CHECKS: dict[str, Callable[[str, object], object]] = {
    **{name: CHAT_CHECKS[name] for name in SHARED},
    "input": _plain, "instructions": _of_type(str, "a str"), "tools": _plain,
    "tool_choice": _plain, "text": _plain, "stream": _plain, "model": _plain,
    "previous_response_id": _of_type(str, "the id of an earlier response, 'resp_...'"),
    "conversation": _unsupported, "prompt": _unsupported,
    "background": _background, "max_output_tokens": _max_output_tokens,
    "access_programs": _json_object, "background_options": _json_object,
    "context_management": _list_of_dicts, "image": _json_object, "include": _includable,
    "max_tool_calls": _integer(1), "reasoning": _json_object,
    "service_tier": _one_of(SERVICE_TIERS),
    "truncation": _one_of(TRUNCATIONS), "top_logprobs": _integer(0, 20),
    "stream_options": _stream_options,
}
"""The check of each keyword: it returns the value to use, or raises naming the keyword."""



def check_params(params: Mapping[str, object]) -> dict[str, object]:
    """The given keywords of `responses.create()`, each checked; TypeError for unknown ones."""
    return check_chat_params(params, CHECKS, PARAMETERS)
