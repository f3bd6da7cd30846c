"""One HTTP request in, one `Answer` out: the only request handling, shared by the in-process
transport (`transport.py`) and the ASGI server (`app.py`), so neither writes it twice.

    POST /v1/chat/completions   the body is passed as `MockLLM.chat.completions.create(**body)`;
                                the reply is `model_dump(exclude_unset=True)` as JSON (the fields
                                the API sends), or with "stream": true one `data: {chunk}` event
                                per chunk and a final `data: [DONE]`
    POST /v1/responses          the body is passed as `MockLLM.responses.create(**body)`, the
                                Responses API; with "stream": true one `event: TYPE` and
                                `data: {event}` pair per event (no [DONE], as the API sends)
    GET  /v1/models             the base model and one id per persona (models.py)
    GET  /v1/models/{id}        one of them

Errors come in the API's shape (answer.py) with its status codes: 400 for a request the mock
rejects (the message names the field: the ValueError/TypeError of `create()`), a body that is
not a JSON object, or one with a field the endpoint does not take or without a required one
(in the API's words, "Unrecognized request argument supplied: ..." and "Missing required
parameter: '...'", where `create()` would raise Python's TypeError), 404 for an unknown path
(the message names what the mock serves) or model, 405 for a wrong method, 413 for a body over
MAX_BODY bytes, 429 for a simulated rate limit and 408 for a simulated timeout (both with
`retry-after`), 500 (type `server_error`) for anything unexpected: a bad request never ends the
server.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol

from mockllm.protocol.params import PARAMETERS as CHAT_PARAMETERS, SDK_ONLY, did_you_mean
from mockllm.protocol.responses_input import opening
from mockllm.protocol.responses_params import PARAMETERS as RESPONSES_PARAMETERS
from mockllm.serve.answer import (SSE, Answer, bad_request, dumps, error_answer, json_answer)
from mockllm.serve.failures import repeated_failure, simulated_answer
from mockllm.serve.models import UnknownModel, model_card, model_list, parse_model
from mockllm.serve.sessions import Sessions

PREFIX = "/v1"
MAX_BODY = 8 * 1024 * 1024
"""The largest request body accepted, in bytes (HTTP 413 above it)."""
_ROUTES = {"/chat/completions": "POST", "/responses": "POST", "/models": "GET"}
SERVED = ("POST /v1/chat/completions, POST /v1/responses, GET /v1/models and "
          "GET /v1/models/{model}")
_DONE = b"data: [DONE]\n\n"
_FIELDS = {False: tuple(name for name in CHAT_PARAMETERS if name not in SDK_ONLY),
           True: tuple(name for name in RESPONSES_PARAMETERS if name not in SDK_ONLY)}
"""The fields of a chat completions (False) and a Responses API (True) request body."""
_REQUIRED = {False: (("model", '"model": "mock-react"'),
                     ("messages", '"messages": [{"role": "user", "content": "What is 2 + 2?"}]')),
             True: (("model", '"model": "mock-react"'), ("input", '"input": "What is 2 + 2?"'))}
"""The fields each endpoint requires, with an example of each (as JSON: the body is JSON)."""


class Offloader(Protocol):
    """Where large requests may be answered instead (`offload.Offload`, a second process)."""

    def takes(self, route: str, body: bytes) -> bool:
        """Whether the request of `route` with `body` goes there."""

    def answer(self, headers: Mapping, body: bytes) -> Answer | None:
        """Its Answer, or None when it cannot answer (the Service answers it itself)."""


class Service:
    """Answers HTTP requests with the MockLLMs of `sessions`, large ones through `offload` if given."""

    def __init__(self, sessions: Sessions, offload: Offloader | None = None) -> None:
        self.sessions = sessions
        self.offload = offload

    def handle(self, method: str, path: str, headers: Mapping, body: bytes) -> Answer:
        """Route one request and answer it; never raises."""
        route = path[len(PREFIX):] if path.startswith(PREFIX + "/") else None
        allowed = _ROUTES.get(route) or ("GET" if route and route.startswith("/models/") else None)
        if allowed is None:
            return error_answer(404, f"Invalid URL ({method} {path}). The mock serves {SERVED}.")
        if method != allowed:
            return error_answer(405, f"Invalid method for URL ({method} {path})",
                                headers={"allow": allowed})
        if route == "/models":
            return json_answer(200, model_list(self._created()))
        if route.startswith("/models/"):
            return self._model(route[len("/models/"):])
        if len(body) > MAX_BODY:
            return too_large()
        if self.offload is not None and self.offload.takes(route, body):
            answer = self.offload.answer(headers, body)
            if answer is not None:
                return answer
        return self.complete(headers, body, route == "/responses")

    def complete(self, headers: Mapping, body: bytes, responses: bool = False) -> Answer:
        """Answer `POST /v1/chat/completions` (or `/v1/responses`) with the body `body`."""
        request = _parse_json(body)
        if isinstance(request, Answer):
            return request
        refused = _fields_problem(request, responses)
        if refused is not None:
            return refused
        try:
            keyed = opening(request) if responses else request  # the messages name the conversation
            client, lock = self.sessions.session_for(headers, keyed)
            with lock:
                repeated = repeated_failure(client, headers)  # the SDK's retry of a failed call
                if repeated is not None:
                    raise repeated
                endpoint = client.responses if responses else client.chat.completions
                result = endpoint.create(**request)
            if request.get("stream") is True:
                return _stream_answer(result, named=responses)
            return json_answer(200, result.model_dump(exclude_unset=True))
        except UnknownModel as error:
            return error_answer(404, str(error), param="model", code="model_not_found", error=error)
        except (ValueError, TypeError) as error:
            return bad_request(error)
        except Exception as error:  # a simulated failure, or a fault of the mock itself
            return failure_answer(error, headers)

    def _model(self, model_id: str) -> Answer:
        """`GET /v1/models/{id}`: the model card, or 404."""
        try:
            parse_model(model_id, self.sessions.persona, self.sessions.seed)
        except UnknownModel as error:
            return error_answer(404, str(error), param="model", code="model_not_found", error=error)
        return json_answer(200, model_card(model_id, self._created()))

    def _created(self) -> int:
        """The `created` time of the model cards: the mock's frozen day."""
        from mockllm.protocol.client import CREATED

        return CREATED


