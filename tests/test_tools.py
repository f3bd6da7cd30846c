"""Tests for solutions.tools (lesson 01): the date tool, the safe calculator, the registry."""
from __future__ import annotations

import ast
import builtins
import inspect
import json
import re
import time

import pytest

from mockllm import world
from solutions import tools
from solutions.tools import (BASIC_TOOLS, Tool, ToolRegistry, add_days, calculator,
                             get_current_date, world_tools)

ALLOWED = [
    ("(17 + 5) * 3", "66"), ("12 * 7 + 5", "89"), ("1234 + 4321", "5555"), ("365 * 24", "8760"),
    ("100 / 8", "12.5"), ("100 / 4", "25"), ("2 ** 10", "1024"), ("0.15 * 80", "12"),
    ("-3 + 5", "2"), ("+4", "4"), ("-(2 + 3)", "-5"), ("7 - 10", "-3"), ("1 / 3", "0.3333333333"),
    ("0.1 + 0.2", "0.3"), ("2 ** -2", "0.25"), ("(-2) ** 3", "-8"), ("1e3", "1000"),
    ("  2 * (3 + 4)  ", "14"), ("45 * 3 - 10", "125"), ("2.5 * 4", "10"), ("1e20 / 1", "1e+20"),
    ("（17＋5）×3", "66"), ("７ ÷ ２", "3.5"), ("((((1))))", "1"), ("1+" * 99 + "1", "100"),
]

HOSTILE = [
    ("__import__('os').system('x')", "illegal characters"),
    ("().__class__", "illegal characters"),
    ("().__class__.__bases__[0].__subclasses__()", "illegal characters"),
    ("lambda: 1", "illegal characters"),
    ("x + 1", "illegal characters: 'x'"),
    ("(1).real", "illegal characters: 'real'"),
    ("[1, 2][0]", "illegal characters"),
    ("[x for x in (1, 2)]", "illegal characters"),
    ("{1: 2}", "illegal characters"),
    ("9**9**9", "power too large"),
    ("2**1000000", "power too large"),
    ("10 ** 400", "power too large"),
    ("2 ** 0.5", "whole number"),
    ("(" * 1000 + "1" + ")" * 1000, "too long"),
    ("(" * 31 + "1" + ")" * 31, "nested too deeply"),
    ("1+" * 5000 + "1", "too long"),
    ("9" * 10_000, "too long"),
    ("1/0", "division by zero"),
    ("1 / (2 - 2)", "division by zero"),
    ("0 ** -1", "division by zero"),
    ("", "empty"),
    ("   \t ", "empty"),
    ("True", "illegal characters: 'True'"),
    ("1j", "illegal characters: 'j'"),
    ("'a' * 3", "illegal characters"),
    ("2025-03-14 + 50 days", "illegal characters: 'days'"),
    ("15% of 80", "illegal characters: '%', 'of'"),
    ("2 ^ 10", "use ** for powers"),
    ("1 // 2", "not allowed"),
    ("2 +", "not valid arithmetic"),
    ("()", "not allowed"),
    ("...", "only numbers"),
    ("1e999", "too large"),
    ("10**100 * 10**100 * 10**100 * 10**100", "too large"),
    ("3²", "illegal characters"),
    ("1\x00", "illegal characters"),
]


@pytest.mark.parametrize(("expression", "expected"), ALLOWED)
def test_calculator_computes(expression: str, expected: str) -> None:
    """Arithmetic comes back as text: ints as ints, floats with up to 10 significant digits."""
    assert calculator(expression) == expected


@pytest.mark.parametrize(("expression", "message"), HOSTILE, ids=lambda v: repr(v)[:30])
def test_calculator_rejects_quickly(expression: str, message: str) -> None:
    """Hostile or invalid input raises ValueError with a readable message, fast."""
    started = time.perf_counter()
    with pytest.raises(ValueError, match=re.escape(message)):
        calculator(expression)
    assert time.perf_counter() - started < 1.0  # really ~1 ms; generous for slow CI machines


