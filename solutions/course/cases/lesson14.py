"""Cases for lesson 14 (Memory in practice): `recall_for`, one user's fact from a shared store.

Each case gets its own store file (in the check's temporary folder, as lesson 08's cases do),
holding the facts of several users, and a fresh connection that keeps the SQL text of every
statement it is given (lesson 08's `_Watched`): a user id or a key found in that text was
formatted into the SQL. The users differ in the ways that leak: another user with the same key,
saved later; ids that differ only in case or in a trailing space; an id with a quote; an id that
is an SQL injection; a user who never saved the key while another did.
"""
from __future__ import annotations

import shutil
import sqlite3
from typing import Any

from solutions.course.cases.lesson08 import _CURRENT, _Watched, _folder, _formatted_sql, _in_sql, _stores
from solutions.course.exercises import Case, Cause, Exercise

Rows = tuple[tuple[str, str, str], ...]
"""(user, key, value) rows, in the order they are saved."""


def _store(name: str, rows: Rows) -> None:
    """A fresh store `name` whose user_facts table holds `rows`, saved on the world's day."""
    from mockllm.world import FROZEN
    from solutions.memory.scoped import add_user_facts, save_for
    from solutions.memory.store import connect

    folder = _folder(name)
    shutil.rmtree(folder, ignore_errors=True)
    conn = connect(folder / "memory.sqlite")
    add_user_facts(conn)
    for user, key, value in rows:
        save_for(conn, user, key, value, FROZEN)
    conn.close()


def _loose(asked: str, other: str) -> bool:
    """True when two different user ids match once case or spaces are ignored, or under LIKE."""
    def folded(text: str) -> str:
        return text.strip().casefold()
    like = len(asked) == len(other) and all(a == "_" or a.lower() == o.lower() for a, o in zip(asked, other))
    return other != asked and (folded(other) == folded(asked) or like)


def _recalls(name: str, rows: Rows, user: str, key: str, hint: str) -> Case:
    """A case: recall_for(conn, user, key) on a store holding `rows` returns the value `user`
    saved last for `key` (None if none), without the user or the key in its SQL text."""
    expected = next((value for who, k, value in reversed(rows) if who == user and k == key), None)

    def make() -> tuple[tuple, dict]:
        _store(name, rows)
        conn = sqlite3.connect(_folder(name) / "memory.sqlite", factory=_Watched)
        _CURRENT.clear()
        _CURRENT.update(name=name, conn=conn, key=key, user=user, expected=expected,
                        older=[v for who, k, v in rows if who == user and k == key][:-1],
                        near=[v for who, k, v in rows if k == key and _loose(user, who)],
                        others=[v for who, k, v in rows if who != user])
        return (conn, user, key), {}

    def test(returned: Any) -> bool:
        return returned == expected and (returned is None) == (expected is None) \
            and not _in_sql(user, key) and _CURRENT["conn"].row_factory is None

    listed = ", ".join(f"{who!r}: {k}={v!r}" for who, k, v in rows) or "nothing"
    return Case(setup=make, expected=expected, expect=test, hint=hint,
                label=f"recall_for(conn, {user!r}, {key!r})  # saved, oldest first: {listed}")


_BOTH = (("ana", "city", "Chengdu"), ("bo", "city", "Beijing"))
_EXACT = ("compare the user id exactly, WHERE user = ?: ids differ in case and spaces on purpose "
          "(two accounts), and LIKE ignores case and reads '_' as any character")
_NONE = ("a user who never saved the key gets None, even when another user did: no fallback to "
         "another user's value")
