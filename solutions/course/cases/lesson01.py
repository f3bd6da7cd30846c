"""Cases for lesson 01 (Tools): the tree walk `_evaluate` and the safe `calculator`."""
from __future__ import annotations

import ast

from solutions.course.exercises import Case, Cause, Exercise, returns

_PARSE = ("call _check_text(expression), then ast.parse(text, mode='eval'), then "
          "_format_number(_evaluate(tree.body)); never eval()")
_TEXT_FIRST = "call _check_text(expression) first: it refuses letters, so this never reaches the parser"
_POWER = ("check the exponent before computing: _power refuses an exponent beyond ±100 at once, "
          "whereas computing first (then bounding the result) would take hours on 2 ** 10 ** 10")
_WALK = "evaluate the children first, then combine them: the tree already holds the precedence"


# ---------------------------------------------------------------- _evaluate(node)

def _tree(text: str) -> tuple[tuple, dict]:
    """Build the (args, kwargs) of one `_evaluate` call: the parsed body of `text`."""
    return (ast.parse(text, mode="eval").body,), {}


def _walks(text: str, expected: int | float, hint: str = _WALK, says: str = "") -> Case:
    """A case where `_evaluate(tree of text)` must return the number `expected` (`says`: what
    the report shows as expected, when the number alone would not say what the case is about)."""
    return Case(setup=lambda: _tree(text), expected=expected, hint=hint, says=says,
                label=f"_evaluate(<tree of {text!r}>)")


def _refuses(text: str, hint: str, match: str = "") -> Case:
    """A case where `_evaluate(tree of text)` must raise ValueError."""
    return Case(setup=lambda: _tree(text), raises=ValueError, match=match, hint=hint,
                label=f"_evaluate(<tree of {text!r}>)")


EVALUATE_CASES = (
    _walks("17", 17, "an ast.Constant holding an int or a float is a number: return its value"),
    _walks("(17 + 5) * 3", 66),
    _walks("100 / 8", 12.5, "look the operator's type up in _OPERATORS: ast.Div -> operator.truediv"),
    _walks("7 - 10", -3),
    _walks("-3 + 5", 2, "unary minus is an ast.UnaryOp whose op is ast.USub: negate its operand",
           says="2 (unary minus: an ast.UnaryOp whose op is ast.USub)"),
    _walks("+3", 3, "unary plus is an ast.UnaryOp whose op is ast.UAdd: return its operand's value",
           says="3 (unary plus: an ast.UnaryOp whose op is ast.UAdd)"),
    _walks("2 ** 10", 1024, "ast.Pow is not in _OPERATORS: compute it with _power(left, right)",
           says="1024 (** is an ast.BinOp whose op is ast.Pow: compute it with _power)"),
    _walks("-2 ** 2", -4, "-2 ** 2 means -(2 ** 2): the UnaryOp's operand is the power"),
    _refuses("1 / 0", "check for a zero divisor and raise ValueError('division by zero')",
             match="division by zero"),
    _refuses("1 / (2 - 2)", "test the divisor's value once it is evaluated, not its node: (2 - 2) "
             "is zero too", match="division by zero"),
    _refuses("1 / 0.0", "compare the divisor with == 0, not `is 0`: 0.0 is zero too",
             match="division by zero"),
    _refuses("True", "True is an int to isinstance(): test type(node.value) in (int, float)"),
    _refuses("'abc'", "a string constant is not a number: raise ValueError"),
    _refuses("2j", "a complex constant is not a number for this calculator: test "
             "type(node.value) in (int, float) (ast.Num, from old tutorials, accepts complex too)"),
    _refuses("x + 1", "a name (ast.Name) is not arithmetic: use the message from _FORBIDDEN"),
    _refuses("pi * 2", "a name is refused even when it stands for a number: no ast.Name at all"),
    _refuses("abs(-2)", "a call (ast.Call) must be refused, never run, even of a harmless function"),
    _refuses("y * 2", "for a node of a _FORBIDDEN type, raise ValueError(_FORBIDDEN[type]): the "
             "model reads that message ('names are not allowed'), so give it the one that explains",
             match="names are not allowed"),
    _refuses("round(2.5)", "for a node of a _FORBIDDEN type, raise ValueError with its message from "
             "_FORBIDDEN ('function calls are not allowed')", match="function calls are not allowed"),
    _refuses("~5", "only ast.USub and ast.UAdd are allowed unary operators: ~ (ast.Invert) and not "
             "(ast.Not) are refused, not treated as a plus"),
    _refuses("not 0", "only ast.USub and ast.UAdd are allowed unary operators: refuse any other "
             "UnaryOp (here ast.Not)"),
    _refuses("(1)(2)", "(1)(2) is a call too, made only of legal characters: refuse ast.Call"),
    _refuses("7 // 2", "only the operators in _OPERATORS (and **) are allowed: refuse // and %, "
             "naming the operator, type(node.op).__name__", match="FloorDiv"),
    _refuses("()", "refuse every node you do not know (an allow-list, not a block-list), naming "
             "its type, type(node).__name__", match="Tuple"),
    _refuses("1e400", "pass every number through _bounded: 1e400 is infinity",
             match="too large"),
    _refuses("1e300 * 1e300", "pass every result through _bounded", match="too large"),
    _refuses("1e299 * 100", "pass every result through _bounded: 1e301 is finite, but beyond the "
             "limit of 1e300 (a test for infinity alone lets it through)", match="too large"),
    _walks("1e300", 1e300, "1e300 itself is allowed: _bounded refuses only what is larger",
           says="1e300 (the limit itself is allowed)"),
    # Cheap for every solution, yet only a check made before computing refuses it. (The real
    # 2 ** 10 ** 10 would freeze a solution that computes first wherever cases cannot be killed.)
    _refuses("(-1) ** 10 ** 10", _POWER),
    _refuses("(-8) ** 0.5", "compute ** with _power: it refuses an exponent that is not a whole "
             "number ((-8) ** 0.5 is a complex number, not arithmetic for this calculator)"),
)

