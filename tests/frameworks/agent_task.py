"""The task every framework's agent gets in tests/frameworks: one course question, one tool."""
from __future__ import annotations

import asyncio

from solutions import tools as course_tools

QUESTION = "What is (17 + 5) * 3?"
"""The course question every agent answers, with the course's calculator as its one tool."""
EXPECTED_CALLS = [("calculator", {"expression": "(17 + 5) * 3"})]
ANSWER = "66"
MODEL = "mock-react:none"
"""No persona quirks: each test checks what the framework does with a well-behaved model."""


def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression with numbers, + - * / and parentheses, e.g. 2 * (3 + 4)."""
    return course_tools.calculator(expression)


CALCULATOR_SCHEMA = {"type": "function", "function": {
    "name": "calculator", "description": calculator.__doc__,
    "parameters": {"type": "object", "properties": {"expression": {"type": "string"}},
                   "required": ["expression"]}}}
"""The calculator as a `tools=[...]` entry, for the frameworks that take raw schemas."""


def agents_run_record(result: object) -> tuple[list[tuple[str, dict]], list[str], str]:
    """What an openai-agents run did: its tool calls (name, arguments), their outputs, its answer."""
    import json

    from agents.items import ToolCallItem, ToolCallOutputItem

    calls = [(item.raw_item.name, json.loads(item.raw_item.arguments))
             for item in result.new_items if isinstance(item, ToolCallItem)]
    outputs = [item.output for item in result.new_items if isinstance(item, ToolCallOutputItem)]
    return calls, outputs, result.final_output


def run_llama_index(agent: object) -> tuple[list[tuple[str, dict, str]], str]:
    """Run a llama-index agent on QUESTION: its tool calls (name, arguments, output) and answer."""
    from llama_index.core.agent.workflow import ToolCallResult

    async def run() -> tuple[list, str]:
        handler = agent.run(QUESTION)
        calls = [(event.tool_name, event.tool_kwargs, str(event.tool_output))
                 async for event in handler.stream_events() if isinstance(event, ToolCallResult)]
        return calls, str(await handler)

    return asyncio.run(run())


def autogen_run(agent: object, client: object) -> tuple[object, list[tuple[str, dict]]]:
    """Run an autogen agent on QUESTION, then close its model client: (the result, its tool calls)."""
    import json

    from autogen_agentchat.messages import ToolCallRequestEvent

    async def run() -> object:
        try:
            return await agent.run(task=QUESTION)
        finally:
            await client.close()

    result = asyncio.run(run())
    calls = [(c.name, json.loads(c.arguments)) for m in result.messages
             if isinstance(m, ToolCallRequestEvent) for c in m.content]
    return result, calls
