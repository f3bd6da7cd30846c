"""Tools for the agent: a date tool, a safe calculator and a registry. Built in lesson 01 (Tools)."""
from __future__ import annotations

import ast
import datetime
import itertools
import math
import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from mockllm import world

MAX_LENGTH = 200        # characters; checked before parsing
MAX_NESTING = 30        # parentheses deep
MAX_EXPONENT = 100      # |exponent| of **
MAX_MAGNITUDE = 1e300   # largest |result| of any step

# full-width ASCII (（１７＋５）) and a few maths signs become plain ASCII; everything else stays
_FULL_WIDTH = {**{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)},
               0x3000: " ", ord("×"): "*", ord("÷"): "/", ord("−"): "-"}
_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_ILLEGAL = re.compile(r"[^0-9\s.+\-*/()]+", re.ASCII)
_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_FORBIDDEN = {
    ast.Constant: "only numbers are allowed (no strings, booleans or complex numbers)",
    ast.Name: "names are not allowed",
    ast.Call: "function calls are not allowed",
    ast.Attribute: "attribute access is not allowed",
    ast.Subscript: "subscripts are not allowed",
    ast.Lambda: "lambda is not allowed",
}


def get_current_date(clock: "world.Clock | None" = None) -> str:
    """Return today's date as YYYY-MM-DD from `clock` (the world's frozen clock by default). Built in lesson 01 (Tools)."""
    clock = world.FROZEN if clock is None else clock
    return clock.today().isoformat()


def calculator(expression: str) -> str:
    """Evaluate arithmetic (numbers, + - * / ** and parentheses) without eval. Built in lesson 01 (Tools)."""
    text = _check_text(expression)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError(f"expression is not valid arithmetic: {text!r}; example: (2 + 3) * 4") from None
    except (RecursionError, MemoryError, ValueError):
        raise ValueError("expression is too complex") from None
    try:
        return _format_number(_evaluate(tree.body))
    except RecursionError:
        raise ValueError("expression is nested too deeply") from None
    except OverflowError:
        raise ValueError("result is too large (more than 1e300)") from None


def _check_text(expression: object) -> str:
    """Return the normalised text, or raise when it is not a short arithmetic string."""
    if not isinstance(expression, str):
        raise TypeError(f"expression must be a string like '(2 + 3) * 4', got {type(expression).__name__}")
    if len(expression) > MAX_LENGTH:
        raise ValueError(f"expression is too long ({len(expression)} characters, at most {MAX_LENGTH})")
    text = expression.translate(_FULL_WIDTH).strip()
    if not text:
        raise ValueError("expression is empty; example: (2 + 3) * 4")
    illegal = list(dict.fromkeys(_ILLEGAL.findall(_NUMBER.sub(" ", text))))
    if illegal:
        shown = ", ".join(repr(piece) for piece in illegal[:3])
        hint = " (use ** for powers)" if "^" in text else ""
        raise ValueError(f"expression contains illegal characters: {shown}; "
                         f"allowed: numbers, + - * / ** and parentheses{hint}")
    depths = itertools.accumulate((char == "(") - (char == ")") for char in text)
    if max(depths) > MAX_NESTING:
        raise ValueError(f"expression is nested too deeply (at most {MAX_NESTING} parentheses)")
    return text


def _evaluate(node: ast.AST) -> int | float:
    """Walk the tree and compute its value; only numbers and + - * / ** are allowed."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return _bounded(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _power(_evaluate(node.left), _evaluate(node.right))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ValueError("division by zero")
        return _bounded(_OPERATORS[type(node.op)](left, right))
    if isinstance(node, ast.BinOp):
        raise ValueError(f"operator {type(node.op).__name__} is not allowed; use + - * / or **")
    for kind, message in _FORBIDDEN.items():
        if isinstance(node, kind):
            raise ValueError(message)
    raise ValueError(f"{type(node).__name__} is not allowed; only numbers and + - * / ** ( )")


def _power(base: int | float, exponent: int | float) -> int | float:
    """Compute base ** exponent when the exponent is a small whole number and the result stays bounded."""
    if not isinstance(exponent, int):
        raise ValueError(f"the exponent must be a whole number from -{MAX_EXPONENT} to {MAX_EXPONENT}")
    if abs(exponent) > MAX_EXPONENT:
        raise ValueError(f"power too large: the exponent must be from -{MAX_EXPONENT} to {MAX_EXPONENT}")
    if base == 0 and exponent < 0:
        raise ValueError("division by zero")
    if base != 0 and math.log10(abs(base)) * exponent > math.log10(MAX_MAGNITUDE):
        raise ValueError("power too large: the result would exceed 1e300")
    return _bounded(base ** exponent)


def _bounded(value: int | float) -> int | float:
    """Return `value` unless it is infinite, not a number or larger than MAX_MAGNITUDE."""
    if isinstance(value, float) and math.isnan(value):
        raise ValueError("result is not a number")
    if abs(value) > MAX_MAGNITUDE:
        raise ValueError("result is too large (more than 1e300)")
    return value


def _format_number(value: int | float) -> str:
    """Format ints as ints and floats with up to 10 significant digits (66, 12.5, 0.3333333333)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def add_days(date: str, days: int) -> str:
    """Return the date `days` days after `date` (YYYY-MM-DD; negative days go back). Built in lesson 01 (Tools)."""
    start = world.parse_date(date, "date")  # ValueError unless YYYY-MM-DD and a real date
    if isinstance(days, str) and re.fullmatch(r"\s*[+-]?\d{1,7}\s*", days):
        days = int(days)
    if isinstance(days, bool) or not isinstance(days, int):
        raise ValueError(f"days must be a whole number such as 30 or -7, got {days!r}")
    try:
        return (start + datetime.timedelta(days=days)).isoformat()
    except OverflowError:
        raise ValueError(f"days is out of range: {days}") from None


