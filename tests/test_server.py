"""The OpenAI-compatible server: the shared core, the ASGI app, and `python -m mockllm serve`."""
from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from mockllm import MockLLM
from mockllm.serve import core
from mockllm.serve.core import MAX_BODY, Service
from mockllm.serve.sessions import Sessions, conversation_key

ROOT = Path(__file__).resolve().parents[1]
QUESTION = [{"role": "user", "content": "What is (17 + 5) * 3?"}]
BODY = {"model": "mock-react", "messages": QUESTION}
pytestmark = pytest.mark.allow_hosts(["127.0.0.1"])  # the suite is offline; the server is on loopback


def service(**options: object) -> Service:
    """A server's core: sessions per conversation, defaults like the CLI's."""
    return Service(Sessions({"persona": "diligent", "seed": 0, **options}, conversation_key))


def post(svc: Service, body: object, headers: dict | None = None) -> core.Answer:
    """POST /v1/chat/completions with `body` (a dict is sent as JSON, bytes as they are)."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return svc.handle("POST", "/v1/chat/completions", headers or {}, raw)


def error_of(answer: core.Answer) -> dict:
    """The `error` object of an error answer, checked to have the API's four fields."""
    error = json.loads(answer.body)["error"]
    assert set(error) == {"message", "type", "param", "code"}
    return error


# ---------------------------------------------------------------- the core, without a socket

def test_a_completion_is_the_mock_reply_as_json() -> None:
    answer = post(service(), BODY)
    assert answer.status == 200 and answer.headers["content-type"] == "application/json"
    expected = MockLLM().chat.completions.create(**BODY)
    assert json.loads(answer.body) == expected.model_dump(exclude_unset=True)


def test_identical_requests_get_identical_bytes() -> None:
    first, second = service(), service()
    assert post(first, BODY).body == post(first, BODY).body == post(second, BODY).body


def test_a_stream_is_server_sent_events_ending_with_done() -> None:
    answer = post(service(), {**BODY, "stream": True})
    assert answer.headers["content-type"].startswith("text/event-stream")
    events = answer.body.decode().split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""]
    chunks = [json.loads(event.removeprefix("data: ")) for event in events[:-2]]
    assert all(event.startswith("data: ") for event in events[:-2])
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == MockLLM().chat.completions.create(**BODY).choices[0].message.content


@pytest.mark.parametrize(("change", "param"), [
    ({"messages": []}, "messages"),
    ({"messages": [{"role": "user"}]}, "messages[0].content"),
    ({"messages": [{"role": "robot", "content": "hi"}]}, "messages[0].role"),
    ({"temperature": 5}, "temperature"),
    ({"stop": ["a", "b", "c", "d", "e"]}, "stop"),
    ({"tools": "calculator"}, "tools"),
    ({"n": 2}, "n"),
    ({"stream": "yes"}, "stream"),
    ({"model": None}, "model"),
])
def test_a_bad_field_is_a_400_naming_it(change: dict, param: str) -> None:
    answer = post(service(), {**BODY, **change})
    error = error_of(answer)
    assert answer.status == 400 and error["type"] == "invalid_request_error"
    assert error["param"] == param and param in error["message"]


def test_a_missing_model_is_a_400_naming_it() -> None:
    answer = post(service(), {"messages": QUESTION})
    assert answer.status == 400 and error_of(answer)["param"] == "model"


@pytest.mark.parametrize("responses", [False, True])
def test_a_field_the_endpoint_does_not_take_or_a_missing_one_is_refused_in_the_apis_words(responses: bool) -> None:
    path, body = ("/v1/responses", {"model": "mock-react", "input": "hi"}) if responses else ("/v1/chat/completions", BODY)
    typo = service().handle("POST", path, {}, json.dumps({**body, "temprature": 0}).encode())
    assert typo.status == 400 and error_of(typo) == {
        "message": "Unrecognized request argument supplied: temprature; did you mean 'temperature'?",
        "type": "invalid_request_error", "param": None, "code": None}
    sdk_only = service().handle("POST", path, {}, json.dumps({**body, "timeout": 5}).encode())
    assert error_of(sdk_only)["message"].startswith("Unrecognized request argument supplied: timeout")
    for name in body:
        missing = service().handle("POST", path, {}, json.dumps({k: v for k, v in body.items() if k != name}).encode())
        error = error_of(missing)
        assert missing.status == 400 and (error["param"], error["code"]) == (name, "missing_required_parameter")
        assert error["message"].startswith(f"Missing required parameter: '{name}'. Give it, e.g. \"{name}\": ")


@pytest.mark.parametrize("raw", [b"{", b"", b"\xff\xfe", b"[" * 100_000, b'"text"', b"[1, 2]"])
def test_a_body_that_is_not_a_json_object_is_a_400(raw: bytes) -> None:
    answer = post(service(), raw)
    assert answer.status == 400
    assert "JSON" in error_of(answer)["message"]


