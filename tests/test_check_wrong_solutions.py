"""The wrong solutions a learner walk-through got accepted: each is now refused, with its reason.

Each test writes the wrong solution as a learner would, runs `check` on it, and asserts that the
reference comes back and what the report says. The check's own time limits bound every test.
"""
from __future__ import annotations

import ast
import re
from typing import Callable

import pytest

from solutions.course import check as check_module
from solutions.course.check import check
from solutions.tools import _FULL_WIDTH
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

def test_a_case_that_runs_out_of_time_is_reported_first_with_its_hint(capsys) -> None:
    from solutions.agent import run_agent as reference
    from tests.wrong_solutions.lesson04 import no_step_limit  # the loop without a step limit

    out = _verdict(no_step_limit, reference, capsys)
    first_failure = out.splitlines()[1:5]
    assert re.match(r"  case \d+: run_agent\(\"What is today's date, and what date is it 50 days from "
                    r"now\?\", MockLLM\(persona='looper'\)", first_failure[0])
    assert first_failure[3].startswith(f"    hint:     still running after {check_module.CASE_SECONDS:g} "
                                       "seconds, so it was stopped: bound the work")
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

