"""Wrong solutions of lesson 01's exercises (_evaluate, calculator).

The calculator's spec raises ValueError for a bad expression (the registry, not the calculator,
turns an error into text), so its catalogue holds the opposite mistake: an error returned as text.
"""
from __future__ import annotations

import ast
import math
import operator
import re
import unicodedata

from solutions.tools import (_FORBIDDEN, _FULL_WIDTH, _OPERATORS, _bounded, _check_text,
                             _evaluate as reference_evaluate, _format_number, _power)
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("01")


# ---------------------------------------------------------------- _evaluate(node)

def _refuse(node: ast.AST) -> None:
    """Step 5 of the exercise, as the reference words it (the part these wrong solutions get right):
    the reference refuses every node it is handed here, except the unary minus and plus that a
    wrong solution below leaves out."""
    if isinstance(node, ast.UnaryOp):
        raise ValueError(f"{type(node).__name__} is not allowed; only numbers and + - * / ** ( )")
    reference_evaluate(node)


_ALLOWED_NODES = (ast.Expression, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub,
                  ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd)


@CATALOGUE.wrong("_evaluate", fault="checks every node against an allow-list, then hands the "
                 "checked tree to eval", says="it uses compile")
def allow_list_then_eval(node):
    for child in ast.walk(node):
        if not isinstance(child, _ALLOWED_NODES) or (
                isinstance(child, ast.Constant) and type(child.value) not in (int, float)):
            raise ValueError(f"{type(child).__name__} is not allowed")
    code = compile(ast.Expression(body=node), "<calculator>", "eval")
    try:
        return _bounded(eval(code, {"__builtins__": {}}))  # noqa: S307 - the wrong solution
    except ZeroDivisionError:
        raise ValueError("division by zero") from None


