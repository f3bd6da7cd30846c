"""`client.responses.create(...)`: the Responses API, answered by the chat-completions pipeline.

A request is read as the chat request it means (`responses_request`: instructions and input as
messages, flat function tools as chat's), answered by the client as any chat completion is (the
same call counter, simulated failures, persona and script), and the ChatCompletion is written
back as a Response: the reply text as one assistant `message` item with an `output_text` part,
each tool call as a `function_call` item whose `call_id` the caller's `function_call_output`
answers, `usage` as input/output tokens, `x_mock` as it was. With `stream=True`, the events the
API streams (`responses_stream`). Ids are the completion's stable hash: `resp_<hash>`,
`msg_<hash>`, `fc_<hash>`.
"""
from __future__ import annotations

from mockllm.protocol.responses_types import (
    IncompleteDetails, Response, ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText,
    ResponseUsage,
)

__all__ = ["Responses", "build_response"]


class Responses:
    """`client.responses`: `create()` only (no retrieve, delete or list of stored responses)."""

    def __init__(self, client: object) -> None:
        self._client = client

    def create(self, **params: object) -> Response | object:
        """Return a Response (or, with stream=True, a Stream of events) for `input`.

        Takes every keyword of openai's `responses.create()`
        (`mockllm.protocol.responses_params.PARAMETERS`): `input` (a str or a list of message,
        function_call and function_call_output items), `instructions`, function `tools`,
        `tool_choice`, `max_output_tokens`, `temperature`, `text` (its format), `stream` and
        `previous_response_id` (a response this process created with `store` not False) shape
        the reply; `conversation`, `prompt` and `background=True` are refused (the mock keeps
        no such objects); the others are checked and accepted without effect.
        """
        from mockllm.protocol.responses_request import read_request

        request = read_request(params)
        completion = self._client._complete(request.chat)
        response = build_response(completion, request.echo)
        if request.store:
            from mockllm.protocol.responses_store import remember

            remember(response.id, (*request.chat.messages[request.first:],
                                   _as_message(completion.choices[0].message)))
        if not request.stream:
            return response
        from mockllm.protocol.responses_stream import response_events
        from mockllm.protocol.stream import Stream

        return Stream(response_events(response))


def build_response(completion: object, echo: dict) -> Response:
    """The Response that says what `completion` (a ChatCompletion) says, with `echo` repeated."""
    from mockllm._hash import stable_int

    key = completion.id.removeprefix("chatcmpl-")
    choice = completion.choices[0]
    message, cut = choice.message, choice.finish_reason == "length"
    status = "incomplete" if cut else "completed"
    output: list = []
    if message.content or not message.tool_calls:
        part = ResponseOutputText(annotations=[], text=message.content or "", logprobs=[])
        output.append(ResponseOutputMessage(id=f"msg_{stable_int(key, 'message'):016x}",
                                            status=status, content=[part]))
    for index, call in enumerate(message.tool_calls or ()):
        output.append(ResponseFunctionToolCall(
            id=f"fc_{stable_int(key, 'call', index):016x}", status=status,
            arguments=call.function.arguments, call_id=call.id, name=call.function.name))
    usage = ResponseUsage.from_chat(completion.usage)
    return Response(
        id=f"resp_{key}", created_at=completion.created, status=status, background=False,
        completed_at=None if cut else completion.created, error=None,
        incomplete_details=IncompleteDetails(reason="max_output_tokens") if cut else None,
        instructions=echo["instructions"], max_output_tokens=echo["max_output_tokens"],
        max_tool_calls=echo.get("max_tool_calls"), model=completion.model, output=output,
        parallel_tool_calls=echo["parallel_tool_calls"],
        previous_response_id=echo["previous_response_id"],
        reasoning=echo.get("reasoning", {"effort": None, "summary": None}),
        service_tier="default", temperature=echo.get("temperature", 1.0), text=echo["text"],
        tool_choice=echo["tool_choice"], tools=echo["tools"],
        top_logprobs=echo.get("top_logprobs", 0), top_p=echo.get("top_p", 1.0),
        truncation=echo.get("truncation", "disabled"), usage=usage, user=echo.get("user"),
        metadata=echo.get("metadata", {}), x_mock=completion.x_mock)


def _as_message(message: object) -> dict:
    """A reply's ChatCompletionMessage as the chat message a later request would resend."""
    calls = [call.model_dump() for call in message.tool_calls or ()]
    if calls:
        return {"role": "assistant", "content": message.content, "tool_calls": calls}
    return {"role": "assistant", "content": message.content or ""}
