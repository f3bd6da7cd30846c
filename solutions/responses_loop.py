"""The tool loop over the Responses API: `function_call` items answered by `function_call_output` items.

Built in lesson 12 (Tool calls in practice). Chat completions carry a call in the assistant
message's `tool_calls` and its result in a `tool` message; the Responses API makes both items of
one list: the response's `output` holds a `function_call` item per call (with a `call_id`), and
the next request's `input` answers each with a `function_call_output` item quoting it. The next
request either resends every item (`chain="resend"`) or names the response it continues
(`chain="previous_response_id"`), which the server keeps. Results are capped by
`solutions.tool_calls.cap_result` and validated by lesson 06's `tool_messages`.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from solutions.agent import Trace, check_arguments, explanation_of
from solutions.structured import StructuredStep, structured_prompt, tool_messages
from solutions.tool_calls import cap_result, record_calls
from solutions.tools import ToolRegistry

CHAINS = ("resend", "previous_response_id")


def responses_tools(tools: ToolRegistry) -> list[dict]:
    """The tools in the Responses API's flat shape: {"type": "function", "name", "description", "parameters"}. Built in lesson 12 (Tool calls in practice)."""
    return [{"type": "function", **tool.schema()["function"]} for tool in tools]


def function_call_outputs(calls: list[Any], tools: ToolRegistry, limit: int) -> list[dict]:
    """One `function_call_output` item per `function_call` item, its result capped at `limit`. Built in lesson 12 (Tool calls in practice)."""
    as_chat = [SimpleNamespace(id=call.call_id, function=SimpleNamespace(name=call.name, arguments=call.arguments))
               for call in calls]
    return [{"type": "function_call_output", "call_id": answer["tool_call_id"],
             "output": cap_result(answer["content"], limit)} for answer in tool_messages(as_chat, tools)]


def responses_loop(
    question: str,
    client: Any,
    tools: ToolRegistry,
    max_steps: int = 5,
    *,
    limit: int = 2000,
    chain: str = "previous_response_id",
    model: str = "mock-react",
) -> Trace:
    """Answer `question` with the Responses API, every function call answered. Built in lesson 12 (Tool calls in practice)."""
    check_arguments(question, client, tools, max_steps)
    if chain not in CHAINS:
        raise ValueError(f"chain must be one of {', '.join(CHAINS)}, got {chain!r}")
    items: list[Any] = [{"role": "user", "content": question}]  # everything so far, for the trace
    new_input, previous, steps = list(items), None, []
    for _ in range(max_steps):
        options: dict[str, Any] = {"previous_response_id": previous} if previous else {}
        response = client.responses.create(model=model, instructions=structured_prompt(), tools=responses_tools(tools),
                                           input=new_input if chain == "previous_response_id" else items, **options)
        calls = [item for item in response.output if item.type == "function_call"]
        items += [item.model_dump(exclude_none=True) for item in response.output]
        text = response.output_text or ""
        step = StructuredStep(thought=text.strip() or None, raw_reply=text, tokens=response.usage.total_tokens,
                              explanation=explanation_of(response))
        steps.append(step)
        if not calls:
            step.final_answer = text.strip()
            return Trace(question, steps, step.final_answer, "answered", items)
        outputs = function_call_outputs(calls, tools, limit)
        items += outputs
        record_calls(step, [(call.call_id, call.name, call.arguments) for call in calls],
                     [output["output"] for output in outputs])
        new_input, previous = outputs, response.id if chain == "previous_response_id" else None
    return Trace(question, steps, None, "step_limit", items)
