"""Benchmark the mock behind HTTP: latency in process and over loopback, then a bounded load test.

Run with the test extra installed:  python benchmarks/bench_server.py
Goals: a request through the server (httpx2, keep-alive, loopback) about 2 ms or less; through
`openai_client()` (the SDK in process) within 0.3 ms of a bare `MockLLM.create()`. The load test
sends LOAD_REQUESTS requests from CLIENTS concurrent clients, streaming and not, with malformed
ones mixed in, and checks: no 5xx, every bad request answered with its 4xx, identical requests
answered with identical bytes. Only 127.0.0.1 is contacted; every loop is bounded.
"""
from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx2  # noqa: E402
import openai  # noqa: E402

from mockllm import MockLLM, openai_client  # noqa: E402
from mockllm.serve.core import MAX_BODY, Service  # noqa: E402
from mockllm.serve.sdk import BASE_URL  # noqa: E402
from mockllm.serve.sessions import Sessions  # noqa: E402
from mockllm.serve.spawn import ServerProcess  # noqa: E402
from mockllm.serve.transport import mock_transport  # noqa: E402
from solutions.prompt import build_system_prompt  # noqa: E402
from solutions.tools import BASIC_TOOLS  # noqa: E402

SERVER_GOAL_MS = 2.0
IN_PROCESS_GOAL_MS = 0.3
NAGLE_MS = 40.0
"""A server that waits for the client's delayed ACK (Nagle) answers in about 40 ms, not 1 ms."""
ROUNDS, PER_ROUND = 20, 25
LOAD_REQUESTS, CLIENTS, LOAD_DEADLINE_S = 2000, 8, 300.0
QUESTIONS = ["What is today's date?", "What is (17 + 5) * 3?",
             "What is today's date, and what date is it 50 days from now?",
             "What is the weather in Beijing on 2025-03-15?"]
SYSTEM = build_system_prompt(BASIC_TOOLS)
BARE, CORE = "bare MockLLM.create()", "core: JSON in, create(), JSON out"
TRANSPORT, IN_PROCESS = "httpx2.Client on the transport", "openai_client() in process"
SERVER = "server, httpx2 keep-alive"


def body(question: str, model: str = "mock-react", **extra: object) -> dict:
    """A lesson-04 request: the course's system prompt and one question."""
    return {"model": model, "messages": [{"role": "system", "content": SYSTEM},
                                         {"role": "user", "content": f"Question: {question}"}],
            **extra}


def median_ms(samples: list[float]) -> float:
    """The median of per-call times, in milliseconds."""
    return statistics.median(samples) * 1000


def latency(url: str) -> dict[str, float]:
    """Median time of one request by each path, measured in interleaved rounds."""
    request = body(QUESTIONS[2])
    raw = json.dumps(request).encode()
    bare, sdk, service = MockLLM(), openai_client(), Service(Sessions({"persona": "diligent"}))
    local = httpx2.Client(transport=mock_transport(service), base_url=BASE_URL)
    remote_sdk = openai.OpenAI(base_url=url, api_key="any", max_retries=0)
    http = httpx2.Client(base_url=url, headers={"content-type": "application/json"})
    paths = {
        BARE: lambda: bare.chat.completions.create(**request),
        CORE: lambda: service.handle("POST", "/v1/chat/completions", {}, raw),
        TRANSPORT: lambda: local.post("/chat/completions", content=raw),
        IN_PROCESS: lambda: sdk.chat.completions.create(**request),
        SERVER: lambda: http.post("/chat/completions", content=raw),
        "server, openai SDK": lambda: remote_sdk.chat.completions.create(**request),
    }
    times: dict[str, list[float]] = defaultdict(list)
    for name, call in paths.items():  # warm up: imports, connections, caches
        call()
    for _ in range(ROUNDS):
        for name, call in paths.items():
            for _ in range(PER_ROUND):
                start = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - start)
    http.close()
    return {name: median_ms(samples) for name, samples in times.items()}


