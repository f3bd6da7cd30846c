"""Cases for lesson 01 (Tools): the safe calculator."""
from __future__ import annotations

from solutions.exercises import Case, Exercise

_PARSE = "parse with ast.parse(expression, mode='eval') and walk the tree yourself; never eval()"
_REJECT = "allow only numbers, + - * / ( ) and unary minus; raise ValueError for anything else"


def _ok(expression: str, expected: str, hint: str = _PARSE) -> Case:
    """A case where `calculator(expression)` must return the text `expected`."""
    return Case(args=(expression,), expected=expected, hint=hint)


def _bad(expression: str, hint: str, match: str = "") -> Case:
    """A case where `calculator(expression)` must raise ValueError."""
    return Case(args=(expression,), raises=ValueError, match=match, hint=hint)


CALCULATOR_CASES = (
    _ok("(17 + 5) * 3", "66", "return the result as text: str(66) -> '66'"),
    _ok("100 / 8", "12.5", "division gives a float; return it as text: '12.5'"),
    _ok("12 * 7 + 5", "89", "* binds tighter than +: the tree already knows that"),
    _ok("1234 + 4321", "5555"),
    _ok("-3 + 5", "2", "unary minus is an ast.UnaryOp with op ast.USub"),
    _ok("  2 * (3 + 4)  ", "14", "strip spaces around the expression before parsing"),
    _ok("7 - 10", "-3"),
    _bad("1/0", "catch ZeroDivisionError and raise ValueError with a message the model can read"),
    _bad("__import__('os')", "a call is not arithmetic: reject ast.Call (and any name)"),
    _bad("x + 1", _REJECT),
    _bad("(1).__class__", "attribute access (ast.Attribute) must be rejected"),
    _bad("", "an empty expression is an error too"),
    _bad("2 +", "turn SyntaxError from ast.parse into ValueError"),
    _bad("2025-03-14 + 50 days", "words are illegal: say 'expression contains illegal characters'",
         match="illegal characters"),
    Case(args=("(" * 1000 + "1" + ")" * 1000,), raises=ValueError,
         label="calculator('(((...1...)))')  # 1000 parentheses deep",
         hint="bound the nesting depth (and catch RecursionError) so deep input is an error"),
    Case(args=("1+" * 5000 + "1",), raises=ValueError,
         label="calculator('1+1+1+...+1')  # 10001 characters",
         hint="bound the length of the input before parsing it"),
    Case(args=("2**10**10",), raises=ValueError, risky=True,
         hint="a huge power would run for hours: reject ** or bound the exponent"),
)

EXERCISES = [
    Exercise(name="calculator", lesson="01", reference="solutions.tools:calculator",
             cases=CALCULATOR_CASES),
]
