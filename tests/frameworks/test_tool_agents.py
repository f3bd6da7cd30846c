"""A tool-calling agent in each framework answers the course question through the mock.

Each test asserts the tool calls the framework made (name and arguments, from the framework's
own record of the run) and its final answer.
"""
from __future__ import annotations

import json

import pytest
from agent_task import (ANSWER, CALCULATOR_SCHEMA, EXPECTED_CALLS, MODEL, QUESTION,
                        agents_run_record, calculator, run_llama_index)


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_langgraph_prebuilt_react_agent(sdk_clients: tuple) -> None:
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI
    from langgraph.prebuilt import create_react_agent

    sync, aio = sdk_clients
    llm = ChatOpenAI(model=MODEL, api_key="mock", client=sync.chat.completions, root_client=sync,
                     async_client=aio.chat.completions, root_async_client=aio)
    agent = create_react_agent(llm, [tool(calculator)])
    messages = agent.invoke({"messages": [("user", QUESTION)]})["messages"]
    calls = [(c["name"], c["args"]) for m in messages for c in getattr(m, "tool_calls", None) or []]
    assert calls == EXPECTED_CALLS
    assert [m.content for m in messages if m.type == "tool"] == [ANSWER]
    assert ANSWER in messages[-1].content


def test_pydantic_ai_agent(sdk_clients: tuple) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    model = OpenAIChatModel(MODEL, provider=OpenAIProvider(openai_client=sdk_clients[1]))
    agent = Agent(model, tools=[calculator])
    result = agent.run_sync(QUESTION)
    calls = [(part.tool_name, part.args_as_dict()) for message in result.all_messages()
             for part in message.parts if isinstance(part, ToolCallPart)]
    assert calls == EXPECTED_CALLS
    assert ANSWER in result.output


def test_openai_agents_chat_completions_model(sdk_clients: tuple) -> None:
    from agents import (Agent, OpenAIChatCompletionsModel, Runner, function_tool,
                        set_tracing_disabled)

    set_tracing_disabled(True)
    model = OpenAIChatCompletionsModel(model=MODEL, openai_client=sdk_clients[1])
    agent = Agent(name="calculator", instructions="Use the calculator for arithmetic.",
                  tools=[function_tool(calculator)], model=model)
    calls, outputs, answer = agents_run_record(Runner.run_sync(agent, QUESTION))
    assert calls == EXPECTED_CALLS and outputs == [ANSWER] and ANSWER in answer


def test_litellm_tool_loop_through_the_server(server_url: str) -> None:
    import litellm

    messages: list = [{"role": "user", "content": QUESTION}]
    calls = []
    for _ in range(4):
        response = litellm.completion(model=f"openai/{MODEL}", api_base=server_url, api_key="mock",
                                      messages=messages, tools=[CALCULATOR_SCHEMA])
        message = response.choices[0].message
        if not message.tool_calls:
            break
        messages.append(message.model_dump())
        for call in message.tool_calls:
            arguments = json.loads(call.function.arguments)
            calls.append((call.function.name, arguments))
            messages.append({"role": "tool", "tool_call_id": call.id,
                             "content": calculator(**arguments)})
    assert calls == EXPECTED_CALLS
    assert ANSWER in message.content


def test_llama_index_function_agent_through_litellm(server_url: str) -> None:
    import litellm
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.tools import FunctionTool
    from llama_index.llms.litellm import LiteLLM

    # litellm knows which models can call tools from its price list; the mock is not in it.
    litellm.register_model({f"openai/{MODEL}": {"litellm_provider": "openai", "mode": "chat",
                                                "supports_function_calling": True}})
    llm = LiteLLM(model=f"openai/{MODEL}", api_base=server_url, api_key="mock")
    agent = FunctionAgent(tools=[FunctionTool.from_defaults(calculator)], llm=llm)
    calls, answer = run_llama_index(agent)
    assert [(name, kwargs) for name, kwargs, _ in calls] == EXPECTED_CALLS
    assert [output for _, _, output in calls] == [ANSWER]
    assert ANSWER in answer


def test_smolagents_tool_calling_agent(sdk_clients: tuple) -> None:
    from smolagents import OpenAIServerModel, ToolCallingAgent, tool

    def smol_calculator(expression: str) -> str:
        """Evaluate an arithmetic expression with numbers, + - * / and parentheses.

        Args:
            expression: the expression, e.g. 2 * (3 + 4).
        """
        return calculator(expression)

    smol_calculator.__name__ = "calculator"
    model = OpenAIServerModel(model_id=MODEL, api_base="http://mockllm.local/v1", api_key="mock")
    model.client = sdk_clients[0]  # the model's openai client, made at construction, is replaced
    agent = ToolCallingAgent(tools=[tool(smol_calculator)], model=model, max_steps=4,
                             verbosity_level=0)
    answer = agent.run(QUESTION)
    calls = [(call.name, call.arguments) for step in agent.memory.steps
             for call in getattr(step, "tool_calls", None) or [] if call.name != "final_answer"]
    assert calls == EXPECTED_CALLS
    assert ANSWER in str(answer)