def too_large() -> Answer:
    """HTTP 413 for a body over MAX_BODY bytes."""
    return error_answer(413, f"The request body is larger than the limit of {MAX_BODY} bytes.",
                        code="request_too_large")


def _fields_problem(request: dict, responses: bool) -> Answer | None:
    """The API's 400 for a body with a field the endpoint does not take, or without one it
    requires; None when its fields are the endpoint's."""
    unknown = next((name for name in request if name not in _FIELDS[responses]), None)
    if unknown is not None:
        hint = did_you_mean(unknown, _FIELDS[responses])
        return error_answer(400, f"Unrecognized request argument supplied: {unknown:.100}{hint}")
    for name, example in _REQUIRED[responses]:
        if name not in request:
            return error_answer(400, f"Missing required parameter: '{name}'. Give it, e.g. {example}.",
                                param=name, code="missing_required_parameter")
    return None


def _parse_json(body: bytes) -> dict | Answer:
    """Decode the body as a JSON object, or return the 400 that says why it is not one."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as error:  # RecursionError: absurdly deep nesting
        reason = "too deeply nested" if isinstance(error, RecursionError) else str(error)
        return error_answer(400, "We could not parse the JSON body of your request "
                                 f"({reason:.200}). The API expects a JSON object, e.g. "
                                 '{"model": "mock-react", "messages": [...]}.', error=error)
    if not isinstance(value, dict):
        return error_answer(400, "The request body must be a JSON object, got "
                                 f"{type(value).__name__}, e.g. "
                                 '{"model": "mock-react", "messages": [...]}.')
    return value


def _stream_answer(stream: object, named: bool = False) -> Answer:
    """The chunks of a streamed reply as server-sent events, ending with `data: [DONE]`; or, when
    `named` (the Responses API's events), each preceded by `event: TYPE` and no [DONE]."""
    events = [(b"event: " + chunk.type.encode() + b"\n" if named else b"") + b"data: "
              + dumps(chunk.model_dump(exclude_unset=True)) + b"\n\n" for chunk in stream]
    if not named:
        events.append(_DONE)
    return Answer(200, {"content-type": SSE, "cache-control": "no-cache"}, events)


def failure_answer(error: Exception, headers: Mapping | None = None) -> Answer:
    """HTTP 429 or 408 for a simulated failure (see failures.py; `headers` are the request's);
    HTTP 500 for any other exception."""
    simulated = simulated_answer(error, headers or {})
    if simulated is not None:
        return simulated
    return error_answer(500, f"The mock failed: {type(error).__name__}: {error}"[:2000],
                        "server_error", error=error)