@dataclass(frozen=True)
class Tool:
    """A tool: name, description with an example, JSON-schema parameters, function. Built in lesson 01 (Tools)."""

    name: str
    description: str
    parameters: dict
    function: Callable[..., str]
    dangerous: bool = False

    def __post_init__(self) -> None:
        """Check the fields early, with messages that say what is accepted."""
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z_]\w*", self.name):
            raise ValueError(f"name must be an identifier such as 'get_weather', got {self.name!r}")
        if not isinstance(self.parameters, dict) or self.parameters.get("type") != "object":
            raise TypeError('parameters must be a JSON schema dict {"type": "object", "properties": {...}}')
        if not callable(self.function):
            raise TypeError(f"function must be callable, got {type(self.function).__name__}")

    def __call__(self, **kwargs: Any) -> str:
        """Call the tool's function with keyword arguments."""
        return self.function(**kwargs)

    @property
    def arguments(self) -> list[str]:
        """Return the parameter names, in schema order."""
        return list(self.parameters.get("properties", {}))

    @property
    def required(self) -> list[str]:
        """Return the names of the required parameters."""
        return list(self.parameters.get("required", []))

    def schema(self) -> dict:
        """Return the OpenAI `tools=` entry for this tool."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.parameters}}


class ToolRegistry:
    """An ordered collection of tools (iterating yields Tool objects). Built in lesson 01 (Tools)."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        """Create a registry holding `tools`, in order."""
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> Tool:
        """Add `tool`; its name must be new."""
        if not isinstance(tool, Tool):
            raise TypeError(f"register() takes a Tool, got {type(tool).__name__}")
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        return tool

    def __getitem__(self, name: str) -> Tool:
        """Return the tool called `name` (KeyError lists the available names)."""
        if name not in self._tools:
            raise KeyError(f"unknown tool {name!r}; available tools: {', '.join(self._tools)}")
        return self._tools[name]

    def __contains__(self, name: object) -> bool:
        """Return True when a tool called `name` is registered."""
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        """Yield the tools in registration order."""
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        """Return the number of tools."""
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({self.names()!r})"

    def names(self) -> list[str]:
        """Return the tool names in order."""
        return list(self._tools)

    def schemas(self) -> list[dict]:
        """Return the `tools=` list for a structured-call request."""
        return [tool.schema() for tool in self._tools.values()]

    def subset(self, *names: str) -> "ToolRegistry":
        """Return a new registry with only `names` (ValueError on an unknown name)."""
        unknown = [name for name in names if name not in self._tools]
        if unknown:
            raise ValueError(f"unknown tool(s) {unknown}; available tools: {', '.join(self._tools)}")
        return ToolRegistry(self._tools[name] for name in names)

    def run(self, name: str, action_input: dict | None) -> str:
        """Run a tool and return its text; every problem comes back as 'Error: ...', never raised."""
        tool = self._tools.get(name.strip()) if isinstance(name, str) else None
        if tool is None:
            available = ", ".join(self._tools) or "(none)"
            return f"Error: unknown tool {name!r}. Available tools: {available}"
        arguments, problem = _arguments(tool, action_input)
        if problem:
            return f"Error: {problem}"
        try:
            result = tool.function(**arguments)
        except Exception as exc:  # an error is information: hand it back to the model
            message = str(exc) or type(exc).__name__
            return message if message.startswith("Error:") else f"Error: {message}"
        return result if isinstance(result, str) else str(result)


def _arguments(tool: Tool, action_input: object) -> tuple[dict, str | None]:
    """Return (keyword arguments, None) or ({}, problem) for calling `tool` with `action_input`."""
    names = tool.arguments
    wanted = "{" + ", ".join(f'"{name}": ...' for name in names) + "}"
    if action_input is None:
        action_input = {}
    if not isinstance(action_input, dict):
        return {}, f"{tool.name}() needs a JSON object {wanted}, got {type(action_input).__name__}"
    if list(action_input) == ["input"] and len(names) == 1 and names != ["input"]:
        action_input = {names[0]: action_input["input"]}  # a bare string goes to the only parameter
    missing = [name for name in tool.required if name not in action_input]
    extra = [str(key) for key in action_input if key not in names]
    problems = [f"missing {name!r}" for name in missing] + [f"unexpected {key!r}" for key in extra]
    if problems:
        return {}, f"{tool.name}() needs {wanted}: {', '.join(problems)}"
    return dict(action_input), None


def get_weather(city: str, date: str) -> str:
    """Return the world's weather line for `city` on `date` (YYYY-MM-DD). Built in lesson 01 (Tools)."""
    return world.weather_text(city, date)


