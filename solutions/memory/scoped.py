"""Facts kept per user: one user's facts never reach another user's prompt.

Built in lesson 14 (Memory in practice). The table `user_facts` lives in lesson 08's store file,
beside its tables. Each row says whose fact it is (`user`), the fact, the day it was saved (read
from an injected clock, never the wall clock) and the day it stops being true (`expires`, NULL for
a fact that does not expire). A user id is compared exactly, byte for byte: 'Ana' and 'ana ' are
two accounts, and neither is ever folded into the other.
"""
from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass

from mockllm.world import Clock

USER_FACTS = """CREATE TABLE IF NOT EXISTS user_facts (id INTEGER PRIMARY KEY AUTOINCREMENT,
    user TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, saved TEXT NOT NULL, expires TEXT)"""
"""The table of facts by user; `saved` and `expires` are days, YYYY-MM-DD."""


@dataclass(frozen=True)
class Fact:
    """One saved fact of a user: its key and value, the day it was saved, the day it expires (or None)."""

    key: str
    value: str
    saved: str
    expires: str | None = None


def add_user_facts(conn: sqlite3.Connection) -> None:
    """Make the `user_facts` table in the store, if it is not there yet."""
    with conn:
        conn.execute(USER_FACTS)


def check_user(user: object) -> str:
    """`user` when it is a user id (a str with a character that is not a space), else an error."""
    if not isinstance(user, str):
        raise TypeError(f"user must be a str (the account's id), got {type(user).__name__} {user!r:.40}")
    if not user.strip():
        raise ValueError(f"user must name an account, got {user!r}: a fact nobody owns would be "
                         "read by nobody, or by everybody")
    return user


def save_for(conn: sqlite3.Connection, user: str, key: str, value: str, clock: Clock,
             ttl_days: int | None = None) -> int:
    """Save `key = value` for `user` on the clock's day, expiring `ttl_days` later (never when
    None); commit and return the new row's id. Built in lesson 14 (Memory in practice)."""
    check_user(user)
    for name, text in (("key", key), ("value", value)):
        if not isinstance(text, str):
            raise TypeError(f"save_for: {name} must be a str, got {type(text).__name__} {text!r:.60}")
    if not isinstance(clock, Clock):
        raise TypeError(f"clock must be a mockllm.world.Clock (the world's clock or one you make), "
                        f"got {type(clock).__name__}: never read the wall clock")
    if ttl_days is not None and (isinstance(ttl_days, bool) or not isinstance(ttl_days, int)
                                 or not 1 <= ttl_days <= 36_500):
        raise ValueError(f"ttl_days must be a whole number of days from 1 to 36,500 (a hundred "
                         f"years), or None for a fact that does not expire; got {ttl_days!r}")
    saved = clock.today()
    expires = None if ttl_days is None else (saved + dt.timedelta(days=ttl_days)).isoformat()
    with conn:
        cursor = conn.execute("INSERT INTO user_facts (user, key, value, saved, expires) "
                              "VALUES (?, ?, ?, ?, ?)", (user, key, value, saved.isoformat(), expires))
    return cursor.lastrowid


def recall_for(conn: sqlite3.Connection, user: str, key: str) -> str | None:
    """The value `user` saved last for `key`, or None: never another user's. Built in lesson 14 (Memory in practice)."""
    row = conn.execute("SELECT value FROM user_facts WHERE user = ? AND key = ? ORDER BY id DESC LIMIT 1",
                       (user, key)).fetchone()
    return row[0] if row else None


def facts_for(conn: sqlite3.Connection, user: str) -> list[Fact]:
    """Every key of `user` with its latest row, in the order the keys were first saved."""
    check_user(user)
    rows = conn.execute("SELECT f.key, f.value, f.saved, f.expires FROM user_facts AS f JOIN "
                        "(SELECT MIN(id) AS first, MAX(id) AS last FROM user_facts WHERE user = ? "
                        "GROUP BY key) AS g ON f.id = g.last ORDER BY g.first", (user,)).fetchall()
    return [Fact(*row) for row in rows]
