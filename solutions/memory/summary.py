"""The state summary: a few lines from the store, placed at the top of the system prompt.

Built in lesson 08 (Memory). One `key: value` line per fact (its latest value, read with
`recall_fact`) and per preference under a `Memory from earlier sessions:` heading, then the
latest tasks; a blank line ends the section.
"""
from __future__ import annotations

import sqlite3

from solutions.memory.store import fact_keys, preferences, recall_fact, task_progress

HEADING = "Memory from earlier sessions:"
MAX_TASKS = 3  # the latest tasks listed; older ones stay in the store
MAX_ITEM_CHARS = 200  # a key or a value longer than this is cut: a stored text cannot flood the prompt


def state_summary(conn: sqlite3.Connection, max_tasks: int = MAX_TASKS) -> str:
    """The summary of what the store holds, or '' when it holds nothing."""
    if isinstance(max_tasks, bool) or not isinstance(max_tasks, int) or max_tasks < 0:
        raise ValueError(f"max_tasks must be a whole number >= 0, got {max_tasks!r}")
    lines = [f"- {_one_line(key)}: {_one_line(recall_fact(conn, key))}" for key in fact_keys(conn)]
    lines += [f"- preferred {_one_line(key)}: {_one_line(value)}" for key, value in preferences(conn).items()]
    tasks = list(task_progress(conn).items())[-max_tasks:] if max_tasks else []
    lines += [f"- task {_one_line(task)!r}: {_one_line(status)}" for task, status in tasks]
    return "\n".join([HEADING, *lines]) if lines else ""


def with_memory(system_prompt: str, summary: str) -> str:
    """The system prompt with `summary` on top (unchanged when the summary is empty)."""
    return f"{summary}\n\n{system_prompt}" if summary else system_prompt


def _one_line(text: str) -> str:
    """`text` on one line, so that a key or a value cannot end the memory section or start a new
    one, and at most MAX_ITEM_CHARS long (cut with "...")."""
    line = " ".join(str(text).split())
    return line if len(line) <= MAX_ITEM_CHARS else line[:MAX_ITEM_CHARS - 3] + "..."
