"""Benchmark the mock model: `import mockllm` time, and `create()` against langchain-core's fake.

Run with the `bench` extra installed:  python benchmarks/bench_mock.py
Goals: `import mockllm` <= 50 ms; one `create()` <= 0.5 x the time of
`FakeListChatModel(responses=[...]).invoke(messages)` on the same messages, at 2, 10, 50 and 200
turns, both when the same messages are re-sent and in a live loop (each call brings two new
messages, the model's last reply and its observation, after a history read before).
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

IMPORT_GOAL_MS = 50.0
RATIO_GOAL = 0.5
LIVE_STEP_GOAL = 0.7
"""The live 2-turn step: the whole request is new text, so the mock's reading has no history to
reuse, while FakeListChatModel only replays a list."""
REPEATS = 3000
ROUNDS = 30
"""The calls are timed in ROUNDS interleaved rounds (REPEATS // ROUNDS calls of each contender per
round), so that a busy machine slows both sides alike and the ratio stays fair."""

SYSTEM = """You are a careful assistant that answers questions with tools.

Tools:
- get_current_date: returns today's date. Input: {}
- get_weather: the weather of a city on a date. Input: {"city": "<city>", "date": "YYYY-MM-DD"}
- calculator: evaluates an arithmetic expression. Input: {"expression": "<expression>"}
- search_docs: searches the company documents. Input: {"query": "<words>"}

Use exactly this format:
Thought: what you think
Action: one tool name
Action Input: a JSON object
Then wait for the Observation. Never write an Observation yourself. Only one action per reply.
When you know the answer:
Thought: I now know the final answer.
Final Answer: the answer
The final answer is not a tool. Stop when you have enough information."""

STEPS = [
    ("get_current_date", "{}", "2025-03-14"),
    ("get_weather", '{"city": "Beijing", "date": "2025-03-15"}',
     "Beijing 2025-03-15: Dust storm, 0°C to 9°C, wind NW 45 km/h, air quality poor (AQI 182)"),
    ("get_weather", '{"city": "Shanghai", "date": "2025-03-15"}',
     "Shanghai 2025-03-15: Light rain, 8°C to 13°C, wind E 15 km/h, air quality good (AQI 48)"),
    ("calculator", '{"expression": "9 - 0"}', "9"),
    ("calculator", '{"expression": "13 - 8"}', "5"),
    ("search_docs", '{"query": "travel policy bad weather"}',
     "[doc-07] Travel: postpone trips when the air quality index is above 150. (score 3)"),
    ("search_docs", '{"query": "remote work"}',
     "[doc-02] Remote work: allowed on days with official weather warnings. (score 2)"),
    ("get_weather", '{"city": "Hangzhou", "date": "2025-03-15"}',
     "Hangzhou 2025-03-15: Cloudy, 7°C to 14°C, wind NE 10 km/h, air quality moderate (AQI 76)"),
    ("calculator", '{"expression": "(9 + 13 + 14) / 3"}', "12.0"),
]
ANSWER = "Thought: I now know the final answer.\nFinal Answer: Postpone the Beijing trip; Shanghai is fine."


TURNS = (2, 10, 50, 200)
"""Conversation lengths timed: a conversation of T turns holds T - 1 action/observation pairs, so
the call timed is the model's T-th turn (2 T messages with the system prompt and the question)."""
QUESTION = "Question: should I travel to Beijing, Shanghai or Hangzhou tomorrow?"


def _pair(index: int, variant: int | None = None) -> list[dict]:
    """Action/observation pair number `index` (STEPS in turn); a `variant` makes its text new."""
    action, action_input, observation = STEPS[index % len(STEPS)]
    mark = "" if variant is None else f" (check {variant})"
    reply = f"Thought: I should use {action} next{mark}.\nAction: {action}\nAction Input: {action_input}"
    return [{"role": "assistant", "content": reply},
            {"role": "user", "content": f"Observation: {observation}{mark}"}]


def react_messages(turns: int = 10) -> list[dict]:
    """The conversation at the model's `turns`-th turn: system, question, turns - 1 pairs."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]
    for index in range(turns - 1):
        messages += _pair(index)
    return messages


def live_messages(turns: int, count: int) -> list[list[dict]]:
    """`count` conversations of `turns` turns sharing all but their last pair, which is new in each.

    Sent one after the other, each is a live loop's step: the history was read by the call
    before, the model's last reply and its observation were never seen.
    """
    head = react_messages(turns)[:-2]
    return [head + _pair(turns - 2, variant) for variant in range(count)]


def repeats_at(turns: int) -> int:
    """Calls timed per contender at a conversation length (fewer for the long ones)."""
    return max(300, min(REPEATS, REPEATS * 10 // turns // 10 * 10))


def import_time_ms() -> float:
    """Median over 5 fresh interpreters of `import mockllm` (cumulative, from -X importtime)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-X", "importtime", "-c", "import mockllm"]
    subprocess.run(command, env=env, capture_output=True, check=True)  # warm-up: bytecode caches
    times = []
    for _ in range(5):
        stderr = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stderr
        times.append(int(re.search(r"\|\s+(\d+) \| mockllm\n", stderr).group(1)) / 1000)
    return statistics.median(times)


