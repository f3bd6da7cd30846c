"""The frameworks that speak the Responses API (`client.responses`) answer the course question.

langchain-openai's `ChatOpenAI(use_responses_api=True)` and openai-agents' default model,
`OpenAIResponsesModel`, call `POST /v1/responses` (the mock's `openai_client()` answers it in
process); each test asserts the tool calls the framework recorded and its final answer, also
when streamed.
"""
from __future__ import annotations

import asyncio

from agent_task import ANSWER, EXPECTED_CALLS, MODEL, QUESTION, agents_run_record, calculator


def test_langchain_chat_openai_on_the_responses_api(sdk_clients: tuple) -> None:
    from langchain_core.messages import HumanMessage, ToolMessage
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI

    sync, aio = sdk_clients
    llm = ChatOpenAI(model=MODEL, api_key="mock", use_responses_api=True, root_client=sync,
                     client=sync.chat.completions, root_async_client=aio,
                     async_client=aio.chat.completions).bind_tools([tool(calculator)])
    messages: list = [HumanMessage(QUESTION)]
    reply = llm.invoke(messages)
    assert [(call["name"], call["args"]) for call in reply.tool_calls] == EXPECTED_CALLS
    messages += [reply, ToolMessage(calculator(**reply.tool_calls[0]["args"]),
                                    tool_call_id=reply.tool_calls[0]["id"])]
    final = llm.invoke(messages)
    assert not final.tool_calls and ANSWER in final.text
    streamed = "".join(chunk.text for chunk in llm.stream(messages))
    assert streamed == final.text


def test_openai_agents_responses_model(sdk_clients: tuple) -> None:
    from agents import Agent, OpenAIResponsesModel, Runner, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    model = OpenAIResponsesModel(model=MODEL, openai_client=sdk_clients[1])
    agent = Agent(name="calculator", instructions="Use the calculator for arithmetic.",
                  tools=[function_tool(calculator)], model=model)

    async def streamed() -> object:
        run = Runner.run_streamed(agent, QUESTION)
        async for _ in run.stream_events():
            pass
        return run

    for result in (Runner.run_sync(agent, QUESTION), asyncio.run(streamed())):
        calls, outputs, answer = agents_run_record(result)
        assert calls == EXPECTED_CALLS and outputs == [ANSWER] and ANSWER in answer
