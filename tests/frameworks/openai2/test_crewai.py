"""crewAI on the mock server: `LLM.call` answers in prose, and an Agent with the course's
calculator as a crewAI tool calls it once and answers 66."""
from __future__ import annotations

from agent_task import ANSWER, EXPECTED_CALLS, MODEL, QUESTION, calculator
from crewai import LLM, Agent, Crew, Task
from crewai.tools import tool


def _llm(server_url: str) -> LLM:
    """crewAI's LLM on the mock server, no quirks."""
    return LLM(model=f"openai/{MODEL}", base_url=server_url, api_key="mock", max_retries=0)


def test_crewai_llm_call_answers_in_prose(server_url: str) -> None:
    reply = _llm(server_url).call(QUESTION)
    assert ANSWER in reply
    assert "Thought:" not in reply and "Final Answer" not in reply


def test_crewai_agent_with_a_calculator_tool(server_url: str) -> None:
    calls: list[tuple[str, dict]] = []

    @tool("calculator")
    def crew_calculator(expression: str) -> str:
        """Evaluate an arithmetic expression: numbers, + - * / and parentheses, e.g. 2 * (3 + 4)."""
        calls.append(("calculator", {"expression": expression}))
        return calculator(expression)

    agent = Agent(role="Calculator", goal="Answer arithmetic questions exactly.",
                  backstory="You compute with the calculator tool.", tools=[crew_calculator],
                  llm=_llm(server_url), max_iter=5, verbose=False)
    task = Task(description=QUESTION, expected_output="The number that answers the question.",
                agent=agent)
    result = Crew(agents=[agent], tasks=[task], verbose=False).kickoff()
    assert calls == EXPECTED_CALLS
    assert ANSWER in result.raw