def lookup_order(order_id: str) -> str:
    """Return the world's line for one order, e.g. 'Order A1002: shipped, ...'. Built in lesson 01 (Tools)."""
    return world.order_text(order_id)


def query_orders(start_date: str, end_date: str) -> str:
    """Return the world's orders placed from `start_date` to `end_date`, with a total. Built in lesson 01 (Tools)."""
    return world.orders_text(start_date, end_date)


def search_docs(query: str) -> str:
    """Return the best-matching document snippets for `query`. Built in lesson 01 (Tools)."""
    return world.search_text(query)


def get_calendar(date: str) -> str:
    """Return the calendar events on `date` (YYYY-MM-DD). Built in lesson 01 (Tools)."""
    return world.calendar_text(date)


def _params(**fields: tuple[str, str]) -> dict:
    """Build a JSON schema where every field (name=(type, description)) is required."""
    properties = {name: {"type": kind, "description": text} for name, (kind, text) in fields.items()}
    return {"type": "object", "properties": properties, "required": list(fields)}


_DATE = ("string", "a date as YYYY-MM-DD")
DATE_TOOL = Tool(
    "get_current_date", "returns today's date (the current date) as YYYY-MM-DD. Takes no input. "
    "Example: {}", _params(), get_current_date)
CALCULATOR_TOOL = Tool(
    "calculator", "evaluates an arithmetic expression with numbers, + - * / ** and parentheses "
    '(no words or units). Example: {"expression": "(2 + 3) * 4"}',
    _params(expression=("string", "the arithmetic to compute")), calculator)
BASIC_TOOLS = ToolRegistry([DATE_TOOL, CALCULATOR_TOOL])
"""The two tools of lesson 01: get_current_date and calculator (use world_tools() for all eight)."""


def world_tools(clock: "world.Clock | None" = None) -> ToolRegistry:
    """Return a fresh registry: the basic tools plus the world's read-only tools. Built in lesson 01 (Tools)."""
    date_tool = DATE_TOOL
    if clock is not None:
        date_tool = Tool(DATE_TOOL.name, DATE_TOOL.description, DATE_TOOL.parameters,
                         lambda: get_current_date(clock))
    return ToolRegistry([date_tool, CALCULATOR_TOOL, *_WORLD_TOOLS])


_WORLD_TOOLS = (
    Tool("get_weather", "returns the weather for a city on a date (YYYY-MM-DD): condition, "
         'temperatures, wind and air quality. Example: {"city": "Shanghai", "date": "2025-03-16"}',
         _params(city=("string", "a city name, e.g. Beijing"), date=_DATE), get_weather),
    Tool("lookup_order", "looks up one order by its id and returns its status, amount, date and "
         'product line. Example: {"order_id": "A1005"}',
         _params(order_id=("string", "an order id such as A1005")), lookup_order),
    Tool("query_orders", "lists the orders placed in a date range, between start_date and end_date "
         'inclusive (YYYY-MM-DD), with their total. Example: {"start_date": "2025-03-01", '
         '"end_date": "2025-03-07"}', _params(start_date=_DATE, end_date=_DATE), query_orders),
    Tool("search_docs", "searches the shop's help documents by keywords and returns the best "
         'matching snippets. Example: {"query": "return policy"}',
         _params(query=("string", "a few keywords")), search_docs),
    Tool("get_calendar", "returns the calendar events (appointments) on a date (YYYY-MM-DD). "
         'Example: {"date": "2025-03-20"}', _params(date=_DATE), get_calendar),
    Tool("add_days", "adds a number of days to a date (YYYY-MM-DD) and returns the new date; "
         'negative days go back. Example: {"date": "2025-01-10", "days": 30}',
         _params(date=_DATE, days=("integer", "how many days to add")), add_days),
)
