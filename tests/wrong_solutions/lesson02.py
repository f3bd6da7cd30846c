"""Wrong solutions of lesson 02's exercise (build_system_prompt)."""
from __future__ import annotations

from solutions.prompt import DEFAULT_PARTS, PARTS, RULES, _check_names, _tool_list
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("02")


def _tool_lines(tools) -> tuple[str, str]:
    """The tool lines and the tool names, as the lesson's step 2 builds them."""
    tool_list = _tool_list(tools)
    lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in tool_list) or "- (no tools)"
    return lines, ", ".join(tool.name for tool in tool_list)


def _start(tools, parts) -> tuple[list[str], str, str]:
    """Steps 1 and 2 done right: the checked part names, the tool lines, the tool names."""
    lines, tool_names = _tool_lines(tools)
    names = list(parts)
    _check_names(names)
    return names, lines, tool_names


def _rules_last(names: list[str], lines: str, tool_names: str, *, heading_always: bool = False) -> str:
    """The other parts in order, then one 'Rules:' block at the end (even empty, if asked)."""
    blocks = [_fill(PARTS[name], lines, tool_names) for name in names if name not in RULES]
    rules = [PARTS[name] for name in names if name in RULES]
    if rules or heading_always:
        blocks.append("\n".join(["Rules:", *(f"{n}. {rule}" for n, rule in enumerate(rules, 1))]))
    return "\n\n".join(blocks)


def _fill(text: str, lines: str, names: str) -> str:
    """A part's text with its two placeholders filled."""
    return text.replace("{tools}", lines).replace("{tool_names}", names)


def _assemble(names: list[str], text_of, join: str = "\n\n") -> str:
    """The blocks as the lesson's steps 3-5 put them: the rules numbered in one 'Rules:' block,
    where the first rule stands (the part of a wrong solution that is right)."""
    rules = [name for name in names if name in RULES]
    blocks = []
    for name in names:
        if name not in RULES:
            blocks.append(text_of(name))
        elif name == rules[0]:
            numbered = (f"{n}. {text_of(rule)}" for n, rule in enumerate(rules, 1))
            blocks.append("\n".join(["Rules:", *numbered]))
    return join.join(blocks)


@CATALOGUE.wrong("build_system_prompt", fault="fills the placeholders with str.format, which reads "
                 "the example's JSON braces as placeholders too",
                 says="str.format reads the example's JSON braces as placeholders")
def with_str_format(tools, parts=DEFAULT_PARTS):
    tool_list = _tool_list(tools)
    names = list(parts)
    _check_names(names)
    lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in tool_list) or "- (no tools)"
    tool_names = ", ".join(tool.name for tool in tool_list)
    return _assemble(names, lambda name: PARTS[name].format(tools=lines, tool_names=tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="writes the 'Rules:' heading even when no rule is "
                 "among the parts", says="no 'Rules:' heading")
def heading_always(tools, parts=DEFAULT_PARTS):
    return _rules_last(*_start(tools, parts), heading_always=True)


@CATALOGUE.wrong("build_system_prompt", fault="numbers each rule by its place in RULES, leaving "
                 "gaps where rules were removed", says="no gaps for the rules left out")
def numbered_by_place_in_rules(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, parts)
    blocks, rules = [], []
    for name in names:
        if name in RULES:
            rules.append(f"{RULES.index(name) + 1}. {PARTS[name]}")
        else:
            blocks.append(_fill(PARTS[name], lines, tool_names))
    if rules:
        blocks.append("\n".join(["Rules:", *rules]))
    return "\n\n".join(blocks)


@CATALOGUE.wrong("build_system_prompt", fault="writes a 'Rules:' heading above each rule",
                 says="one 'Rules:' heading")
def heading_per_rule(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, parts)
    blocks, number = [], 0
    for name in names:
        if name in RULES:
            number += 1
            blocks.append(f"Rules:\n{number}. {PARTS[name]}")
        else:
            blocks.append(_fill(PARTS[name], lines, tool_names))
    return "\n\n".join(blocks)


@CATALOGUE.wrong("build_system_prompt", fault="starts a new 'Rules:' block whenever another part "
                 "comes between two rules", says="even when other parts come between them")
def heading_per_run_of_rules(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, parts)
    blocks, number, previous = [], 0, ""
    for name in names:
        if name in RULES:
            number += 1
            if previous not in RULES:
                blocks.append("Rules:")
            blocks[-1] += f"\n{number}. {PARTS[name]}"
        else:
            blocks.append(_fill(PARTS[name], lines, tool_names))
        previous = name
    return "\n\n".join(blocks)


@CATALOGUE.wrong("build_system_prompt", fault="always puts the rules last, whatever the order "
                 "of the parts", says="where the first rule is")
def rules_always_last(tools, parts=DEFAULT_PARTS):
    return _rules_last(*_start(tools, parts))


@CATALOGUE.wrong("build_system_prompt", fault="takes the parts in the order of PARTS, not in "
                 "the order given", says="the order given")
def order_of_parts_table(tools, parts=DEFAULT_PARTS):
    lines, tool_names = _tool_lines(tools)
    wanted = list(parts)
    _check_names(wanted)
    names = [name for name in PARTS if name in wanted]
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="lists the tool names without their descriptions",
                 says="a line '- get_current_date: ...'")
def names_without_descriptions(tools, parts=DEFAULT_PARTS):
    tool_list = _tool_list(tools)
    names = list(parts)
    _check_names(names)
    lines = "\n".join(f"- {tool.name}" for tool in tool_list) or "- (no tools)"
    tool_names = ", ".join(tool.name for tool in tool_list)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="cuts the example input off each description to "
                 "save tokens", says="each tool's whole description")
