"""The wrong solutions a learner walk-through got accepted: each is now refused, with its reason.

Each test writes the wrong solution as a learner would, runs `check` on it, and asserts that the
reference comes back and what the report says. The check's own time limits bound every test.
"""
from __future__ import annotations

import ast
import re
from typing import Any, Callable

import pytest

from solutions.course import check as check_module
from solutions.agent import Trace, check_arguments, run_step
from solutions.course.check import check
from solutions.parsing import _parse
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, _FULL_WIDTH
from solutions.tools import calculator as reference_calculator


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shorter case limit, so the tests that time out stay quick."""
    monkeypatch.setattr(check_module, "CASE_SECONDS", 0.5)


def _verdict(fn: Callable, reference: Callable, capsys: pytest.CaptureFixture) -> str:
    """Check `fn`, assert that the reference comes back, return the printed report."""
    assert check(fn) is reference
    return capsys.readouterr().out


# ---------------------------------------------------------------- lesson 01: the calculator

_ALLOWED = re.compile(r"[0-9+\-*/(). ]*")


def calculator(expression):
    """The blog-post calculator: a character allow-list, then eval, polished for every message."""
    if not isinstance(expression, str):
        raise TypeError("expression must be a string")
    text = expression.translate(_FULL_WIDTH).strip()
    if not text:
        raise ValueError("expression is empty")
    if len(text) > 200:
        raise ValueError("expression is too long")
    if not _ALLOWED.fullmatch(text):
        raise ValueError("expression contains illegal characters")
    if "//" in text or text.count("(") > 30:
        raise ValueError("operator not allowed, or nested too deeply")
    try:
        value = eval(text, {"__builtins__": {}})  # noqa: S307 - the wrong solution under test
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}") from None
    except ZeroDivisionError:
        raise ValueError("division by zero") from None
    return str(int(value)) if float(value).is_integer() else f"{value:.10g}"


def test_the_eval_calculator_is_refused_before_any_case_runs(capsys) -> None:
    out = _verdict(calculator, reference_calculator, capsys)
    assert out.startswith("✗ calculator: refused without running the cases\n")
    assert "it uses eval in calculator (`value = eval(text, {\"__builtins__\": {}})" in out
    assert "restricted globals do not make it safe" in out
    assert "cases pass" not in out  # not one case ran, 2**10**10 included


def test_eval_hidden_in_a_helper_or_behind_getattr_is_refused(capsys) -> None:
    def run_text(text):
        return getattr(__builtins__, "ev" + "al")(text)

    def calculator(expression):
        return str(run_text(expression))
    out = _verdict(calculator, reference_calculator, capsys)
    assert "it uses __builtins__ in run_text" in out


def test_an_endless_loop_in_the_calculator_is_stopped(quick: None, capsys) -> None:
    def calculator(expression):
        while True:
            pass
    out = _verdict(calculator, reference_calculator, capsys)
    assert "still running after 0.5 seconds, so it was stopped: bound the work" in out
    assert "case(s) not run: a case ran out of time" in out


def test_a_power_computed_before_it_is_bounded_is_refused(capsys) -> None:
    from solutions.tools import _bounded
    from solutions.tools import _evaluate as reference_evaluate

    def _evaluate(node):
        """The reference, except that ** is computed first and bounded afterwards."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return _bounded(_evaluate(node.left) ** _evaluate(node.right))
        return reference_evaluate(node)
    out = _verdict(_evaluate, reference_evaluate, capsys)
    assert "_evaluate: 18/19 cases pass" in out
    assert "case 19: _evaluate(<tree of '(-1) ** 10 ** 10'>)\n    expected: raises ValueError\n" \
           "    got:      returned 1\n    hint:     check the exponent before computing" in out


# ---------------------------------------------------------------- lesson 03: the parser

def test_a_parse_step_without_a_guard_fails_on_input_that_is_not_text(capsys) -> None:
    from solutions.parsing import parse_step as reference

    def parse_step(text):
        return _parse(text)  # no isinstance check, no try/except
    out = _verdict(parse_step, reference, capsys)
    assert "parse_step: 20/23 cases pass" in out
    assert ("  3 cases fail for one reason: parse_step raised an exception: it must never raise; "
            "check isinstance(text, str) first") in out
    assert "for example, case 21: parse_step(None)" in out


# ---------------------------------------------------------------- lesson 02: the prompt

def test_str_format_on_the_example_is_named_as_the_cause(capsys) -> None:
    from solutions.prompt import PARTS, RULES, _check_names, _tool_list
    from solutions.prompt import build_system_prompt as reference

    def build_system_prompt(tools, parts=tuple(PARTS)):
        tool_list = _tool_list(tools)
        _check_names(list(parts))
        lines = "\n".join(f"- {tool.name}: {tool.description}" for tool in tool_list)
        names = ", ".join(tool.name for tool in tool_list)
        blocks = [PARTS[name].format(tools=lines, tool_names=names) for name in parts
                  if name not in RULES]
        return "\n\n".join(blocks)
    out = _verdict(build_system_prompt, reference, capsys)
    assert "cases fail for one reason: str.format reads the example's JSON braces as placeholders" in out


