"""Streaming a Response: the events the Responses API sends, numbered by `sequence_number`.

    response.created, response.in_progress      the response in progress (no output, no usage)
    for a message item:   response.output_item.added, response.content_part.added,
                          response.output_text.delta (one per STREAM_GROUP tokens),
                          response.output_text.done, response.content_part.done,
                          response.output_item.done
    for a function_call:  response.output_item.added (arguments ""),
                          response.function_call_arguments.delta (one per STREAM_GROUP tokens),
                          response.function_call_arguments.done, response.output_item.done
    response.completed (or response.incomplete, cut by max_output_tokens)   the whole response

The events are cut from the whole response, so a streamed reply is the same as the unstreamed one.
"""
from __future__ import annotations

from collections.abc import Callable

from mockllm.protocol.responses_types import (
    Response, ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText,
    ResponseStreamEvent,
)
from mockllm.protocol.stream import _groups
from mockllm.protocol.tokens import split_tokens

Add = Callable[..., None]


def response_events(response: Response) -> list[ResponseStreamEvent]:
    """Every event of the streamed `response`, in order (see the module docstring)."""
    events: list[ResponseStreamEvent] = []

    def add(kind: str, **fields: object) -> None:
        events.append(ResponseStreamEvent(type=kind, sequence_number=len(events), **fields))

    started = response.model_copy(update={"status": "in_progress", "output": [], "usage": None,
                                          "completed_at": None, "incomplete_details": None})
    add("response.created", response=started)
    add("response.in_progress", response=started)
    for index, item in enumerate(response.output):
        if item.type == "message":
            _message_events(add, index, item)
        else:
            _call_events(add, index, item)
    done = "response.incomplete" if response.status == "incomplete" else "response.completed"
    add(done, response=response)
    return events


def _message_events(add: Add, index: int, item: ResponseOutputMessage) -> None:
    """The events of one message item with one output_text part."""
    part = item.content[0]
    where = {"item_id": item.id, "output_index": index}
    add("response.output_item.added", output_index=index,
        item=item.model_copy(update={"status": "in_progress", "content": []}))
    add("response.content_part.added", **where, content_index=0,
        part=ResponseOutputText(annotations=[], text="", logprobs=[]))
    for piece in _groups(split_tokens(part.text)):
        add("response.output_text.delta", **where, content_index=0, delta=piece, logprobs=[])
    add("response.output_text.done", **where, content_index=0, text=part.text, logprobs=[])
    add("response.content_part.done", **where, content_index=0, part=part)
    add("response.output_item.done", output_index=index, item=item)


def _call_events(add: Add, index: int, item: ResponseFunctionToolCall) -> None:
    """The events of one function_call item."""
    where = {"item_id": item.id, "output_index": index}
    add("response.output_item.added", output_index=index,
        item=item.model_copy(update={"status": "in_progress", "arguments": ""}))
    for piece in _groups(split_tokens(item.arguments)):
        add("response.function_call_arguments.delta", **where, delta=piece)
    add("response.function_call_arguments.done", **where, arguments=item.arguments)
    add("response.output_item.done", output_index=index, item=item)
