"""Cases for lesson 02 (The prompt): assembling the system prompt from named parts."""
from __future__ import annotations

from typing import Any, Callable

from mockllm import find_rules
from solutions.course.exercises import Case, Cause, Exercise, returns


def rules_in(prompt: str) -> set[str]:
    """Return the rules a prompt states, read by the mock model's own reader."""
    return set(find_rules(prompt))


ALL_RULES = {"format", "example", "one_action", "no_observation", "final_not_tool",
             "stop_when_enough", "live_data"}
"""Every rule id the mock reads from a system prompt (see its rulebook)."""


SHORT = 200
"""Prompts up to this many characters are shown whole in the report."""


def show_prompt(prompt: Any) -> str:
    """Show a short prompt whole; summarise a long one: its length, tools listed, rules stated."""
    if not isinstance(prompt, str) or len(prompt) <= SHORT:
        return repr(prompt)
    tools = [line.strip()[2:].split(":")[0] for line in prompt.splitlines()
             if line.strip().startswith("- ") and ":" in line]
    rules = ", ".join(sorted(rules_in(prompt))) or "none"
    return f"a prompt of {len(prompt)} characters; tools listed: {', '.join(tools) or 'none'}; rules: {rules}"


def _basic() -> Any:
    """The lesson's two basic tools (imported only when a case runs)."""
    from solutions.tools import BASIC_TOOLS

    return BASIC_TOOLS


def _with(parts: Callable[[], tuple] | tuple | None = None,
          tools: Callable[[], Any] = _basic) -> Callable[[], tuple[tuple, dict]]:
    """Return a setup building (tools, parts) when the case runs."""
    def setup() -> tuple[tuple, dict]:
        chosen = parts() if callable(parts) else parts
        return ((tools(),), {} if chosen is None else {"parts": chosen})
    return setup


def _without(*names: str) -> Callable[[], tuple]:
    """DEFAULT_PARTS minus `names`, computed when the case runs."""
    def parts() -> tuple:
        from solutions.prompt import without

        return without(*names)
    return parts


def _lists(*names: str, absent: tuple[str, ...] = ()) -> Callable[[str], bool]:
    """Predicate: the prompt has a line `- name: ...` for each name and none for `absent`."""
    def test(prompt: str) -> bool:
        lines = [line.strip() for line in prompt.splitlines()]
        has = lambda name: any(line.startswith(f"- {name}:") for line in lines)  # noqa: E731
        return all(has(n) for n in names) and not any(has(n) for n in absent)
    return test


def _rules(expected: set[str]) -> Callable[[str], bool]:
    """Predicate: the prompt states exactly the rules in `expected`."""
    return lambda prompt: rules_in(prompt) == expected


def _world() -> Any:
    """All the world's tools."""
    from solutions.tools import world_tools

    return world_tools()


def _tools_once() -> Any:
    """The basic tools as a generator, which can be read only once."""
    return (tool for tool in _basic())


def _calculator_only() -> Any:
    """A registry holding only the calculator."""
    return _basic().subset("calculator")


def _empty() -> Any:
    """A registry with no tools."""
    from solutions.tools import ToolRegistry

    return ToolRegistry()


def _rules_block(*names: str) -> Callable[[str], bool]:
    """Predicate: the prompt is exactly one 'Rules:' block numbering the rule parts `names`."""
    def test(prompt: str) -> bool:
        from solutions.prompt import PARTS

        lines = [f"{number}. {PARTS[name]}" for number, name in enumerate(names, start=1)]
        return prompt == "\n".join(["Rules:", *lines])
    return test


def _blocks(*blocks: str | tuple[str, ...]) -> Callable[[str], bool]:
    """Predicate: the prompt is these blocks joined by blank lines; a part name stands for its text
    (filled for BASIC_TOOLS), a tuple of rule names for one 'Rules:' block numbering them."""
    def test(prompt: str) -> bool:
        from solutions.prompt import PARTS

        names = ", ".join(tool.name for tool in _basic())
        lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in _basic())

        def text(block: str | tuple[str, ...]) -> str:
            if isinstance(block, tuple):
                return "\n".join(["Rules:", *(f"{n}. {PARTS[rule]}" for n, rule in enumerate(block, 1))])
            return PARTS[block].replace("{tools}", lines).replace("{tool_names}", names)
        return prompt == "\n\n".join(text(block) for block in blocks)
    return test


class _Kept:
    """A list of part names handed to the function, kept to see afterwards whether it changed."""

    def __init__(self, *names: str) -> None:
        self.names = names
        self.given: list[str] = []

    def setup(self) -> tuple[tuple, dict]:
        """Hand over a fresh list of the names."""
        self.given = list(self.names)
        return (_basic(),), {"parts": self.given}

    def unchanged(self, prompt: Any) -> bool:
        """True when the list still holds the names it was given, in order."""
        return self.given == list(self.names)