RECALL_CASES = (
    _recalls("users-2", (("ana", "city", "Shanghai"),), "ana", "city",
             "select the value of the row whose user is `user` and whose key is `key`"),
    _recalls("users-3", _BOTH, "ana", "city",
             "another user saved the same key after her: keep only her rows, WHERE user = ? AND key = ?"),
    _recalls("users-4", _BOTH, "bo", "city", "each user gets their own value of a shared key"),
    _recalls("users-5", (("ana", "city", "Xi'an"), ("ana", "city", "Shenzhen"), ("bo", "city", "Beijing"),
                         ("ana", "units", "celsius")), "ana", "city",
             "her latest value, not another user's saved later nor her older one: WHERE user = ? AND "
             "key = ? ORDER BY id DESC LIMIT 1"),
    _recalls("users-6", (("bo", "city", "Beijing"), ("ana", "units", "celsius")), "ana", "city", _NONE),
    _recalls("users-7", (("ana", "city", "Shanghai"), ("bo", "city", "Beijing")), "Ana", "city", _EXACT),
    _recalls("users-8", (("Bo", "city", "Beijing"), ("ana", "city", "Chengdu")), "bo", "city", _EXACT),
    _recalls("users-9", (("ana ", "city", "Lhasa"), ("bo", "city", "Beijing")), "ana", "city", _EXACT),
    _recalls("users-10", (("ana", "city", "Chengdu"), ("ana ", "city", "Lhasa"), ("bo", "city", "Beijing")),
             "ana", "city", _EXACT),
    _recalls("users-11", (("ana", "city", "Shanghai"), ("bo", "city", "Beijing")), "an_", "city", _EXACT),
    _recalls("users-12", (("ana", "city", "Shanghai"), ("bo", "city", "Beijing")), "x' OR '1'='1", "city",
             "a user id is data: pass it with a ? placeholder; formatted into the SQL, this one "
             "reads every user's facts (SQL injection)"),
    _recalls("users-13", (("o'brien", "city", "Dublin"), ("bo", "city", "Beijing")), "o'brien", "city",
             "a user id may hold a quote: pass it with a ? placeholder, never format it into the SQL"),
    _recalls("users-14", (("bo", "name", "Bo"), ("ana", "city", "Chengdu")), "ana", "name", _NONE),
    _recalls("users-15", (), "ana", "city", "an empty store: None (fetchone() is None)"),
)


def _other_users(value: Any) -> bool:
    """True when the value is one that only other users saved (not a near-duplicate id's)."""
    return value is not None and value in _CURRENT.get("others", ()) and value != _CURRENT.get("expected")


RECALL_CAUSES = (
    Cause(_formatted_sql, "the SQL breaks on a quote in the user id, so the id was formatted into "
          "the SQL text: a user named \"x' OR '1'='1\" would read every user's facts (SQL injection); "
          "use conn.execute('... WHERE user = ? AND key = ? ...', (user, key))", raised=True),
    Cause(lambda value: _in_sql(_CURRENT.get("user", ""), _CURRENT.get("key", "")),
          "the SQL text holds the user id or the key, formatted into it: a user named "
          "\"x' OR '1'='1\" reads every user's facts (SQL injection); pass both with ? placeholders"),
    Cause(lambda value: getattr(_CURRENT.get("conn"), "statements", None) == [], "nothing was read "
          "through conn: a value kept from an earlier call (a cache) belongs to another store, "
          "another session or another user; query conn every time"),
    Cause(lambda value: _CURRENT["conn"].row_factory is not None, "it changed conn.row_factory, a "
          "setting of the caller's connection; read row[0], or set row_factory on a cursor of your own"),
    Cause(lambda value: value is not None and value in _CURRENT.get("near", ()),
          "compares user ids loosely: 'Ana', 'ana' and 'ana ' are three accounts, and a fact of one "
          "reached another (lower(), strip(), LIKE or COLLATE NOCASE); compare exactly, WHERE user = ?"),
    Cause(lambda value: _other_users(value) and _CURRENT.get("expected") is None,
          "a user with no value for the key got another user's value: keep only the rows of "
          "`user` (WHERE user = ? AND key = ?), and when they hold no value return None, never a "
          "fallback to another user's"),
    Cause(_other_users, "returns another user's value: the query (or the filter after it) must "
          "keep only the rows of `user`, WHERE user = ? AND key = ?, before it picks the latest"),
    Cause(lambda value: value in _CURRENT.get("older", ()), "an older value of hers came back: the "
          "latest is the row saved last, ORDER BY id DESC LIMIT 1"),
    Cause(lambda value: isinstance(value, (tuple, list, sqlite3.Row)), "returns the whole row: "
          "return row[0], the value itself"),
)


EXERCISES = [
    Exercise(name="recall_for", lesson="14", reference="solutions.memory.scoped:recall_for",
             cases=RECALL_CASES, causes=RECALL_CAUSES, workspace=_stores),
]
