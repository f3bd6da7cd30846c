"""An agent that remembers across sessions, and the costly alternative: replaying the history.

Built in lesson 08 (Memory). `remembering_agent` reads the store's summary into the system
prompt, runs lesson 04's loop, then saves what the run learned (the program decides what is
kept, not the model). `replaying_agent` instead sends every earlier message again.
"""
from __future__ import annotations

import sqlite3
from typing import Any

from solutions.agent import Trace, check_arguments, run_agent, run_step
from solutions.budget import UsageMeter, run_within_budget
from solutions.memory.store import save_fact, save_progress, start_session
from solutions.memory.summary import state_summary, with_memory
from solutions.prompt import build_system_prompt
from solutions.tools import ToolRegistry, world_tools

FACT_ARGUMENTS = {"city": "last_city"}
"""Tool arguments worth remembering, and the fact each one becomes."""


def facts_from_trace(trace: Trace) -> dict[str, str]:
    """The facts a run shows: the last value of each FACT_ARGUMENTS argument of a call that worked."""
    facts: dict[str, str] = {}
    for step in trace.steps:
        if step.observation is None or step.observation.startswith("Error:") \
                or not isinstance(step.action_input, dict):
            continue  # only calls that ran and worked count: 'Atlantis' is no city to remember
        for argument, key in FACT_ARGUMENTS.items():
            value = step.action_input.get(argument)
            if isinstance(value, str) and value.strip():
                facts[key] = value.strip()
    return facts


def remembering_agent(question: str, client: Any, conn: sqlite3.Connection,
                      tools: ToolRegistry | None = None, max_steps: int = 5) -> Trace:
    """Answer `question` with the store's summary on top of the prompt; save what the run learned."""
    tools = world_tools() if tools is None else tools
    session = start_session(conn, question)
    prompt = with_memory(build_system_prompt(tools), state_summary(conn))
    trace = run_agent(question, client, tools, max_steps, system_prompt=prompt)
    for key, value in facts_from_trace(trace).items():
        save_fact(conn, key, value, session)
    save_progress(conn, question, trace.stop_reason, session)
    return trace


def replaying_agent(question: str, client: Any, history: list[dict],
                    tools: ToolRegistry | None = None, max_steps: int = 5) -> Trace:
    """Answer `question` after every earlier message in `history` (the costly way to remember).

    `history` grows by this run's messages (no system prompt), ready for the next session.
    """
    tools = world_tools() if tools is None else tools
    check_arguments(question, client, tools, max_steps)
    if not isinstance(history, list):
        raise TypeError(f"history must be a list of messages, got {type(history).__name__}")
    messages = [{"role": "system", "content": build_system_prompt(tools)}, *history,
                {"role": "user", "content": f"Question: {question}"}]
    meter = UsageMeter(client)
    steps, reason = run_within_budget(lambda: run_step(meter, messages, tools), meter,
                                      max_steps, None)
    history[:] = messages[1:]
    answer = steps[-1].final_answer if steps else None
    return Trace(question, steps, answer, reason, messages)
