"""Cases for lesson 04 (The loop): run_agent against the mock model, live and scripted."""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, Callable

from mockllm import RateLimitError
from solutions.course.exercises import Case, Cause, Exercise, has_attributes

FIFTY_DAYS = "What is today's date, and what date is it 50 days from now?"
DATE_CALL = "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}"
CALC_CALL = ('Thought: I should compute this.\nAction: calculator\nAction Input: '
             '{"expression": "(17 + 5) * 3"}')
FINAL = "Thought: I now know the final answer.\nFinal Answer: done"
ADD_DAYS_CALL = ('Thought: I add 50 days.\nAction: add_days\nAction Input: {"date": "2025-03-14", '
                 '"days": 50}')


Setup = Callable[[], tuple[tuple, dict]]
OPTIONS = {"model": "gpt-4o-mini", "stop": ["Observation:"], "max_tokens": 256}


class OptionsClient:
    """A fake client whose one reply is a Final Answer quoting the request's model and options."""

    def __init__(self) -> None:
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> SimpleNamespace:
        """Answer with `Final Answer: {"model": ..., "stop": ..., "max_tokens": ...}`."""
        sent = {key: request.get(key) for key in OPTIONS}
        message = SimpleNamespace(role="assistant", content="Thought: I read the request.\n"
                                  f"Final Answer: {json.dumps(sent)}")
        return SimpleNamespace(choices=[SimpleNamespace(index=0, message=message,
                                                        finish_reason="stop")], usage=None)


class ProseClient:
    """A fake client that always answers in prose, so every reply is a format error; it counts the calls."""

    REPLY = "I think the answer is 66."
    LIMIT = 100  # calls; past it, the loop is not going to stop, and the client says so

    def __init__(self) -> None:
        self.calls = 0
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> SimpleNamespace:
        """Answer in prose, whatever was asked; raise once the loop has called LIMIT times."""
        self.calls += 1
        if self.calls > self.LIMIT:
            raise RuntimeError(f"the model was called {self.LIMIT} times and the loop goes on")
        message = SimpleNamespace(role="assistant", content=self.REPLY)
        return SimpleNamespace(choices=[SimpleNamespace(index=0, message=message, finish_reason="stop")],
                               usage=None)


def _always_prose(max_steps: int) -> tuple[Setup, Callable[[Any], bool]]:
    """Setup and test: a run against a ProseClient makes at most `max_steps` calls, then stops."""
    clients: list[ProseClient] = []

    def setup() -> tuple[tuple, dict]:
        from solutions.tools import BASIC_TOOLS

        clients.append(ProseClient())
        return ("What is (17 + 5) * 3?", clients[-1], BASIC_TOOLS, max_steps), {}

    def test(trace: Any) -> bool:
        return clients[-1].calls <= max_steps and trace.stop_reason == "step_limit"
    return setup, test


def _options(**kwargs: Any) -> Setup:
    """Setup: run_agent(question, OptionsClient(), BASIC_TOOLS, **kwargs)."""
    def setup() -> tuple[tuple, dict]:
        from solutions.tools import BASIC_TOOLS

        return ("What is today's date?", OptionsClient(), BASIC_TOOLS), dict(kwargs)
    return setup


def _sent(trace: Any) -> dict:
    """The request options an OptionsClient quoted in the final answer ({} if unreadable)."""
    try:
        sent = json.loads(trace.final_answer)
    except (TypeError, ValueError):
        return {}
    return sent if isinstance(sent, dict) else {}


def _defaults(question: str, client: Callable[[], Any], **kwargs: Any) -> Setup:
    """Setup: run_agent(question, client()) with only the keyword arguments given."""
    def setup() -> tuple[tuple, dict]:
        return (question, client()), dict(kwargs)
    return setup


def _script(*replies: str) -> Callable[[], Any]:
    """A factory of scripted clients replaying `replies`."""
    def make() -> Any:
        from mockllm import MockLLM

        return MockLLM.from_script(list(replies))
    return make


