"""One user's memory in the prompt, and the agent that keeps it per user.

Built in lesson 14 (Memory in practice). `user_summary` is lesson 08's summary for one user:
that user's facts only, the stale ones left out, each value through `memory_value`.
`user_agent` runs lesson 04's loop with it on top of the prompt, then saves what the run learned
for that user, with the clock's day and each key's time to live.
"""
from __future__ import annotations

import sqlite3
from typing import Any

from mockllm.world import Clock
from solutions.agent import Trace, run_agent
from solutions.memory.agent import facts_from_trace
from solutions.memory.expiry import FACT_TTL_DAYS, split_stale
from solutions.memory.poisoning import memory_value
from solutions.memory.scoped import facts_for, save_for
from solutions.memory.summary import HEADING, _one_line, with_memory
from solutions.prompt import build_system_prompt
from solutions.tools import ToolRegistry, world_tools


def user_summary(conn: sqlite3.Connection, user: str, clock: Clock, neutralised: bool = True) -> str:
    """The memory section for `user` on the clock's day: fresh facts only, values neutralised
    (`neutralised=False` shows them raw, to see what the defence stops); '' when there is none."""
    fresh, _stale = split_stale(facts_for(conn, user), clock)
    shown = memory_value if neutralised else _one_line
    lines = [f"- {_one_line(fact.key)}: {shown(fact.value)}" for fact in fresh]
    return "\n".join([HEADING, *lines]) if lines else ""


def user_agent(question: str, client: Any, conn: sqlite3.Connection, user: str, clock: Clock,
               tools: ToolRegistry | None = None, max_steps: int = 5) -> Trace:
    """Answer `question` for `user` with that user's summary on top of the prompt; save for that
    user what the run learned (lesson 08's `facts_from_trace`), with the clock's day."""
    tools = world_tools(clock) if tools is None else tools
    prompt = with_memory(build_system_prompt(tools), user_summary(conn, user, clock))
    trace = run_agent(question, client, tools, max_steps, system_prompt=prompt)
    for key, value in facts_from_trace(trace).items():
        save_for(conn, user, key, value, clock, FACT_TTL_DAYS.get(key))
    return trace
