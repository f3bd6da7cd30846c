"""`python -m mockllm serve` (or `mockllm serve`): the mock as an OpenAI-compatible HTTP server.

    mockllm --version
    mockllm --help                  the examples and the personas
    mockllm serve [--host 127.0.0.1] [--port 8000] [--persona diligent] [--seed 0]
                  [--failures 3=rate_limit,5=timeout] [--threads 8]
                  [--header-timeout 10] [--body-timeout 30] [--idle-timeout 5]

The first line printed (flushed at once) is `listening on http://HOST:PORT/v1`, with the real port
when `--port 0` lets the system pick a free one. Any API key is accepted. The model name picks the
persona and seed of each request (`mock-react:sloppy:3`, see `mockllm.serve.models`); the flags
give the defaults. `--failures` makes call N of each conversation fail, and the SDK's retries of
it (see `mockllm.serve.sessions` for what a conversation is, `mockllm.serve.failures` for how a
failure travels). SIGINT (Ctrl-C) or SIGTERM stop the server after the requests in flight, with
exit code 0.

Slow and idle clients are closed: a request's headers must arrive within `--header-timeout`
seconds of its first byte, its body within `--body-timeout` seconds of its headers (else HTTP
408), and a connection with no request under way is closed after `--idle-timeout` seconds, from
its opening as after each answer. Requests are answered by `--threads` worker threads.

`--help` needs nothing beyond the standard library; `serve` needs starlette and uvicorn (the
`serve` extra of `react-mockllm`), and says so when they are missing.
"""
from __future__ import annotations

import argparse
import signal
import socket
import sys

from mockllm.serve.limits import (BODY_TIMEOUT, HEADER_TIMEOUT, IDLE_TIMEOUT, OFFLOAD_BYTES,
                                  THREADS)

DEFAULT_PORT = 8000
SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits for it (Python's default is 0.005)."""
SERVE_EXTRA = ("pip install 'react-mockllm[serve]' "
               "(from a clone: pip install './mockllm-dist[serve]')")
"""How to install what `mockllm serve` needs, for the error that says it is missing."""
EXAMPLES = """examples:
  mockllm serve                                  serve on http://127.0.0.1:8000/v1
  mockllm serve --port 0 --persona sloppy        a free port, the sloppy persona by default
  mockllm serve --failures 3=rate_limit          call 3 of each conversation answers HTTP 429
  python -m mockllm serve --seed 7               without the console script, seed 7 by default

  A request's model names its persona and seed: mock-react, mock-react:sloppy, mock-react:sloppy:3.
"""


def parse_failures(text: str) -> dict[int, str]:
    """Read `--failures 3=rate_limit,5=timeout` as {3: "rate_limit", 5: "timeout"}."""
    failures = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        call, _, kind = item.partition("=")
        if not (call.strip().isdigit() and kind.strip()):
            raise argparse.ArgumentTypeError(
                f"{item!r}: expected CALL=KIND, e.g. 3=rate_limit or 5=timeout")
        failures[int(call)] = kind.strip()
    return failures


def positive_seconds(text: str) -> float:
    """Read a timeout in seconds, a number above 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: expected seconds above 0, e.g. 10 or 0.5")
    return seconds


def positive_int(text: str) -> int:
    """Read a count above 0."""
    if not (text.isascii() and text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number above 0, e.g. 8")
    return int(text)


def non_negative_int(text: str) -> int:
    """Read a count of 0 or more."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number, 0 or more, e.g. 1048576")
    return int(text)


def personas_text() -> str:
    """The `--help` paragraph that lists the personas, from the mock's persona table."""
    from mockllm.behaviour.personas import PERSONAS

    lines = [f"  {name:<13} {persona.description}" for name, persona in PERSONAS.items()]
    return "\n".join(["personas (--persona NAME, or 'none' for no quirks):", *lines])


