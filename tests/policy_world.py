"""A tiny test-only world for the brain's tests: tools returning the world's text formats.

Not mockllm.world: the policy must work from observations alone, so these tests feed it
hand-written observations (and, on purpose, wrong ones). `drive()` runs a whole trajectory.
"""
from __future__ import annotations

import ast
import datetime
import json
import re

from mockllm.brain.context import Move
from mockllm.brain.policy import decide
from mockllm.reading.conversation import read_conversation
from mockllm.reply.render import render_text, render_tool_calls

WEATHER = {
    ("Beijing", "2025-03-13"): "Sunny, 1°C to 13°C, wind NW 15 km/h, air quality good (AQI 40)",
    ("Beijing", "2025-03-14"): "Partly cloudy, 3°C to 15°C, wind N 10 km/h, air quality moderate (AQI 85)",
    ("Beijing", "2025-03-15"): "Dust storm, 0°C to 9°C, wind NW 45 km/h, air quality poor (AQI 182)",
    ("Beijing", "2025-03-16"): "Sunny, 2°C to 16°C, wind W 10 km/h, air quality good (AQI 35)",
    ("Shanghai", "2025-03-13"): "Light rain, 9°C to 14°C, wind E 15 km/h, air quality good (AQI 45)",
    ("Shanghai", "2025-03-14"): "Overcast, 10°C to 17°C, wind SE 12 km/h, air quality good (AQI 50)",
    ("Shanghai", "2025-03-15"): "Moderate rain, 11°C to 15°C, wind E 20 km/h, air quality good (AQI 30)",
    ("London", "2025-03-14"): "Light rain, 5°C to 11°C, wind W 25 km/h, air quality good (AQI 20)",
    ("London", "2025-03-15"): "Sunny intervals, 3°C to 12°C, wind W 15 km/h, air quality good (AQI 22)"}
ORDERS = [("A1001", "2025-03-10", "Books", "59.90", "paid"),
          ("A1002", "2025-03-08", "Books", "120.00", "shipped"),
          ("A1003", "2025-03-01", "Toys", "35.50", "cancelled"),
          ("A1004", "2025-03-12", "Electronics", "249.99", "shipped"),
          ("A1005", "2025-03-13", "Home", "15.00", "paid"),
          ("B2001", "2024-10-03", "Books", "45.00", "paid"),
          ("B2002", "2024-10-15", "Electronics", "899.00", "shipped"),
          ("B2003", "2024-10-21", "Toys", "35.50", "cancelled"),
          ("B2004", "2024-11-02", "Home", "120.00", "paid"),
          ("B2005", "2024-11-11", "Electronics", "1299.00", "shipped"),
          ("B2006", "2024-11-20", "Books", "30.00", "shipped"),
          ("B2007", "2024-12-05", "Toys", "88.00", "paid"),
          ("B2008", "2024-12-12", "Home", "60.50", "paid"),
          ("B2009", "2024-12-20", "Toys", "12.00", "shipped"),
          ("B2010", "2024-12-24", "Books", "25.00", "cancelled")]
DOCS = {"doc-07": "Returns: items can be returned within 30 days of delivery for a full refund.",
        "doc-03": "Shipping: orders ship within 2 business days; delivery takes 3-5 days.",
        "doc-34": "退货政策: 收货后30天内可以退货并全额退款。"}


def calc(expression: str) -> str:
    """The course calculator: numbers, + - * / and parentheses only."""
    if re.search(r"[^\d+\-*/(). ]|\*\*", expression) or not expression.strip():
        return "Error: expression contains illegal characters"
    def walk(n: ast.AST) -> float:
        if isinstance(n, ast.Constant):
            return float(n.value)
        if isinstance(n, ast.UnaryOp):
            return -walk(n.operand)
        a, b = walk(n.left), walk(n.right)
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b,
                ast.Div: a / b if b else float("nan")}[type(n.op)]
    value = round(walk(ast.parse(expression, mode="eval").body), 10)
    return str(int(value)) if value.is_integer() else str(value)


def orders_between(start: str, end: str) -> str:
    """The orders-range text format."""
    rows = [o for o in ORDERS if start <= o[1] <= end]
    if not rows:
        return f"0 orders from {start} to {end}."
    total = sum(float(o[3]) for o in rows)
    return "\n".join([f"{len(rows)} orders from {start} to {end} (total {total:.2f} CNY):"]
                     + [" | ".join(o[:1] + o[1:]) for o in rows])


def search(query: str) -> str:
    """Rank the documents by words shared with the query."""
    token = r"[a-z0-9]+|[\u4e00-\u9fff]"   # English words, single Chinese characters
    words = set(re.findall(token, query.lower()))
    scored = [(sum(any(w.startswith(q) for w in re.findall(token, t.lower())) for q in words), d, t)
              for d, t in DOCS.items()]
    hits = sorted((s for s in scored if s[0]), reverse=True)
    return "\n".join(f"[{d}] {t} (score {s})" for s, d, t in hits) or f'No documents match "{query}".'


def order_text(oid: str) -> str:
    """One order in the lookup format."""
    o = next((o for o in ORDERS if o[0] == oid), None)
    return (f"Order {oid}: {o[4]}, {o[3]} CNY, placed {o[1]}, product line {o[2]}" if o
            else f"Error: order {oid} not found")


