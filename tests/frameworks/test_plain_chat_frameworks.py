"""Plain chat through the frameworks: a call with no tool and no ReAct prompt is answered in prose,
and the default persona, given no system prompt, calls the calculator once and answers 66.

langchain's plain `ChatOpenAI.invoke`, autogen's reflection on its tool's result (a last request
with no tools) and LangGraph's prebuilt agent with the default persona (`mock-react`, no system
prompt); crewAI's `LLM.call` is in openai2/test_crewai.py.
"""
from __future__ import annotations

import re

import pytest
from agent_task import ANSWER, EXPECTED_CALLS, QUESTION, autogen_run, calculator

from mockllm import async_openai_client, openai_client

REACT_FIELD = re.compile(r"(?im)^\s*(?:thought|action|action input|observation|final answer)\s*[:：]")


def _chat_openai(persona: str | None) -> object:
    """langchain's ChatOpenAI on in-process openai clients of the mock as `persona`."""
    from langchain_openai import ChatOpenAI

    sync, aio = openai_client(persona=persona), async_openai_client(persona=persona)
    return ChatOpenAI(model="mock-react", api_key="mock", client=sync.chat.completions,
                      root_client=sync, async_client=aio.chat.completions, root_async_client=aio)


@pytest.mark.parametrize("persona", [None, "diligent", "sloppy", "jsonic", "literal"])
def test_chat_openai_invoke_is_answered_in_prose(persona: str | None) -> None:
    reply = _chat_openai(persona).invoke(QUESTION)
    assert reply.content == "(17 + 5) * 3 = 66" and not REACT_FIELD.search(reply.content)
    assert reply.response_metadata["finish_reason"] == "stop"


def test_langgraph_agent_with_the_default_persona_and_no_prompt_calls_once() -> None:
    from langchain_core.tools import tool
    from langgraph.prebuilt import create_react_agent

    agent = create_react_agent(_chat_openai("diligent"), [tool(calculator)])
    messages = agent.invoke({"messages": [("user", QUESTION)]})["messages"]
    calls = [(c["name"], c["args"]) for m in messages for c in getattr(m, "tool_calls", [])]
    assert calls == EXPECTED_CALLS
    assert messages[-1].type == "ai" and ANSWER in messages[-1].content


def test_autogen_reflection_on_the_tool_result_is_prose(server_url: str) -> None:
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.messages import TextMessage
    from autogen_core.tools import FunctionTool
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    client = OpenAIChatCompletionClient(  # the default persona, autogen's own system message
        model="mock-react", base_url=server_url, api_key="mock",
        model_info={"vision": False, "function_calling": True, "json_output": True,
                    "structured_output": False, "family": "unknown"})
    agent = AssistantAgent("calculator_agent", model_client=client, reflect_on_tool_use=True,
                           tools=[FunctionTool(calculator, description=calculator.__doc__)])
    result, calls = autogen_run(agent, client)
    assert calls == EXPECTED_CALLS
    final = result.messages[-1]
    assert isinstance(final, TextMessage) and final.content == "(17 + 5) * 3 = 66"
