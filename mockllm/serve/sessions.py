"""Which `MockLLM` serves a request, and so whose call counter `failures={3: ...}` counts.

The reply itself is a pure function of the request (messages, tools, persona, seed): the only state
is a client's call counter, which decides which call raises a simulated failure. So a "session" is
one MockLLM per (conversation, persona, seed):

- in process (`openai_client()`), the conversation is the client: one openai client, one counter,
  exactly as with one `MockLLM`;
- over HTTP, the conversation is named by the `x-mock-session` header when the client sends one,
  else it is the digest of the first message and the first user message (one agent run on one
  question: its system prompt and question stay the same while the history grows). Two clients
  never share a counter unless they send the same header or the very same opening messages.

At most `capacity` sessions are kept; the least recently used one is dropped first. The server
answers from several threads: each session has its own lock, so the requests of one conversation
are answered one at a time (its counter counts each call once) while other conversations go on.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping

from mockllm.serve.models import parse_model

CAPACITY = 1024
SESSION_HEADER = "x-mock-session"

ConversationOf = Callable[[Mapping, dict], str]


def one_conversation(headers: Mapping, body: dict) -> str:
    """The in-process rule: every request of a client belongs to the client's one conversation."""
    return ""


def conversation_key(headers: Mapping, body: dict) -> str:
    """The server's rule: the `x-mock-session` header, else a digest of the opening messages."""
    session = headers.get(SESSION_HEADER)
    if session:
        return "session:" + session
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "no-messages"
    user = next((m for m in messages if isinstance(m, dict) and m.get("role") == "user"), None)
    import hashlib

    from mockllm.serve.answer import dumps

    return "opening:" + hashlib.blake2b(dumps([messages[0], user]), digest_size=16).hexdigest()


class Sessions:
    """The MockLLMs behind a transport or a server, one per (conversation, persona, seed)."""

    def __init__(self, options: Mapping, conversation_of: ConversationOf = one_conversation,
                 capacity: int = CAPACITY) -> None:
        from mockllm.protocol.client import MockLLM

        self._make = MockLLM
        self._options = dict(options)
        default = MockLLM(**self._options)  # checks the options now, not at the first request
        self.prompt_cache = default.prompt_cache  # one memory of prompt prefixes for every session
        self.persona, self.seed = default.persona, default.seed
        self._conversation_of = conversation_of
        self._capacity = capacity
        self._clients: OrderedDict[tuple, tuple[object, threading.Lock]] = OrderedDict()
        self._clients["", self.persona, self.seed] = default, threading.Lock()
        self._lock = threading.Lock()  # guards the table, only while a session is looked up

    def client_for(self, headers: Mapping, body: dict) -> object:
        """Return the MockLLM that serves `body` (UnknownModel for a bad persona or seed part)."""
        return self.session_for(headers, body)[0]

    def session_for(self, headers: Mapping, body: dict) -> tuple[object, threading.Lock]:
        """(MockLLM, its lock) that serve `body`; hold the lock while calling the MockLLM."""
        model = body.get("model")
        persona, seed = self.persona, self.seed
        if isinstance(model, str):
            persona, seed = parse_model(model, persona, seed)
        key = (self._conversation_of(headers, body), persona, seed)
        with self._lock:
            session = self._clients.get(key)
            if session is None:
                session = self._make(**{**self._options, "persona": persona, "seed": seed}), \
                    threading.Lock()
                session[0].prompt_cache = self.prompt_cache
                self._clients[key] = session
                if len(self._clients) > self._capacity:
                    self._clients.popitem(last=False)
            else:
                self._clients.move_to_end(key)
        return session