def build_parser(version: str | None = None) -> argparse.ArgumentParser:
    """The command line: `--version` (when `version` is given), `serve` and its options."""
    parser = argparse.ArgumentParser(
        prog="mockllm", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The offline mock LLM: deterministic, OpenAI-shaped, no network and no key.",
        epilog=f"{EXAMPLES}\n{personas_text()}")
    if version is not None:
        parser.add_argument("--version", action="version", version=f"%(prog)s {version}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the OpenAI chat completions API on loopback",
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=f"{EXAMPLES}\n{personas_text()}")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    serve.add_argument("--persona", default="diligent",
                       help="default persona (listed below; 'none' for no quirks)")
    serve.add_argument("--seed", type=int, default=0, help="default seed (default 0)")
    serve.add_argument("--failures", type=parse_failures, default=None,
                       help="simulated failures per conversation, e.g. 3=rate_limit,5=timeout")
    serve.add_argument("--threads", type=positive_int, default=THREADS,
                       help=f"worker threads answering requests at once (default {THREADS})")
    serve.add_argument("--offload-bytes", type=non_negative_int, default=OFFLOAD_BYTES,
                       help="a chat completion at least this large is answered in a second "
                            f"process, so small ones keep their pace; 0: never (default {OFFLOAD_BYTES})")
    serve.add_argument("--header-timeout", type=positive_seconds, default=HEADER_TIMEOUT,
                       help="seconds from a request's first byte to the end of its headers, "
                            f"else the connection is closed (default {HEADER_TIMEOUT:g})")
    serve.add_argument("--body-timeout", type=positive_seconds, default=BODY_TIMEOUT,
                       help="seconds for a request's whole body after its headers, else HTTP 408 "
                            f"and the connection is closed (default {BODY_TIMEOUT:g})")
    serve.add_argument("--idle-timeout", type=positive_seconds, default=IDLE_TIMEOUT,
                       help="seconds a connection may stay open with no request under way "
                            f"(default {IDLE_TIMEOUT:g})")
    return parser


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on (host, port), port 0 picks a free one; no Nagle delay.

    The protocol is given as IPPROTO_TCP: asyncio switches Nagle's algorithm off
    (TCP_NODELAY) only on sockets that say so, and without it every response that is written
    in two parts waits for the client's delayed ACK, about 40 ms.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(256)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket) -> str:
    """The base URL of the API served on `sock`."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/v1"


def build_server(app: object, header_timeout: float | None = None,
                 idle_timeout: float = IDLE_TIMEOUT) -> object:
    """The uvicorn.Server that runs `app`: h11 with the header deadline and the idle limit, and
    the mock's own log lines (`mockllm.serve`) printed as uvicorn prints its warnings."""
    import copy

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from mockllm.serve.connection import guarded_protocol

    logs = copy.deepcopy(LOGGING_CONFIG)
    logs["loggers"]["mockllm.serve"] = {"handlers": ["default"], "level": "INFO",
                                        "propagate": False}
    protocol = guarded_protocol(HEADER_TIMEOUT if header_timeout is None else header_timeout)
    return uvicorn.Server(uvicorn.Config(app, http=protocol, log_level="warning",
                                         log_config=logs, access_log=False, lifespan="off",
                                         timeout_graceful_shutdown=5,
                                         timeout_keep_alive=idle_timeout))


def serve(host: str, port: int, options: dict, limits: dict | None = None) -> int:
    """Serve until SIGINT or SIGTERM; return the exit code.

    `limits` may hold threads, header_timeout, body_timeout and idle_timeout (the CLI's flags)."""
    from mockllm.serve.app import create_app
    from mockllm.serve.core import Service
    from mockllm.serve.offload import Offload
    from mockllm.serve.sessions import Sessions, conversation_key

    # A thread deep in a large request holds the GIL until asked to let go, after the switch
    # interval (5 ms by default); each step of a small request beside it (the event loop reading
    # it, its worker thread, the loop writing the answer) waits that long. A shorter interval
    # keeps the small one's wait near its own cost.
    sys.setswitchinterval(SWITCH_INTERVAL)
    limits = limits or {}
    app_limits = {key: limits[key] for key in ("body_timeout", "threads") if key in limits}
    offload = Offload(options, limits.get("offload_bytes", OFFLOAD_BYTES))  # started when first needed
    app = create_app(Service(Sessions(options, conversation_key), offload), **app_limits)
    server = build_server(app, limits.get("header_timeout"),
                          limits.get("idle_timeout", IDLE_TIMEOUT))
    # uvicorn stops gracefully on a signal, then re-raises it to the handler it found. This
    # handler asks for the same stop, so a signal arriving before uvicorn's own handlers are in
    # place stops the server too, and the re-raised one ends it normally, with exit code 0.
    sock = bind(host, port)
    stop = lambda *_: setattr(server, "should_exit", True)  # noqa: E731
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    print(f"listening on {url_of(sock)}", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
        offload.close()
    return 0


def server_packages() -> None:
    """Import starlette and uvicorn, or raise ModuleNotFoundError saying how to install them."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(f"mockllm serve needs {error.name}, which the mock alone does "
                                  f"not install: {SERVE_EXTRA}") from error


def main(argv: list[str] | None = None, version: str | None = None) -> int:
    """Run the command line (`version` for `--version`); return the exit code."""
    args = build_parser(version).parse_args(argv)
    try:
        server_packages()
    except ModuleNotFoundError as error:
        print(f"mockllm serve: {error}", file=sys.stderr, flush=True)
        return 2
    persona = None if args.persona == "none" else args.persona
    options = {"persona": persona, "seed": args.seed, "failures": args.failures}
    try:
        limits = {"threads": args.threads, "offload_bytes": args.offload_bytes,
                  "header_timeout": args.header_timeout,
                  "body_timeout": args.body_timeout, "idle_timeout": args.idle_timeout}
        return serve(args.host, args.port, options, limits)
    except (ValueError, TypeError, OSError) as error:  # a bad --persona, a port in use, ...
        print(f"mockllm serve: {error}", file=sys.stderr, flush=True)
        return 2
