"""Lesson 05's `parse_reply` reads what real agents write, and reads at least what lesson 03 reads.

tests/data/real_agent_replies.jsonl holds replies in the shapes of public bug reports about
agents ("Could not parse LLM output" and the like: LangChain's ReAct, SQL and pandas agents,
crewAI, ChatGLM-style Chinese replies, OpenAI-style calls written into the text), each with the
tools it was offered and what it meant: a call (tool, arguments), an answer, an unknown tool, or
nothing. Each reply was written for this set, in the shape of a public transcript; none is
copied. The meaning of a parse is what the guarded registry would do with it: the tool its name
matches (case and spacing forgiven), and the arguments bound to that tool's parameters.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solutions.guards import parse_reply
from solutions.guards.calls import GuardedTools, bind_arguments, tool_name
from solutions.parsing import Step, parse_step
from solutions.tools import Tool, ToolRegistry, world_tools

DATA = Path(__file__).resolve().parent / "data"
ROWS = [json.loads(line) for line in (DATA / "real_agent_replies.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()]
SMALL_MODEL = [json.loads(line)["raw_reply"] for name in ("real_replies_sample.jsonl", "real_replies_shapes.jsonl")
               for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def registry(tools: dict[str, list[str]]) -> ToolRegistry:
    """The offered tools; each returns the arguments it was called with, as sorted JSON."""
    def tool(name: str, parameters: list[str]) -> Tool:
        schema = {"type": "object", "properties": {p: {"type": "string"} for p in parameters},
                  "required": parameters}
        return Tool(name, f"the {name} tool", schema, lambda **arguments: json.dumps(arguments, sort_keys=True))
    return ToolRegistry(tool(name, parameters) for name, parameters in tools.items())


def meaning(step: Step, tools: ToolRegistry) -> tuple:
    """What the guarded registry does with a step: ('call', tool, arguments), ('answer', text), ('unknown', name) or ('none',)."""
    if step.kind == "error":
        return ("none",)
    if step.kind == "final":
        return ("answer", step.final_answer)
    name = tool_name(tools, step.action)
    if name not in tools:
        return ("unknown", step.action)
    arguments, parameters = bind_arguments(tools[name], step.action_input), tools[name].arguments
    if list(arguments) == ["input"] and len(parameters) == 1:
        arguments = {parameters[0]: arguments["input"]}  # the registry's rule for a one-parameter tool
    return ("call", name, arguments)


def meant(row: dict) -> tuple:
    """The row's meaning, as `meaning` writes it."""
    kind, value = next(iter(row["meant"].items()))
    return {"call": lambda: ("call", *value), "answer": lambda: ("answer", value),
            "unknown": lambda: ("unknown", value), "none": lambda: ("none",)}[kind]()


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_parse_reply_reads_each_reply_as_it_was_meant(row: dict) -> None:
    tools = registry(row["tools"])
    step = parse_reply(row["reply"])
    assert meaning(step, tools) == meant(row), step
    observation = GuardedTools(tools).run(step.action, step.action_input) if step.kind == "action" else None
    if meant(row)[0] == "call":  # the tool ran with exactly the arguments meant
        assert observation == json.dumps(meant(row)[2], sort_keys=True)
    if meant(row)[0] == "unknown":  # the model is told which tools there are
        assert observation.startswith("Error: unknown tool") and ", ".join(row["tools"]) in observation
    if meant(row)[0] == "none":
        assert step.error.startswith("Error: could not parse your reply")


def test_a_guard_reads_every_reply_the_lesson_03_parser_reads() -> None:
    """Where lesson 03 reads a call or an answer, parse_reply reads the same, unless lesson 03 misread it."""
    lesson03_right = 0
    for row in ROWS:
        tools = registry(row["tools"])
        plain, guarded = meaning(parse_step(row["reply"]), tools), meaning(parse_reply(row["reply"]), tools)
        lesson03_right += plain == meant(row)
        if plain[0] in ("call", "answer"):
            assert guarded == plain or (plain != meant(row) and guarded == meant(row)), row["id"]
    assert 0 < lesson03_right < len(ROWS) - 20, "the set holds replies lesson 03 misreads, and replies it reads"


def test_the_set_covers_the_shapes_of_real_agents() -> None:
    sources = {row["id"].split("/")[0] for row in ROWS}
    assert {"langchain-react", "langchain-pandas", "langchain-sql", "crewai", "chinese", "json-input",
            "call-syntax", "openai-style"} <= sources and len(ROWS) >= 60
    assert {next(iter(row["meant"])) for row in ROWS} == {"call", "answer", "unknown", "none"}


def test_on_a_small_model_s_replies_too_parse_reply_reads_what_lesson_03_reads() -> None:
    tools = world_tools()
    differ = []
    for reply in SMALL_MODEL:
        plain = meaning(parse_step(reply), tools)
        if plain[0] in ("call", "answer") and meaning(parse_reply(reply), tools) != plain:
            differ.append((reply, plain, meaning(parse_reply(reply), tools)))
    assert differ == []
