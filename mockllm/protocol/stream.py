"""Streaming: a whole reply cut into the chunks the API sends, and the `Stream` that yields them.

As the API streams: the first chunk carries `role` (and `content: ""`, or the first tool call's
head when the reply is only tool calls), then content pieces, then each tool call as a head
(index, id, type, function.name, function.arguments "") and argument pieces (index and
function.arguments only), then an empty delta with the finish_reason. `usage` is not sent unless
`stream_options={"include_usage": True}`: then every chunk has `usage: null` and one more chunk,
with `choices == []`, carries the usage. With `logprobs=True` each content chunk carries the
log probabilities of its tokens.
"""
from __future__ import annotations

from collections.abc import Iterator

from mockllm.protocol.tokens import split_tokens
from mockllm.protocol.types import (
    ChatCompletion, ChatCompletionChunk, ChatCompletionMessageToolCall, ChoiceDelta,
    ChoiceDeltaToolCall, ChoiceDeltaToolCallFunction, ChoiceLogprobs, ChunkChoice,
)

STREAM_GROUP = 3
"""How many tokens each streamed content or arguments delta carries."""


class Stream:
    """The iterator `create(stream=True)` returns; also a context manager, like openai's Stream."""

    def __init__(self, chunks: list[ChatCompletionChunk]) -> None:
        self._chunks = iter(chunks)

    def __iter__(self) -> Iterator[ChatCompletionChunk]:
        return self

    def __next__(self) -> ChatCompletionChunk:
        return next(self._chunks)

    def close(self) -> None:
        """Stop the stream; later iteration yields nothing."""
        self._chunks = iter(())

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _groups(tokens: list[str]) -> list[str]:
    """Join `tokens` into pieces of STREAM_GROUP tokens each."""
    return ["".join(tokens[i : i + STREAM_GROUP]) for i in range(0, len(tokens), STREAM_GROUP)]


def _head(index: int, call: ChatCompletionMessageToolCall) -> ChoiceDeltaToolCall:
    """The first delta of a streamed tool call: index, id, type, name and empty arguments."""
    return ChoiceDeltaToolCall(index=index, id=call.id, type="function",
                               function=ChoiceDeltaToolCallFunction(name=call.function.name, arguments=""))


def _call_deltas(calls: list[ChatCompletionMessageToolCall], head_sent: bool) -> list[ChoiceDelta]:
    """The deltas of streamed tool calls (the first call's head left out when already sent)."""
    deltas = []
    for index, call in enumerate(calls):
        if index or not head_sent:
            deltas.append(ChoiceDelta(tool_calls=[_head(index, call)]))
        for piece in _groups(split_tokens(call.function.arguments)):
            part = ChoiceDeltaToolCall(index=index, function=ChoiceDeltaToolCallFunction(arguments=piece))
            deltas.append(ChoiceDelta(tool_calls=[part]))
    return deltas


def _deltas(completion: ChatCompletion, logprobs: list | None) -> list[tuple[ChoiceDelta, object]]:
    """(delta, its ChoiceLogprobs or None) for every chunk of the reply but the usage chunk."""
    message = completion.choices[0].message
    calls = message.tool_calls or []
    only_calls = message.content is None and bool(calls)
    head = [_head(0, calls[0])] if only_calls else None
    first = (ChoiceDelta(role="assistant", content=None, refusal=None, tool_calls=head) if only_calls
             else ChoiceDelta(role="assistant", content="", refusal=None))
    out: list[tuple[ChoiceDelta, object]] = [(first, None)]
    tokens = split_tokens(message.content or "")
    for number, piece in enumerate(_groups(tokens)):
        entries = None if logprobs is None else ChoiceLogprobs(
            content=logprobs[number * STREAM_GROUP : (number + 1) * STREAM_GROUP], refusal=None)
        out.append((ChoiceDelta(content=piece), entries))
    out += [(delta, None) for delta in _call_deltas(calls, only_calls)]
    out.append((ChoiceDelta(), None))
    return out


def stream_chunks(completion: ChatCompletion, include_usage: bool = False) -> list[ChatCompletionChunk]:
    """Cut a whole reply into the chunks the API would stream (see the module docstring)."""
    choice = completion.choices[0]
    logprobs = choice.logprobs.content if choice.logprobs is not None else None
    deltas = _deltas(completion, logprobs)
    shared = {
        "id": completion.id, "created": completion.created, "model": completion.model,
        "system_fingerprint": completion.system_fingerprint, "x_mock": completion.x_mock,
    }
    if include_usage:
        shared["usage"] = None
    last = len(deltas) - 1
    chunks = [
        ChatCompletionChunk(choices=[ChunkChoice(
            delta=delta, logprobs=entries, finish_reason=choice.finish_reason if i == last else None)],
            **shared)
        for i, (delta, entries) in enumerate(deltas)
    ]
    if include_usage:
        chunks.append(ChatCompletionChunk(choices=[], **{**shared, "usage": completion.usage}))
    return chunks