def _evaluate_with(node, *, number=None, minus=True, plus=True, power=_power, divisor=True,
                   divisor_node=False, results=True, constants=True, operators=_OPERATORS,
                   other=None, bound=_bounded, zero=lambda value: value == 0):
    """The exercise's walk, steps 1 to 5, with the one step a wrong solution gets wrong changed
    by a keyword (each wrong solution below says which)."""
    def again(child):
        return _evaluate_with(child, number=number, minus=minus, plus=plus, power=power,
                              divisor=divisor, divisor_node=divisor_node, results=results,
                              constants=constants, operators=operators, other=other, bound=bound,
                              zero=zero)
    is_number = number or (lambda value: type(value) in (int, float))
    if isinstance(node, ast.Constant) and is_number(node.value):
        return bound(node.value) if constants else node.value
    if minus and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -again(node.operand)
    if plus and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd):
        return +again(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return power(again(node.left), again(node.right))
    if isinstance(node, ast.BinOp) and type(node.op) in operators:
        if divisor_node and isinstance(node.op, ast.Div) and isinstance(node.right, ast.Constant) \
                and node.right.value == 0:
            raise ValueError("division by zero")
        left, right = again(node.left), again(node.right)
        if divisor and not divisor_node and isinstance(node.op, ast.Div) and zero(right):
            raise ValueError("division by zero")
        value = operators[type(node.op)](left, right)
        return bound(value) if results else value
    return other(node, again) if other is not None else _refuse(node)


_CONSTANTS = {"pi": math.pi, "e": math.e}
_FUNCTIONS = {"abs": abs, "round": round, "sqrt": math.sqrt}


def _names_and_calls(node, again):
    """The constants pi and e, and calls to a few functions, as numbers; the rest refused."""
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        return _bounded(_FUNCTIONS[node.func.id](*(again(arg) for arg in node.args)))
    return _refuse(node)


@CATALOGUE.wrong("_evaluate", fault="walks the tree but lets through the names pi and e and "
                 "calls to a few 'harmless' functions", says="even when it stands for a number")
def names_and_calls_allowed(node):
    return _evaluate_with(node, other=_names_and_calls)


@CATALOGUE.wrong("_evaluate", fault="computes ** like the other operators and bounds the result "
                 "afterwards, too late for 2 ** 10 ** 10", says="check the exponent before computing")
def power_bounded_after(node):
    return _evaluate_with(node, power=lambda base, exponent: _bounded(operator.pow(base, exponent)))


def _exponent_bounded(base, exponent):
    """A power whose exponent is at most 100 in size, computed whatever its kind."""
    if abs(exponent) > 100:
        raise ValueError("power too large")
    return _bounded(base ** exponent)


@CATALOGUE.wrong("_evaluate", fault="bounds the exponent's size itself instead of calling "
                 "_power, and computes any exponent, fractions included", says="not a whole number")
def own_power_check(node):
    return _evaluate_with(node, power=_exponent_bounded)


@CATALOGUE.wrong("_evaluate", fault="tests isinstance(value, (int, float)), so True and False "
                 "pass as numbers", says="True is an int to isinstance()")
def bool_is_a_number(node):
    return _evaluate_with(node, number=lambda value: isinstance(value, (int, float)))


@CATALOGUE.wrong("_evaluate", fault="forgets unary minus and plus (ast.UnaryOp)",
                 says="handle ast.UnaryOp")
def no_unary(node):
    return _evaluate_with(node, minus=False, plus=False)


@CATALOGUE.wrong("_evaluate", fault="handles unary minus only, and refuses unary plus",
                 says="ast.UAdd")
def minus_only(node):
    return _evaluate_with(node, plus=False)


@CATALOGUE.wrong("_evaluate", fault="divides without checking the divisor: ZeroDivisionError "
                 "escapes", says="raises ZeroDivisionError where ValueError is expected")
def zero_division_escapes(node):
    return _evaluate_with(node, divisor=False)


@CATALOGUE.wrong("_evaluate", fault="checks the divisor's node for a literal 0, so 1 / (2 - 2) "
                 "still divides by zero", says="not its node")
def divisor_node_checked(node):
    return _evaluate_with(node, divisor_node=True)


@CATALOGUE.wrong("_evaluate", fault="bounds the numbers but not the results: 1e300 * 1e300 "
                 "returns infinity", says="pass every result through _bounded")
def results_unbounded(node):
    return _evaluate_with(node, results=False)


@CATALOGUE.wrong("_evaluate", fault="bounds the results but not the numbers: 1e400 is infinity",
                 says="pass every number through _bounded")
def constants_unbounded(node):
    return _evaluate_with(node, constants=False)


@CATALOGUE.wrong("_evaluate", fault="adds // and % to the operators 'for completeness'",
                 says="refuse // and %")
def floor_division_allowed(node):
    return _evaluate_with(node, operators={**_OPERATORS, ast.FloorDiv: operator.floordiv,
                                           ast.Mod: operator.mod})


def _forbidden_only(node, again):
    """A block-list: refuse the _FORBIDDEN nodes and unknown operators; anything else falls through."""
    for kind, message in _FORBIDDEN.items():
        if isinstance(node, kind):
            raise ValueError(message)
    if isinstance(node, ast.BinOp):
        raise ValueError(f"operator {type(node.op).__name__} is not allowed")


@CATALOGUE.wrong("_evaluate", fault="a block-list: refuses the _FORBIDDEN nodes and lets any "
                 "other node fall through, returning None", says="returned None")
def block_list(node):
    return _evaluate_with(node, other=_forbidden_only)


@CATALOGUE.wrong("_evaluate", fault="tests isinstance(node, ast.Num), as old tutorials do: complex "
                 "numbers pass as numbers", says="ast.Num, from old tutorials, accepts complex too")
def old_num_node(node):
    return _evaluate_with(node, number=lambda value: False, other=_num_node)


def _num_node(node, again):
    """The old tutorials' number test: ast.Num (deprecated) is any int, float or complex constant."""
    if isinstance(node, ast.Num):
        return _bounded(node.n)
    return _refuse(node)


def _generic_refusal(node, again):
    """One message of its own for every refused node, the operator named for a BinOp."""
    if isinstance(node, ast.BinOp):
        raise ValueError(f"operator {type(node.op).__name__} is not allowed")
    raise ValueError(f"{type(node).__name__} is not allowed; only numbers and + - * / **")


@CATALOGUE.wrong("_evaluate", fault="a message of its own for every refused node instead of "
                 "_FORBIDDEN's", says="raise ValueError(_FORBIDDEN[type])")
def own_refusal_messages(node):
    return _evaluate_with(node, other=_generic_refusal)


def _any_unary_as_plus(node, again):
    """Every other unary operator (~, not) kept as a plus: the value of its operand."""
    if isinstance(node, ast.UnaryOp):
        return again(node.operand)
    return _refuse(node)


@CATALOGUE.wrong("_evaluate", fault="handles USub, and returns the operand for every other unary "
                 "operator (~5 gives 5)", says="only ast.USub and ast.UAdd are allowed unary operators")
def any_unary_operator(node):
    return _evaluate_with(node, plus=False, other=_any_unary_as_plus)


def _infinite_only(value):
    """The learner's bound: infinity refused, any finite number kept."""
    if isinstance(value, float) and math.isinf(value):
        raise ValueError("result is too large")
    return value


@CATALOGUE.wrong("_evaluate", fault="its own bound that refuses only infinity, so 1e301 passes",
                 says="a test for infinity alone lets it through")
def bounds_infinity_only(node):
    return _evaluate_with(node, bound=_infinite_only)


def _limit_excluded(value):
    """The learner's bound, off by one: the limit 1e300 itself refused."""
    if abs(value) >= 1e300:
        raise ValueError("result is too large (more than 1e300)")
    return value


@CATALOGUE.wrong("_evaluate", fault="its own bound with >=, so 1e300 itself is refused",
                 says="1e300 itself is allowed")
def limit_excluded(node):
    return _evaluate_with(node, bound=_limit_excluded)


@CATALOGUE.wrong("_evaluate", fault="tests the divisor with `is 0`, so 1 / 0.0 divides by zero",
                 says="not `is 0`")
def divisor_is_zero(node):
    return _evaluate_with(node, zero=lambda value: operator.is_(value, 0))  # `value is 0`


@CATALOGUE.wrong("_evaluate", fault="also accepts the ast.Expression node, evaluating its body",
                 harmless="an extra node the tree's body never holds: calculator passes tree.body, "
                          "so every value and refusal is the same")
def accepts_the_expression_node(node):
    return reference_evaluate(node.body if isinstance(node, ast.Expression) else node)


# ---------------------------------------------------------------- calculator(expression)

_ARITHMETIC = re.compile(r"[0-9+\-*/(). ]*")


@CATALOGUE.wrong("calculator", fault="the blog-post calculator: a character allow-list, then "
                 "eval with empty builtins", says="restricted globals do not make it safe")
def allow_list_and_eval(expression):
    if not isinstance(expression, str):
        raise TypeError("expression must be a string")
    text = expression.translate(_FULL_WIDTH).strip()
    if not text:
        raise ValueError("expression is empty")
    if len(text) > 200:
        raise ValueError("expression is too long")
    if not _ARITHMETIC.fullmatch(text):
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


def _run_text(text):
    """eval, fetched by a name built at run time."""
    return getattr(__builtins__, "ev" + "al")(text)


@CATALOGUE.wrong("calculator", fault="eval hidden in a helper and fetched from __builtins__ by "
                 "a name built at run time", says="it uses __builtins__ in _run_text")
def eval_in_a_helper(expression):
    return _format_number(_run_text(_check_text(expression)))


@CATALOGUE.wrong("calculator", fault="'repairs' an expression by closing parentheses until it "
                 "parses, which never ends on '2 +'", says="still running after", slow=True)
def repairs_until_it_parses(expression):
    text = _check_text(expression)
    while True:
        try:
            tree = ast.parse(text, mode="eval")
            break
        except SyntaxError:
            text += ")"  # the model forgot to close a parenthesis
    return _format_number(reference_evaluate(tree.body))


@CATALOGUE.wrong("calculator", fault="returns the error as a text instead of raising ValueError",
                 says="do not return an error text")
def error_as_text(expression):
    try:
        text = _check_text(expression)
        tree = ast.parse(text, mode="eval")
        return _format_number(reference_evaluate(tree.body))
    except (SyntaxError, ValueError) as error:
        return f"Error: {error}"


@CATALOGUE.wrong("calculator", fault="checks the characters itself instead of calling "
                 "_check_text, with no bound on the length or the nesting",
                 says="MAX_LENGTH (200)")
def no_length_or_nesting_bound(expression):
    if not isinstance(expression, str):
        raise TypeError("expression must be a string like '(2 + 3) * 4'")
    text = expression.translate(_FULL_WIDTH).strip()
    if not text:
        raise ValueError("expression is empty")
    if re.search(r"[^0-9\s.+\-*/()eE]", text):
        raise ValueError("expression contains illegal characters; allowed: numbers, + - * / ** ( )")
    try:
        return _format_number(reference_evaluate(ast.parse(text, mode="eval").body))
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}") from None
    except (RecursionError, MemoryError):
        raise ValueError("expression is too complex") from None


