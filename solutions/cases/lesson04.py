"""Cases for lesson 04 (The loop): run_agent against the mock model, live and scripted."""
from __future__ import annotations

from typing import Any, Callable

from solutions.exercises import Case, Exercise

FIFTY_DAYS = "What is today's date, and what date is it 50 days from now?"
DATE_CALL = "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}"
CALC_CALL = ('Thought: I should compute this.\nAction: calculator\nAction Input: '
             '{"expression": "(17 + 5) * 3"}')
FINAL = "Thought: I now know the final answer.\nFinal Answer: done"


Setup = Callable[[], tuple[tuple, dict]]


def _live(question: str, persona: str = "diligent", max_steps: int = 5) -> Setup:
    """Setup: a live mock client with `persona` and the basic tools."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM
        from solutions.tools import BASIC_TOOLS

        return (question, MockLLM(persona=persona, seed=0), BASIC_TOOLS, max_steps), {}
    return setup


def _scripted(replies: list[str], max_steps: int = 5,
              question: str = "What is today's date?") -> Setup:
    """Setup: a scripted client replaying `replies`, with the basic tools."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM
        from solutions.tools import BASIC_TOOLS

        return (question, MockLLM.from_script(list(replies)), BASIC_TOOLS, max_steps), {}
    return setup


def _user_after(trace: Any, index: int) -> str:
    """The content of the message right after the `index`-th assistant message (0-based)."""
    positions = [i for i, m in enumerate(trace.messages) if m["role"] == "assistant"]
    following = trace.messages[positions[index] + 1]
    return following["content"] if following["role"] == "user" else ""


def _show(trace: Any) -> str:
    """A short view of a Trace for the report."""
    steps = getattr(trace, "steps", None)
    return (f"Trace(final_answer={getattr(trace, 'final_answer', '?')!r}, stop_reason="
            f"{getattr(trace, 'stop_reason', '?')!r}, steps={len(steps) if steps is not None else '?'})")


def _case(setup: Setup, label: str, test: Callable[[Any], bool], says: str, hint: str) -> Case:
    """A case built from a setup, a predicate on the trace and words for the report."""
    return Case(setup=setup, label=label, expect=test, says=says, hint=hint)


AGENT_CASES = (
    _case(_live("What is today's date?"), "run_agent(\"What is today's date?\", MockLLM(), BASIC_TOOLS)",
          lambda t: t.stop_reason == "answered" and "2025-03-14" in t.final_answer,
          "stop_reason 'answered' and a final answer with 2025-03-14",
          "loop: ask the model, parse, run the tool, append the observation, until a Final Answer"),
    _case(_live(FIFTY_DAYS), f"run_agent({FIFTY_DAYS!r}, MockLLM(), BASIC_TOOLS)",
          lambda t: t.stop_reason == "answered" and "2025-05-03" in t.final_answer,
          "a final answer with 2025-05-03 (17 + 30 + 3 days)",
          "feed every observation back, errors included: the model recovers from them"),
    _case(_scripted([DATE_CALL, FINAL]), "run_agent(q, MockLLM.from_script([date call, final]))",
          lambda t: _user_after(t, 0) == "Observation: 2025-03-14",
          "after the assistant's reply, a user message 'Observation: 2025-03-14'",
          "append the observation as {'role': 'user', 'content': f'Observation: {observation}'}"),
    _case(_scripted([CALC_CALL, FINAL]), "run_agent(q, MockLLM.from_script([calculator call, final]))",
          lambda t: t.steps[0].action == "calculator" and t.steps[0].observation == "66",
          "steps[0] with action 'calculator' and observation '66'",
          "run the tool through tools.run(action, action_input) and keep its text in the step"),
    _case(_scripted(["Thought: I will guess.\nAction: get_weather_forecast\nAction Input: {}", FINAL]),
          "run_agent(q, MockLLM.from_script([unknown tool, final]))",
          lambda t: all(n in t.steps[0].observation for n in ("get_current_date", "calculator"))
          and t.final_answer == "done",
          "the unknown tool becomes an observation naming the available tools; the run goes on",
          "never raise on an unknown tool: tools.run returns 'Error: unknown tool ... Available tools'"),
    _case(_scripted(["The answer is 66.", FINAL]), "run_agent(q, MockLLM.from_script([chatter, final]))",
          lambda t: "could not parse" in _user_after(t, 0).lower() and t.final_answer == "done"
          and t.steps[0].error is not None,
          "a corrective user message ('could not parse ...') after the bad reply, then the retry answers",
          "when parse_step returns an error, send step.error back as a user message and continue"),
    _case(_scripted([DATE_CALL] * 3, max_steps=3), "run_agent(q, MockLLM.from_script([date call] * 3), "
          "max_steps=3)", lambda t: t.stop_reason == "step_limit" and t.final_answer is None
          and len(t.steps) == 3, "stop_reason 'step_limit', no final answer, 3 steps",
          "stop after max_steps model calls; return Trace(..., final_answer=None, stop_reason='step_limit')"),
    _case(_scripted([DATE_CALL, CALC_CALL, "Thought: I now know the final answer.\nFinal Answer: 66"]),
          "run_agent(q, MockLLM.from_script([date call, calculator call, final]))",
          lambda t: [s.action for s in t.steps] == ["get_current_date", "calculator", None]
          and t.final_answer == "66" and t.stop_reason == "answered",
          "3 steps (get_current_date, calculator, the final answer) and final_answer '66'",
          "append a TraceStep for every model reply, the final one included"),
    _case(_scripted([DATE_CALL, FINAL]), "run_agent(q, MockLLM.from_script([date call, final]))",
          lambda t: [m["role"] for m in t.messages] == ["system", "user", "assistant", "user", "assistant"]
          and t.messages[1]["content"] == "Question: What is today's date?"
          and t.messages[2]["content"] == DATE_CALL,
          "messages: system, user ('Question: ...'), assistant (the reply as written), user, assistant",
          "start with the system prompt and 'Question: <question>'; append each reply unchanged"),
    _case(_scripted(['Thought: Let me add.\nAction: calculator\nAction Input: {"expression": '
                     '"2025-03-14 + 50 days"}', FINAL]),
          "run_agent(q, MockLLM.from_script([calculator('2025-03-14 + 50 days'), final]))",
          lambda t: "illegal characters" in t.steps[0].observation and t.final_answer == "done",
          "the tool's error as the observation ('... illegal characters ...'); the run goes on",
          "an error is information: the registry returns it as text, you append it as an observation"),
)

EXERCISES = [
    Exercise(name="run_agent", lesson="04", reference="solutions.agent:run_agent",
             cases=AGENT_CASES, show=_show),
]
