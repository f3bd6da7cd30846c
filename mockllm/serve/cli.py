"""`python -m mockllm serve` (or `mockllm serve`): the mock as an OpenAI-compatible HTTP server.

    mockllm serve [--host 127.0.0.1] [--port 8000] [--persona diligent] [--seed 0]
                  [--failures 3=rate_limit,5=timeout]

The first line printed (flushed at once) is `listening on http://HOST:PORT/v1`, with the real port
when `--port 0` lets the system pick a free one. Any API key is accepted. The model name picks the
persona and seed of each request (`mock-react:sloppy:3`, see `mockllm.serve.models`); the flags
give the defaults. `--failures` makes call N of each conversation fail (see
`mockllm.serve.sessions` for what a conversation is). SIGINT (Ctrl-C) or SIGTERM stop the server
after the requests in flight, with exit code 0.
"""
from __future__ import annotations

import argparse
import signal
import socket
import sys

DEFAULT_PORT = 8000


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


def build_parser() -> argparse.ArgumentParser:
    """The command line: `serve` and its options."""
    parser = argparse.ArgumentParser(prog="mockllm", description="The offline mock LLM.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the OpenAI chat completions API on loopback")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    serve.add_argument("--persona", default="diligent",
                       help="default persona (see mockllm.personas(); 'none' for no quirks)")
    serve.add_argument("--seed", type=int, default=0, help="default seed (default 0)")
    serve.add_argument("--failures", type=parse_failures, default=None,
                       help="simulated failures per conversation, e.g. 3=rate_limit,5=timeout")
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


def serve(host: str, port: int, options: dict) -> int:
    """Serve until SIGINT or SIGTERM; return the exit code."""
    import uvicorn

    from mockllm.serve.app import create_app
    from mockllm.serve.core import Service
    from mockllm.serve.sessions import Sessions, conversation_key

    app = create_app(Service(Sessions(options, conversation_key)))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           lifespan="off", timeout_graceful_shutdown=5))
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
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args = build_parser().parse_args(argv)
    persona = None if args.persona == "none" else args.persona
    options = {"persona": persona, "seed": args.seed, "failures": args.failures}
    try:
        return serve(args.host, args.port, options)
    except (ValueError, TypeError, OSError) as error:  # a bad --persona, a port in use, ...
        print(f"mockllm serve: {error}", file=sys.stderr, flush=True)
        return 2
