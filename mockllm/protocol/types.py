"""Response objects shaped like the openai SDK's `openai.types.chat` classes.

`model_dump()` returns a plain dict that `openai.types.chat.ChatCompletion.model_validate` (or
`ChatCompletionChunk`) accepts, and `to_dict()` exactly what the API sends; the extra top-level
field `x_mock` says why the mock replied so. The methods are `mockllm.protocol.models.Model`'s.
Differences from the SDK's classes: no `service_tier`, no `message.annotations`/`audio`/
`function_call` fields (the mock never produces them); `usage`'s details hold only the counts the
API sends for text (cached, reasoning, audio and prediction tokens).
"""
from __future__ import annotations

from mockllm.protocol.models import Model

__all__ = [
    "Function", "ChatCompletionMessageToolCall", "ChatCompletionMessage", "TopLogprob",
    "ChatCompletionTokenLogprob", "ChoiceLogprobs", "Choice", "CompletionTokensDetails",
    "PromptTokensDetails", "CompletionUsage", "ChatCompletion",
    "ChoiceDeltaToolCallFunction", "ChoiceDeltaToolCall", "ChoiceDelta", "ChunkChoice",
    "ChatCompletionChunk",
]


class Function(Model):
    """The name and JSON-encoded arguments of one tool call."""

    _required = ("arguments", "name")
    arguments: str
    name: str


class ChatCompletionMessageToolCall(Model):
    """One tool call requested by the model."""

    _defaults = {"type": "function"}
    _nested = {"function": (Function, False)}
    _required = ("id", "function")
    id: str
    function: Function
    type: str


class ChatCompletionMessage(Model):
    """The assistant message of a choice: text `content`, or `tool_calls`, or both."""

    _defaults = {"role": "assistant"}
    _nested = {"tool_calls": (ChatCompletionMessageToolCall, True)}
    content: str | None
    refusal: str | None
    role: str
    tool_calls: list[ChatCompletionMessageToolCall] | None


class TopLogprob(Model):
    """One of the most likely tokens at a position, with its log probability."""

    _required = ("token", "logprob")
    token: str
    bytes: list[int] | None
    logprob: float


class ChatCompletionTokenLogprob(Model):
    """A token of the reply, its log probability, and the most likely tokens at its position."""

    _nested = {"top_logprobs": (TopLogprob, True)}
    _required = ("token", "logprob", "top_logprobs")
    token: str
    bytes: list[int] | None
    logprob: float
    top_logprobs: list[TopLogprob]


class ChoiceLogprobs(Model):
    """The log probabilities of a choice's content tokens (`logprobs=True`)."""

    _nested = {"content": (ChatCompletionTokenLogprob, True), "refusal": (ChatCompletionTokenLogprob, True)}
    content: list[ChatCompletionTokenLogprob] | None
    refusal: list[ChatCompletionTokenLogprob] | None


class Choice(Model):
    """One completion choice (the mock always returns exactly one)."""

    _defaults = {"index": 0}
    _nested = {"logprobs": (ChoiceLogprobs, False), "message": (ChatCompletionMessage, False)}
    _required = ("finish_reason", "message")
    finish_reason: str
    index: int
    logprobs: ChoiceLogprobs | None
    message: ChatCompletionMessage


class CompletionTokensDetails(Model):
    """What the completion tokens hold: `reasoning_tokens`, a reasoning model's hidden tokens."""

    _defaults = {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0,
                 "rejected_prediction_tokens": 0}
    accepted_prediction_tokens: int
    audio_tokens: int
    reasoning_tokens: int
    rejected_prediction_tokens: int


class PromptTokensDetails(Model):
    """What the prompt tokens hold: `cached_tokens`, the start an earlier request sent."""

    _defaults = {"cached_tokens": 0, "audio_tokens": 0}
    audio_tokens: int
    cached_tokens: int


class CompletionUsage(Model):
    """Token counts of the request and the reply, with the API's details.

    Its repr leaves out details whose counts are all 0, so that it stays one short line."""

    _nested = {"completion_tokens_details": (CompletionTokensDetails, False),
               "prompt_tokens_details": (PromptTokensDetails, False)}
    _required = ("completion_tokens", "prompt_tokens", "total_tokens")
    completion_tokens: int
    prompt_tokens: int
    total_tokens: int
    completion_tokens_details: CompletionTokensDetails | None
    prompt_tokens_details: PromptTokensDetails | None

    def __repr__(self) -> str:
        shown = [f"{name}={value!r}" for name, value in self
                 if not name.endswith("_details") or (value is not None and any(
                     count for _, count in value))]
        return f"CompletionUsage({', '.join(shown)})"


class ChatCompletion(Model):
    """A whole reply, as `client.chat.completions.create(...)` returns it."""

    _defaults = {"object": "chat.completion"}
    _nested = {"choices": (Choice, True), "usage": (CompletionUsage, False)}
    _required = ("id", "choices", "created", "model")
    id: str
    choices: list[Choice]
    created: int
    model: str
    object: str
    system_fingerprint: str
    usage: CompletionUsage
    x_mock: dict


class ChoiceDeltaToolCallFunction(Model):
    """A piece of a streamed tool call: its name (first piece) or a slice of its arguments."""

    arguments: str | None
    name: str | None


class ChoiceDeltaToolCall(Model):
    """A streamed tool-call delta; `index` tells which call the piece belongs to."""

    _nested = {"function": (ChoiceDeltaToolCallFunction, False)}
    _required = ("index",)
    index: int
    id: str | None
    function: ChoiceDeltaToolCallFunction | None
    type: str | None


class ChoiceDelta(Model):
    """What one chunk adds to the message (only the fields it carries are set)."""

    _nested = {"tool_calls": (ChoiceDeltaToolCall, True)}
    content: str | None
    refusal: str | None
    role: str | None
    tool_calls: list[ChoiceDeltaToolCall] | None


class ChunkChoice(Model):
    """The choice of a chunk: a delta, and the finish_reason on the last chunk."""

    _defaults = {"index": 0}
    _nested = {"delta": (ChoiceDelta, False), "logprobs": (ChoiceLogprobs, False)}
    _required = ("delta",)
    delta: ChoiceDelta
    finish_reason: str | None
    index: int
    logprobs: ChoiceLogprobs | None


class ChatCompletionChunk(Model):
    """One streamed piece of a reply (`object == "chat.completion.chunk"`)."""

    _defaults = {"object": "chat.completion.chunk"}
    _nested = {"choices": (ChunkChoice, True), "usage": (CompletionUsage, False)}
    _required = ("id", "choices", "created", "model")
    id: str
    choices: list[ChunkChoice]
    created: int
    model: str
    object: str
    system_fingerprint: str
    usage: CompletionUsage | None
    x_mock: dict