@pytest.mark.parametrize("value", [None, 42, 1.5, ["1 + 1"], b"1 + 1"])
def test_calculator_rejects_non_strings(value: object) -> None:
    """Only a string is an expression."""
    with pytest.raises(TypeError, match="must be a string"):
        calculator(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("source", "message"), [
    ("abs(1)", "function calls are not allowed"), ("x", "names are not allowed"),
    ("(1).real", "attribute access is not allowed"), ("[1][0]", "subscripts are not allowed"),
    ("lambda: 1", "lambda is not allowed"), ("'a'", "only numbers"), ("True", "only numbers"),
    ("1j", "only numbers"), ("1 % 2", "not allowed"), ("1 if 1 else 2", "not allowed"),
    ("[x for x in ()]", "not allowed"), ("not 1", "not allowed"), ("1 < 2", "not allowed"),
])
def test_tree_walk_rejects_what_the_character_check_would(source: str, message: str) -> None:
    """Defence in depth: the tree walk alone also refuses every non-arithmetic node."""
    with pytest.raises(ValueError, match=re.escape(message)):
        tools._evaluate(ast.parse(source, mode="eval").body)


def test_calculator_never_evals(monkeypatch: pytest.MonkeyPatch) -> None:
    """eval, exec and compile-to-code are never used: only ast.parse's compile-to-tree."""
    real_compile = builtins.compile

    def tree_only(source, filename, mode, flags=0, *args, **kwargs):  # type: ignore[no-untyped-def]
        """Allow compile() only for ast.parse (a tree, never code)."""
        assert flags & ast.PyCF_ONLY_AST, "compile() was asked for code, not a tree"
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    def forbidden(*args: object, **kwargs: object) -> None:
        """Fail the test if called."""
        raise AssertionError("eval/exec must not be called")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    monkeypatch.setattr(builtins, "compile", tree_only)
    assert calculator("(17 + 5) * 3") == "66"
    assert calculator("2 ** 10 / 8") == "128"
    with pytest.raises(ValueError):
        calculator("__import__('os').system('x')")


def test_tools_module_has_no_eval_calls() -> None:
    """Static check: the module never calls eval, exec or compile by name."""
    tree = ast.parse(inspect.getsource(tools))
    called = {node.func.id for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not called & {"eval", "exec", "compile"}


def test_get_current_date_uses_an_injected_clock() -> None:
    """The frozen clock by default; any object with today() when injected."""
    assert get_current_date() == "2025-03-14"
    assert get_current_date(world.Clock("2025-01-01")) == "2025-01-01"

    class Fake:
        """A clock of our own: anything with today()."""

        def today(self):  # type: ignore[no-untyped-def]
            """Return a leap day."""
            return world.Clock("2024-02-29").today()

    assert get_current_date(Fake()) == "2024-02-29"  # type: ignore[arg-type]


@pytest.mark.parametrize(("start", "days", "expected"), [
    ("2025-03-14", 50, "2025-05-03"), ("2025-03-14", 3, "2025-03-17"), ("2025-03-14", "-14", "2025-02-28"),
    ("2024-02-28", 1, "2024-02-29"), (" 2025-03-14 ", "+1", "2025-03-15"), ("2025-12-31", 0, "2025-12-31"),
])
def test_add_days(start: str, days: object, expected: str) -> None:
    """Dates move by whole days; the answer of lesson 04's example is 2025-05-03."""
    assert add_days(start, days) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("start", "days", "message"), [
    ("March 14", 3, "YYYY-MM-DD"), ("2025-02-30", 1, "not a real calendar date"),
    ("2025-03-14", "fifty", "whole number"), ("2025-03-14", 1.5, "whole number"),
    ("2025-03-14", True, "whole number"), ("2025-03-14", 10**9, "out of range"), (None, 1, "YYYY-MM-DD"),
])
def test_add_days_errors(start: object, days: object, message: str) -> None:
    """Bad dates and day counts raise ValueError (TypeError for a non-string date) saying what is accepted."""
    with pytest.raises((ValueError, TypeError), match=message):
        add_days(start, days)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the registry

def _echo(text: str) -> str:
    """A tiny tool for the registry tests."""
    return text.upper()


def _boom() -> str:
    """A tool that always fails."""
    raise RuntimeError("the service is down")


ECHO = Tool("echo", 'repeats text in capitals. Example: {"text": "hi"}',
            {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}, _echo)
