"""Tests for solutions.prompt (lesson 02): the system prompt built from removable parts."""
from __future__ import annotations

import pytest

from mockllm.reading.system_prompt import RULE_PHRASES, find_rules
from solutions import prompt
from solutions.prompt import DEFAULT_PARTS, PARTS, RULES, build_system_prompt, without
from solutions.tools import BASIC_TOOLS, ToolRegistry, world_tools

# The rules as the mock reads them: the course's prompt must be read the way it is written.
PHRASES = RULE_PHRASES
ALL_RULES = set(PHRASES) | {"format", "example"}


def rules_in(text: str) -> set[str]:
    """Return the rule ids the mock finds in `text`."""
    return set(find_rules(text))


def tool_lines(text: str) -> list[str]:
    """Return the lines that look like tool entries ('- name: ...')."""
    return [line for line in text.splitlines() if line.startswith("- ") and ":" in line]


def test_parts_and_defaults() -> None:
    """The parts are the ones lesson 02 names, in order; the default uses all of them."""
    assert list(PARTS) == ["role", "tools", "format", "example", "one_action", "no_observation",
                           "final_not_tool", "stop_when_enough", "live_data"]
    assert DEFAULT_PARTS == tuple(PARTS)
    assert set(RULES) == set(PHRASES)


def test_default_prompt_states_every_rule() -> None:
    """With every part, the mock finds every rule."""
    assert rules_in(build_system_prompt(world_tools())) == ALL_RULES


@pytest.mark.parametrize("rule", sorted(PHRASES))
def test_each_rule_text_holds_its_phrase(rule: str) -> None:
    """Each rule part, on its own, is detected as that rule and nothing else."""
    assert rules_in(PARTS[rule]) == {rule}


@pytest.mark.parametrize("name", list(PARTS))
def test_each_part_is_removable(name: str) -> None:
    """Removing one part removes its text, and only its rule."""
    text = build_system_prompt(BASIC_TOOLS, without(name))
    if name == "tools":
        assert tool_lines(text) == []
    else:
        assert PARTS[name].split("\n")[0].replace("{tools}", "") not in text
    assert rules_in(text) == ALL_RULES - {name}  # the example alone does not count as the format


def test_only_the_format() -> None:
    """role + tools + format states the format and no other rule."""
    text = build_system_prompt(BASIC_TOOLS, ("role", "tools", "format"))
    assert rules_in(text) == {"format"} and "Question:" not in text


def test_tool_lines_come_from_the_registry() -> None:
    """One line '- name: description' per tool, in the registry's order, and no other such line."""
    registry = world_tools()
    text = build_system_prompt(registry)
    assert tool_lines(text) == [f"- {tool.name}: {tool.description}" for tool in registry]
    assert "one of [get_current_date, calculator, get_weather," in text
    small = build_system_prompt(registry.subset("calculator"))
    assert tool_lines(small) == [f"- calculator: {registry['calculator'].description}"]
    assert "get_current_date" not in small
    assert "- (no tools)" in build_system_prompt(ToolRegistry())


def test_rules_are_numbered_under_one_heading() -> None:
    """Rules read as a numbered list and never look like tool lines."""
    text = build_system_prompt(BASIC_TOOLS)
    assert text.count("Rules:") == 1
    assert "\n1. Write only one Thought and one Action per reply" in text
    assert "\n5. For live data (dates, weather, orders, calendar) you must call a tool; never guess." in text
    assert build_system_prompt(BASIC_TOOLS, ("live_data", "role")).startswith("Rules:\n1. For live data")


def test_rules_apart_still_share_one_heading_where_the_first_rule_stands() -> None:
    """Rules with other parts between them are numbered in one block, in the order given."""
    text = build_system_prompt(BASIC_TOOLS, ("role", "live_data", "format", "one_action"))
    assert text == "\n\n".join([PARTS["role"], f"Rules:\n1. {PARTS['live_data']}\n2. {PARTS['one_action']}",
                                build_system_prompt(BASIC_TOOLS, ["format"])])
    assert build_system_prompt(BASIC_TOOLS, ("role", "format")).count("Rules:") == 0


def test_parts_are_read_once_and_left_unchanged() -> None:
    """A generator of names works; a list of names is not changed."""
    names = ["role", "one_action", "format", "live_data"]
    assert build_system_prompt(BASIC_TOOLS, iter(names)) == build_system_prompt(BASIC_TOOLS, names)
    assert names == ["role", "one_action", "format", "live_data"]


def test_required_phrases_verbatim() -> None:
    """The exact sentences the course quotes."""
    text = build_system_prompt(BASIC_TOOLS)
    for phrase in ("Write only one Thought and one Action per reply",
                   "Never write the Observation yourself: the program adds it.",
                   "Final Answer is not a tool: never write `Action: Final Answer`.",
                   "Stop when you have enough information to answer",
                   "For live data (dates, weather, orders, calendar) you must call a tool; never guess."):
        assert phrase in text


def test_example_is_a_full_trajectory_with_neutral_values() -> None:
    """The example shows every field, with numbers that are not the course's questions."""
    example = PARTS["example"]
    fields = ["Question:", "Thought:", "Action:", "Action Input:", "Observation:", "Final Answer:"]
    positions = [example.find(field) for field in fields]
    assert -1 not in positions and positions == sorted(positions)
    assert "45 * 3 - 10" in example and "125" in example
    for course_value in ("17 + 5", "66", "2025-03-14", "A1002", "Beijing", "12.5", "5555"):
        assert course_value not in example


def test_prompt_is_deterministic() -> None:
    """Same registry and parts, same text."""
    assert build_system_prompt(world_tools()) == build_system_prompt(world_tools())


def test_accepts_a_list_of_tools() -> None:
    """Any iterable of Tool objects works as well as a registry."""
    assert build_system_prompt(list(BASIC_TOOLS)) == build_system_prompt(BASIC_TOOLS)


@pytest.mark.parametrize("tools", [None, "calculator", {"calculator": 1}, ["calculator"], 42])
def test_rejects_what_is_not_a_registry(tools: object) -> None:
    """A TypeError says what is accepted."""
    with pytest.raises(TypeError, match="ToolRegistry"):
        build_system_prompt(tools)  # type: ignore[arg-type]


def test_rejects_unknown_or_repeated_parts() -> None:
    """Unknown names list the valid ones; a repeated name or a bare string is refused."""
    with pytest.raises(ValueError, match="unknown prompt part 'banana'; valid parts: role, tools"):
        build_system_prompt(BASIC_TOOLS, ("role", "banana"))
    with pytest.raises(ValueError, match="appears twice"):
        build_system_prompt(BASIC_TOOLS, ("role", "role"))
    with pytest.raises(TypeError, match="list or tuple"):
        build_system_prompt(BASIC_TOOLS, "role")
    with pytest.raises(ValueError, match="valid parts"):
        without("examples")


def test_without() -> None:
    """without() keeps the default order and drops the named parts."""
    assert without() == DEFAULT_PARTS
    assert without("example", "live_data") == tuple(
        name for name in DEFAULT_PARTS if name not in ("example", "live_data"))
    assert build_system_prompt(BASIC_TOOLS, ()) == ""


def test_public_names_name_their_lesson() -> None:
    """Each reference function says which lesson builds it."""
    for name in ("build_system_prompt", "without"):
        assert "Built in lesson 02 (The prompt)." in getattr(prompt, name).__doc__
