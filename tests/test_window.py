"""Lesson 13's reference code: solutions/window.py and solutions/caching.py."""
from __future__ import annotations

import pytest

from mockllm import MockLLM
from solutions.caching import CACHE_PRICES, DetailMeter, Details, cost_with_cache, details_of
from solutions.tools import Tool, ToolRegistry, world_tools
from solutions.window import ResultStore, cutting_tools, estimate_prompt_tokens, fit_to_window, truncate_middle

QUESTION = {"role": "user", "content": "Question: What is (17 + 5) * 3?"}


def test_the_estimate_is_the_mocks_prompt_tokens() -> None:
    for messages in ([QUESTION], [{"role": "system", "content": "规则：" * 50}, QUESTION],
                     [{"role": "system", "content": "You are terse."}, QUESTION,
                      {"role": "assistant", "content": "Thought: sum.\nAction: calculator"},
                      {"role": "user", "content": "Observation: 66\n\n  spaced   out  "}]):
        usage = MockLLM().chat.completions.create(model="mock-react", messages=messages).usage
        assert estimate_prompt_tokens(messages) == usage.prompt_tokens


def test_fit_to_window_keeps_the_opening_and_the_last_step_and_the_input() -> None:
    steps = [[{"role": "assistant", "content": f"step {n} " + "why " * 50},
              {"role": "user", "content": "Observation: " + "row " * 100}] for n in range(5)]
    history = [{"role": "system", "content": "rules"}, QUESTION, *[m for s in steps for m in s]]
    kept = list(history)
    fitted = fit_to_window(history, estimate_prompt_tokens(history[:2] + steps[-1]) + 7, 7)
    assert fitted == history[:2] + steps[-1] and history == kept and fitted is not history
    assert fit_to_window(history, 10**6, 0) == history
    with pytest.raises(ValueError, match="window"):
        fit_to_window(history, estimate_prompt_tokens(history[:2] + steps[-1]) - 1, 0)
    for window, reserve in ((0, 0), (True, 0), (100, -1), (100, 1.5)):
        with pytest.raises(ValueError):
            fit_to_window(history, window, reserve)
    with pytest.raises(ValueError, match="user message"):
        fit_to_window([{"role": "system", "content": "rules"}], 100, 0)


def test_fit_to_window_is_linear_in_the_steps() -> None:
    from tests.timing import best_seconds

    def history(n: int) -> list[dict]:
        return [QUESTION, *[{"role": "assistant" if i % 2 == 0 else "user", "content": f"m{i} word"}
                            for i in range(2 * n)]]
    small, big = history(2000), history(32000)
    t_small = best_seconds(lambda: fit_to_window(small, 40, 0), repeats=3)
    t_big = best_seconds(lambda: fit_to_window(big, 40, 0), repeats=3)
    assert t_big <= 32 * t_small + 0.05


def test_truncations_keep_the_end() -> None:
    text = "".join(f"line {n}\n" for n in range(400)) + "TOTAL 66"
    cut = truncate_middle(text, 200)
    assert cut.startswith(text[:100]) and cut.endswith(text[-100:]) and "left out here" in cut
    assert truncate_middle("short", 200) == "short"
    store = ResultStore()
    shown = store.keep(text, 200)
    assert shown.endswith("stored as result-1]") and "TOTAL 66" in shown and store.results["result-1"] == text
    assert store.keep("short", 200) == "short" and len(store.results) == 1


def test_a_cutting_copy_of_the_tools_keeps_every_field_but_the_function() -> None:
    from dataclasses import fields

    wipe = Tool("wipe_disk", "Erase a disk. Example: {}", {"type": "object", "properties": {}},
                lambda: "erased " * 100, dangerous=True)
    tools = ToolRegistry([*world_tools(), wipe])
    cut = cutting_tools(tools, lambda text: text[:10])
    assert [tool.name for tool in cut] == [tool.name for tool in tools]
    for before, after in zip(tools, cut):
        assert all(getattr(after, f.name) == getattr(before, f.name) for f in fields(Tool) if f.name != "function")
    assert cut["wipe_disk"].dangerous and cut["wipe_disk"].function() == "erased era"
    assert ResultStore().tools(tools, 50)["wipe_disk"].dangerous


def test_the_meter_counts_cached_reasoning_and_streamed_tokens() -> None:
    meter = DetailMeter(MockLLM())
    meter.chat.completions.create(model="mock-react", messages=[QUESTION])
    chunks = list(meter.chat.completions.create(model="mock-reasoning", messages=[QUESTION], stream=True))
    assert chunks[-1].usage is not None and len(meter.calls) == len(meter.details) == 2
    assert meter.reasoning_tokens == meter.details[1].reasoning_tokens > 0
    assert meter.total_tokens == sum(d.prompt_tokens + d.completion_tokens for d in meter.details)
    assert details_of(object()) == Details()
    calls = [Details(prompt_tokens=2000, cached_tokens=1024, completion_tokens=100)]
    price = CACHE_PRICES["large model"]
    assert cost_with_cache(calls, price) == pytest.approx((976 * 2.5 + 1024 * 0.25 + 100 * 10) / 1e6)


def test_what_is_no_history_or_no_limit_is_refused_with_a_clear_error() -> None:
    from solutions.window import fit_to_window, truncate_middle

    for messages in ("Question: hi", [1, 2], ({"role": "user", "content": "hi"},)):
        with pytest.raises(TypeError, match="list of message dicts"):
            fit_to_window(messages, 100)
    for limit in (0, -5, 2.5, True, "80"):
        with pytest.raises(ValueError, match="limit must be an int"):
            truncate_middle("abc" * 10, limit)