WORLD = {
    "get_current_date": lambda a: "2025-03-14",
    "calculator": lambda a: calc(a.get("expression", "")),
    "get_weather": lambda a: (f"{a.get('city')} {a.get('date')}: {WEATHER[a.get('city'), a.get('date')]}"
                              if (a.get("city"), a.get("date")) in WEATHER
                              else f"Error: no weather data for {a.get('city')} on {a.get('date')}"),
    "lookup_order": lambda a: order_text(a.get("order_id", "")),
    "list_orders": lambda a: orders_between(a.get("start_date", ""), a.get("end_date", "")),
    "search_docs": lambda a: search(a.get("query", "")),
    "get_calendar": lambda a: ("2025-03-15: 07:30-08:30 Dentist (Dr. Chen); 12:30-13:30 Lunch"
                               if a.get("date") == "2025-03-15" else f"{a.get('date')}: no events."),
    "add_days": lambda a: str(datetime.date.fromisoformat(a["date"])
                              + datetime.timedelta(days=int(a["days"]))),
    "write_report": lambda a: f"Report '{a.get('title')}' saved ({len(a.get('body', ''))} characters).",
}
DESCRIPTIONS = {
    "get_current_date": "returns today's date. Input: {}",
    "calculator": "evaluates an arithmetic expression. Input: {\"expression\": \"<expression>\"}",
    "get_weather": "weather for a city on a date. Input: {\"city\": \"<city>\", \"date\": \"<YYYY-MM-DD>\"}",
    "lookup_order": "status of an order. Input: {\"order_id\": \"<id>\"}",
    "list_orders": "orders between two dates. Input: {\"start_date\": \"<d>\", \"end_date\": \"<d>\"}",
    "search_docs": "search the shop's documents. Input: {\"query\": \"<words>\"}",
    "get_calendar": "the user's calendar events on a date. Input: {\"date\": \"<YYYY-MM-DD>\"}",
    "add_days": "add days to a date. Input: {\"date\": \"<YYYY-MM-DD>\", \"days\": <n>}",
    "write_report": "write a report. Input: {\"title\": \"<t>\", \"body\": \"<text>\"}"}
BASIC = ("get_current_date", "calculator", "get_weather", "lookup_order")


def system_prompt(names: tuple[str, ...] = BASIC, extra: str = "") -> str:
    """A text-mode system prompt offering `names`."""
    tools = "\n".join(f"- {n}: {DESCRIPTIONS[n]}" for n in names)
    return (f"You are a helpful assistant.\n\nYou have access to the following tools:\n{tools}\n\n"
            "Use exactly this format:\nThought: ...\nAction: ...\nAction Input: ...\n" + extra)


def run_tool(world: dict, name: str, args: dict) -> str:
    """Run one tool of the test world, errors as text like the course's loop."""
    if name not in world:
        return f"Error: unknown tool {name}. Available tools: {', '.join(world)}"
    try:
        return world[name](args)
    except (KeyError, ValueError, TypeError) as exc:
        return f"Error: {exc}"


def drive(question: str, names: tuple[str, ...] = BASIC, *, guesses: bool = False,
          structured: bool = False, world: dict | None = None, extra: str = "",
          max_steps: int = 14) -> list[Move]:
    """Run a whole trajectory; return every move (the last one is the final answer)."""
    world = world or WORLD
    tools = [{"type": "function", "function": {"name": n, "description": DESCRIPTIONS[n],
                                               "parameters": {"type": "object", "properties": {
                                                   k: {"type": "string"} for k in re.findall(
                                                       r'"(\w+)":', DESCRIPTIONS[n])}}}}
             for n in names] if structured else None
    system = extra if structured else system_prompt(names, extra)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": f"Question: {question}"}]
    moves: list[Move] = []
    for i in range(max_steps):
        conv = read_conversation(messages, tools)
        move = decide(conv, guesses=guesses)
        assert move.family and move.rule.startswith(move.family + "/")
        moves.append(move)
        if structured:
            calls = render_tool_calls(move, f"call_{i}")
            messages.append({"role": "assistant", "content": None if calls else render_text(move, conv),
                             "tool_calls": list(calls) or None})
            if not calls:
                return moves
            args = json.loads(calls[0]["function"]["arguments"])
            messages.append({"role": "tool", "tool_call_id": f"call_{i}",
                             "content": run_tool(world, move.action, args)})
        else:
            messages.append({"role": "assistant", "content": render_text(move, conv)})
            if move.action is None:
                return moves
            observation = run_tool(world, move.action, move.action_input or {})
            messages.append({"role": "user", "content": f"Observation: {observation}"})
    raise AssertionError(f"no final answer after {max_steps} steps: {moves}")


def calls(moves: list[Move]) -> list[tuple[str, str]]:
    """(action, input json) of every tool call in a run."""
    return [(m.action, json.dumps(m.action_input, sort_keys=True)) for m in moves if m.action]


# The worked example of a system prompt (the one the course's prompt uses too).
EXAMPLE = """Here is an example:

Question: What is 45 * 3 - 10?
Thought: I should compute this with the calculator.
Action: calculator
Action Input: {"expression": "45 * 3 - 10"}
Observation: 125
Thought: I now know the final answer
Final Answer: 45 * 3 - 10 = 125
"""