def load_plan() -> list[tuple[str, str, bytes, int]]:
    """LOAD_REQUESTS requests (method, path, body, expected status), the same plan every run."""
    models = ("mock-react", "mock-react:sloppy")
    good = [json.dumps(body(q, model)).encode() for q in QUESTIONS for model in models]
    streamed = [json.dumps(body(q, stream=True)).encode() for q in QUESTIONS]
    chat = "/v1/chat/completions"
    bad = [("POST", chat, b'{"model": "mock-react", "messages": [', 400),
           ("POST", chat, json.dumps(body(QUESTIONS[0], temperature=5)).encode(), 400),
           ("POST", chat, json.dumps({"model": "mock-react"}).encode(), 400),
           ("POST", chat, json.dumps(body(QUESTIONS[0], "mock-react:nobody")).encode(), 404),
           ("POST", "/v1/nowhere", b"{}", 404),
           ("GET", chat, b"", 405)]
    plan = []
    for index in range(LOAD_REQUESTS):
        if index % 500 == 499:
            plan.append(("POST", chat, b" " * (MAX_BODY + 1), 413))
        elif index % 8 == 7:
            plan.append(bad[index // 8 % len(bad)])
        elif index % 4 == 3:
            plan.append(("POST", chat, streamed[index % len(streamed)], 200))
        else:
            plan.append(("POST", chat, good[index % len(good)], 200))
    return plan


def load_test(url: str) -> dict[str, object]:
    """Send the plan from CLIENTS threads, each with its own keep-alive connection."""
    local = threading.local()
    deadline = time.monotonic() + LOAD_DEADLINE_S

    def send(item: tuple[str, str, bytes, int]) -> tuple[tuple, int, bytes]:
        if time.monotonic() > deadline:
            return item, -1, b""
        if not hasattr(local, "client"):
            local.client = httpx2.Client(base_url=url.removesuffix("/v1"), timeout=30)
        method, path, content, _ = item
        response = local.client.request(method, path, content=content)
        return item, response.status_code, response.content

    start = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(send, load_plan()))
    elapsed = time.perf_counter() - start
    answers: dict[tuple, set[bytes]] = defaultdict(set)
    for (method, path, content, _), status, answer in results:
        answers[(method, path, content)].add(answer)
    return {
        "requests": len(results), "seconds": elapsed,
        "server errors (5xx)": sum(status >= 500 for _, status, _ in results),
        "not sent (deadline)": sum(status == -1 for _, status, _ in results),
        "wrong status": sum(status != item[3] for item, status, _ in results),
        "bad requests answered with their 4xx": sum(item[3] >= 400 and status == item[3]
                                                    for item, status, _ in results),
        "bad requests": sum(item[3] >= 400 for item, _, _ in results),
        "streamed": sum(b'"stream": true' in item[2] for item, _, _ in results),
        "distinct requests": len(answers),
        "distinct requests with differing bytes": sum(len(bodies) > 1 for bodies in answers.values()),
    }


def report(medians: dict[str, float], load: dict[str, object]) -> bool:
    """Print the figures, each goal marked ok or OVER; return False if the load test found a fault."""
    bare = medians[BARE]
    print("median latency of one lesson-04 request (ms)")
    for name, value in medians.items():
        print(f"  {name:<36} {value:7.3f}   x{value / bare:6.2f} of bare   +{value - bare:6.3f}")
    mock_part, sdk_part = medians[CORE] - bare, medians[IN_PROCESS] - medians[CORE]
    print(f"  of the in-process overhead, the mock's core adds {mock_part:.3f} ms; httpx2 and the "
          f"openai SDK themselves add {sdk_part:.3f} ms (they cost the same against the real API)")
    overhead, server = medians[IN_PROCESS] - bare, medians[SERVER]
    goals = {
        f"openai_client() within {IN_PROCESS_GOAL_MS} ms of bare (+{overhead:.3f} ms)":
            overhead <= IN_PROCESS_GOAL_MS,
        f"the mock's own part within {IN_PROCESS_GOAL_MS} ms of bare (+{mock_part:.3f} ms)":
            mock_part <= IN_PROCESS_GOAL_MS,
        f"server about {SERVER_GOAL_MS} ms or less ({server:.3f} ms)": server <= SERVER_GOAL_MS,
        f"no Nagle delay (server {server:.3f} ms, a delayed ACK costs {NAGLE_MS:.0f} ms)":
            server < NAGLE_MS / 4,
    }
    print(f"load test: {load['requests']} requests from {CLIENTS} clients "
          f"in {load['seconds']:.1f} s ({load['requests'] / load['seconds']:.0f} requests/s)")
    for name, value in load.items():
        if name not in ("requests", "seconds"):
            print(f"  {name:<42} {value}")
    faults = {
        "0 server errors, every request sent": (load["server errors (5xx)"] == 0
                                                and load["not sent (deadline)"] == 0),
        "every request answered with its status": load["wrong status"] == 0,
        "identical requests, identical bytes": load["distinct requests with differing bytes"] == 0,
    }
    for name, ok in {**goals, **faults}.items():
        print(f"  {'ok  ' if ok else 'OVER' if name in goals else 'FAIL'} {name}")
    return all(faults.values())


def main() -> int:
    """Start a server on a free loopback port, measure, stop it; exit 1 if the server misbehaved."""
    with ServerProcess() as server:
        medians = latency(server.url)
        load = load_test(server.url)
    print(f"server stopped with exit code {server.returncode}")
    ok = report(medians, load) and server.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
