"""The system prompt, assembled from named parts you can remove one by one. Built in lesson 02 (The prompt)."""
from __future__ import annotations

from typing import Iterable

from solutions.tools import Tool, ToolRegistry

_EXAMPLE = """Here is an example (its numbers are made up; use your tools for real data):

Question: What is 45 * 3 - 10?
Thought: I should compute this with the calculator.
Action: calculator
Action Input: {"expression": "45 * 3 - 10"}
Observation: 125
Thought: I now know the final answer.
Final Answer: 45 * 3 - 10 = 125"""

_FORMAT = """Use exactly this format:

Thought: think about what to do next
Action: the tool to use, one of [{tool_names}]
Action Input: the input for the tool, as a JSON object

Then stop. The program runs the tool and sends you the result as:
Observation: the result of the tool

Repeat Thought / Action / Action Input as many times as needed. When you know the answer, write:

Thought: I now know the final answer.
Final Answer: the answer to the question"""

PARTS: dict[str, str] = {
    "role": "You are a helpful assistant that answers the user's question step by step. "
            "You can call tools to look things up or to compute.",
    "tools": "You have access to the following tools:\n{tools}",
    "format": _FORMAT,
    "example": _EXAMPLE,
    "one_action": "Write only one Thought and one Action per reply, then wait for the Observation.",
    "no_observation": "Never write the Observation yourself: the program adds it.",
    "final_not_tool": "Final Answer is not a tool: never write `Action: Final Answer`. "
                      "Write `Final Answer:` on its own line instead.",
    "stop_when_enough": "Stop when you have enough information to answer: write the Final Answer "
                        "instead of calling more tools.",
    "live_data": "For live data (dates, weather, orders, calendar) you must call a tool; never guess.",
}
"""The prompt's parts, in order; `tools` and `format` are templates filled from the registry."""

RULES: tuple[str, ...] = ("one_action", "no_observation", "final_not_tool", "stop_when_enough",
                          "live_data")
"""The parts that are rules; build_system_prompt numbers them under one 'Rules:' heading."""

DEFAULT_PARTS: tuple[str, ...] = tuple(PARTS)
"""Every part, in the order of PARTS."""


def without(*names: str) -> tuple[str, ...]:
    """Return DEFAULT_PARTS minus `names` (ValueError on an unknown name). Built in lesson 02 (The prompt)."""
    _check_names(names)
    return tuple(name for name in DEFAULT_PARTS if name not in names)


def build_system_prompt(tools: ToolRegistry | Iterable[Tool],
                        parts: Iterable[str] = DEFAULT_PARTS) -> str:
    """Assemble the system prompt from `parts`, filling the tool list from `tools`. Built in lesson 02 (The prompt)."""
    tool_list = _tool_list(tools)
    if isinstance(parts, str):
        raise TypeError("parts must be a list or tuple of part names, e.g. without('example')")
    names = list(parts)
    _check_names(names)
    tool_lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in tool_list) or "- (no tools)"
    tool_names = ", ".join(tool.name for tool in tool_list)
    texts = {name: PARTS[name].replace("{tools}", tool_lines).replace("{tool_names}", tool_names)
             for name in names}
    rules = [name for name in names if name in RULES]
    numbered = [f"{number}. {texts[name]}" for number, name in enumerate(rules, start=1)]
    blocks: list[str] = []
    for name in names:
        if name not in RULES:
            blocks.append(texts[name])
        elif name == rules[0]:  # every rule in one block, where the first rule stands
            blocks.append("\n".join(["Rules:", *numbered]))
    return "\n\n".join(blocks)


def _check_names(names: Iterable[str]) -> None:
    """Raise ValueError when a name is not a part or appears twice."""
    seen: set[str] = set()
    for name in names:
        if name not in PARTS:
            raise ValueError(f"unknown prompt part {name!r}; valid parts: {', '.join(PARTS)}")
        if name in seen:
            raise ValueError(f"prompt part {name!r} appears twice")
        seen.add(name)


def _tool_list(tools: object) -> list[Tool]:
    """Return the tools of a registry (or of an iterable of Tool-like objects), else raise TypeError."""
    if isinstance(tools, (str, bytes, dict)) or not hasattr(tools, "__iter__"):
        raise TypeError(f"tools must be a ToolRegistry (e.g. world_tools()), got {type(tools).__name__}")
    tool_list = list(tools)  # type: ignore[call-overload]
    for tool in tool_list:
        if not (isinstance(getattr(tool, "name", None), str)
                and isinstance(getattr(tool, "description", None), str)):
            raise TypeError(f"tools must be a ToolRegistry of Tool objects, found {type(tool).__name__}")
    return tool_list