BOOM = Tool("boom", "always fails. Example: {}", {"type": "object", "properties": {}, "required": []}, _boom)


def test_registry_basics() -> None:
    """Ordered, sized, iterable (yielding Tools), indexable by name."""
    registry = ToolRegistry([ECHO, BOOM])
    assert registry.names() == ["echo", "boom"] and len(registry) == 2
    assert "echo" in registry and "nope" not in registry
    assert [tool.name for tool in registry] == ["echo", "boom"]
    assert registry["echo"] is ECHO and registry["echo"](text="a") == "A"
    with pytest.raises(KeyError, match="available tools: echo, boom"):
        registry["nope"]
    with pytest.raises(ValueError, match="already registered"):
        registry.register(ECHO)
    with pytest.raises(TypeError, match="takes a Tool"):
        registry.register(_echo)  # type: ignore[arg-type]
    assert registry.subset("boom").names() == ["boom"] and registry.names() == ["echo", "boom"]
    with pytest.raises(ValueError, match="unknown tool"):
        registry.subset("nope")


def test_tool_checks_its_fields() -> None:
    """A Tool refuses a bad name, schema or function at once."""
    with pytest.raises(ValueError, match="identifier"):
        Tool("my tool", "d", {"type": "object"}, _echo)
    with pytest.raises(TypeError, match="JSON schema"):
        Tool("t", "d", {"text": "string"}, _echo)
    with pytest.raises(TypeError, match="callable"):
        Tool("t", "d", {"type": "object"}, "not a function")  # type: ignore[arg-type]


def test_schemas_are_openai_tools_entries() -> None:
    """Each schema is {"type": "function", "function": {name, description, parameters}}."""
    for entry, tool in zip(world_tools().schemas(), world_tools()):
        assert entry == {"type": "function", "function": {
            "name": tool.name, "description": tool.description, "parameters": tool.parameters}}
        assert set(tool.parameters["required"]) <= set(tool.parameters["properties"])


@pytest.mark.parametrize(("name", "action_input", "expected"), [
    ("echo", {"text": "hi"}, "HI"),
    ("echo", {"input": "hi"}, "HI"),  # a bare-string Action Input goes to the only parameter
    ("nope", {}, "Error: unknown tool 'nope'. Available tools: echo, boom"),
    (None, {}, "Error: unknown tool None. Available tools: echo, boom"),
    ("echo", {}, 'Error: echo() needs {"text": ...}: missing \'text\''),
    ("echo", {"text": "a", "loud": True}, 'Error: echo() needs {"text": ...}: unexpected \'loud\''),
    ("boom", {"x": 1}, "Error: boom() needs {}: unexpected 'x'"),
    ("echo", "hi", 'Error: echo() needs a JSON object {"text": ...}, got str'),
    ("echo", ["hi"], 'Error: echo() needs a JSON object {"text": ...}, got list'),
    ("echo", {"text": 5}, "Error: 'int' object has no attribute 'upper'"),
    ("boom", {}, "Error: the service is down"),
    ("boom", None, "Error: the service is down"),
])
def test_run_never_raises(name: object, action_input: object, expected: str) -> None:
    """Every problem comes back as text the model can read: an error is information."""
    assert ToolRegistry([ECHO, BOOM]).run(name, action_input) == expected  # type: ignore[arg-type]


def test_run_turns_calculator_errors_into_text() -> None:
    """The calculator's ValueError becomes an observation, not an exception."""
    assert BASIC_TOOLS.run("calculator", {"expression": "(17 + 5) * 3"}) == "66"
    assert BASIC_TOOLS.run("calculator", {"expression": "1/0"}) == "Error: division by zero"
    assert BASIC_TOOLS.run("calculator", {"expression": "2025-03-14 + 50 days"}).startswith(
        "Error: expression contains illegal characters: 'days'")
    assert BASIC_TOOLS.run("calculator", {}) == 'Error: calculator() needs {"expression": ...}: missing \'expression\''
    assert BASIC_TOOLS.run("get_current_date", {}) == "2025-03-14"
    assert BASIC_TOOLS.run("Final Answer", {}).startswith("Error: unknown tool 'Final Answer'. Available tools: get_current_date, calculator")