_KEPT = _Kept("role", "one_action", "tools", "live_data")


def _same_as_reference(prompt: str) -> bool:
    """Predicate: the prompt is the reference's default prompt for BASIC_TOOLS, character for character."""
    from solutions.prompt import build_system_prompt

    return prompt == build_system_prompt(_basic())


_LIST_HINT = "fill the tools part with one line per tool: f'- {tool.name}: {tool.description}'"
_PART_HINT = "add only the parts named in `parts`, in order, joined by blank lines"

PROMPT_CASES = (
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)", expect=_lists(
        "get_current_date", "calculator"), says="a line '- get_current_date: ...' and "
        "'- calculator: ...'", hint=_LIST_HINT),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)",
         expect=lambda p: 'Action Input: {"expression": "45 * 3 - 10"}' in p,
         says='the example\'s JSON unchanged: Action Input: {"expression": "45 * 3 - 10"}',
         hint="fill the placeholders with str.replace, not str.format: the example's JSON has "
              "braces of its own"),
    Case(setup=_with(tools=_world), label="build_system_prompt(world_tools())",
         expect=_lists("get_current_date", "calculator", "get_weather", "lookup_order",
                       "query_orders", "search_docs", "get_calendar", "add_days"),
         says="one '- name: ...' line for every tool of the registry",
         hint=f"{_LIST_HINT}, for the registry of this call: fill a copy of each part, never "
              "PARTS itself (a template filled in place keeps the first call's tools)"),
    Case(setup=_with(tools=_calculator_only),
         label="build_system_prompt(BASIC_TOOLS.subset('calculator'))",
         expect=_lists("calculator", absent=("get_current_date",)),
         says="lists calculator and not get_current_date", hint="list the registry you are given"),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)",
         expect=lambda p: all(f in p for f in ("Thought:", "Action:", "Action Input:", "Final Answer:")),
         says="the format section: 'Thought:', 'Action:', 'Action Input:', 'Final Answer:'",
         hint="include PARTS['format'] when 'format' is among the parts"),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)",
         expect=lambda p: all(tool.description in p for tool in _basic()),
         says="each tool's whole description (with its example input)",
         hint="use tool.description as it is, its example input included"),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)", expect=_rules(ALL_RULES),
         says=f"every rule the mock reads: {', '.join(sorted(ALL_RULES))}", hint=_PART_HINT),
    Case(setup=_with(_without("example")), label="build_system_prompt(BASIC_TOOLS, without('example'))",
         expect=_rules(ALL_RULES - {"example"}), says="no worked example, every other rule",
         hint=_PART_HINT),
    Case(setup=_with(_without("one_action")),
         label="build_system_prompt(BASIC_TOOLS, without('one_action'))",
         expect=_rules(ALL_RULES - {"one_action"}), says="no 'one action' rule, every other rule",
         hint=_PART_HINT),
    Case(setup=_with(_without("no_observation")),
         label="build_system_prompt(BASIC_TOOLS, without('no_observation'))",
         expect=_rules(ALL_RULES - {"no_observation"}),
         says="no 'never write the Observation' rule, every other rule", hint=_PART_HINT),
    Case(setup=_with(_without("final_not_tool", "live_data")),
         label="build_system_prompt(BASIC_TOOLS, without('final_not_tool', 'live_data'))",
         expect=_rules(ALL_RULES - {"final_not_tool", "live_data"}),
         says="neither of the two removed rules, every other rule", hint=_PART_HINT),
    Case(setup=_with(("role", "tools", "format")),
         label="build_system_prompt(BASIC_TOOLS, ('role', 'tools', 'format'))",
         expect=lambda p: _rules({"format"})(p) and "Rules:" not in p,
         says="the format section, no other rule and no 'Rules:' heading",
         hint="write the 'Rules:' heading only when `parts` names at least one rule"),
    Case(setup=_with(("role", "banana")), label="build_system_prompt(BASIC_TOOLS, ('role', 'banana'))",
         raises=ValueError, hint="check every part name against PARTS and raise ValueError "
         "naming the valid parts"),
    Case(setup=_with(("role", "format", "role")),
         label="build_system_prompt(BASIC_TOOLS, ('role', 'format', 'role'))", raises=ValueError,
         hint="check the names with _check_names(names): a part named twice is a "
         "mistake too, refused with a ValueError (not dropped, not written twice)"),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)",
         expect=lambda p: p.find("- get_current_date:") < p.find("- calculator:"),
         says="the tools in the registry's order", hint="iterate over the registry in order"),
    Case(setup=_with(_without("format")), label="build_system_prompt(BASIC_TOOLS, without('format'))",
         expect=_rules(ALL_RULES - {"format"}),
         says="no format section (the example stays), every other rule", hint=_PART_HINT),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)",
         expect=lambda p: "one of [get_current_date, calculator]" in p
         and "{tools}" not in p and "{tool_names}" not in p,
         says="no '{tools}' or '{tool_names}' left; the format says 'one of [get_current_date, "
              "calculator]'",
         hint="replace '{tool_names}' by the names joined with ', ' (and '{tools}' by the tool lines)"),
    Case(setup=_with(("one_action", "live_data")),
         label="build_system_prompt(BASIC_TOOLS, ('one_action', 'live_data'))",
         expect=_rules_block("one_action", "live_data"),
         says="'Rules:', then '1. ' + PARTS['one_action'] and '2. ' + PARTS['live_data'], "
              "one per line",
         hint="put the rule parts under one 'Rules:' heading, numbered 1, 2, ... in the order "
              "given (no gaps for the rules left out), one per line"),
    Case(setup=_with(("role", "format")), label="build_system_prompt(BASIC_TOOLS, ('role', 'format'))",
         expect=_blocks("role", "format"), says="PARTS['role'], one blank line, the format section",
         hint="join the blocks with one blank line: '\\n\\n'.join(blocks)"),
    Case(setup=_with(("live_data", "one_action")),
         label="build_system_prompt(BASIC_TOOLS, ('live_data', 'one_action'))",
         expect=_blocks(("live_data", "one_action")),
         says="'Rules:', then '1. ' + PARTS['live_data'] and '2. ' + PARTS['one_action']: the order given",
         hint="take the parts in the order of `parts`, not in the order of PARTS or RULES"),
    Case(setup=_with(("format", "role")), label="build_system_prompt(BASIC_TOOLS, ('format', 'role'))",
         expect=_blocks("format", "role"), says="the format section first, then the role",
         hint="take the parts in the order of `parts`, not in the order of PARTS"),
    Case(setup=_with(("one_action", "role", "live_data")),
         label="build_system_prompt(BASIC_TOOLS, ('one_action', 'role', 'live_data'))",
         expect=_blocks(("one_action", "live_data"), "role"),
         says="one 'Rules:' block numbering both rules, where the first rule stands, then the role",
         hint="gather every rule under one 'Rules:' heading, even when other parts come between "
              "them: the block stands where the first rule is"),
    Case(setup=_with(lambda: (name for name in ("role", "one_action"))),
         label="build_system_prompt(BASIC_TOOLS, (name for name in ['role', 'one_action']))",
         expect=_blocks("role", ("one_action",)), says="the role, then a 'Rules:' block with one rule",
         hint="read `parts` once, names = list(parts), then check and use `names`: a generator "
              "is empty the second time it is read"),
    Case(setup=_with(tools=_tools_once),
         label="build_system_prompt((tool for tool in BASIC_TOOLS))",
         expect=lambda p: _lists("get_current_date", "calculator")(p)
         and "one of [get_current_date, calculator]" in p,
         says="the tool lines and 'one of [get_current_date, calculator]'",
         hint="read the tools once, tool_list = _tool_list(tools), then use tool_list for both "
              "fillers: a generator of tools is empty the second time it is read"),
    Case(setup=_with(()), label="build_system_prompt(BASIC_TOOLS, ())", expected="",
         hint="no parts, no prompt: an empty `parts` gives '', not the default parts (only "
              "leaving `parts` out gives DEFAULT_PARTS)"),
    Case(setup=_KEPT.setup, label=f"build_system_prompt(BASIC_TOOLS, parts := {list(_KEPT.names)})",
         expect=_KEPT.unchanged, says=f"afterwards, parts is still {list(_KEPT.names)}",
         hint="leave the caller's list as it is: work on your own copy, names = list(parts)"),
    Case(setup=_with(("tools",), tools=_empty), label="build_system_prompt(ToolRegistry(), ('tools',))",
         expected="You have access to the following tools:\n- (no tools)",
         hint="with no tools, the tool list is the single line '- (no tools)'"),
    Case(setup=_with(), label="build_system_prompt(BASIC_TOOLS)", expect=_same_as_reference,
         says="the reference's prompt, character for character",
         hint="join the blocks with one blank line ('\\n\\n'); the rules are a single block"),
)

EXERCISES = [
    Exercise(name="build_system_prompt", lesson="02", reference="solutions.prompt:build_system_prompt",
             cases=PROMPT_CASES, show=show_prompt,
             causes=(returns(str, "returns something that is not a str: join the blocks into "
                             "one text with '\\n\\n'.join(blocks)"),
                     Cause(lambda exc: isinstance(exc, KeyError) and "expression" in str(exc),
                           "str.format reads the example's JSON braces as placeholders: fill "
                           "{tools} and {tool_names} with str.replace", raised=True))),
]