_EVALUATE_CAUSES = (
    returns((int, float), "returns something that is not a number: return an int or a float "
            "(the calculator turns it into text later)"),
    Cause(lambda exc: isinstance(exc, ValueError) and "UnaryOp" in str(exc), "refuses unary "
          "minus or plus: handle ast.UnaryOp (ast.USub: negate the operand; ast.UAdd: keep it)",
          raised=True),
    Cause(lambda exc: isinstance(exc, ValueError) and "Pow" in str(exc), "refuses **: handle "
          "an ast.BinOp whose op is ast.Pow with _power(left, right)", raised=True),
)


# ---------------------------------------------------------------- calculator(expression)

def _ok(expression: str, expected: str, hint: str = _PARSE) -> Case:
    """A case where `calculator(expression)` must return the text `expected`."""
    return Case(args=(expression,), expected=expected, hint=hint)


def _bad(expression: str, hint: str, match: str = "") -> Case:
    """A case where `calculator(expression)` must raise ValueError."""
    return Case(args=(expression,), raises=ValueError, match=match, hint=hint)


CALCULATOR_CASES = (
    _ok("(17 + 5) * 3", "66", "return the result as text: _format_number(66) -> '66'"),
    _ok("100 / 8", "12.5", "division gives a float; return it as text: '12.5'"),
    _ok("12 * 7 + 5", "89", "* binds tighter than +: the tree already knows that"),
    _ok("1234 + 4321", "5555"),
    _ok("-3 + 5", "2", "unary minus is an ast.UnaryOp with op ast.USub"),
    _ok("+3", "3", "unary plus is an ast.UnaryOp with op ast.UAdd"),
    _ok("  2 * (3 + 4)  ", "14", "parse the text _check_text returns: it strips the spaces "
        "around the expression"),
    _ok("7 - 10", "-3"),
    _ok("2 ** 10", "1024", "** is allowed, through _power"),
    _ok("0.1 + 0.2", "0.3", "format the result with _format_number (10 significant digits)"),
    _ok("6 / 3", "2", "format the result with _format_number: 2.0 is shown as '2'"),
    _ok("（１７＋５）×３", "66", "parse the text _check_text returns: it turns full-width "
        "characters into ASCII"),
    _ok("2 ** 40", "1099511627776", "format the result with _format_number: an int is written in "
        "full, not rounded to 10 significant digits"),
    _ok("1 / 3000", "0.0003333333333", "format the result with _format_number: 10 significant "
        "digits, not 10 decimal places"),
    _bad("1/0", "raise the ValueError (let _evaluate's through), do not return an error text: "
         "a returned text looks like a result; ToolRegistry.run turns what is raised into "
         "'Error: ...' for the model"),
    _bad("__import__('os')", _TEXT_FIRST),
    _bad("x + 1", _TEXT_FIRST),
    _bad("(1).__class__", _TEXT_FIRST),
    _bad("(1)(2)", "legal characters, but a call: pass tree.body to _evaluate, which refuses it"),
    _bad("()", "an empty tuple is not a number: pass tree.body to _evaluate, which refuses it"),
    _bad("7 // 2", "// is not one of the allowed operators: _evaluate must refuse it"),
    _bad("", "an empty expression is an error too: _check_text says so"),
    _bad("12\n34", "parse with mode='eval', one expression: in mode 'exec' '12\\n34' is two "
         "statements, and taking the first answers 12", match="not valid arithmetic"),
    _bad("3 4", "parse the text _check_text returns, spaces included: '3 4' is two numbers, not "
         "34, so it is not valid arithmetic", match="not valid arithmetic"),
    _bad("3²", "leave the characters to _check_text: a superscript is not arithmetic (NFKC "
         "normalisation turns '3²' into '32')", match="illegal characters"),
    _bad("2 +", "turn SyntaxError from ast.parse into ValueError", match="not valid arithmetic"),
    _bad("2025-03-14 + 50 days", "words are illegal: say 'expression contains illegal characters'",
         match="illegal characters"),
    Case(args=("(" * 1000 + "1" + ")" * 1000,), raises=ValueError,
         label="calculator('(((...1...)))')  # 1000 parentheses deep",
         hint="call _check_text first: it bounds the length and the nesting depth"),
    Case(args=("1+" * 5000 + "1",), raises=ValueError,
         label="calculator('1+1+1+...+1')  # 10001 characters",
         hint="call _check_text first: it bounds the length before anything is parsed"),
    Case(args=(" + ".join(["1"] * 70),), raises=ValueError,
         label="calculator('1 + 1 + ... + 1')  # 277 characters of plain arithmetic",
         hint="call _check_text first: it refuses more than MAX_LENGTH (200) characters, "
              "however harmless they look"),
    Case(args=("(" * 31 + "1" + ")" * 31,), raises=ValueError,
         label="calculator('(((...1...)))')  # 31 parentheses deep",
         hint="call _check_text first: it refuses more than MAX_NESTING (30) parentheses"),
    Case(args=("(-1) ** 10 ** 10",), raises=ValueError, hint=_POWER),
    Case(args=(42,), raises=TypeError, match="string", hint="let _check_text's TypeError through: "
         "an argument that is not text is a TypeError, not a bad expression"),
    Case(args=(None,), raises=TypeError, match="string", hint="call _check_text first: None is "
         "not text, a TypeError, not an empty expression (a test such as `if not expression:` "
         "before it raises the wrong error)"),
)

EXERCISES = [
    Exercise(name="_evaluate", lesson="01", reference="solutions.tools:_evaluate",
             cases=EVALUATE_CASES, screened=True,
             causes=_EVALUATE_CAUSES),
    Exercise(name="calculator", lesson="01", reference="solutions.tools:calculator",
             cases=CALCULATOR_CASES, screened=True,
             causes=(returns(str, "returns something that is not a str: a tool's result goes "
                             "into the conversation as text, so return _format_number(value)"),
                     Cause(lambda exc: isinstance(exc, ValueError) and str(exc).startswith("Expression"),
                           "hands _evaluate the whole tree: pass tree.body, the expression the "
                           "ast.Expression node holds", raised=True))),
]
