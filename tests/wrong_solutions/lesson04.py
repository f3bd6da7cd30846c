"""Wrong solutions of lesson 04's exercise (run_agent), as learners write them.

Most follow the exercise: defaults, `check_arguments`, the first two messages (`_start`), then a
loop of `run_step` calls with one mistake. A few write the step themselves, as the lesson did by
hand before `run_step` (`_own_step`), and get one of its moves wrong.
"""
from __future__ import annotations

from solutions.agent import Trace, TraceStep, check_arguments, run_step
from solutions.parsing import parse_step
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("04")


def _start(question, client, tools, max_steps, system_prompt):
    """Steps 1 and 2 of the exercise: the defaults, the argument check, the first two messages."""
    tools = BASIC_TOOLS if tools is None else tools
    check_arguments(question, client, tools, max_steps)
    prompt = build_system_prompt(tools) if system_prompt is None else system_prompt
    return tools, [{"role": "system", "content": prompt},
                   {"role": "user", "content": f"Question: {question}"}]


def _options(model, parse, stop, max_tokens):
    """What run_step is passed on, as the exercise asks."""
    return {"model": model, "parse": parse, "stop": stop, "max_tokens": max_tokens}


def _loop(question, client, tools, messages, calls, options,
          answered=lambda step: step.final_answer is not None):
    """Steps 3 to 5 of the exercise: at most `calls` steps, the trace as soon as one is `answered`."""
    steps = []
    for _ in range(calls):
        steps.append(run_step(client, messages, tools, **options))
        if answered(steps[-1]):
            return Trace(question, steps, steps[-1].final_answer, "answered", messages)
    return Trace(question, steps, None, "step_limit", messages)


def _free_retries(question, client, tools, max_steps, system_prompt, options, cap=None):
    """The learner's loop that counts only the steps that parsed (`used += 1`), with or without a cap."""
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps, used = [], 0
    while used < max_steps and (cap is None or len(steps) < cap):
        step = run_step(client, messages, tools, **options)
        steps.append(step)
        if step.final_answer is not None:
            return Trace(question, steps, step.final_answer, "answered", messages)
        if step.error is None:
            used += 1  # a format error gets its retry for free
    return Trace(question, steps, None, "step_limit", messages)


@CATALOGUE.wrong("run_agent", fault="format-error retries not counted toward max_steps (an endless loop "
                 "on a model that keeps answering in prose)", says="a retry is a step")
