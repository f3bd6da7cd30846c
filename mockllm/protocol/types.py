"""Response objects shaped like the openai SDK's: attribute access, `==`, and `model_dump()`.

`model_dump()` returns a plain dict that `openai.types.chat.ChatCompletion.model_validate` (or
`ChatCompletionChunk`) accepts; the extra top-level field `x_mock` says why the mock replied so.
Plain slotted classes rather than dataclasses or pydantic keep `import mockllm` fast.
"""
from __future__ import annotations

from collections.abc import Iterator

from mockllm.protocol.tokens import split_tokens

STREAM_GROUP = 3
"""How many tokens each streamed content or arguments delta carries."""


class _Model:
    """Base of the response objects: keyword construction, attributes, repr, ==, model_dump()."""

    __slots__: tuple[str, ...] = ()
    _defaults: dict[str, object] = {}
    _fields: tuple[tuple[str, object], ...] = ()  # (name, default) of each slot, set per class

    def __init_subclass__(cls, **options: object) -> None:
        super().__init_subclass__(**options)
        cls._fields = tuple((name, cls._defaults.get(name)) for name in cls.__slots__)

    def __init__(self, **values: object) -> None:
        for name, default in self._fields:
            setattr(self, name, values.pop(name, default))
        if values:
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(sorted(values))}")

    def model_dump(self, *, exclude_none: bool = False, **_pydantic_options: object) -> dict:
        """Return a plain, independent dict of the fields (like pydantic's `model_dump()`)."""
        out = {}
        for name in self.__slots__:
            value = _dump(getattr(self, name), exclude_none)
            if value is not None or not exclude_none:
                out[name] = value
        return out

    def model_dump_json(self, *, indent: int | None = None, exclude_none: bool = False) -> str:
        """Return `model_dump()` as a JSON string."""
        import json

        return json.dumps(self.model_dump(exclude_none=exclude_none), indent=indent, ensure_ascii=False)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


def _dump(value: object, exclude_none: bool) -> object:
    """Convert nested models, lists and dicts to fresh plain containers."""
    if isinstance(value, _Model):
        return value.model_dump(exclude_none=exclude_none)
    if isinstance(value, (list, tuple)):
        return [_dump(item, exclude_none) for item in value]
    if isinstance(value, dict):
        return {key: _dump(item, exclude_none) for key, item in value.items()}
    return value


class Function(_Model):
    """The name and JSON-encoded arguments of one tool call."""

    __slots__ = ("arguments", "name")
    arguments: str
    name: str


class ChatCompletionMessageToolCall(_Model):
    """One tool call requested by the model."""

    __slots__ = ("id", "function", "type")
    _defaults = {"type": "function"}
    id: str
    function: Function
    type: str


class ChatCompletionMessage(_Model):
    """The assistant message of a choice: text `content`, or `tool_calls`, or both."""

    __slots__ = ("content", "refusal", "role", "tool_calls")
    _defaults = {"role": "assistant"}
    content: str | None
    refusal: str | None
    role: str
    tool_calls: list[ChatCompletionMessageToolCall] | None


class Choice(_Model):
    """One completion choice (the mock always returns exactly one)."""

    __slots__ = ("finish_reason", "index", "logprobs", "message")
    _defaults = {"index": 0}
    finish_reason: str
    index: int
    logprobs: None
    message: ChatCompletionMessage


class CompletionUsage(_Model):
    """Token counts of the request and the reply."""

    __slots__ = ("completion_tokens", "prompt_tokens", "total_tokens")
    completion_tokens: int
    prompt_tokens: int
    total_tokens: int


class ChatCompletion(_Model):
    """A whole reply, as `client.chat.completions.create(...)` returns it."""

    __slots__ = ("id", "choices", "created", "model", "object", "system_fingerprint", "usage", "x_mock")
    _defaults = {"object": "chat.completion"}
    id: str
    choices: list[Choice]
    created: int
    model: str
    object: str
    system_fingerprint: str
    usage: CompletionUsage
    x_mock: dict


class ChoiceDeltaToolCallFunction(_Model):
    """A piece of a streamed tool call: its name (first piece) or a slice of its arguments."""

    __slots__ = ("arguments", "name")
    arguments: str | None
    name: str | None


class ChoiceDeltaToolCall(_Model):
    """A streamed tool-call delta; `index` tells which call the piece belongs to."""

    __slots__ = ("index", "id", "function", "type")
    index: int
    id: str | None
    function: ChoiceDeltaToolCallFunction | None
    type: str | None


class ChoiceDelta(_Model):
    """What one chunk adds to the message."""

    __slots__ = ("content", "refusal", "role", "tool_calls")
    content: str | None
    refusal: str | None
    role: str | None
    tool_calls: list[ChoiceDeltaToolCall] | None


class ChunkChoice(_Model):
    """The choice of a chunk: a delta, and the finish_reason on the last chunk."""

    __slots__ = ("delta", "finish_reason", "index", "logprobs")
    _defaults = {"index": 0}
    delta: ChoiceDelta
    finish_reason: str | None
    index: int
    logprobs: None


class ChatCompletionChunk(_Model):
    """One streamed piece of a reply (`object == "chat.completion.chunk"`)."""

    __slots__ = ("id", "choices", "created", "model", "object", "system_fingerprint", "usage", "x_mock")
    _defaults = {"object": "chat.completion.chunk"}
    id: str
    choices: list[ChunkChoice]
    created: int
    model: str
    object: str
    system_fingerprint: str
    usage: CompletionUsage | None
    x_mock: dict


class Stream:
    """The iterator `create(stream=True)` returns; also a context manager, like openai's."""

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


def _groups(text: str) -> list[str]:
    """Split `text` into pieces of STREAM_GROUP tokens each."""
    tokens = split_tokens(text)
    return ["".join(tokens[i : i + STREAM_GROUP]) for i in range(0, len(tokens), STREAM_GROUP)]


def _tool_call_deltas(calls: list[ChatCompletionMessageToolCall]) -> list[ChoiceDelta]:
    """Return the deltas of streamed tool calls: id and name first, then argument pieces."""
    deltas = []
    for index, call in enumerate(calls):
        head = ChoiceDeltaToolCall(
            index=index, id=call.id, type="function",
            function=ChoiceDeltaToolCallFunction(name=call.function.name, arguments=""),
        )
        deltas.append(ChoiceDelta(tool_calls=[head]))
        for piece in _groups(call.function.arguments):
            part = ChoiceDeltaToolCall(index=index, function=ChoiceDeltaToolCallFunction(arguments=piece))
            deltas.append(ChoiceDelta(tool_calls=[part]))
    return deltas


def stream_chunks(completion: ChatCompletion) -> list[ChatCompletionChunk]:
    """Cut a whole reply into the chunks a streaming API would send; usage rides on the last."""
    choice = completion.choices[0]
    message = choice.message
    deltas = [ChoiceDelta(role="assistant", content="")]
    deltas += [ChoiceDelta(content=piece) for piece in _groups(message.content or "")]
    deltas += _tool_call_deltas(message.tool_calls or [])
    deltas.append(ChoiceDelta())
    last = len(deltas) - 1
    shared = {
        "id": completion.id, "created": completion.created, "model": completion.model,
        "system_fingerprint": completion.system_fingerprint, "x_mock": completion.x_mock,
    }
    return [
        ChatCompletionChunk(
            choices=[ChunkChoice(delta=delta, finish_reason=choice.finish_reason if i == last else None)],
            usage=completion.usage if i == last else None,
            **shared,
        )
        for i, delta in enumerate(deltas)
    ]
