"""The server under load and against slow clients: CPU work off the event loop, read timeouts,
an idle limit, and one log line for a client that leaves mid-body. Assertions are about order and
about the connection being closed; the bounds only guard against a hang."""
from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_server  # noqa: E402

from mockllm.serve.core import Service
from mockllm.serve.sessions import Sessions, conversation_key

pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])
GUARD_S = 30.0  # a bound against a hang, never a speed goal
SHORT = ("--header-timeout", "0.5", "--body-timeout", "0.5", "--idle-timeout", "0.5")
SMALL = {"model": "mock-react", "messages": [{"role": "user", "content": "What is (17 + 5) * 3?"}]}


def large_body() -> bytes:
    """A request of about 7.5 MB on a question of its own: the benchmark's."""
    return bench_server.large_body(7_500_000, "What is today's date?")


def post(port: int, body: bytes) -> tuple[int, bytes]:
    """POST /v1/chat/completions on 127.0.0.1:`port`; (status, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD_S * 2)
    try:
        connection.request("POST", "/v1/chat/completions", body,
                           {"content-type": "application/json"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class InProcessServer:
    """The CLI's uvicorn server around `service`, in a thread of this process, on 127.0.0.1:0."""

    def __init__(self, service: Service) -> None:
        from mockllm.serve.app import create_app
        from mockllm.serve.cli import bind, build_server

        self.sock = bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.server = build_server(create_app(service))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        deadline = time.monotonic() + GUARD_S
        while not self.server.started and time.monotonic() < deadline and self.thread.is_alive():
            time.sleep(0.01)
        assert self.server.started, "the in-process server did not start"
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.should_exit = True
        self.thread.join(GUARD_S)
        self.sock.close()


class GatedService(Service):
    """A server's core that, on a large body, waits (bounded) until the small request is answered.

    If the large request's work ran on the event loop, the small one could not be served while
    it waits: the wait would end at its bound, and the large reply would come first."""

    def __init__(self) -> None:
        super().__init__(Sessions({"persona": "diligent", "seed": 0}, conversation_key))
        self.large_started, self.small_done = threading.Event(), threading.Event()

    def handle(self, method: str, path: str, headers: object, body: bytes) -> object:
        if len(body) > 1_000_000:
            self.large_started.set()
            self.small_done.wait(GUARD_S / 3)
        return super().handle(method, path, headers, body)


def test_a_large_request_does_not_make_a_small_one_wait() -> None:
    service, big, finished = GatedService(), large_body(), []
    with InProcessServer(service) as server, ThreadPoolExecutor(1) as pool:
        large = pool.submit(lambda: (post(server.port, big), finished.append("large")))
        assert service.large_started.wait(GUARD_S)
        status, _ = post(server.port, json.dumps(SMALL).encode())
        finished.append("small")
        service.small_done.set()
        (large_status, large_reply), _ = large.result(GUARD_S * 2)
    assert finished == ["small", "large"]
    assert status == 200 and large_status == 200 and json.loads(large_reply)["choices"]


def test_concurrent_requests_get_the_same_bytes_as_alone() -> None:
    bodies = [json.dumps({**SMALL, "model": f"mock-react:{persona}",
                          "messages": [{"role": "user", "content": question}]}).encode()
              for persona in ("diligent", "sloppy", "none")
              for question in ("What is (17 + 5) * 3?", "What is today's date?")]
    service = Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))
    alone = [service.handle("POST", "/v1/chat/completions", {}, body).body for body in bodies]
    with InProcessServer(Service(Sessions({"persona": "diligent", "seed": 0},
                                          conversation_key))) as server:
        with ThreadPoolExecutor(8) as pool:
            replies = list(pool.map(lambda index: post(server.port, bodies[index % len(bodies)]),
                                    range(8 * len(bodies))))
    assert [status for status, _ in replies] == [200] * len(replies)
    assert [reply for _, reply in replies] == [alone[i % len(bodies)] for i in range(len(replies))]


# ---------------------------------------------------------------- slow and idle clients

@pytest.fixture
def short_server() -> object:
    """`python -m mockllm serve` with 0.5 s header, body and idle timeouts; always stopped."""
    from mockllm.serve.spawn import ServerProcess

    process = ServerProcess(*SHORT).start()
    try:
        yield process
    finally:
        if process.returncode is None:
            process.stop()


def connect(server: object) -> socket.socket:
    """A raw TCP connection to the server, with a read timeout that only guards against a hang."""
    host, port = server.url.split("//")[1].split("/")[0].rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=GUARD_S)
    return sock