def descriptions_without_example(tools, parts=DEFAULT_PARTS):
    tool_list = _tool_list(tools)
    names = list(parts)
    _check_names(names)
    lines = "\n".join(f"- {tool.name}: {tool.description.split(' Example:')[0]}"
                      for tool in tool_list) or "- (no tools)"
    tool_names = ", ".join(tool.name for tool in tool_list)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="fills {tools} but leaves {tool_names} in the "
                 "format line", says="no '{tools}' or '{tool_names}' left")
def tool_names_left_unfilled(tools, parts=DEFAULT_PARTS):
    lines, _ = _tool_lines(tools)
    names = list(parts)
    _check_names(names)
    return _assemble(names, lambda name: PARTS[name].replace("{tools}", lines))


@CATALOGUE.wrong("build_system_prompt", fault="checks the names with _check_names(parts), then "
                 "loops over parts again: a generator is empty the second time",
                 says="a generator is empty the second time it is read")
def reads_parts_twice(tools, parts=DEFAULT_PARTS):
    lines, tool_names = _tool_lines(tools)
    _check_names(parts)  # reads a generator to its end ...
    return _assemble(list(parts), lambda name: _fill(PARTS[name], lines, tool_names))  # ... so: []


@CATALOGUE.wrong("build_system_prompt", fault="takes the rules out of the caller's list with "
                 "parts.remove(...), changing the list it was given",
                 says="leave the caller's list as it is")
def removes_rules_from_the_callers_list(tools, parts=DEFAULT_PARTS):
    lines, tool_names = _tool_lines(tools)
    names = parts if isinstance(parts, list) else list(parts)
    _check_names(names)
    first_rule = next((i for i, name in enumerate(names) if name in RULES), None)
    rules = [name for name in names if name in RULES]
    for rule in rules:
        names.remove(rule)  # the rules get their own block below
    blocks = [_fill(PARTS[name], lines, tool_names) for name in names]
    if rules:
        blocks.insert(first_rule, "\n".join(["Rules:", *(f"{n}. {PARTS[rule]}"
                                                        for n, rule in enumerate(rules, 1))]))
    return "\n\n".join(blocks)


@CATALOGUE.wrong("build_system_prompt", fault="looks each part up in PARTS without checking the "
                 "names: an unknown part raises KeyError, not ValueError",
                 says="raises KeyError where ValueError is expected")
def unchecked_names(tools, parts=DEFAULT_PARTS):
    lines, tool_names = _tool_lines(tools)
    names = list(parts)
    texts = {name: _fill(PARTS[name], lines, tool_names) for name in names}
    return _assemble(names, texts.__getitem__)


@CATALOGUE.wrong("build_system_prompt", fault="joins the blocks with single newlines, so the "
                 "parts run together", says="join the blocks with one blank line")
def joined_without_blank_lines(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, parts)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names), join="\n")


@CATALOGUE.wrong("build_system_prompt", fault="writes nothing for an empty registry instead of "
                 "the line '- (no tools)'", says="'- (no tools)'")
def empty_tool_list(tools, parts=DEFAULT_PARTS):
    tool_list = _tool_list(tools)
    lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in tool_list)
    tool_names = ", ".join(tool.name for tool in tool_list)
    names = list(parts)
    _check_names(names)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="checks the names with a loop of its own that "
                 "misses a part named twice", says="a part named twice is a mistake too")
def duplicates_allowed(tools, parts=DEFAULT_PARTS):
    lines, tool_names = _tool_lines(tools)
    names = list(parts)
    for name in names:
        if name not in PARTS:
            raise ValueError(f"unknown prompt part {name!r}; valid parts: {', '.join(PARTS)}")
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="drops a part named twice with dict.fromkeys instead "
                 "of refusing it", says="a part named twice is a mistake too")
def duplicates_dropped(tools, parts=DEFAULT_PARTS):
    lines, tool_names = _tool_lines(tools)
    names = list(dict.fromkeys(parts))
    _check_names(names)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="iterates over `tools` twice (once per filler), "
                 "so a generator of tools lists no names",
                 says="a generator of tools is empty the second time")
def reads_tools_twice(tools, parts=DEFAULT_PARTS):
    names = list(parts)
    _check_names(names)
    lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in tools) or "- (no tools)"
    tool_names = ", ".join(tool.name for tool in tools)  # the second pass over `tools`
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


@CATALOGUE.wrong("build_system_prompt", fault="an empty `parts` taken as 'the default parts' "
                 "(`list(parts) or DEFAULT_PARTS`)", says="an empty `parts` gives ''")
def empty_parts_mean_default(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, list(parts) or DEFAULT_PARTS)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names))


_TEMPLATES = dict(PARTS)  # the learner's copy of the parts, as the notebook holds them


@CATALOGUE.wrong("build_system_prompt", fault="fills the templates in place, so the first "
                 "registry's tools stay in every later prompt", says="never PARTS itself")
def templates_filled_in_place(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, parts)
    for name in names:
        _TEMPLATES[name] = _fill(_TEMPLATES[name], lines, tool_names)
    return _assemble(names, _TEMPLATES.__getitem__)


@CATALOGUE.wrong("build_system_prompt", fault="writes '(no tools)' in the format line too when "
                 "the registry is empty",
                 harmless="only a prompt for an empty registry differs, and no cell builds one with "
                          "the format part; the tool lines say '- (no tools)' either way")
def no_tool_names_said(tools, parts=DEFAULT_PARTS):
    names, lines, tool_names = _start(tools, parts)
    return _assemble(names, lambda name: _fill(PARTS[name], lines, tool_names or "(no tools)"))
