"""An outbox that records emails: the safe stand-in for a `send_email` side effect.

In memory by default (fast, and gone with the process); given a path, a SQLite file: the outbox
pattern, where the idempotency key and the email are recorded in one transaction before the send
is reported, so a restart (or a crash after the send) never sends the same email twice.
"""
from __future__ import annotations

import hashlib
import json
import os
import unicodedata
from pathlib import Path
from typing import Any

ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
"""Characters that show nothing (zero-width space, non-joiner, joiner, word joiner, byte-order mark,
soft hyphen): dropped before two emails are compared."""

BUSY_TIMEOUT_S = 5.0
"""How long a send waits for another process's send on the same outbox file."""

_SCHEMA = ("CREATE TABLE IF NOT EXISTS emails (seq INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, content TEXT NOT NULL,"
           " id TEXT NOT NULL, to_address TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL)")
_APPLICATION_ID = 0x6D626F78  # "mbox": marks a SQLite file as an outbox, so a foreign one is refused


def normalise(text: str) -> str:
    """`text` as compared: NFKC, zero-width characters dropped, each run of whitespace one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(ZERO_WIDTH).split())


def content_key(to: str, subject: str, body: str) -> str:
    """The key of an email's content: sha256 (16 hex digits) of its normalised address (case-folded),
    subject and body. Two emails that differ only in case of the address, spacing or invisible
    characters have the same key."""
    content = json.dumps([normalise(to).casefold(), normalise(subject), normalise(body)], ensure_ascii=False)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]


class Outbox:
    """Records sent emails, each once: a key already recorded sends nothing the second time.

    The key of an email is the caller's `idempotency_key` when one is given (two keys, two emails,
    even with the same text), else `content_key(to, subject, body)`: a caller that retries after a
    crash rarely has a key, and the same content is then the same email. A caller's key used again
    for a different email is a ValueError (sending nothing would hide the mistake).

    `Outbox()` keeps the emails in memory. `Outbox(path)` keeps them in a SQLite file: each send
    records key and email in one transaction (BEGIN IMMEDIATE, so two processes take turns) and
    reports the send only after it is committed; another Outbox on the same file, after a restart,
    refuses every key recorded. A file that is not an outbox is a ValueError naming it. Here the
    record is the send (the outbox stands in for the mail server); a real sender records first and
    has a relay send what is recorded and not yet marked sent, so a crash in between is sent once.
    """

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        """Start an outbox in memory, or on the SQLite file at `path` (created when missing)."""
        self.path = None if path is None else Path(path)
        self._messages: list[dict] = []
        self._by_key: dict[str, dict] = {}
        if self.path is not None:
            self._open(create=True).close()

    def send(self, to: str, subject: str, body: str, idempotency_key: str | None = None) -> str:
        """Record an email and return a confirmation line (or 'Already sent' for a recorded key)."""
        for field, value in (("to", to), ("subject", subject), ("body", body)):
            if not isinstance(value, str):
                raise TypeError(f"{field} must be a string, got {type(value).__name__}")
        if idempotency_key is not None and (not isinstance(idempotency_key, str) or not idempotency_key.strip()):
            raise TypeError(f"idempotency_key must be a non-empty string or None, got {idempotency_key!r}")
        address = to.strip()
        if "@" not in address or " " in address or address.startswith("@"):
            raise ValueError(f"to must be an email address like 'li.wei@example.com', got {to!r}")
        content = content_key(to, subject, body)
        email = {"to": address, "subject": subject, "body": body,
                 "idempotency_key": content if idempotency_key is None else idempotency_key}
        first = self._record(email, content) if self.path is not None else self._remember(email, content)
        if first is not None:
            if first["content"] != content:
                raise ValueError(f"idempotency key {email['idempotency_key']!r} was already used for "
                                 f"another email ({first['id']}); give a new email a new key")
            return (f"Already sent: email {first['id']} to {first['to']} "
                    f"(idempotency key {email['idempotency_key']!r}); nothing sent again")
        return f"Email sent to {address} (id {email['id']}, subject {subject!r})"

    def _remember(self, email: dict, content: str) -> dict | None:
        """In memory: the first email with this key, or None after adding `email` (given its id)."""
        if email["idempotency_key"] in self._by_key:
            return self._by_key[email["idempotency_key"]]
        email["id"] = _message_id(email, len(self._messages))
        self._messages.append({**email, "content": content})
        self._by_key[email["idempotency_key"]] = self._messages[-1]
        return None

    def _record(self, email: dict, content: str) -> dict | None:
        """On file, in one transaction: the first email with this key, or None after adding `email`."""
        import sqlite3

        conn = self._open()
        try:
            conn.execute("BEGIN IMMEDIATE")  # waits for another writer instead of failing at the insert
            row = conn.execute("SELECT id, to_address, content FROM emails WHERE key = ?",
                               (email["idempotency_key"],)).fetchone()
            if row is not None:
                conn.execute("ROLLBACK")
                return {"id": row[0], "to": row[1], "content": row[2]}
            email["id"] = _message_id(email, conn.execute("SELECT COUNT(*) FROM emails").fetchone()[0])
            conn.execute("INSERT INTO emails (key, content, id, to_address, subject, body) VALUES (?, ?, ?, ?, ?, ?)",
                         (email["idempotency_key"], content, email["id"], email["to"], email["subject"], email["body"]))
            conn.execute("COMMIT")  # recorded: only now is the email reported as sent
            return None
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        finally:
            conn.close()  # a transaction left open is rolled back here

    def _open(self, create: bool = False) -> Any:
        """A connection to the outbox file, checked to be an outbox (made one when new and `create`)."""
        import sqlite3

        conn = None
        if not create and not self.path.is_file():
            raise OSError(f"the outbox file {self.path} is gone (deleted or moved since the outbox "
                          "opened it); nothing was sent")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            mode = "rwc" if create else "rw"  # a file gone mid-run is an error, not a new empty outbox
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode={mode}", uri=True,
                                   timeout=BUSY_TIMEOUT_S, isolation_level=None)
            tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            marked = conn.execute("PRAGMA application_id").fetchone()[0] == _APPLICATION_ID
            if create and not tables and not marked:  # a new file (or one being made by another process)
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(_SCHEMA)
                conn.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
                conn.execute("COMMIT")
            elif not marked or "emails" not in tables:
                raise ValueError(f"{self.path} is a SQLite file but not an outbox (tables: "
                                 f"{', '.join(tables) or 'none'}); give Outbox a new file or one it wrote")
            return conn
        except (sqlite3.Error, OSError) as exc:
            if conn is not None:
                conn.close()
            raise self._error(exc) from exc
        except ValueError:
            conn.close()
            raise

    def _error(self, exc: Exception) -> Exception:
        """A clear error naming the outbox file, for what sqlite3 or the disk raised."""
        import sqlite3

        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            return ValueError(f"{self.path} is not an outbox (not a SQLite file, or a damaged one: {exc}); "
                              "give Outbox a new file or one it wrote")
        reason = getattr(exc, "strerror", None) or exc
        return OSError(f"cannot use the outbox file {self.path}: {reason} "
                       "(check that you may write it and its folder)")

    @property
    def messages(self) -> list[dict]:
        """Return copies of the sent messages, oldest first (id, to, subject, body, idempotency_key)."""
        fields = ("id", "to", "subject", "body", "idempotency_key")
        if self.path is None:
            return [{name: m[name] for name in fields} for m in self._messages]
        import sqlite3

        conn = self._open()
        try:
            rows = conn.execute("SELECT id, to_address, subject, body, key FROM emails ORDER BY seq").fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        finally:
            conn.close()
        return [dict(zip(fields, row)) for row in rows]

    def __len__(self) -> int:
        """Return how many emails were really sent."""
        return len(self.messages)

    def __repr__(self) -> str:
        where = "" if self.path is None else f" in {self.path}"
        return f"Outbox({len(self)} sent{where})"


def _message_id(email: dict, count: int) -> str:
    """The stable id of the `count`-th email (0 first)."""
    from mockllm._hash import stable_id

    return stable_id("msg", email["to"], email["subject"], email["body"], count)