def _diligent() -> Any:
    """A live diligent mock client, seed 0."""
    from mockllm import MockLLM

    return MockLLM(persona="diligent", seed=0)


def _basic_prompt() -> str:
    """The default system prompt for BASIC_TOOLS."""
    from solutions.prompt import build_system_prompt
    from solutions.tools import BASIC_TOOLS

    return build_system_prompt(BASIC_TOOLS)


def _custom_parse() -> Setup:
    """Setup: a scripted run whose `parse` turns every reply into the same final answer."""
    def parse(text: str) -> Any:
        from solutions.parsing import Step

        return Step(final_answer="read by the parse you passed", raw=text)

    def setup() -> tuple[tuple, dict]:
        return ("What is today's date?", _script(DATE_CALL)()), {"parse": parse}
    return setup


def _live(question: str, persona: str = "diligent", max_steps: int = 5) -> Setup:
    """Setup: a live mock client with `persona` and the basic tools."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM
        from solutions.tools import BASIC_TOOLS

        return (question, MockLLM(persona=persona, seed=0), BASIC_TOOLS, max_steps), {}
    return setup


def _date_tools() -> Any:
    """The three tools of the lesson's worked example: the date, the calculator and add_days."""
    from solutions.tools import world_tools

    return world_tools().subset("get_current_date", "calculator", "add_days")


def _with_tools(replies: list[str], tools: Callable[[], Any]) -> Setup:
    """Setup: a scripted client replaying `replies`, with the registry `tools()`."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM

        return ("What date is 50 days after 2025-03-14?", MockLLM.from_script(list(replies)),
                tools()), {}
    return setup


def _no_tools() -> Any:
    """A registry with no tools."""
    from solutions.tools import ToolRegistry

    return ToolRegistry()


def _failing() -> Setup:
    """Setup: a client whose first call fails with a simulated rate limit."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM
        from solutions.tools import BASIC_TOOLS

        return ("What is today's date?", MockLLM.from_script([FINAL], failures={1: "rate_limit"}),
                BASIC_TOOLS), {}
    return setup


def _prompt_for(tools: Callable[[], Any]) -> str:
    """The default system prompt for the registry `tools()`."""
    from solutions.prompt import build_system_prompt

    return build_system_prompt(tools())


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


def _one_conversation(trace: Any) -> bool:
    """The messages hold one run: a single system message and a single question."""
    return ([m["role"] for m in trace.messages].count("system") == 1
            and sum(str(m["content"]).startswith("Question:") for m in trace.messages) == 1)


_PROSE_SETUP, _PROSE_TEST = _always_prose(3)


def _replies_missing(trace: Any) -> bool:
    """Steps were taken, but no assistant message holds a reply."""
    return bool(trace.steps) and not any(m["role"] == "assistant" for m in trace.messages)


def _observation_as_assistant(trace: Any) -> bool:
    """An observation sits in an assistant message."""
    return any(m["role"] == "assistant" and str(m["content"]).startswith("Observation:")
               for m in trace.messages)


def _raised_by_a_tool(exc: BaseException) -> bool:
    """The exception came out of a tool (its traceback passes through solutions/tools.py)."""
    from pathlib import Path

    frame = exc.__traceback__
    while frame is not None:
        if Path(frame.tb_frame.f_code.co_filename).parts[-2:] == ("solutions", "tools.py"):
            return True
        frame = frame.tb_next
    return False


_TOOLS_RUN = ("run tools with tools.run(action, action_input): it never raises, and turns an unknown "
              "tool and a tool's error into 'Error: ...' text, the observation the model reads")

