"""Benchmark the mock behind HTTP: latency in process and over loopback, then a bounded load test.

Run with the test extra installed:  python benchmarks/bench_server.py
Goals: a request through the server (httpx2, keep-alive, loopback) about 2 ms or less; through
`openai_client()` (the SDK in process) within 0.3 ms of a bare `MockLLM.create()`. The load test
sends LOAD_REQUESTS requests from 8, then 64 concurrent clients, streaming and not, with malformed
ones mixed in, prints each request's p50/p99 latency, and checks: no 5xx, every bad request
answered with its 4xx, identical requests answered with identical bytes. Then a small request's
latency alone and beside a concurrent large one (LARGE_BYTES of messages), with the ratio of the
means (goal: within 2x; the mean, because the few small requests held up show in it, not in the
median). The figures are printed, not gated. Only 127.0.0.1 is contacted; every loop is bounded.
"""
from __future__ import annotations

import http.client
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
LOAD_REQUESTS, LOAD_CLIENTS, LOAD_DEADLINE_S = 2000, (8, 64), 300.0
LARGE_BYTES, SMALL_SAMPLES, BESIDE_GOAL = 7_500_000, 60, 2.0
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


def percentile_ms(samples: list[float], share: float) -> float:
    """The `share` quantile (0.5, 0.99) of per-request times, in milliseconds."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def load_test(url: str, clients: int) -> dict[str, object]:
    """Send the plan from `clients` threads, each with its own keep-alive connection."""
    local = threading.local()
    deadline = time.monotonic() + LOAD_DEADLINE_S
    times: list[float] = []

    def send(item: tuple[str, str, bytes, int]) -> tuple[tuple, int, bytes]:
        if time.monotonic() > deadline:
            return item, -1, b""
        if not hasattr(local, "client"):
            local.client = httpx2.Client(base_url=url.removesuffix("/v1"), timeout=60)
        method, path, content, _ = item
        start = time.perf_counter()
        response = local.client.request(method, path, content=content)
        times.append(time.perf_counter() - start)
        return item, response.status_code, response.content

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(send, load_plan()))
    elapsed = time.perf_counter() - start
    answers: dict[tuple, set[bytes]] = defaultdict(set)
    for (method, path, content, _), status, answer in results:
        answers[(method, path, content)].add(answer)
    return {
        "clients": clients, "requests": len(results), "seconds": elapsed,
        "p50 ms": round(percentile_ms(times, 0.5), 2), "p99 ms": round(percentile_ms(times, 0.99), 2),
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


def large_body(size: int = LARGE_BYTES, question: str = "What is the weather in Beijing? #0000") -> bytes:
    """A request of about `size` bytes: a long conversation, on a question of its own
    (tests/test_server_load.py uses it too)."""
    filler = "lorem ipsum dolor sit amet " * 40
    messages = [{"role": "user", "content": f"Question: {question}"}]
    while len(messages) * (len(filler) + 50) < size:
        step = len(messages) // 2
        messages += [{"role": "assistant", "content": f"Thought: step {step} {filler}"},
                     {"role": "user", "content": f"Observation: {step} {filler}"}]
    return json.dumps({"model": "mock-react", "messages": messages}).encode()


def beside_large(url: str) -> dict[str, float]:
    """Median latency of a small request alone, then of one sent while a large one is in flight:
    sent whole and not yet answered (each large one is sent again as soon as it is answered)."""
    small = json.dumps(body(QUESTIONS[1])).encode()
    small_client = httpx2.Client(base_url=url, headers={"content-type": "application/json"},
                                 timeout=120)
    for _ in range(5):  # warm up
        small_client.post("/chat/completions", content=small)
    # and one large request: the first starts the server's second process (serve/offload.py),
    # a one-time cost a server at work has paid already
    small_client.post("/chat/completions", content=large_body())

    def time_small() -> tuple[float, float]:
        start = time.perf_counter()
        small_client.post("/chat/completions", content=small)
        return start, time.perf_counter() - start

    alone = [time_small()[1] for _ in range(SMALL_SAMPLES)]
    big, done, spans = large_body(), threading.Event(), []

    def send_large() -> None:
        host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
        connection = http.client.HTTPConnection(host, int(port), timeout=120)
        for number in range(1, 10000):  # a conversation of its own each time: none is memoised
            if done.is_set():
                break
            connection.request("POST", "/v1/chat/completions",
                               big.replace(b"#0000", b"#%04d" % number, 1),
                               {"content-type": "application/json"})
            sent = time.perf_counter()
            connection.getresponse().read()
            spans.append((sent, time.perf_counter()))
        connection.close()

    sender = threading.Thread(target=send_large)
    sender.start()
    samples, give_up = [], time.monotonic() + LOAD_DEADLINE_S
    while time.monotonic() < give_up:
        samples.append(time_small())
        if sum(any(sent <= start < answered for sent, answered in spans)
               for start, _ in samples) >= SMALL_SAMPLES:
            break
    done.set()
    sender.join(120)
    small_client.close()
    beside = [took for start, took in samples
              if any(sent <= start < answered for sent, answered in spans)]
    beside = beside or [float("nan")]
    return {"alone": median_ms(alone), "beside": median_ms(beside),
            "alone mean": statistics.mean(alone) * 1000, "beside mean": statistics.mean(beside) * 1000,
            "alone max": max(alone) * 1000, "beside max": max(beside) * 1000,
            "samples": len(beside)}


def report(medians: dict[str, float], loads: list[dict[str, object]],
           beside: dict[str, float]) -> bool:
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
    faults = {}
    for load in loads:
        clients = load["clients"]
        print(f"load test: {load['requests']} requests from {clients} clients in "
              f"{load['seconds']:.1f} s ({load['requests'] / load['seconds']:.0f} requests/s), "
              f"latency p50 {load['p50 ms']:.2f} ms, p99 {load['p99 ms']:.2f} ms")
        for name, value in load.items():
            if name not in ("clients", "requests", "seconds", "p50 ms", "p99 ms"):
                print(f"  {name:<42} {value}")
        faults.update({
            f"{clients} clients: 0 server errors, every request sent":
                load["server errors (5xx)"] == 0 and load["not sent (deadline)"] == 0,
            f"{clients} clients: every request answered with its status": load["wrong status"] == 0,
            f"{clients} clients: identical requests, identical bytes":
                load["distinct requests with differing bytes"] == 0,
        })
    ratio = beside["beside mean"] / beside["alone mean"]
    print(f"a small request, alone / beside a concurrent {LARGE_BYTES / 1e6:.1f} MB request "
          f"({beside['samples']} sent while it was in flight), ms: median "
          f"{beside['alone']:.2f} / {beside['beside']:.2f}, mean {beside['alone mean']:.2f} / "
          f"{beside['beside mean']:.2f} (x{ratio:.2f}), max {beside['alone max']:.2f} / "
          f"{beside['beside max']:.2f}")
    goals[f"small request beside a large one within {BESIDE_GOAL:g}x, mean (x{ratio:.2f})"] = \
        ratio <= BESIDE_GOAL
    for name, ok in {**goals, **faults}.items():
        print(f"  {'ok  ' if ok else 'OVER' if name in goals else 'FAIL'} {name}")
    return all(faults.values())


def main() -> int:
    """Start a server on a free loopback port, measure, stop it; exit 1 if the server misbehaved."""
    with ServerProcess() as server:
        medians = latency(server.url)
        loads = [load_test(server.url, clients) for clients in LOAD_CLIENTS]
        beside = beside_large(server.url)
    print(f"server stopped with exit code {server.returncode}")
    ok = report(medians, loads, beside) and server.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