def test_a_body_over_the_limit_is_a_413() -> None:
    answer = post(service(), b" " * (MAX_BODY + 1))
    assert answer.status == 413 and error_of(answer)["code"] == "request_too_large"


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/v1/nowhere", 404), ("POST", "/chat/completions", 404), ("GET", "/", 404),
    ("GET", "/v1/chat/completions", 405), ("DELETE", "/v1/models", 405),
    ("POST", "/v1/models/mock-react", 405),
])
def test_unknown_paths_and_methods(method: str, path: str, status: int) -> None:
    answer = service().handle(method, path, {}, b"")
    assert answer.status == status and f"({method} {path})" in error_of(answer)["message"]
    if status == 405:
        assert answer.headers["allow"] in ("GET", "POST")


def test_models_lists_one_id_per_persona_and_every_base_model() -> None:
    import mockllm

    listing = json.loads(service().handle("GET", "/v1/models", {}, b"").body)
    ids = [model["id"] for model in listing["data"]]
    assert ids == ["mock-react", *(f"mock-react:{name}" for name in mockllm.personas()),
                   "mock-react-4k", "mock-reasoning", "mock-judge"]
    assert json.loads(service().handle("GET", "/v1/models/mock-react:sloppy:3", {}, b"").body)[
        "id"] == "mock-react:sloppy:3"
    assert service().handle("GET", "/v1/models/mock-react:nobody", {}, b"").status == 404


def test_the_model_name_picks_persona_and_seed() -> None:
    body = {**BODY, "model": "mock-react:sloppy:3"}
    reply = json.loads(post(service(), body).body)
    direct = MockLLM(persona="sloppy", seed=3).chat.completions.create(**body)
    assert reply == direct.model_dump(exclude_unset=True)
    assert json.loads(post(service(), {**BODY, "model": "mock-react:none"}).body)["x_mock"][
        "persona"] is None
    for name in ("mock-react:nobody", "mock-react:sloppy:x", "a:b:c:d"):
        answer = post(service(), {**BODY, "model": name})
        assert answer.status == 404 and error_of(answer)["code"] == "model_not_found"


def test_a_simulated_rate_limit_is_a_429_with_retry_after() -> None:
    svc = service(failures={2: "rate_limit", 3: "timeout"})
    assert post(svc, BODY).status == 200
    limited, timed_out = post(svc, BODY), post(svc, BODY)
    assert limited.status == 429 and limited.headers["retry-after"] == "1"
    error = error_of(limited)
    assert error["code"] == "rate_limit_exceeded" and "call 2" in error["message"]
    assert timed_out.status == 408 and timed_out.headers["retry-after"] == "1"
    assert post(svc, BODY).status == 200


def test_conversations_keep_their_own_call_counters() -> None:
    svc = service(failures={2: "rate_limit"})
    other = [{"role": "user", "content": "What is today's date?"}]
    assert post(svc, BODY).status == 200
    assert post(svc, {**BODY, "messages": other}).status == 200   # another conversation: its call 1
    assert post(svc, BODY).status == 429                           # this one's call 2
    named = {"x-mock-session": "learner-7"}
    assert post(svc, {**BODY, "messages": other}, named).status == 200
    assert post(svc, BODY, named).status == 429  # one named session, whatever the messages


def test_the_conversation_is_the_opening_messages() -> None:
    opening = [{"role": "system", "content": "You are helpful."}, *QUESTION]
    later = [*opening, {"role": "assistant", "content": "Thought: ..."},
             {"role": "user", "content": "Observation: 66"}]
    assert conversation_key({}, {"messages": opening}) == conversation_key({}, {"messages": later})
    assert conversation_key({}, {"messages": QUESTION}) != conversation_key({}, {"messages": opening})
    named = [conversation_key({"x-mock-session": name}, {}) for name in ("a", "b")]
    assert named[0] != named[1]


def test_sessions_are_bounded() -> None:
    sessions = Sessions({"persona": None, "seed": 0}, conversation_key, capacity=3)
    for index in range(10):
        sessions.client_for({"x-mock-session": str(index)}, BODY)
    assert len(sessions._clients) == 3


def test_a_fault_of_the_mock_is_a_500_and_the_next_request_is_answered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    svc = service()

    def broken(**request: object) -> None:
        raise RuntimeError("boom")

    client = svc.sessions.client_for({}, BODY)
    monkeypatch.setattr(client.chat.completions, "create", broken)
    answer = post(svc, BODY)
    assert answer.status == 500 and error_of(answer)["type"] == "server_error"
    assert isinstance(answer.error, RuntimeError)
    assert post(svc, {**BODY, "model": "mock-react::1"}).status == 200


# ---------------------------------------------------------------- the ASGI app, in process

