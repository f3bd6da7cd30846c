"""Wrong solutions of lesson 14's exercise (recall_for): the ways one user's fact reaches another."""
from __future__ import annotations

from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("14")

_BY_KEY: dict = {}  # a cache kept between calls, as a notebook global would be
_BY_USER_AND_KEY: dict = {}

_LATEST = "SELECT value FROM user_facts WHERE {where} ORDER BY id DESC LIMIT 1"


@CATALOGUE.wrong("recall_for", fault="forgets the user in the WHERE clause", says="another user's value")
def forgets_the_user(conn, user, key):
    row = conn.execute(_LATEST.format(where="key = ?"), (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_for", fault="reads every row and filters in Python: checks the user owns the "
                 "key, then returns the key's latest value whoever saved it", says="another user's value")
def filters_in_python_by_key(conn, user, key):
    latest, owners = {}, {}
    for who, k, value in conn.execute("SELECT user, key, value FROM user_facts ORDER BY id"):
        latest[k] = value
        owners.setdefault(k, set()).add(who)
    return latest[key] if user in owners.get(key, ()) else None


@CATALOGUE.wrong("recall_for", fault="formats the user id into the SQL text (SQL injection)",
                 says="the SQL text holds the user id or the key")
def formats_the_user(conn, user, key):
    row = conn.execute(_LATEST.format(where=f"user = '{user}' AND key = ?"), (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_for", fault="folds the case of user ids (lower())", says="compares user ids loosely")
def folds_case(conn, user, key):
    row = conn.execute(_LATEST.format(where="lower(user) = lower(?) AND key = ?"), (user, key)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_for", fault="strips the spaces around user ids (trim())", says="compares user ids loosely")
def strips_spaces(conn, user, key):
    row = conn.execute(_LATEST.format(where="trim(user) = trim(?) AND key = ?"), (user, key)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_for", fault="compares user ids with LIKE", says="compares user ids loosely")
def compares_with_like(conn, user, key):
    row = conn.execute(_LATEST.format(where="user LIKE ? AND key = ?"), (user, key)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_for", fault="falls back to another user's value when the user has none",
                 says="never a fallback to another user's")
def falls_back_to_anyone(conn, user, key):
    row = conn.execute(_LATEST.format(where="user = ? AND key = ?"), (user, key)).fetchone()
    row = row or conn.execute(_LATEST.format(where="key = ?"), (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_for", fault="caches the value by key, across users and stores",
                 says="nothing was read through conn")
def caches_by_key(conn, user, key):
    if key not in _BY_KEY:
        row = conn.execute(_LATEST.format(where="user = ? AND key = ?"), (user, key)).fetchone()
        _BY_KEY[key] = row[0] if row else None
    return _BY_KEY[key]


@CATALOGUE.wrong("recall_for", fault="caches the value by user and key, across stores and sessions",
                 says="nothing was read through conn")
def caches_by_user_and_key(conn, user, key):
    if (user, key) not in _BY_USER_AND_KEY:
        row = conn.execute(_LATEST.format(where="user = ? AND key = ?"), (user, key)).fetchone()
        _BY_USER_AND_KEY[user, key] = row[0] if row else None
    return _BY_USER_AND_KEY[user, key]


@CATALOGUE.wrong("recall_for", fault="returns the user's oldest value (no ORDER BY id DESC)",
                 says="an older value of hers came back")
def oldest_value(conn, user, key):
    row = conn.execute("SELECT value FROM user_facts WHERE user = ? AND key = ? ORDER BY id",
                       (user, key)).fetchone()
    return row[0] if row else None
