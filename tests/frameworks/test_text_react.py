"""Classic text ReAct agents (the model writes Thought/Action/Action Input, the framework parses it)
answer the course question through the mock.

LangChain's template is the one `hub.pull("hwchase17/react")` downloads, inlined here so nothing is
fetched: one user message holding the instructions, the tools, the question and a growing
scratchpad, ending in `Thought:` for the model to continue.
"""
from __future__ import annotations

from agent_task import ANSWER, MODEL, QUESTION, calculator, run_llama_index
from prompt_templates import HWCHASE17_REACT


def test_langchain_classic_react_agent_with_the_hwchase17_prompt(sdk_clients: tuple) -> None:
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_core.prompts import PromptTemplate
    from langchain_core.tools import Tool
    from langchain_openai import ChatOpenAI

    sync, aio = sdk_clients
    llm = ChatOpenAI(model=MODEL, api_key="mock", client=sync.chat.completions, root_client=sync,
                     async_client=aio.chat.completions, root_async_client=aio)
    tools = [Tool(name="calculator", func=calculator, description=calculator.__doc__)]
    agent = create_react_agent(llm, tools, PromptTemplate.from_template(HWCHASE17_REACT))
    executor = AgentExecutor(agent=agent, tools=tools, max_iterations=5,
                             return_intermediate_steps=True)
    result = executor.invoke({"input": QUESTION})
    steps = [(action.tool, observation) for action, observation in result["intermediate_steps"]]
    assert steps == [("calculator", ANSWER)]
    assert ANSWER in result["output"]


def test_llama_index_react_agent(server_url: str) -> None:
    from llama_index.core.agent.workflow import ReActAgent
    from llama_index.core.tools import FunctionTool
    from llama_index.llms.litellm import LiteLLM

    llm = LiteLLM(model=f"openai/{MODEL}", api_base=server_url, api_key="mock")
    agent = ReActAgent(tools=[FunctionTool.from_defaults(calculator)], llm=llm)
    calls, answer = run_llama_index(agent)
    assert [(name, output) for name, _, output in calls] == [("calculator", ANSWER)]
    assert ANSWER in answer