AGENT_CASES = (
    _case(_live("What is today's date?"), "run_agent(\"What is today's date?\", MockLLM(), BASIC_TOOLS)",
          lambda t: t.stop_reason == "answered" and "2025-03-14" in t.final_answer,
          "stop_reason 'answered' and a final answer with 2025-03-14",
          "loop: ask the model, parse, run the tool, append the observation, until a Final Answer"),
    _case(_scripted([DATE_CALL, FINAL]), "run_agent(q, MockLLM.from_script([date call, final])), "
          "after another run", _one_conversation,
          "messages holding this run only: one system message, one 'Question: ...'",
          "start a new messages list in every run: a list kept between runs (a global, a default "
          "argument) carries the last run's conversation into this one"),
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
          "call run_step at most max_steps times (not max_steps + 1, not max_steps - 1), then "
          "return Trace(..., final_answer=None, stop_reason='step_limit')"),
    _case(_PROSE_SETUP, "run_agent(q, <a model that always answers in prose>, BASIC_TOOLS, max_steps=3)",
          _PROSE_TEST, "at most 3 model calls, then stop_reason 'step_limit'",
          "a retry is a step: every model call counts toward max_steps, the retry after a format "
          "error too; call run_step at most max_steps times"),
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
    _case(_defaults("What is today's date?", _script(DATE_CALL, FINAL)),
          "run_agent(q, MockLLM.from_script([date call, final]))  # no tools given",
          lambda t: t.steps[0].observation == "2025-03-14" and t.messages[0]["content"] == _basic_prompt(),
          "BASIC_TOOLS and their default prompt: observation '2025-03-14'",
          "tools=None means BASIC_TOOLS: fill in the default before check_arguments, which "
          "refuses None"),
    _case(_defaults("What is today's date?", _diligent),
          "run_agent(\"What is today's date?\", MockLLM())  # no tools given",
          lambda t: t.stop_reason == "answered" and "2025-03-14" in t.final_answer,
          "stop_reason 'answered' and a final answer with 2025-03-14",
          "run_agent(question, client) must work on its own: default tools, default prompt"),
    _case(_defaults("What is today's date?", _script(FINAL), system_prompt="You are terse."),
          "run_agent(q, MockLLM.from_script([final]), system_prompt='You are terse.')",
          lambda t: t.messages[0] == {"role": "system", "content": "You are terse."},
          "messages[0] == {'role': 'system', 'content': 'You are terse.'}",
          "build the default prompt only when system_prompt is None; otherwise use the one given"),
    _case(_options(stop=OPTIONS["stop"]), "run_agent(q, OptionsClient(), BASIC_TOOLS, "
          "stop=['Observation:'])", lambda t: _sent(t).get("stop") == OPTIONS["stop"],
          "the request carries stop=['Observation:']", "pass stop=stop on to run_step"),
    _case(_options(max_tokens=OPTIONS["max_tokens"]), "run_agent(q, OptionsClient(), BASIC_TOOLS, "
          "max_tokens=256)", lambda t: _sent(t).get("max_tokens") == OPTIONS["max_tokens"],
          "the request carries max_tokens=256", "pass max_tokens=max_tokens on to run_step"),
    _case(_options(model=OPTIONS["model"]), "run_agent(q, OptionsClient(), BASIC_TOOLS, "
          "model='gpt-4o-mini')", lambda t: _sent(t).get("model") == OPTIONS["model"],
          "the request carries model='gpt-4o-mini'", "pass model=model on to run_step"),
    _case(_custom_parse(), "run_agent(q, MockLLM.from_script([date call]), parse=<a parse that "
          "always answers>)", lambda t: t.final_answer == "read by the parse you passed",
          "final_answer 'read by the parse you passed'", "pass parse=parse on to run_step"),
    _case(_scripted([DATE_CALL, FINAL], max_steps=2), "run_agent(q, MockLLM.from_script([date call, "
          "final]), max_steps=2)", lambda t: t.stop_reason == "answered" and t.final_answer == "done"
          and len(t.steps) == 2,
          "stop_reason 'answered' after 2 steps: the answer came at the last step allowed",
          "look at the step's final_answer before deciding the limit is reached: an answer on the "
          "last step allowed is still an answer"),
    _case(_with_tools([ADD_DAYS_CALL, FINAL], _date_tools),
          "run_agent(q, MockLLM.from_script([add_days call, final]), world_tools().subset("
          "'get_current_date', 'calculator', 'add_days'))",
          lambda t: t.steps[0].observation == "2025-05-03"
          and t.messages[0]["content"] == _prompt_for(_date_tools),
          "add_days runs (observation '2025-05-03'), and the prompt lists the three tools given",
          "use the tools you are given, for the prompt and for the run: BASIC_TOOLS only when "
          "tools is None"),
    _case(_with_tools([DATE_CALL, FINAL], _no_tools),
          "run_agent(q, MockLLM.from_script([date call, final]), ToolRegistry())",
          lambda t: str(t.steps[0].observation).startswith("Error: unknown tool")
          and t.messages[0]["content"] == _prompt_for(_no_tools),
          "an empty registry is used as it is: the date call gets 'Error: unknown tool ...'",
          "test `tools is None`, not `tools or BASIC_TOOLS`: an empty registry is falsy (len 0), "
          "yet it is the registry you were given"),
    _case(_defaults("What is today's date?", _script(FINAL), system_prompt=""),
          "run_agent(q, MockLLM.from_script([final]), system_prompt='')",
          lambda t: t.messages[0] == {"role": "system", "content": ""},
          "messages[0] == {'role': 'system', 'content': ''}: '' is not None",
          "test `system_prompt is None`, not `if not system_prompt`: an empty prompt is still the "
          "one you were given"),
    _case(_live(FIFTY_DAYS, persona="looper", max_steps=3),
          f"run_agent({FIFTY_DAYS!r}, MockLLM(persona='looper'), BASIC_TOOLS, max_steps=3)",
          lambda t: t.stop_reason == "step_limit" and len(t.steps) == 3,
          "stop_reason 'step_limit' after 3 steps (the looper never answers)",
          "count the model calls: call run_step at most max_steps times, e.g. "
          "for _ in range(max_steps)"),
    Case(setup=_defaults(42, _diligent), raises=TypeError, match="question",
         label="run_agent(42, MockLLM())",
         hint="call check_arguments(question, client, tools, max_steps) before anything else"),
    Case(setup=_defaults("What is today's date?", _diligent, max_steps=0), raises=ValueError,
         match="max_steps", label="run_agent(q, MockLLM(), max_steps=0)",
         hint="call check_arguments(question, client, tools, max_steps): it refuses a max_steps "
              "below 1, which would end the run before any step"),
    Case(setup=_failing(), raises=RateLimitError,
         label="run_agent(q, MockLLM.from_script([final], failures={1: 'rate_limit'}), BASIC_TOOLS)",
         hint="let the client's errors through: a rate limit is not something the model wrote, "
              "so no try/except around run_step (lesson 05 retries it, with waits and a budget)"),
)

