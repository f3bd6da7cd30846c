"""Keeping the context small: truncated observations, summarised old steps, cut replies.

Built in lesson 07 (Context and budget). Each piece is a plain function of text or messages;
`solutions.budget.budgeted_agent` puts them into the lesson-04 loop.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from solutions.parsing import Step, format_error, parse_step
from solutions.tools import Tool, ToolRegistry

MAX_OBSERVATION_CHARS = 500
"""Characters of an observation the model is shown by default (the failure table's advice)."""
SUMMARY_LINE_CHARS = 120
"""Characters kept of the first line of each summarised observation."""
SUMMARY_HEADER = "Earlier steps, summarised (thoughts left out, each observation cut to its first line):"
CUT_REPLY = format_error("it was cut off by the token limit (max_tokens) before it ended, "
                         "so none of it was used; write a shorter reply, with a brief Thought")
"""The corrective message sent back after a reply that max_tokens cut off (lesson 03's form)."""


def truncate_observation(text: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    """Keep the first `limit` characters of `text` and say how many were cut. Built in lesson 07 (Context and budget)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, got {type(limit).__name__}")
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... [truncated {len(text) - limit:,} of {len(text):,} characters]"


def truncating_tools(tools: ToolRegistry, limit: int = MAX_OBSERVATION_CHARS) -> ToolRegistry:
    """A copy of `tools` whose results are cut to `limit` characters. Built in lesson 07 (Context and budget)."""
    if not isinstance(tools, ToolRegistry):
        raise TypeError(f"tools must be a ToolRegistry, got {type(tools).__name__}")
    truncate_observation("", limit)  # the same checks of `limit`, before any tool runs
    return ToolRegistry(Tool(tool.name, tool.description, tool.parameters,
                             _truncated(tool.function, limit), tool.dangerous) for tool in tools)


def _truncated(function: Callable[..., Any], limit: int) -> Callable[..., str]:
    """`function`, with its result as text cut by truncate_observation."""
    def call(**arguments: Any) -> str:
        return truncate_observation(str(function(**arguments)), limit)
    return call


def cut_reply(text: str) -> Step:
    """Read a reply that max_tokens cut off: never as an action, always as CUT_REPLY. Built in lesson 07 (Context and budget)."""
    return Step(error=CUT_REPLY, raw=text)


def summarise_history(messages: list[dict], keep_last: int = 2,
                      parse: Callable[[str], Step] = parse_step) -> list[dict]:
    """The messages to send: every step but the last `keep_last` summarised in the question's message.

    Built in lesson 07 (Context and budget). The summary is rule-based, so it is the same on
    every run: for each older step, its Action, its Action Input and the first line of its
    observation (replies that were not actions, such as format errors, are left out), written in
    the fields the model writes, so that it reads them as its own earlier steps. The system
    prompt, the question and the last `keep_last` steps are sent unchanged; `messages` is not
    changed.
    """
    if isinstance(keep_last, bool) or not isinstance(keep_last, int) or keep_last < 0:
        raise ValueError(f"keep_last must be an int of 0 or more, got {keep_last!r}")
    if not all(isinstance(message, dict) for message in messages):
        raise TypeError("messages must be a list of dicts like {'role': 'user', 'content': '...'}")
    replies = [i for i, message in enumerate(messages) if message.get("role") == "assistant"]
    if len(replies) <= keep_last:
        return list(messages)
    question = replies[0] - 1
    if question < 0 or messages[question].get("role") != "user" or \
            not isinstance(messages[question].get("content"), str):
        raise ValueError("summarise_history needs the question as a user message of text before "
                         "the first reply, as run_agent's messages have it")
    kept = replies[-keep_last] if keep_last else len(messages)
    lines = [_summary_of(messages, i, kept, parse) for i in replies if i < kept]
    summary = "\n".join([messages[question]["content"], "", SUMMARY_HEADER, *filter(None, lines)])
    return [*messages[:question], {**messages[question], "content": summary}, *messages[kept:]]


def _summary_of(messages: list[dict], index: int, end: int, parse: Callable[[str], Step]) -> str:
    """The summary lines of the step whose reply is messages[index] ('' when it was no action)."""
    following = messages[index + 1].get("content") if index + 1 < end else None
    if not isinstance(following, str) or not following.startswith("Observation:"):
        return ""  # a final answer, or a reply that got a corrective message
    step = parse(messages[index].get("content") or "")
    if step.action is None or step.error is not None:
        return ""
    observation = following.removeprefix("Observation:").strip()
    first_line = observation.split("\n", 1)[0][:SUMMARY_LINE_CHARS]
    return (f"Action: {step.action}\n"
            f"Action Input: {json.dumps(step.action_input, ensure_ascii=False)}\n"
            f"Observation: {truncate_observation(observation, len(first_line))}")