def closed_by_server(sock: socket.socket, trickle: bytes = b"") -> bytes:
    """Send `trickle` one byte at a time (a byte every 0.1 s) and read until the server closes;
    return what it sent. Fails if the connection is still open after GUARD_S."""
    received, deadline = b"", time.monotonic() + GUARD_S
    sock.settimeout(0.1)
    index = 0
    while time.monotonic() < deadline:
        if index < len(trickle):
            try:
                sock.sendall(trickle[index:index + 1])
            except OSError:
                return received
            index += 1
        try:
            piece = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return received
        if not piece:
            return received
        received += piece
    pytest.fail(f"the server kept the connection open for {GUARD_S} s")


def test_a_client_sending_headers_a_byte_at_a_time_is_disconnected(short_server: object) -> None:
    headers = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 600
    with connect(short_server) as sock:
        closed_by_server(sock, headers)
    assert "Traceback" not in short_server.errors()


def test_a_body_shorter_than_its_content_length_is_disconnected(short_server: object) -> None:
    with connect(short_server) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"model\"")
        received = closed_by_server(sock)
    assert received.startswith(b"HTTP/1.1 408 ")
    assert "Traceback" not in short_server.errors()


def test_a_body_sent_a_byte_at_a_time_is_disconnected(short_server: object) -> None:
    body = json.dumps(SMALL).encode()
    with connect(short_server) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n")
        received = closed_by_server(sock, body)
    assert received.startswith(b"HTTP/1.1 408 ")


def test_idle_connections_are_closed(short_server: object) -> None:
    socks = [connect(short_server) for _ in range(50)]  # never a byte sent
    try:
        for sock in socks:
            closed_by_server(sock)
    finally:
        for sock in socks:
            sock.close()
    with connect(short_server) as sock:  # and a keep-alive connection after its answer
        body = json.dumps(SMALL).encode()
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body)
        assert closed_by_server(sock).startswith(b"HTTP/1.1 200 ")


def test_a_client_leaving_mid_body_is_one_log_line(short_server: object) -> None:
    with connect(short_server) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"model\"")
        time.sleep(0.05)  # let the server start reading the body; the order is not asserted on
    status, _ = post(int(short_server.url.rsplit(":", 1)[1].removesuffix("/v1")),
                     json.dumps(SMALL).encode())
    assert status == 200
    deadline = time.monotonic() + GUARD_S  # the server logs when it notices the disconnect
    while "disconnect" not in short_server.errors() and time.monotonic() < deadline:
        time.sleep(0.05)
    short_server.stop()
    log = short_server.errors()
    assert "Traceback" not in log and "ERROR" not in log
    assert [line for line in log.splitlines() if line.strip()] == [
        line for line in log.splitlines() if "disconnect" in line]
    assert len([line for line in log.splitlines() if "disconnect" in line]) == 1


def test_the_limits_are_flags_with_the_documented_defaults() -> None:
    from mockllm.serve.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert (args.threads, args.header_timeout, args.body_timeout, args.idle_timeout) == (
        8, 10.0, 30.0, 5.0)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "mock.md").read_text(encoding="utf-8")
    for flag, default in (("threads", 8), ("header-timeout", 10), ("body-timeout", 30),
                          ("idle-timeout", 5), ("offload-bytes", 1048576)):
        assert f"`--{flag}`" in doc and f"default {default}" in doc
    for bad in (["--header-timeout", "0"], ["--body-timeout", "nan"], ["--threads", "0"]):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve", *bad])


def test_the_mock_answers_from_many_threads_as_from_one() -> None:
    """Agents' growing conversations from 8 threads, switching threads as often as Python can:
    every reply the same bytes as alone (the mock's shared memos fill and drop entries meanwhile)."""
    import sys

    bodies = []
    for number in range(150):
        messages = [{"role": "user", "content": f"Question: What is {number} + 5?"}]
        for step in range(6):
            messages = [*messages, {"role": "assistant", "content": f"Thought: step {step}"},
                        {"role": "user", "content": f"Observation: {step * number}"}]
            bodies.append(json.dumps({"model": "mock-react", "messages": messages}).encode())
    alone = [Service(Sessions({"persona": "diligent"}, conversation_key)).handle(
        "POST", "/v1/chat/completions", {}, body).body for body in bodies]
    service, interval = Service(Sessions({"persona": "diligent"}, conversation_key)), \
        sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for _ in range(2):
            with ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(
                    lambda body: service.handle("POST", "/v1/chat/completions", {}, body), bodies))
            failed = [answer.body[:500] for answer in answers if answer.status != 200]
            assert [answer.status for answer in answers] == [200] * len(bodies), failed[:2]
            assert [answer.body for answer in answers] == alone
    finally:
        sys.setswitchinterval(interval)


