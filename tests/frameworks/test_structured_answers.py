"""Structured answers and tool calls through langchain-openai and autogen: each gets 66.

langchain's `with_structured_output` in its three methods (a forced tool call, a json_schema
response format, json_object mode) and `bind_tools` with the course's calculator, on the in-process
openai clients; autogen's AssistantAgent with the calculator and a structured final message,
through the mock server (its client builds its own openai client from a URL).
"""
from __future__ import annotations

import json

import pytest
from agent_task import ANSWER, EXPECTED_CALLS, MODEL, QUESTION, autogen_run, calculator
from pydantic import BaseModel


class Answer(BaseModel):
    """The answer to the question."""

    answer: int


JSON_QUESTION = (f"{QUESTION} Reply in JSON that follows this schema: "
                 f"{json.dumps(Answer.model_json_schema())}")
"""json_object mode sends no schema: the prompt shows it (and the API wants the word JSON)."""


def _chat_openai(sdk_clients: tuple) -> object:
    """langchain's ChatOpenAI on the in-process openai clients."""
    from langchain_openai import ChatOpenAI

    sync, aio = sdk_clients
    return ChatOpenAI(model=MODEL, api_key="mock", client=sync.chat.completions, root_client=sync,
                      async_client=aio.chat.completions, root_async_client=aio)


@pytest.mark.parametrize("method", ["function_calling", "json_schema", "json_mode"])
def test_langchain_with_structured_output(sdk_clients: tuple, method: str) -> None:
    structured = _chat_openai(sdk_clients).with_structured_output(Answer, method=method,
                                                                  include_raw=True)
    result = structured.invoke(JSON_QUESTION if method == "json_mode" else QUESTION)
    assert result["parsing_error"] is None
    assert result["parsed"] == Answer(answer=int(ANSWER))


def test_langchain_bind_tools_loop(sdk_clients: tuple) -> None:
    from langchain_core.messages import HumanMessage, ToolMessage
    from langchain_core.tools import tool

    calculator_tool = tool(calculator)
    llm = _chat_openai(sdk_clients).bind_tools([calculator_tool])
    messages: list = [HumanMessage(QUESTION)]
    reply = llm.invoke(messages)
    assert [(c["name"], c["args"]) for c in reply.tool_calls] == EXPECTED_CALLS
    messages.append(reply)
    for call in reply.tool_calls:
        messages.append(ToolMessage(calculator_tool.invoke(call["args"]), tool_call_id=call["id"]))
    final = llm.invoke(messages)
    assert final.tool_calls == []
    assert ANSWER in final.content


def _autogen_client(server_url: str) -> object:
    """autogen's OpenAI client on the mock server; the model's abilities stated (it is unlisted)."""
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    return OpenAIChatCompletionClient(
        model=MODEL, base_url=server_url, api_key="mock",
        model_info={"vision": False, "function_calling": True, "json_output": True,
                    "structured_output": True, "family": "unknown"})


def test_autogen_assistant_with_a_tool_and_structured_output(server_url: str) -> None:
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.messages import StructuredMessage, ToolCallExecutionEvent
    from autogen_core.tools import FunctionTool

    client = _autogen_client(server_url)
    # A structured final message goes through openai's `.parse()`, which takes strict tools only.
    tool = FunctionTool(calculator, description=calculator.__doc__, strict=True)
    agent = AssistantAgent("calculator_agent", model_client=client, tools=[tool],
                           output_content_type=Answer, reflect_on_tool_use=True)
    result, calls = autogen_run(agent, client)
    assert calls == EXPECTED_CALLS
    outputs = [r.content for m in result.messages if isinstance(m, ToolCallExecutionEvent)
               for r in m.content]
    assert outputs == [ANSWER]
    final = result.messages[-1]
    assert isinstance(final, StructuredMessage)
    assert final.content == Answer(answer=int(ANSWER))
