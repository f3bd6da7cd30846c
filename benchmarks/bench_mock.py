"""Benchmark the mock model: `import mockllm` time, and one `create()` against langchain-core's fake.

Run with the `bench` extra installed:  python benchmarks/bench_mock.py
Goals: `import mockllm` <= 50 ms; one `create()` on a 10-turn ReAct conversation <= 0.5 x the
time of `FakeListChatModel(responses=[...]).invoke(messages)` on the same messages.
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
REPEATS = 3000

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


def react_messages() -> list[dict]:
    """Return the 10-turn conversation: system prompt, question, 9 action/observation pairs."""
    question = "Question: should I travel to Beijing, Shanghai or Hangzhou tomorrow?"
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    for action, action_input, observation in STEPS:
        reply = f"Thought: I should use {action} next.\nAction: {action}\nAction Input: {action_input}"
        messages.append({"role": "assistant", "content": reply})
        messages.append({"role": "user", "content": f"Observation: {observation}"})
    return messages


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


def median_us(call: Callable[[], object], repeats: int = REPEATS) -> float:
    """Median wall time of one call, in microseconds, after a short warm-up."""
    for _ in range(50):
        call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


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


def main() -> int:
    """Print the measurements side by side with their goals; return 0 (1 without langchain-core)."""
    try:
        from langchain_core.language_models.fake_chat_models import FakeListChatModel
    except ImportError:
        print("langchain-core is missing: install the bench extra, e.g. pip install -e '.[bench]'")
        return 1
    imported = import_time_ms()
    verdict = "ok" if imported <= IMPORT_GOAL_MS else "OVER GOAL"
    goal = f"goal <= {IMPORT_GOAL_MS:.0f} ms"
    print(f"import mockllm          {imported:8.1f} ms   (median of 5; {goal}) {verdict}")
    messages = react_messages()
    fake = FakeListChatModel(responses=[ANSWER])
    timed = [(label, median_us(call)) for label, call in mock_calls(messages)]
    fake_us = median_us(lambda: fake.invoke(messages))
    for label, mock_us in timed:
        print(f"mockllm create()        {mock_us:8.1f} us   ({label}; {len(messages)} messages)")
    print(f"FakeListChatModel       {fake_us:8.1f} us   (.invoke on the same messages)")
    for label, mock_us in timed:
        ratio = mock_us / fake_us
        verdict = "ok" if ratio <= RATIO_GOAL else "OVER GOAL"
        print(f"ratio mock / fake       {ratio:8.2f} x    ({label}; goal <= {RATIO_GOAL}) {verdict}")
    print(f"(median of one call over {REPEATS} calls; token counts of repeated messages are memoised,")
    print(" as in an agent loop that resends its history)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