# ---------------------------------------------------------------- tool descriptions and world tools

def test_tool_sets() -> None:
    """BASIC_TOOLS holds two tools; world_tools() adds six more, fresh on every call."""
    assert BASIC_TOOLS.names() == ["get_current_date", "calculator"]
    assert world_tools().names() == ["get_current_date", "calculator", "get_weather", "lookup_order",
                                     "query_orders", "search_docs", "get_calendar", "add_days"]
    assert world_tools() is not world_tools()
    assert world_tools(world.Clock("2025-06-01")).run("get_current_date", {}) == "2025-06-01"


@pytest.mark.parametrize("tool", list(world_tools()), ids=lambda tool: tool.name)
def test_descriptions_carry_an_example(tool: Tool) -> None:
    """Each description ends with an example whose keys are exactly the parameters."""
    example = json.loads(tool.description.split("Example:")[1])
    assert list(example) == tool.arguments == tool.required


KEYWORDS = {  # what the mock looks for, and what must stay out to avoid being mistaken for another tool
    "get_current_date": (("today", "current date"), ("days", "add", "offset", "order")),
    "calculator": (("arithmetic", "expression"), ("date", "today", "order")),
    "get_weather": (("weather",), ("today", "order", "days")),
    "lookup_order": (("order", "status", "look"), ("range", "between", "start_date", "days")),
    "query_orders": (("order", "range", "between", "start_date"), ("status", "look", " id", "days", "today")),
    "search_docs": (("search", "document"), ("order", "weather", "calendar", "event")),
    "get_calendar": (("calendar", "event", "appointment"), ("today", "order", "days", "add")),
    "add_days": (("days", "add", "date"), ("today", "order", "weather")),
}


@pytest.mark.parametrize("tool", list(world_tools()), ids=lambda tool: tool.name)
def test_descriptions_have_the_keywords_the_mock_reads(tool: Tool) -> None:
    """The mock recognises a tool by keywords; no description borrows another tool's keywords."""
    wanted, unwanted = KEYWORDS[tool.name]
    text = f"{tool.name} {tool.description}".lower()
    assert all(word in text for word in wanted), wanted
    assert not [word for word in unwanted + ("report", "email", "delete") if word in text]


def test_world_tools_return_the_world_formats() -> None:
    """The world tools hand back the world's text, unchanged."""
    run = world_tools().run
    assert run("get_weather", {"city": "Beijing", "date": "2025-03-15"}) == world.weather_text("Beijing", "2025-03-15")
    assert re.fullmatch(r"Beijing 2025-03-15: .+, -?\d+°C to -?\d+°C, wind .+",
                        run("get_weather", {"city": "Beijing", "date": "2025-03-15"}))
    assert run("get_weather", {"city": "Paris", "date": "2025-03-14"}) == "Error: no weather data for Paris on 2025-03-14"
    assert run("lookup_order", {"order_id": "A1002"}).startswith("Order A1002: shipped, 120.00 CNY")
    assert run("lookup_order", {"input": "A9999"}) == "Error: order A9999 not found"
    listing = run("query_orders", {"start_date": "2025-03-01", "end_date": "2025-03-07"})
    assert re.match(r"\d+ orders from 2025-03-01 to 2025-03-07", listing)
    assert listing == world.orders_text("2025-03-01", "2025-03-07")
    assert run("search_docs", {"query": "return policy"}).startswith("[doc-")
    assert run("get_calendar", {"date": "2025-03-16"}) == world.calendar_text("2025-03-16")
    assert run("add_days", {"date": "2025-03-14", "days": 50}) == "2025-05-03"
    assert run("add_days", {"date": "soon", "days": 1}).startswith("Error: date must be YYYY-MM-DD")


def test_every_public_function_names_its_lesson() -> None:
    """d2l-style links: each reference function says which lesson builds it."""
    names = ["get_current_date", "calculator", "add_days", "get_weather", "lookup_order", "query_orders",
             "search_docs", "get_calendar", "world_tools", "Tool", "ToolRegistry"]
    for name in names:
        assert "Built in lesson 01 (Tools)." in (getattr(tools, name).__doc__ or ""), name