def retries_not_counted(question, client, tools=None, max_steps=5, *, system_prompt=None,
                        model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    return _free_retries(question, client, tools, max_steps, system_prompt,
                         _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="format-error retries not counted toward max_steps, with a private "
                 "cap of 50 calls", says="a retry is a step")
def retries_not_counted_capped(question, client, tools=None, max_steps=5, *, system_prompt=None,
                               model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    return _free_retries(question, client, tools, max_steps, system_prompt,
                         _options(model, parse, stop, max_tokens), cap=50)  # in case it never recovers


@CATALOGUE.wrong("run_agent", fault="one model call too many (max_steps + 1)", says="at most max_steps")
def one_call_too_many(question, client, tools=None, max_steps=5, *, system_prompt=None,
                      model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    return _loop(question, client, tools, messages, max_steps + 1,  # "while len(steps) <= max_steps"
                 _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="one model call too few (range(max_steps - 1))", says="at most max_steps")
def one_call_too_few(question, client, tools=None, max_steps=5, *, system_prompt=None,
                     model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    return _loop(question, client, tools, messages, max_steps - 1,  # "the last step must be the answer"
                 _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="stops at the first format error instead of letting the model retry",
                 says="send step.error back")
def stops_on_a_format_error(question, client, tools=None, max_steps=5, *, system_prompt=None,
                            model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps = []
    for _ in range(max_steps):
        steps.append(run_step(client, messages, tools, **_options(model, parse, stop, max_tokens)))
        if steps[-1].error is not None:
            return Trace(question, steps, None, "format_error", messages)
        if steps[-1].final_answer is not None:
            return Trace(question, steps, steps[-1].final_answer, "answered", messages)
    return Trace(question, steps, None, "step_limit", messages)


@CATALOGUE.wrong("run_agent", fault="the final step left out of the trace", says="the final one included")
def final_step_left_out(question, client, tools=None, max_steps=5, *, system_prompt=None,
                        model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps = []
    for _ in range(max_steps):
        step = run_step(client, messages, tools, **_options(model, parse, stop, max_tokens))
        if step.final_answer is not None:
            return Trace(question, steps, step.final_answer, "answered", messages)
        steps.append(step)  # "the steps are the tool calls"
    return Trace(question, steps, None, "step_limit", messages)


_RUNS: list[dict] = []  # the learner's history, kept between runs


@CATALOGUE.wrong("run_agent", fault="one messages list shared by every run (a global, or a default argument)",
                 says="a new messages list in every run")
def shared_messages(question, client, tools=None, max_steps=5, *, system_prompt=None,
                    model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, first = _start(question, client, tools, max_steps, system_prompt)
    _RUNS.extend(first)
    return _loop(question, client, tools, _RUNS, max_steps, _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="check_arguments called before the default tools are filled in",
                 says="fill in the default (tools = BASIC_TOOLS) before calling it")
def validates_before_the_defaults(question, client, tools=None, max_steps=5, *, system_prompt=None,
                                  model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    check_arguments(question, client, tools, max_steps)  # tools is still None here
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    return _loop(question, client, tools, messages, max_steps, _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="stop and max_tokens not passed on to run_step", says="pass stop=stop")
def drops_stop_and_max_tokens(question, client, tools=None, max_steps=5, *, system_prompt=None,
                              model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    return _loop(question, client, tools, messages, max_steps, {"model": model, "parse": parse})


@CATALOGUE.wrong("run_agent", fault="the system_prompt argument ignored", says="system_prompt is None")
def ignores_the_system_prompt(question, client, tools=None, max_steps=5, *, system_prompt=None,
                              model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, None)
    return _loop(question, client, tools, messages, max_steps, _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="no step limit: loops until the model answers",
                 says="call run_step at most max_steps times")  # stopped by the looper case's time limit
def no_step_limit(question, client, tools=None, max_steps=5, *, system_prompt=None,
                  model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps = []
    while True:
        steps.append(run_step(client, messages, tools, **_options(model, parse, stop, max_tokens)))
        if steps[-1].final_answer is not None:
            return Trace(question, steps, steps[-1].final_answer, "answered", messages)


@CATALOGUE.wrong("run_agent", fault="`if step.final_answer:` instead of `is not None`",
                 harmless="parse_step never returns an empty final answer (an empty 'Final Answer:' is "
                          "an error), so both tests agree on every reply")
def truthy_final_answer(question, client, tools=None, max_steps=5, *, system_prompt=None,
                        model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    return _loop(question, client, tools, messages, max_steps, _options(model, parse, stop, max_tokens),
                 answered=lambda step: bool(step.final_answer))


# ---------------------------------------------------------------- the step written by hand

def _own_step(client, messages, tools, *, model, parse, stop, max_tokens, keep_reply=True,
              observation_role="user", run=None):
    """The lesson's step by hand, in a loop: call, keep the reply, parse, run the tool, hand back."""
    options = {key: value for key, value in (("stop", stop), ("max_tokens", max_tokens)) if value is not None}
    response = client.chat.completions.create(model=model, messages=messages, **options)
    reply = response.choices[0].message.content or ""
    if keep_reply:
        messages.append({"role": "assistant", "content": reply})
    parsed = parse(reply)
    observation = None
    if parsed.error is not None:
        messages.append({"role": "user", "content": parsed.error})
    elif parsed.final_answer is None:
        observation = (run or tools.run)(parsed.action, parsed.action_input)
        messages.append({"role": observation_role, "content": f"Observation: {observation}"})
    return TraceStep(thought=parsed.thought, action=parsed.action, action_input=parsed.action_input,
                     observation=observation, final_answer=parsed.final_answer, error=parsed.error,
                     raw_reply=reply, tokens=response.usage.total_tokens if response.usage else 0)


def _own_loop(question, client, tools, max_steps, system_prompt, options, **mistake):
    """run_agent around `_own_step`, with the step's one mistake."""
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps = []
    for _ in range(max_steps):
        steps.append(_own_step(client, messages, tools, **options, **mistake))
        if steps[-1].final_answer is not None:
            return Trace(question, steps, steps[-1].final_answer, "answered", messages)
    return Trace(question, steps, None, "step_limit", messages)


@CATALOGUE.wrong("run_agent", fault="the model's reply not appended to messages",
                 says="append each reply unchanged")
def reply_not_kept(question, client, tools=None, max_steps=5, *, system_prompt=None,
                   model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    return _own_loop(question, client, tools, max_steps, system_prompt,
                     _options(model, parse, stop, max_tokens), keep_reply=False)


@CATALOGUE.wrong("run_agent", fault="the observation appended as an assistant message",
                 says="{'role': 'user', 'content': f'Observation: {observation}'}")
def observation_as_assistant(question, client, tools=None, max_steps=5, *, system_prompt=None,
                             model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    return _own_loop(question, client, tools, max_steps, system_prompt,
                     _options(model, parse, stop, max_tokens), observation_role="assistant")


def _call_tool_directly(tools):
    """The learner's tool call: look the tool up and call it (no registry.run)."""
    def run(name, arguments):
        return tools[name].function(**arguments)
    return run


@CATALOGUE.wrong("run_agent", fault="the tool looked up and called directly: an unknown tool raises KeyError",
                 says="tools.run(action, action_input)")
def raises_on_an_unknown_tool(question, client, tools=None, max_steps=5, *, system_prompt=None,
                              model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    registry = BASIC_TOOLS if tools is None else tools
    return _own_loop(question, client, tools, max_steps, system_prompt,
                     _options(model, parse, stop, max_tokens), run=_call_tool_directly(registry))


@CATALOGUE.wrong("run_agent", fault="a known tool called directly: its exception escapes the loop",
                 says="tools.run(action, action_input)")
def tool_exception_escapes(question, client, tools=None, max_steps=5, *, system_prompt=None,
                           model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    registry = BASIC_TOOLS if tools is None else tools

    def run(name, arguments):
        if name not in registry:
            return registry.run(name, arguments)  # unknown tools were handled: "Available tools ..."
        return registry[name].function(**arguments)
    return _own_loop(question, client, tools, max_steps, system_prompt,
                     _options(model, parse, stop, max_tokens), run=run)


def _run(question, client, tools, max_steps, system_prompt, options):
    """The exercise done right from the registry and the prompt on (steps 2 to 5)."""
    prompt = build_system_prompt(tools) if system_prompt is None else system_prompt
    messages = [{"role": "system", "content": prompt}, {"role": "user", "content": f"Question: {question}"}]
    return _loop(question, client, tools, messages, max_steps, options)


@CATALOGUE.wrong("run_agent", fault="`tools or BASIC_TOOLS`: an empty registry is replaced by "
                 "the basic tools", says="not `tools or BASIC_TOOLS`")
def falsy_registry_replaced(question, client, tools=None, max_steps=5, *, system_prompt=None,
                            model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools = tools or BASIC_TOOLS
    check_arguments(question, client, tools, max_steps)
    return _run(question, client, tools, max_steps, system_prompt, _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="the tools argument ignored: always BASIC_TOOLS",
                 says="use the tools you are given")
def tools_ignored(question, client, tools=None, max_steps=5, *, system_prompt=None,
                  model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    check_arguments(question, client, BASIC_TOOLS, max_steps)
    return _run(question, client, BASIC_TOOLS, max_steps, system_prompt,
                _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="`if not system_prompt`: an empty system prompt is replaced "
                 "by the default", says="not `if not system_prompt`")
def falsy_prompt_replaced(question, client, tools=None, max_steps=5, *, system_prompt=None,
                          model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools = BASIC_TOOLS if tools is None else tools
    check_arguments(question, client, tools, max_steps)
    return _run(question, client, tools, max_steps, system_prompt or None,
                _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="checks the question itself instead of calling check_arguments, "
                 "so max_steps=0 gives an empty run", says="it refuses a max_steps below 1")
def own_question_check(question, client, tools=None, max_steps=5, *, system_prompt=None,
                       model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    tools = BASIC_TOOLS if tools is None else tools
    return _run(question, client, tools, max_steps, system_prompt, _options(model, parse, stop, max_tokens))


@CATALOGUE.wrong("run_agent", fault="catches the client's errors and goes on with the next step",
                 says="let the client's errors through")
def client_errors_swallowed(question, client, tools=None, max_steps=5, *, system_prompt=None,
                            model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps = []
    for _ in range(max_steps):
        try:
            step = run_step(client, messages, tools, **_options(model, parse, stop, max_tokens))
        except Exception as error:  # "nothing may crash the loop"
            step = TraceStep(error=f"Error: {error}")
        steps.append(step)
        if step.final_answer is not None:
            return Trace(question, steps, step.final_answer, "answered", messages)
    return Trace(question, steps, None, "step_limit", messages)


@CATALOGUE.wrong("run_agent", fault="tests the step limit before the final answer, so an answer "
                 "on the last step allowed ends as 'step_limit'", says="an answer on the last step allowed")
def limit_tested_first(question, client, tools=None, max_steps=5, *, system_prompt=None,
                       model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    steps = []
    while True:
        steps.append(run_step(client, messages, tools, **_options(model, parse, stop, max_tokens)))
        if len(steps) == max_steps:
            return Trace(question, steps, None, "step_limit", messages)
        if steps[-1].final_answer is not None:
            return Trace(question, steps, steps[-1].final_answer, "answered", messages)


@CATALOGUE.wrong("run_agent", fault="always sends stop=['Observation:'] when no stop is given "
                 "(lesson 00's defence, built in)",
                 harmless="the lesson's runs give the same traces with it (diligent, looper and literal "
                          "end their replies after the Action Input), and a stop given is passed on")
def stop_by_default(question, client, tools=None, max_steps=5, *, system_prompt=None,
                    model="mock-react", parse=parse_step, stop=None, max_tokens=None):
    tools, messages = _start(question, client, tools, max_steps, system_prompt)
    stop = ["Observation:"] if stop is None else stop
    return _loop(question, client, tools, messages, max_steps, _options(model, parse, stop, max_tokens))
