"""Response objects shaped like the openai SDK's `openai.types.responses` classes.

`model_dump()` returns a plain dict that `openai.types.responses.Response.model_validate` (or
one of the `ResponseStreamEvent` classes) accepts, and `to_dict()` exactly what the API sends;
the extra top-level field `x_mock` says why the mock replied so. The methods are
`mockllm.protocol.models.Model`'s. The output holds the two item kinds the mock produces: an
assistant `message` with one `output_text` part, and `function_call` items. A stream event is one
class, `ResponseStreamEvent`, whose `type` says which event it is and which fields it carries.
"""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.models import Model

__all__ = [
    "ResponseOutputText", "ResponseOutputMessage", "ResponseFunctionToolCall", "InputTokensDetails",
    "OutputTokensDetails", "ResponseUsage", "IncompleteDetails", "Response", "ResponseStreamEvent",
]


class ResponseOutputText(Model):
    """The text part of an output message."""

    _defaults = {"type": "output_text"}
    _required = ("text",)
    annotations: list
    text: str
    type: str
    logprobs: list


class ResponseOutputMessage(Model):
    """An assistant message of the output: its text parts."""

    _defaults = {"type": "message", "role": "assistant"}
    _nested = {"content": (ResponseOutputText, True)}
    _required = ("id", "content", "status")
    id: str
    type: str
    status: str
    content: list[ResponseOutputText]
    role: str


class ResponseFunctionToolCall(Model):
    """A call of a function tool: `call_id` is what the `function_call_output` item answers."""

    _defaults = {"type": "function_call"}
    _required = ("arguments", "call_id", "name")
    id: str
    type: str
    status: str
    arguments: str
    call_id: str
    name: str


class OutputItem:
    """Reads an output item as its class, by its `type` (`Model.model_validate` of a Response)."""

    @classmethod
    def _coerce(cls, data: object, path: str) -> Model:
        """The item `data` as a ResponseFunctionToolCall or a ResponseOutputMessage."""
        kind = data.get("type") if isinstance(data, Mapping) else getattr(data, "type", None)
        item = ResponseFunctionToolCall if kind == "function_call" else ResponseOutputMessage
        return item._coerce(data, path)


class InputTokensDetails(Model):
    """Cached input tokens: the start of the input an earlier request sent (protocol/caching.py)."""

    _defaults = {"cached_tokens": 0, "cache_write_tokens": 0}
    cached_tokens: int
    cache_write_tokens: int


class OutputTokensDetails(Model):
    """Reasoning tokens: a reasoning model's hidden tokens (protocol/model_specs.py), else 0."""

    _defaults = {"reasoning_tokens": 0}
    reasoning_tokens: int


class ResponseUsage(Model):
    """Token counts of the input and the output."""

    _nested = {"input_tokens_details": (InputTokensDetails, False),
               "output_tokens_details": (OutputTokensDetails, False)}
    _required = ("input_tokens", "output_tokens", "total_tokens")
    input_tokens: int
    input_tokens_details: InputTokensDetails
    output_tokens: int
    output_tokens_details: OutputTokensDetails
    total_tokens: int

    @classmethod
    def from_chat(cls, used: object) -> ResponseUsage:
        """The usage of a Response from a chat completion's usage (its details included)."""
        cached = used.prompt_tokens_details.cached_tokens if used.prompt_tokens_details else 0
        thought = used.completion_tokens_details.reasoning_tokens if used.completion_tokens_details else 0
        return cls(input_tokens=used.prompt_tokens,
                   input_tokens_details=InputTokensDetails(cached_tokens=cached),
                   output_tokens=used.completion_tokens,
                   output_tokens_details=OutputTokensDetails(reasoning_tokens=thought),
                   total_tokens=used.total_tokens)


class IncompleteDetails(Model):
    """Why a response is incomplete: `max_output_tokens`."""

    reason: str


class Response(Model):
    """A whole reply, as `client.responses.create(...)` returns it; `output_text` joins its text."""

    _defaults = {"object": "response"}
    _nested = {"output": (OutputItem, True), "usage": (ResponseUsage, False),
               "incomplete_details": (IncompleteDetails, False)}
    _required = ("id", "created_at", "model", "output")
    id: str
    object: str
    created_at: int
    status: str
    background: bool
    completed_at: int | None
    error: dict | None
    incomplete_details: IncompleteDetails | None
    instructions: str | None
    max_output_tokens: int | None
    max_tool_calls: int | None
    model: str
    output: list
    parallel_tool_calls: bool
    previous_response_id: str | None
    reasoning: dict
    service_tier: str
    temperature: float
    text: dict
    tool_choice: object
    tools: list
    top_logprobs: int
    top_p: float
    truncation: str
    usage: ResponseUsage | None
    user: str | None
    metadata: dict
    x_mock: dict

    @property
    def output_text(self) -> str:
        """The text of every output_text part of the output's messages, joined (as the SDK's)."""
        return "".join(part.text for item in self.output if item.type == "message"
                       for part in item.content if part.type == "output_text")


class ResponseStreamEvent(Model):
    """One streamed event: `type` names it (`response.output_text.delta`, ...), `sequence_number`
    orders it, and it carries the fields its type has in the SDK (the others are unset)."""

    _nested = {"response": (Response, False), "item": (OutputItem, False),
               "part": (ResponseOutputText, False)}
    _required = ("type", "sequence_number")
    type: str
    sequence_number: int
    response: Response
    output_index: int
    item_id: str
    content_index: int
    item: object
    part: ResponseOutputText
    delta: str
    text: str
    arguments: str
    logprobs: list
