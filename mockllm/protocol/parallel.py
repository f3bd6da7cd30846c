"""`parallel_tool_calls=True`: the independent calls of a question, made in one reply.

A real model with parallel calling on writes several tool calls in one assistant message when
their arguments do not depend on each other's results ("the weather in Beijing and in London").
The mock's brain plans one call at a time, so this step finds the others by asking it again:
after the calls so far, each answered by a made-up result, what is the next call? It asks
twice, with two different results (`RESULTS`). When both give the same call, one not in the
reply yet, that call does not depend on those results, and it joins the reply; when they differ
(the weather of the date the date tool returns), or the model would answer, the reply is
complete. At most `MAX_CALLS` calls. The made-up results are never shown to anyone: the
program answers every call of the reply, and the next request reads those real answers.

Only a request that sets `parallel_tool_calls=True` itself gets this (the API's default is
True; the mock's default stays one call per reply, so code written for it keeps its traces).
"""
from __future__ import annotations

import json
from typing import Callable

MAX_CALLS = 4
"""The most calls one reply holds."""
RESULTS = ("Result: 2031-01-17, Tromsø, 417.", "Result: 2032-08-05, Nairobi, 58.")
"""Two made-up results, different in every value a call could be built from (a date, a place, a
number), so that a call built from a result is a different call after each."""


def parallel_calls(messages: list[dict], calls: tuple, respond: Callable[[list[dict]], tuple]
                   ) -> tuple[tuple, list[str]]:
    """(the calls of the reply, notes for x_mock): `calls` and the independent ones after them.

    `respond(messages)` returns the tool calls the model makes for a conversation.
    """
    calls = tuple(calls)
    seen = {_key(call) for call in calls}
    while 0 < len(calls) < MAX_CALLS:
        following = [respond(_answered(messages, calls, result)) for result in RESULTS]
        nexts = [found[0] if len(found) == 1 else None for found in following]
        if None in nexts or _key(nexts[0]) != _key(nexts[1]) or _key(nexts[0]) in seen:
            break
        calls += (nexts[0],)
        seen.add(_key(nexts[0]))
    if len(calls) < 2:
        return calls, []
    names = ", ".join(call["function"]["name"] for call in calls)
    return calls, [f"parallel_tool_calls=True: {len(calls)} calls in one reply ({names}); each one "
                   "after the first is the call the model makes next whatever the calls before it "
                   "return"]


def _answered(messages: list[dict], calls: tuple, result: str) -> list[dict]:
    """The conversation after `calls`, each answered by `result`."""
    ids = [f"call_{index}" for index in range(len(calls))]
    assistant = {"role": "assistant", "content": None, "tool_calls": [
        {"id": id_, "type": "function", "function": dict(call["function"])} for id_, call in zip(ids, calls)]}
    return [*messages, assistant, *({"role": "tool", "tool_call_id": id_, "content": result} for id_ in ids)]


def _key(call: dict | None) -> tuple:
    """What makes two calls the same call: the name and the decoded arguments."""
    if call is None:
        return ()
    arguments = call["function"]["arguments"]
    try:
        arguments = json.dumps(json.loads(arguments), sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        pass
    return call["function"]["name"], arguments