@CATALOGUE.wrong("calculator", fault="turns any argument into text with str() first, so "
                 "calculator(42) answers '42'", says="an argument that is not text is a TypeError")
def str_of_anything(expression):
    text = _check_text(str(expression))
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}") from None
    return _format_number(reference_evaluate(tree.body))


@CATALOGUE.wrong("calculator", fault="catches every exception and raises ValueError, the "
                 "TypeError for a non-text argument included", says="raises ValueError where "
                 "TypeError is expected")
def everything_a_value_error(expression):
    try:
        text = _check_text(expression)
        tree = ast.parse(text, mode="eval")
        return _format_number(reference_evaluate(tree.body))
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {expression!r}") from None
    except Exception as error:  # every problem leaves as a ValueError, as the lesson says
        raise ValueError(str(error)) from None


@CATALOGUE.wrong("calculator", fault="calls _check_text but parses the raw expression, not the "
                 "text it returns", says="parse the text _check_text returns")
def check_text_result_ignored(expression):
    _check_text(expression)
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {expression!r}") from None
    return _format_number(reference_evaluate(tree.body))


@CATALOGUE.wrong("calculator", fault="lets ast.parse's SyntaxError out",
                 says="raises SyntaxError where ValueError is expected")
def syntax_error_escapes(expression):
    return _format_number(reference_evaluate(ast.parse(_check_text(expression), mode="eval").body))