# ---------------------------------------------------------------- large requests in a second process

OPTIONS = {"persona": "diligent", "seed": 0, "failures": None}


@pytest.fixture(scope="module")
def offload() -> object:
    """An Offload taking bodies of 10 kB and more; its process stopped after the tests."""
    from mockllm.serve.offload import Offload

    kept = Offload(OPTIONS, threshold=10_000)
    yield kept
    kept.close()


def test_a_large_request_is_answered_in_the_second_process_with_the_same_bytes(offload) -> None:
    import os

    big = bench_server.large_body(50_000, "What is today's date?")
    alone = Service(Sessions(OPTIONS, conversation_key)).handle("POST", "/v1/chat/completions", {}, big)
    answered = Service(Sessions(OPTIONS, conversation_key), offload).handle(
        "POST", "/v1/chat/completions", {}, big)
    assert answered.status == 200 and answered.body == alone.body
    assert offload._pool is not None and os.getpid() not in [p.pid for p in offload._pool._processes.values()]
    small = json.dumps(SMALL).encode()
    assert not offload.takes("/chat/completions", small)  # a small one stays in this process
    assert not offload.takes("/responses", big)  # a Responses one reads the responses kept here


def test_simulated_failures_keep_every_request_in_the_server_process() -> None:
    from mockllm.serve.offload import Offload

    counted = Offload({**OPTIONS, "failures": {1: "rate_limit"}}, threshold=10)
    never = Offload(OPTIONS, threshold=0)
    big = bench_server.large_body(50_000, "What is today's date?")
    assert not counted.takes("/chat/completions", big) and not never.takes("/chat/completions", big)
    assert counted._pool is None and never._pool is None


def test_a_broken_second_process_is_answered_here_then_started_again(offload) -> None:
    big = bench_server.large_body(50_000, "What is (17 + 5) * 3?")
    service = Service(Sessions(OPTIONS, conversation_key), offload)
    assert service.handle("POST", "/v1/chat/completions", {}, big).status == 200
    for process in list(offload._pool._processes.values()):
        process.kill()
        process.join(GUARD_S)
    assert json.loads(service.handle("POST", "/v1/chat/completions", {}, big).body)["choices"]
    assert service.handle("POST", "/v1/chat/completions", {}, big).status == 200
    assert offload._pool is not None  # started again


def test_a_second_process_that_never_answers_is_given_up_and_the_request_answered_here(caplog) -> None:
    from mockllm.serve.offload import Offload
    from tests.servers import hold

    held = Offload(OPTIONS, threshold=10_000, wait=1.0, task=hold)
    big = bench_server.large_body(50_000, "What is today's date?")
    service = Service(Sessions(OPTIONS, conversation_key), held)
    try:
        with caplog.at_level("WARNING", logger="mockllm.serve"):
            answer = service.handle("POST", "/v1/chat/completions", {}, big)
        assert answer.status == 200 and json.loads(answer.body)["choices"]
        assert "no answer within 1 s" in caplog.text
        assert not held.takes("/chat/completions", big) and held._pool is None  # given up
    finally:
        held.close()


def test_the_server_offloads_by_default_and_the_flag_turns_it_off() -> None:
    from mockllm.serve.cli import build_parser
    from mockllm.serve.limits import OFFLOAD_BYTES

    assert build_parser().parse_args(["serve"]).offload_bytes == OFFLOAD_BYTES == 1024 * 1024
    assert build_parser().parse_args(["serve", "--offload-bytes", "0"]).offload_bytes == 0
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--offload-bytes", "-1"])


def test_the_mock_parses_arithmetic_from_many_threads() -> None:
    """CPython 3.11's ast.parse is not thread-safe (SystemError 'AST constructor recursion depth
    mismatch'); the mock's parses go through one lock, so 8 threads get every answer."""
    import sys

    from mockllm.brain.knowledge import safe_eval

    expressions = [f"({n} + 5) * 3 - {n} / 2" for n in range(2000)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        with ThreadPoolExecutor(8) as pool:
            values = list(pool.map(safe_eval, expressions))
    finally:
        sys.setswitchinterval(interval)
    assert values == [(n + 5) * 3 - n / 2 for n in range(2000)]
