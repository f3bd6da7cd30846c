"""`guarded_agent`: the lesson-04 loop with every guard of the failure clinic. Built in lesson 05 (Failure clinic).

It reuses `run_step` unchanged and hands it guarded parts: `parse_reply` as the parser, a
`RetryingClient` around the client, a `GuardedTools` registry around the tools, and the stop
sequence. The loop adds two endings to lesson 04's: 'repeated_call' when the same call repeats
twice, 'retries_exhausted' when a request still fails after its retries.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from solutions.agent import Trace, check_arguments, run_step
from solutions.guards.calls import GuardedTools, check_tool_names
from solutions.guards.live import live_data_refusal
from solutions.guards.parse import parse_reply
from solutions.guards.retry import RetriesExhausted, RetryingClient
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, ToolRegistry

STOP = ["Observation:"]
"""The default stop sequence: the API ends the reply where an invented observation would start."""


def guarded_agent(
    question: str,
    client: Any,
    tools: ToolRegistry | None = None,
    max_steps: int = 5,
    *,
    system_prompt: str | None = None,
    model: str = "mock-react",
    stop: list[str] | None = STOP,
    max_tokens: int | None = None,
    max_retries: int = 3,
    sleep: Callable[[float], Any] = time.sleep,
) -> Trace:
    """Answer `question` like `run_agent`, with the failure clinic's guards. Built in lesson 05 (Failure clinic)."""
    tools = BASIC_TOOLS if tools is None else tools
    check_arguments(question, client, tools, max_steps)
    check_tool_names(tools)
    guarded, caller = GuardedTools(tools), RetryingClient(client, max_retries, sleep)
    messages = [{"role": "system", "content": system_prompt or build_system_prompt(tools)},
                {"role": "user", "content": f"Question: {question}"}]
    steps = []
    for _ in range(max_steps):
        try:
            step = run_step(caller, messages, guarded, model=model, parse=parse_reply,
                            stop=stop, max_tokens=max_tokens)
        except RetriesExhausted as exhausted:
            return Trace(question, steps, None, exhausted.stop_reason, messages)
        steps.append(step)
        if step.final_answer is not None:
            refusal = live_data_refusal(question, steps)
            if refusal is None:
                return Trace(question, steps, step.final_answer, "answered", messages)
            step.final_answer, step.error = None, refusal  # one corrective retry
            messages.append({"role": "user", "content": refusal})
        elif guarded.stop_reason is not None:
            return Trace(question, steps, None, guarded.stop_reason, messages)
    return Trace(question, steps, None, "step_limit", messages)