# ---------------------------------------------------------------- lesson 04: the loop

def _loop(question: str, client: Any, tools: Any, max_steps: int, *, system_prompt: Any,
          options: dict, bounded: bool = True) -> Trace:
    """The body every run_agent below shares; `options` go to run_step as given."""
    prompt = build_system_prompt(tools) if system_prompt is None else system_prompt
    messages = [{"role": "system", "content": prompt},
                {"role": "user", "content": f"Question: {question}"}]
    steps: list = []
    while not bounded or len(steps) < max_steps:
        steps.append(run_step(client, messages, tools, **options))
        if steps[-1].final_answer is not None:
            return Trace(question, steps, steps[-1].final_answer, "answered", messages)
    return Trace(question, steps, None, "step_limit", messages)


def _reference_run_agent() -> Callable:
    from solutions.agent import run_agent

    return run_agent


def test_validating_before_the_default_tools_is_one_root_cause(capsys) -> None:
    def run_agent(question, client, tools=None, max_steps=5, *, system_prompt=None,
                  model="mock-react", parse=None, stop=None, max_tokens=None):
        check_arguments(question, client, tools, max_steps)  # tools is still None here
        tools = BASIC_TOOLS if tools is None else tools
        options = {"model": model, "stop": stop, "max_tokens": max_tokens}
        if parse is not None:
            options["parse"] = parse
        return _loop(question, client, tools, max_steps, system_prompt=system_prompt, options=options)
    out = _verdict(run_agent, _reference_run_agent(), capsys)
    assert ("  4 cases fail for one reason: check_arguments refuses tools=None: fill in the default "
            "(tools = BASIC_TOOLS) before calling it\n    for example, case 11: run_agent(q, "
            "MockLLM.from_script([date call, final]))  # no tools given\n") in out
    assert "got:      raised TypeError: tools must be a ToolRegistry or None, got NoneType" in out


def test_dropping_stop_and_max_tokens_is_refused(capsys) -> None:
    def run_agent(question, client, tools=None, max_steps=5, *, system_prompt=None,
                  model="mock-react", parse=None, stop=None, max_tokens=None):
        tools = BASIC_TOOLS if tools is None else tools
        check_arguments(question, client, tools, max_steps)
        options = {"model": model} if parse is None else {"model": model, "parse": parse}
        return _loop(question, client, tools, max_steps, system_prompt=system_prompt, options=options)
    out = _verdict(run_agent, _reference_run_agent(), capsys)
    assert "run_agent: 17/19 cases pass" in out
    assert "expected: the request carries stop=['Observation:']\n    got:" in out
    assert "hint:     pass stop=stop on to run_step" in out
    assert "hint:     pass max_tokens=max_tokens on to run_step" in out


def test_a_loop_without_a_step_limit_is_stopped(quick: None, capsys) -> None:
    def run_agent(question, client, tools=None, max_steps=5, *, system_prompt=None,
                  model="mock-react", parse=None, stop=None, max_tokens=None):
        tools = BASIC_TOOLS if tools is None else tools
        check_arguments(question, client, tools, max_steps)
        options = {"model": model, "stop": stop, "max_tokens": max_tokens}
        if parse is not None:
            options["parse"] = parse
        return _loop(question, client, tools, max_steps, system_prompt=system_prompt,
                     options=options, bounded=False)
    out = _verdict(run_agent, _reference_run_agent(), capsys)
    first_failure = out.splitlines()[1:5]
    assert first_failure[0].startswith("  case 18: run_agent(\"What is today's date, and what date "
                                       "is it 50 days from now?\", MockLLM(persona='looper')")
    assert first_failure[3].startswith("    hint:     still running after 0.5 seconds, so it was "
                                       "stopped: bound the work")
    assert first_failure[3].endswith("here: count the model calls: call run_step at most "
                                     "max_steps times, e.g. for _ in range(max_steps)")
    assert "raised ScriptExhaustedError" in out  # the scripted step-limit case ran out of replies


# ---------------------------------------------------------------- checking twice, lesson 00

def test_checking_the_returned_reference_says_so(capsys) -> None:
    from solutions.chat import ask as reference

    def ask(client, question, *, system=None, model="mock-react"):
        return client.chat.completions.create(model=model, messages=[
            {"role": "user", "content": question}]).choices[0].message  # the object, not its text
    ask = check(ask)
    first = capsys.readouterr().out
    assert ask is reference
    assert "cases fail for one reason: returns the message object: return its .content" in first
    assert check(ask) is reference
    assert capsys.readouterr().out == (
        "ask: this is still the reference solutions.chat.ask: run your own cell first (the one "
        "that defines ask), then this check\n")


def test_an_empty_system_prompt_is_still_sent(capsys) -> None:
    from solutions.chat import ask as reference

    def ask(client, question, *, system=None, model="mock-react"):
        if not isinstance(question, str):
            raise TypeError("question must be a str")
        messages = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": question})
        return client.chat.completions.create(model=model, messages=messages).choices[0].message.content
    out = _verdict(ask, reference, capsys)
    assert "ask: 13/14 cases pass" in out
    assert "hint:     test `system is not None`, not `if system:`" in out