EXERCISES = [
    Exercise(name="run_agent", lesson="04", reference="solutions.agent:run_agent",
             cases=AGENT_CASES, show=_show,
             causes=(has_attributes("steps", "final_answer", "stop_reason", "messages",
                                    says="returns something that is not a Trace: return "
                                    "Trace(question, steps, final_answer, stop_reason, messages)"),
                     Cause(_replies_missing, "messages hold none of the model's replies: append each "
                           "reply unchanged as {'role': 'assistant', 'content': reply} (run_step does "
                           "it), or the model forgets what it asked"),
                     Cause(_observation_as_assistant, "an observation was appended as an assistant "
                           "message: it comes from the world, not the model, so append "
                           "{'role': 'user', 'content': f'Observation: {observation}'}"),
                     Cause(lambda exc: isinstance(exc, TypeError) and "tools must be" in str(exc)
                           and "NoneType" in str(exc), "check_arguments refuses tools=None: fill "
                           "in the default (tools = BASIC_TOOLS) before calling it", raised=True),
                     Cause(lambda exc: isinstance(exc, KeyError) and "unknown tool" in str(exc),
                           f"an unknown tool raised KeyError and ended the run: {_TOOLS_RUN}", raised=True),
                     Cause(_raised_by_a_tool, "a tool's exception escaped the loop and ended the run; "
                           f"an error is information: {_TOOLS_RUN}", raised=True))),
]
