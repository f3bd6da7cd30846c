"""Reading a request and deciding the reply take linear time, whatever the text holds.

Each hostile pattern (long runs of spaces, digits, brackets, field lines, repeated phrases...) is
put in each slot of a request (system prompt, question, observation, earlier reply, tool-call
arguments, tool description, a whole prompt in one user message) at growing sizes. The test
asserts growth, not wall time: sixteen times the text may cost at most 32 times the time, above
a small floor that absorbs timer noise. (`make bench` measures speed; this only catches
quadratic or worse behaviour, such as regex backtracking or re-reading the history.)

`make test` grows each text to 64 KB, where a quadratic reader already costs 256 times more per
step (the planted one below is caught at 32 KB), and puts each pattern in three of the slots, in
turn, so that every slot meets about a third of the patterns; `make test-long`
(GROWTH_PROFILE=long) puts every pattern in every slot and adds the step to 1 MB.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable

import pytest

from mockllm.reading.conversation import read_conversation
from mockllm.reply.respond import respond
from policy_world import EXAMPLE, system_prompt
from timing import best_seconds

LONG = os.environ.get("GROWTH_PROFILE") == "long"
SIZES = (256, 4_096, 65_536) + ((1_048_576,) if LONG else ())
"""Characters, from small (a cubic pattern fails fast) to 64 KB, or 1 MB in `make test-long`."""
GROWTH = 32.0      # time(16 n) <= GROWTH * time(n) + FLOOR: linear is 16, quadratic 256
FLOOR = 0.010      # seconds


def _repeat(unit: str, head: str = "", tail: str = "") -> Callable[[int], str]:
    """A payload of about n characters: `unit` repeated between `head` and `tail`."""
    return lambda n: head + unit * max(1, n // len(unit)) + tail


PATTERNS: dict[str, Callable[[int], str]] = {
    "spaces in a weather line": _repeat(" ", "Beijing", "sunny"),
    "tabs and spaces": _repeat(" \t", "x", "x"),
    "'last ' (a memory line)": _repeat("last ", "## Memory\n"),
    "'one of ['": _repeat("one of ["),
    "blank lines after an example": _repeat("\n", EXAMPLE),
    "digits": _repeat("1", "What is ", " + 1?"),
    "digits of an orders count": _repeat("1", "1 orders from 2025-03-01 to 2025-03-07 (total "),
    "digits after a letter": _repeat("1", "A"),
    "nested brackets": _repeat("[", '{"a": ', "}"),
    "open braces": _repeat("{"),
    "open parentheses": _repeat("("),
    "colons": _repeat(":"),
    "stars": _repeat("*"),
    "pipes": _repeat("A1 | "),
    "hashes": _repeat("#"),
    "observation lines": _repeat("Observation: x\n"),
    "action lines": _repeat("Action: x\n"),
    "question fields": _repeat("Question: "),
    "thought fields": _repeat("Thought:\n"),
    "tool lines": _repeat("- a: b\n", "Tools:\n"),
    "tools headers": _repeat("Tools:\n"),
    "json tool specs": _repeat('{"name": "x", "description": "y", "parameters": {"properties": {'),
    "quoted keys": _repeat('"a": '),
    "words": _repeat("weather orders today last week "),
    "cjk": _repeat("天气订单上周"),
    "chinese numerals": _repeat("一", "", "天后"),
    "'in' before days": _repeat("in ", "", "days"),
    "sums": _repeat("2 + "),
    "order ids": _repeat("order A1001 "),
    "available tools": _repeat(" ", "Error: unknown tool. Available tools:"),
    "scores": _repeat("(score", "[doc-01] "),
    "temperatures": _repeat("1 ", "Sunny, ", "°C"),
    "dates": _repeat("2025-03-14 "),
    "no ... data": _repeat("no "),
    "dashes": _repeat("- "),
}

TOOLS = ("get_current_date", "calculator", "get_weather", "lookup_order", "list_orders",
         "search_docs", "get_calendar")
SYSTEM = system_prompt(TOOLS)


def _ask(question: str, *turns: tuple[str, str]) -> list[dict]:
    """System prompt, question, then (reply, observation) pairs."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Question: {question}"}]
    for reply, observation in turns:
        messages += [{"role": "assistant", "content": reply},
                     {"role": "user", "content": f"Observation: {observation}"}]
    return messages


