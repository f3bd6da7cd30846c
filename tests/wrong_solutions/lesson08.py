"""Wrong solutions of lesson 08's exercises (save_fact, recall_fact)."""
from __future__ import annotations

import sqlite3

from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("08")

_OWN: list = []  # the connection a wrong solution opens once and keeps, as a notebook global would be


# ---------------------------------------------------------------- save_fact

@CATALOGUE.wrong("save_fact", fault="formats the values into an f-string INSERT, quotes doubled by hand",
                 says="the SQL text holds the key or the value")
def escaped_by_hand(conn, key, value, session=None):
    def quoted(text):
        return "'" + text.replace("'", "''") + "'"
    cursor = conn.execute(f"INSERT INTO facts (session, key, value) VALUES (?, {quoted(key)}, {quoted(value)})",
                          (session,))
    conn.commit()
    return cursor.lastrowid


@CATALOGUE.wrong("save_fact", fault="formats the values into the SQL text without escaping",
                 says="the SQL text holds the key or the value")
def formatted_values(conn, key, value, session=None):
    cursor = conn.execute(f"INSERT INTO facts (session, key, value) VALUES (?, '{key}', '{value}')", (session,))
    conn.commit()
    return cursor.lastrowid


@CATALOGUE.wrong("save_fact", fault="formats the value in double quotes",
                 says="the SQL text holds the key or the value")
def double_quoted_value(conn, key, value, session=None):
    cursor = conn.execute(f'INSERT INTO facts (session, key, value) VALUES (?, ?, "{value}")', (session, key))
    conn.commit()
    return cursor.lastrowid


@CATALOGUE.wrong("save_fact", fault="never commits", says="Call conn.commit()")
def never_commits(conn, key, value, session=None):
    return conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                        (session, key, value)).lastrowid


@CATALOGUE.wrong("save_fact", fault="deletes the older value of the key before inserting",
                 says="the older value stays in the table")
def replaces_the_older_value(conn, key, value, session=None):
    with conn:
        conn.execute("DELETE FROM facts WHERE key = ?", (key,))
        return conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                            (session, key, value)).lastrowid


@CATALOGUE.wrong("save_fact", fault="updates the existing row of the key instead of adding one",
                 says="the older value stays in the table")
def updates_in_place(conn, key, value, session=None):
    with conn:
        cursor = conn.execute("UPDATE facts SET value = ?, session = ? WHERE key = ?", (value, session, key))
        if cursor.rowcount == 0:
            cursor = conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                                  (session, key, value))
    return cursor.lastrowid


@CATALOGUE.wrong("save_fact", fault="does not return the new row's id", says="returned None")
def returns_nothing(conn, key, value, session=None):
    with conn:
        conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)", (session, key, value))


@CATALOGUE.wrong("save_fact", fault="returns cursor.rowcount, which is the id only in an empty store",
                 says="cursor.rowcount")
def returns_the_row_count(conn, key, value, session=None):
    with conn:
        cursor = conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)", (session, key, value))
    return cursor.rowcount


@CATALOGUE.wrong("save_fact", fault="returns SELECT MAX(id) after the commit, another session's row when one saved meanwhile",
                 says="another session may save between your commit and your next query")
def max_id_after_the_commit(conn, key, value, session=None):
    with conn:
        conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)", (session, key, value))
    return conn.execute("SELECT MAX(id) FROM facts").fetchone()[0]


@CATALOGUE.wrong("save_fact", fault="ignores the session argument", says="save the session given as a keyword")
def ignores_the_session(conn, key, value, session=None):
    with conn:
        return conn.execute("INSERT INTO facts (key, value) VALUES (?, ?)", (key, value)).lastrowid


@CATALOGUE.wrong("save_fact", fault="passes the values in another order than the columns",
                 says="the values are in another order than the columns")
def values_out_of_order(conn, key, value, session=None):
    with conn:
        return conn.execute("INSERT INTO facts (key, value, session) VALUES (?, ?, ?)",
                            (session, key, value)).lastrowid


@CATALOGUE.wrong("save_fact", fault="closes the connection it was given", says="it closed the connection it was given")
def closes_the_connection(conn, key, value, session=None):
    cursor = conn.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)", (session, key, value))
    conn.commit()
    conn.close()
    return cursor.lastrowid


@CATALOGUE.wrong("save_fact", fault="writes through a global connection of its own, not the conn given",
                 says="nothing went through conn")
def own_global_connection(conn, key, value, session=None):
    from solutions.memory.store import connect
    if not _OWN:
        _OWN.append(connect(":memory:"))
    with _OWN[0] as own:
        return own.execute("INSERT INTO facts (session, key, value) VALUES (?, ?, ?)",
                           (session, key, value)).lastrowid


_INSERT = "INSERT INTO facts (session, key, value) VALUES (?, ?, ?)"


@CATALOGUE.wrong("save_fact", fault="returns COUNT(*) + 1 read before the INSERT as the new id",
                 says="the new id is neither COUNT(*) + 1 nor MAX(id) + 1")
def counts_the_rows_for_the_id(conn, key, value, session=None):
    new_id = conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0] + 1  # ids count from 1
    conn.execute(_INSERT, (session, key, value))
    conn.commit()
    return new_id