def median_us(calls: list[Callable[[], object]], repeats: int = REPEATS,
              rounds: int = ROUNDS) -> list[float]:
    """Median wall time of one call of each contender, in microseconds, timed side by side.

    After a short warm-up, each round times `repeats // rounds` calls of every contender in
    turn; the median is taken over all `repeats` calls of each.
    """
    for call in calls:
        for _ in range(50):
            call()
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(rounds):
        for call, timed in zip(calls, times):
            for _ in range(repeats // rounds):
                start = time.perf_counter()
                call()
                timed.append(time.perf_counter() - start)
    return [statistics.median(timed) * 1e6 for timed in times]


def mock_calls(messages: list[dict]) -> list[tuple[str, Callable[[], object]]]:
    """Return labelled zero-argument `create()` calls: policy mode (if it runs) and scripted mode.

    Scripted mode skips reading the conversation and the persona, so it times the protocol layer
    alone (validation, stop, token counting, the response objects).
    """
    from mockllm import MockLLM

    options = {"model": "mock-react", "messages": messages, "temperature": 0, "stop": ["Observation:"]}
    scripted = MockLLM.from_script([ANSWER] * (REPEATS + 100))
    calls = [("scripted mode: protocol layer only", lambda: scripted.chat.completions.create(**options))]
    try:
        client = MockLLM(persona="diligent", seed=0)
        client.chat.completions.create(**options)
    except ImportError as error:
        print(f"note: policy mode unavailable ({error}); timing scripted mode only")
        return calls
    return [("policy mode, persona diligent", lambda: client.chat.completions.create(**options)), *calls]


def _verdict(ratio: float, goal: float = RATIO_GOAL) -> str:
    """'ok' or 'OVER GOAL' against `goal`."""
    return "ok" if ratio <= goal else "OVER GOAL"


def goal_of(turns: int, mode: str) -> float:
    """The ratio goal of one row: LIVE_STEP_GOAL for the live 2-turn step, RATIO_GOAL elsewhere."""
    return LIVE_STEP_GOAL if (turns, mode) == (2, "live") else RATIO_GOAL


def by_length(fake_model: object) -> list[tuple[int, str, float, float]]:
    """(turns, mode, mock us, fake us) for each length in TURNS, re-sent and live."""
    from mockllm import MockLLM

    options = {"model": "mock-react", "temperature": 0, "stop": ["Observation:"]}
    rows = []
    for turns in TURNS:
        repeats = repeats_at(turns)
        same = react_messages(turns)
        client = MockLLM(persona="diligent", seed=0)
        mock_us, fake_us = median_us(
            [lambda: client.chat.completions.create(messages=same, **options),
             lambda: fake_model.invoke(same)], repeats)
        rows.append((turns, "re-sent", mock_us, fake_us))
        fresh = iter(live_messages(turns, 2 * (repeats + 50)))   # warm-up and timed calls of both
        live = MockLLM(persona="diligent", seed=0)
        mock_us, fake_us = median_us(
            [lambda: live.chat.completions.create(messages=next(fresh), **options),
             lambda: fake_model.invoke(next(fresh))], repeats)
        rows.append((turns, "live", mock_us, fake_us))
    return rows


def main() -> int:
    """Print the measurements side by side with their goals; return 0 (1 without langchain-core)."""
    try:
        from langchain_core.language_models.fake_chat_models import FakeListChatModel
    except ImportError:
        print("langchain-core is missing: install the bench extra, e.g. pip install -e '.[bench]'")
        return 1
    imported = import_time_ms()
    goal = f"goal <= {IMPORT_GOAL_MS:.0f} ms"
    print(f"import mockllm          {imported:8.1f} ms   (median of 5; {goal}) "
          f"{'ok' if imported <= IMPORT_GOAL_MS else 'OVER GOAL'}")
    messages = react_messages()
    fake = FakeListChatModel(responses=[ANSWER])
    labelled = mock_calls(messages)
    *mock_times, fake_us = median_us([call for _, call in labelled] + [lambda: fake.invoke(messages)])
    for (label, _), mock_us in zip(labelled, mock_times):
        print(f"mockllm create()        {mock_us:8.1f} us   ({label}; {len(messages)} messages)")
        print(f"  ratio mock / fake     {mock_us / fake_us:8.2f} x    (FakeListChatModel.invoke "
              f"{fake_us:.1f} us; goal <= {RATIO_GOAL}) {_verdict(mock_us / fake_us)}")
    print()
    print("policy mode, persona diligent, against FakeListChatModel.invoke on the same messages:")
    print(f"{'turns':>5} {'messages':>8}  {'mode':<8} {'mock us':>9} {'fake us':>9} {'ratio':>6} {'goal':>5}")
    for turns, mode, mock_us, fake_us in by_length(fake):
        ratio, goal = mock_us / fake_us, goal_of(turns, mode)
        print(f"{turns:>5} {2 * turns:>8}  {mode:<8} {mock_us:>9.1f} {fake_us:>9.1f} {ratio:>6.2f}"
              f" {goal:>5.1f}  {_verdict(ratio, goal)}")
    print(f"(median of one call, timed side by side in {ROUNDS} interleaved rounds, {REPEATS} calls")
    print(" each up to 10 turns, fewer for longer conversations. re-sent: the same messages at")
    print(" every call, so what was read from them is remembered; live: each call brings the last")
    print(" reply and its observation as new text, after a history read by the call before.)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