def _call(name: str, args: dict) -> str:
    """A reply calling a tool."""
    return f"Thought: t\nAction: {name}\nAction Input: {json.dumps(args)}"


STRUCTURED = [{"type": "function", "function": {
    "name": "get_weather", "description": "weather for a city on a date",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                    "date": {"type": "string"}}}}}]


def _structured(arguments: str, description: str = "weather for a city on a date") -> tuple:
    """A structured request whose one earlier call has these arguments (and tool description)."""
    tools = [{**STRUCTURED[0], "function": {**STRUCTURED[0]["function"], "description": description}}]
    return ([{"role": "user", "content": "Will it rain in Beijing on 2025-03-15?"},
             {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
                                                                   "function": {"name": "get_weather",
                                                                                "arguments": arguments}}]},
             {"role": "tool", "tool_call_id": "c1", "content": "Sunny"}], tools)


SLOTS: dict[str, Callable[[str], tuple[list, list | None]]] = {
    "system prompt": lambda p: ([{"role": "system", "content": SYSTEM + "\n" + p},
                                 {"role": "user", "content": "Question: What is the return policy?"}], None),
    "question": lambda p: (_ask(p), None),
    "weather observation": lambda p: (_ask("Will it rain in Beijing on 2025-03-15?", (
        _call("get_weather", {"city": "Beijing", "date": "2025-03-15"}), p)), None),
    "order observation": lambda p: (_ask("What is the status of order A1002?", (
        _call("lookup_order", {"order_id": "A1002"}), p)), None),
    "orders observation": lambda p: (_ask("How many orders between 2025-03-01 and 2025-03-07?", (
        _call("list_orders", {"start_date": "2025-03-01", "end_date": "2025-03-07"}), p)), None),
    "search observation": lambda p: (_ask("What is the return policy?", (
        _call("search_docs", {"query": "return policy"}), p)), None),
    "earlier reply": lambda p: (_ask("What is (17 + 5) * 3?", (p, "66")), None),
    "earlier action input": lambda p: (_ask("What is (17 + 5) * 3?", (
        "Thought: t\nAction: calculator\nAction Input: " + p, "66")), None),
    "tool-call arguments": lambda p: _structured(p),
    "tool description": lambda p: _structured('{"city": "Beijing", "date": "2025-03-15"}', p),
    "one user message": lambda p: ([{"role": "user", "content": SYSTEM + "\n" + p
                                     + "\n\nQuestion: What is (17 + 5) * 3?\nThought:"}], None),
}