@CATALOGUE.wrong("save_fact", fault="returns MAX(id) + 1 read before the INSERT as the new id",
                 says="the new id is neither COUNT(*) + 1 nor MAX(id) + 1")
def next_id_before_the_insert(conn, key, value, session=None):
    with conn:
        new_id = (conn.execute("SELECT MAX(id) FROM facts").fetchone()[0] or 0) + 1
        conn.execute(_INSERT, (session, key, value))
    return new_id


@CATALOGUE.wrong("save_fact", fault="skips the INSERT when the key's latest value is the one given",
                 says="save adds a row every time, even for the value saved last")
def skips_a_value_already_saved(conn, key, value, session=None):
    latest = conn.execute("SELECT id, value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
    if latest is not None and latest[1] == value:  # nothing new to remember
        return latest[0]
    cursor = conn.execute(_INSERT, (session, key, value))
    conn.commit()
    return cursor.lastrowid


@CATALOGUE.wrong("save_fact", fault="commits before the INSERT instead of after it",
                 says="Call conn.commit() after the INSERT")
def commits_first(conn, key, value, session=None):
    conn.commit()
    return conn.execute(_INSERT, (session, key, value)).lastrowid


# ---------------------------------------------------------------- recall_fact

@CATALOGUE.wrong("recall_fact", fault="takes the first row (no ORDER BY): the oldest value",
                 says="an older value came back")
def first_row(conn, key):
    row = conn.execute("SELECT value FROM facts WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="takes the last of the rows without ORDER BY (order that happens to hold)",
                 says="without ORDER BY, rows come in whatever order SQLite reads them")
def last_row_unordered(conn, key):
    rows = conn.execute("SELECT value FROM facts WHERE key = ?", (key,)).fetchall()
    return rows[-1][0] if rows else None


@CATALOGUE.wrong("recall_fact", fault="returns the largest value (MAX(value)) instead of the latest",
                 says="MAX(value) is the largest value, not the latest")
def largest_value(conn, key):
    row = conn.execute("SELECT MAX(value) FROM facts WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="compares the key with LIKE", says="LIKE reads '_' as any character")
def compares_with_like(conn, key):
    row = conn.execute("SELECT value FROM facts WHERE key LIKE ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="compares keys without case (COLLATE NOCASE)", says="ignores case, as COLLATE NOCASE does")
def ignores_case(conn, key):
    row = conn.execute("SELECT value FROM facts WHERE key = ? COLLATE NOCASE ORDER BY id DESC LIMIT 1",
                       (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="raises TypeError on a key never saved (fetchone()[0])",
                 says="fetchone() is None for a key never saved")
def raises_on_a_missing_key(conn, key):
    return conn.execute("SELECT value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()[0]


@CATALOGUE.wrong("recall_fact", fault="returns an empty text for a key never saved", says="not an empty or 'None' text")
def empty_text_when_missing(conn, key):
    row = conn.execute("SELECT value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
    return row[0] if row else ""


@CATALOGUE.wrong("recall_fact", fault="returns the whole row, not its value", says="returns the whole row")
def whole_row(conn, key):
    return conn.execute("SELECT value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()


@CATALOGUE.wrong("recall_fact", fault="selects the key column instead of the value", says="returns the key itself")
def reads_the_key_column(conn, key):
    row = conn.execute("SELECT key FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="ignores the key: the latest fact of any key",
                 says="returns the value of another key")
def latest_of_any_key(conn, key):
    row = conn.execute("SELECT value FROM facts ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="formats the key into the SQL text, quotes doubled by hand",
                 says="the SQL text holds the key")
def formatted_key(conn, key):
    quoted = "'" + key.replace("'", "''") + "'"
    row = conn.execute(f"SELECT value FROM facts WHERE key = {quoted} ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else None


@CATALOGUE.wrong("recall_fact", fault="selects the value beside MAX(id), a bare column SQLite takes from that row",
                 harmless="SQLite documents that a bare column next to MAX() comes from the row holding the "
                          "maximum, so this returns the latest value, and None for a key never saved "
                          "(the aggregate's one row is (None, None)): the same results as the reference")
def bare_column_beside_max(conn, key):
    row = conn.execute("SELECT value, MAX(id) FROM facts WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


_RECALLED: dict = {}


@CATALOGUE.wrong("recall_fact", fault="keeps each value it read in a dict, for later calls",
                 says="nothing was read through conn: a value kept from an earlier call")
def cached_values(conn, key):
    if key not in _RECALLED:  # a query per key is enough
        row = conn.execute("SELECT value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
        _RECALLED[key] = row[0] if row else None
    return _RECALLED[key]


@CATALOGUE.wrong("recall_fact", fault="sets conn.row_factory to sqlite3.Row to read the value by name",
                 says="it changed conn.row_factory")
def rows_by_name(conn, key):
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT value FROM facts WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
    return row["value"] if row else None


@CATALOGUE.wrong("recall_fact", fault="reads every fact, oldest first, into a dict and takes the key's",
                 harmless="with ORDER BY id the dict keeps each key's latest value, so every value is "
                          "the reference's; it reads the whole table to find one value, which the "
                          "lesson's small stores do not notice")
def every_fact_in_a_dict(conn, key):
    return dict(conn.execute("SELECT key, value FROM facts ORDER BY id").fetchall()).get(key)