@CATALOGUE.wrong("calculator", fault="returns str(value), so 6 / 3 reads '2.0' and 0.1 + 0.2 "
                 "'0.30000000000000004'", says="format the result with _format_number")
def plain_str(expression):
    text = _check_text(expression)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}") from None
    return str(reference_evaluate(tree.body))


@CATALOGUE.wrong("calculator", fault="returns the number itself, not its text",
                 says="returns something that is not a str")
def returns_the_number(expression):
    text = _check_text(expression)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}") from None
    return reference_evaluate(tree.body)


@CATALOGUE.wrong("calculator", fault="hands _evaluate the whole tree (the ast.Expression node) "
                 "instead of tree.body", says="pass tree.body")
def whole_tree(expression):
    text = _check_text(expression)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}") from None
    return _format_number(reference_evaluate(tree))


@CATALOGUE.wrong("calculator", fault="skips the second line of defence (no RecursionError or "
                 "OverflowError caught)",
                 harmless="_check_text bounds the length (200) and the nesting (30), and _power "
                 "and _bounded bound every number, so neither error can reach the calculator; "
                 "the lesson's later cells give the same results")
def no_second_line_of_defence(expression):
    text = _check_text(expression)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}; example: (2 + 3) * 4") from None
    return _format_number(reference_evaluate(tree.body))


def _calculated(text, format_number=_format_number, mode="eval"):
    """Steps 2 and 3 of the exercise on a checked `text`: parse (SyntaxError as ValueError), walk, format."""
    try:
        tree = ast.parse(text, mode=mode)
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}; example: (2 + 3) * 4") from None
    node = tree.body[0].value if mode == "exec" else tree.body  # exec: the first statement
    return format_number(reference_evaluate(node))


@CATALOGUE.wrong("calculator", fault="parses in the default mode 'exec' and takes the first "
                 "statement, so '12\\n34' answers 12", says="parse with mode='eval'")
def first_statement(expression):
    return _calculated(_check_text(expression), mode="exec")


@CATALOGUE.wrong("calculator", fault="removes every space before parsing, so '3 4' answers 34",
                 says="spaces included")
def spaces_removed(expression):
    return _calculated(_check_text(expression).replace(" ", ""))


@CATALOGUE.wrong("calculator", fault="formats every result with f'{value:.10g}' instead of "
                 "_format_number, so 2 ** 40 reads '1.099511628e+12'", says="an int is written in full")
def ten_significant_digits(expression):
    return _calculated(_check_text(expression), format_number=lambda value: f"{value:.10g}")


def _rounded(value):
    """The learner's formatting: whole numbers as ints, the rest rounded to 10 decimal places."""
    return str(int(value)) if value == int(value) else str(round(value, 10))


@CATALOGUE.wrong("calculator", fault="rounds to 10 decimal places instead of 10 significant digits",
                 says="10 significant digits, not 10 decimal places")
def ten_decimal_places(expression):
    return _calculated(_check_text(expression), format_number=_rounded)


@CATALOGUE.wrong("calculator", fault="refuses an empty expression with its own test before "
                 "_check_text, so calculator(None) raises ValueError", says="None is not text")
def emptiness_tested_first(expression):
    if not expression:
        raise ValueError("expression is empty; example: (2 + 3) * 4")
    return _calculated(_check_text(expression))


@CATALOGUE.wrong("calculator", fault="normalises the text with unicodedata NFKC before _check_text, "
                 "so '3²' answers 32", says="a superscript is not arithmetic")
def nfkc_first(expression):
    if isinstance(expression, str):
        expression = unicodedata.normalize("NFKC", expression)  # full-width, the standard way
    return _calculated(_check_text(expression))


_RESULTS: dict[str, str] = {}


@CATALOGUE.wrong("calculator", fault="keeps every result in a module-level cache",
                 harmless="the calculator is a pure function of its text: a cached result is the "
                          "one it would compute again, and an error is never cached")
def cached(expression):
    if isinstance(expression, str) and expression in _RESULTS:
        return _RESULTS[expression]
    result = _calculated(_check_text(expression))
    _RESULTS[expression] = result
    return result
