"""A registry that guards every call: names matched, arguments bound, repeats noticed, field names refused.

Built in lesson 05 (Failure clinic). `GuardedTools` wraps the lesson-01 registry for one run;
`run_step` of lesson 04 calls its `run` like any registry's. A model names a tool as it reads it
("Get Weather", "functions.get_weather", "get_weather: returns the weather"): `tool_name` finds
the tool it means, case and spacing forgiven, or leaves the name for the registry's error.
"""
from __future__ import annotations

import re
from typing import Any

from solutions.guards.inputs import split_values
from solutions.guards.repeat import REPEAT_NOTE, STOP_NOTE, repeat_verdict
from solutions.tools import Tool, ToolRegistry

FIELD_NAMES = ("finalanswer", "observation", "thought", "action", "actioninput", "question")
"""Tool names the parser would read as a field of the format (compared without case, spaces, _ or -)."""
_KEYWORD = re.compile(r"([A-Za-z_]\w*)[ \t]*[=:][ \t]*(.*)", re.DOTALL)
_SEPARATORS = re.compile(r"[\s_\-]")
_NAMESPACE = re.compile(r"(?:functions?|tools?)\.", re.IGNORECASE)  # functions.get_weather


def _key(name: str) -> str:
    """A name compared without case, spaces, _ or - ("Get Weather" and "get_weather" meet)."""
    return _SEPARATORS.sub("", name.casefold())


def tool_name(tools: ToolRegistry, name: object) -> object:
    """The registered name that `name` means, case and spacing forgiven; `name` itself if none or several. Built in lesson 05 (Failure clinic).

    Tried in order: the name; without a `functions.` prefix; the part before a `:` or ` - `
    (a line of the tool list copied whole).
    """
    if not isinstance(name, str) or name in tools:
        return name
    keys: dict[str, list[str]] = {}
    for registered in tools.names():
        keys.setdefault(_key(registered), []).append(registered)
    bare = _NAMESPACE.sub("", name.strip(), count=1)
    for candidate in (name, bare, re.split(r":|：| - ", bare, maxsplit=1)[0]):
        found = keys.get(_key(candidate), [])
        if len(found) == 1:
            return found[0]
    return name


def check_tool_names(tools: ToolRegistry) -> None:
    """Raise ValueError when a tool's name looks like a field of the format, e.g. final_answer. Built in lesson 05 (Failure clinic)."""
    for name in tools.names():
        if _SEPARATORS.sub("", name.lower()) in FIELD_NAMES:
            raise ValueError(f"the tool name {name!r} looks like a field of the ReAct format, so a "
                             f"reply calling it reads as that field; rename the tool, e.g. "
                             f"'submit_{name.lower().strip('_')}'")


def bind_arguments(tool: Tool, action_input: dict) -> dict:
    """Bind a bare input ("Beijing, 2025-03-15", a list, "city=Beijing, ..." or such lines) to the tool's parameters. Built in lesson 05 (Failure clinic).

    Only when the values fit the parameters exactly; otherwise the input is returned unchanged,
    and the registry's error says what the tool needs.
    """
    names = tool.arguments
    if list(action_input) != ["input"] or len(names) < 2 or "input" in names:
        return action_input
    value = action_input["input"]
    values = [str(v) if not isinstance(v, str) else v for v in value] if isinstance(value, list) \
        else split_values(value) if isinstance(value, str) else []
    pairs = [_KEYWORD.fullmatch(v) for v in values]
    named = {name.casefold(): name for name in names}
    if values and all(pairs) and {p[1].casefold() for p in pairs} <= set(named):
        return {named[p[1].casefold()]: p[2].strip().strip("'\"") for p in pairs}  # city=Beijing, date=...
    if len(values) != len(names) or (isinstance(value, str) and "\n" in value.strip()):
        return action_input  # several lines bind by name only: code is one value
    return dict(zip(names, value if isinstance(value, list) else values))


def example_of(tool: Tool) -> str:
    """The example input in a tool's description ('Example: {...}'), or ''. Built in lesson 05 (Failure clinic)."""
    found = re.search(r"Example:\s*(\{.*\})", tool.description)
    return found[1] if found else ""


class GuardedTools(ToolRegistry):
    """The tools of one run: each call is matched to a tool, bound, compared with the earlier ones, then run. Built in lesson 05 (Failure clinic)."""

    def __init__(self, tools: ToolRegistry) -> None:
        """Wrap `tools` for one run (its calls so far start empty)."""
        super().__init__(tools)
        self.calls: list[tuple[str, dict]] = []
        self.results: list[str] = []
        self.stop_reason: str | None = None  # "repeated_call" once a call repeats twice

    def run(self, name: str, action_input: dict | None) -> str:
        """Run a call like the registry does, with the tool's name matched, bound arguments, repeat notes and examples in errors."""
        name = tool_name(self, name.strip() if isinstance(name, str) else name)
        arguments = action_input if isinstance(action_input, dict) else {}
        if isinstance(name, str) and name in self:
            arguments = bind_arguments(self[name], arguments)
        verdict = repeat_verdict(self.calls, name, arguments)
        if verdict == "stop":
            self.stop_reason, result = "repeated_call", STOP_NOTE
        elif verdict == "repeat":  # the earlier result again, with the note
            earlier = next(r for c, r in zip(self.calls, self.results) if c == (name, arguments))
            result = f"{earlier}\n{REPEAT_NOTE.format(action=name)}"
        else:
            result = self._with_example(name, super().run(name, arguments))
        self.calls.append((name, arguments))
        self.results.append(result)
        return result

    def _with_example(self, name: Any, result: str) -> str:
        """An argument error with the tool's example input added, so the model can copy it."""
        if isinstance(name, str) and name in self and result.startswith(f"Error: {name}() needs"):
            example = example_of(self[name])
            return f"{result}. Example: {example}" if example else result
        return result