def asgi_requests(*requests: tuple) -> list:
    """Send (method, path, content) requests to the app through httpx2's ASGI transport."""
    httpx2 = pytest.importorskip("httpx2")
    from mockllm.serve.app import create_app

    async def send() -> list:
        transport = httpx2.ASGITransport(app=create_app(service()))
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.request(method, path, content=content)
                    for method, path, content in requests]

    return asyncio.run(send())


def test_the_app_answers_like_the_core() -> None:
    body = json.dumps(BODY).encode()
    ok, stream, missing, big = asgi_requests(
        ("POST", "/v1/chat/completions", body),
        ("POST", "/v1/chat/completions", json.dumps({**BODY, "stream": True}).encode()),
        ("GET", "/v1/missing", b""),
        ("POST", "/v1/chat/completions", b"x" * (MAX_BODY + 10)))
    assert ok.status_code == 200 and ok.content == post(service(), BODY).body
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.content == post(service(), {**BODY, "stream": True}).body
    assert missing.status_code == 404
    assert missing.json()["error"]["message"].startswith("Invalid URL (GET /v1/missing). The mock serves")
    assert big.status_code == 413


# ---------------------------------------------------------------- the command, in a subprocess

@pytest.fixture
def server() -> object:
    """A server started with `python -m mockllm serve --port 0`; always stopped."""
    from mockllm.serve.spawn import ServerProcess

    process = ServerProcess("--failures", "2=rate_limit").start()
    try:
        yield process
    finally:
        if process.returncode is None:
            process.stop()


def port_open(url: str) -> bool:
    """True when something accepts connections on the URL's port."""
    host, port = url.split("//")[1].split("/")[0].rsplit(":", 1)
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex((host, int(port))) == 0


def test_the_first_line_names_the_real_port(server: object) -> None:
    assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/v1")
    assert int(server.url.rsplit(":", 1)[1].removesuffix("/v1")) > 0
    assert port_open(server.url)


def test_httpx_and_the_openai_sdk_against_the_server(server: object) -> None:
    httpx2 = pytest.importorskip("httpx2")
    openai = pytest.importorskip("openai")
    with httpx2.Client(base_url=server.url, timeout=10) as http:
        assert http.post("/chat/completions", content=b"{oops").status_code == 400
        ok = http.post("/chat/completions", json=BODY, headers={"authorization": "Bearer anything"})
        assert ok.status_code == 200 and ok.json() == json.loads(post(service(), BODY).body)
        assert http.get("/models").json()["data"][0]["id"] == "mock-react"
    client = openai.OpenAI(base_url=server.url, api_key="any key", max_retries=0)
    with pytest.raises(openai.RateLimitError) as caught:  # call 2 of this conversation
        client.chat.completions.create(model="mock-react", messages=QUESTION)
    assert caught.value.response.headers["retry-after"] == "1"
    chunks = list(client.chat.completions.create(model="mock-react", messages=QUESTION, stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == MockLLM().chat.completions.create(**BODY).choices[0].message.content
    assert server.errors() == ""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_cleanly(server: object, sig: int) -> None:
    assert server.stop(sig) == 0
    assert not port_open(server.url)
    assert "Traceback" not in server.errors()


def test_the_listening_socket_asks_for_no_nagle_delay() -> None:
    from mockllm.serve.cli import bind, url_of

    with bind("127.0.0.1", 0) as sock:  # asyncio sets TCP_NODELAY only when proto is TCP
        assert sock.proto == socket.IPPROTO_TCP
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        assert url_of(sock) == f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def test_bad_flags_and_a_busy_port_exit_with_a_message() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        runs = [subprocess.run([sys.executable, "-m", "mockllm", "serve", *args], cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
                for args in (["--port", port], ["--port", "0", "--persona", "nobody"],
                             ["--failures", "x=rate_limit"])]
    assert [run.returncode for run in runs] == [2, 2, 2]
    assert "address already in use" in runs[0].stderr.lower()
    assert "persona" in runs[1].stderr and "CALL=KIND" in runs[2].stderr


def test_the_curl_example_of_the_docs_works(server: object) -> None:
    import re
    import shutil

    if shutil.which("curl") is None:
        pytest.skip("curl is not installed on this machine")
    doc = (ROOT / "docs" / "three-ways.md").read_text(encoding="utf-8")
    command = re.search(r"<!-- curl:start -->\n```bash\n(.*?)```", doc, re.S).group(1)
    command = command.replace("http://127.0.0.1:8000/v1", server.url)
    assert server.url in command
    run = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    reply = json.loads(run.stdout)
    assert reply["object"] == "chat.completion" and reply["choices"][0]["message"]["content"]
    assert "x_mock" in reply


def test_the_console_script_is_declared() -> None:
    tomllib = pytest.importorskip("tomllib")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"mockllm": "mockllm.__main__:main"}
