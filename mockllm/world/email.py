"""An outbox that records emails in memory: the safe stand-in for a `send_email` side effect."""
from __future__ import annotations


class Outbox:
    """Records sent emails; a repeated idempotency key sends nothing the second time."""

    def __init__(self) -> None:
        """Start with an empty outbox."""
        self._messages: list[dict] = []
        self._by_key: dict[str, dict] = {}

    def send(self, to: str, subject: str, body: str, idempotency_key: str | None = None) -> str:
        """Record an email and return a confirmation line (or 'already sent' for a known key)."""
        for field, value in (("to", to), ("subject", subject), ("body", body)):
            if not isinstance(value, str):
                raise TypeError(f"{field} must be a string, got {type(value).__name__}")
        if idempotency_key is not None and not isinstance(idempotency_key, str):
            raise TypeError("idempotency_key must be a string or None")
        address = to.strip()
        if "@" not in address or " " in address or address.startswith("@"):
            raise ValueError(f"to must be an email address like 'li.wei@example.com', got {to!r}")
        if idempotency_key is not None and idempotency_key in self._by_key:
            first = self._by_key[idempotency_key]
            return (f"Already sent: email {first['id']} to {first['to']} "
                    f"(idempotency key {idempotency_key!r}); nothing sent again")
        from mockllm._hash import stable_id

        message = {
            "id": stable_id("msg", address, subject, body, len(self._messages)),
            "to": address, "subject": subject, "body": body,
            "idempotency_key": idempotency_key,
        }
        self._messages.append(message)
        if idempotency_key is not None:
            self._by_key[idempotency_key] = message
        return f"Email sent to {address} (id {message['id']}, subject {subject!r})"

    @property
    def messages(self) -> list[dict]:
        """Return copies of the sent messages, oldest first."""
        return [dict(m) for m in self._messages]

    def __len__(self) -> int:
        """Return how many emails were really sent."""
        return len(self._messages)

    def __repr__(self) -> str:
        return f"Outbox({len(self._messages)} sent)"