def _clear_caches() -> None:
    """Empty the mock's memos, so that each timing reads the request afresh."""
    for name, module in list(sys.modules.items()):
        if name.startswith("mockllm."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _best_of_two(messages: list, tools: list | None = None) -> float:
    """The best of two timings of reading and answering the request, with cold memos."""
    return best_seconds(lambda: respond(read_conversation(messages, tools), persona="diligent", seed=0),
                        repeats=2, setup=_clear_caches)


def _seconds(slot: str, pattern: str, n: int) -> float:
    """The best of two timings of the request with `pattern` of size `n` in `slot`."""
    return _best_of_two(*SLOTS[slot](PATTERNS[pattern](n)))


SLOTS_PER_PATTERN = 3
"""Slots each pattern is put in by `make test` (all of them in `make test-long`)."""


def matrix() -> list[tuple[str, str]]:
    """(slot, pattern) pairs: every pair when LONG, else pattern i in slots i, i+1 and i+2 (in turn)."""
    slots = list(SLOTS)
    return [(slot, pattern) for index, pattern in enumerate(PATTERNS) for slot_index, slot in enumerate(slots)
            if LONG or (slot_index - index) % len(slots) < SLOTS_PER_PATTERN]


def test_the_quick_matrix_covers_every_slot_and_pattern() -> None:
    pairs = matrix()
    assert {slot for slot, _ in pairs} == set(SLOTS) and {pattern for _, pattern in pairs} == set(PATTERNS)
    assert len(pairs) == (len(SLOTS) * len(PATTERNS) if LONG else SLOTS_PER_PATTERN * len(PATTERNS))


@pytest.mark.parametrize(("slot", "pattern"), matrix())
def test_reading_time_grows_linearly(slot: str, pattern: str) -> None:
    _seconds(slot, pattern, 64)  # warm up: compiled patterns, imports
    t_small = _seconds(slot, pattern, SIZES[0])
    for small, big in zip(SIZES, SIZES[1:]):
        t_big = _seconds(slot, pattern, big)
        assert t_big <= GROWTH * t_small + FLOOR, (
            f"{pattern!r} in the {slot}: {small} chars took {t_small * 1e3:.1f} ms, "
            f"{big} chars {t_big * 1e3:.1f} ms")
        t_small = t_big


def test_many_small_messages_cost_linear_time() -> None:
    def seconds(pairs: int) -> float:
        messages = _ask("What is 2 + 2?", *[(_call("calculator", {"expression": f"{i} + 1"}), str(i + 1))
                                             for i in range(pairs)])
        return _best_of_two(messages)

    seconds(64)
    times = [seconds(n) for n in (500, 8000)]
    assert times[1] <= GROWTH * times[0] + FLOOR, times


def _tool_with(description: str) -> list[dict]:
    """The weather tool whose city parameter has this description."""
    function = STRUCTURED[0]["function"]
    parameters = {**function["parameters"], "properties": {
        "city": {"type": "string", "description": description}, "date": {"type": "string"}}}
    return [{"type": "function", "function": {**function, "parameters": parameters}}]


WEATHER_QUESTION = [{"role": "user", "content": "Will it rain in Beijing on 2025-03-15?"}]
REQUEST_SLOTS: dict[str, Callable[[str], dict]] = {
    "a stop sequence": lambda p: {"messages": _ask("What is (17 + 5) * 3?"), "stop": ["Observation:", p]},
    "a parameter's description": lambda p: {"messages": WEATHER_QUESTION, "tools": _tool_with(p)},
    "a JSON schema": lambda p: {"messages": WEATHER_QUESTION, "response_format": {
        "type": "json_schema", "json_schema": {"name": "answer", "schema": {"type": "object", "description": p}}}},
    "a content part": lambda p: {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Question: What is (17 + 5) * 3?"}, {"type": "text", "text": p}]}]},
    "a tool message": lambda p: {"messages": _structured("{}")[0][:2] + [
        {"role": "tool", "tool_call_id": "c1", "content": p}], "tools": STRUCTURED},
    "the user field": lambda p: {"messages": _ask("What is (17 + 5) * 3?"), "user": p},
}
"""Slots of a request that the reading slots above do not fill: options, schemas, content parts."""
REQUEST_PATTERNS = {name: PATTERNS[name] for name in ("spaces in a weather line", "digits", "open braces",
                                                      "action lines")}


@pytest.mark.parametrize("pattern", list(REQUEST_PATTERNS))
@pytest.mark.parametrize("slot", list(REQUEST_SLOTS))
def test_a_whole_request_takes_linear_time(slot: str, pattern: str) -> None:
    from mockllm import MockLLM

    create = MockLLM(persona="diligent").chat.completions.create

    def seconds(n: int) -> float:
        request = REQUEST_SLOTS[slot](REQUEST_PATTERNS[pattern](n))
        return best_seconds(lambda: create(model="mock-react", **request), repeats=2, setup=_clear_caches)

    seconds(64)
    small, big = seconds(SIZES[-2]), seconds(SIZES[-1])
    assert big <= GROWTH * small + FLOOR, f"{pattern!r} in {slot}: {small * 1e3:.1f} ms, then {big * 1e3:.1f} ms"


def test_the_growth_rule_refuses_a_planted_quadratic_reader() -> None:
    """The same measure and bound, on a reader that rescans the text before each character: it
    must fail, or the tests above would prove nothing (CPU time, so a busy machine cannot hide it)."""
    def quadratic(text: str) -> int:
        return sum(text.count("\n", 0, i) for i in range(len(text)))

    def linear(text: str) -> int:
        return sum(1 for char in text if char == "\n")

    small, big = "a" * 2_048, "a" * 32_768  # 16 times longer: linear 16x, this one 256x
    for reader, grows in ((quadratic, True), (linear, False)):
        reader(small)
        t_small, t_big = (best_seconds(lambda text=text: reader(text), repeats=2) for text in (small, big))
        assert (t_big > GROWTH * t_small + FLOOR) is grows, (reader.__name__, t_small, t_big)
