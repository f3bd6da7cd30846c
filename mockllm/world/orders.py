"""The shop's orders: a real SQLite database, built in memory from the shipped CSV files.

Nothing happens at import time. On first use the CSVs are read and one read-only master database
is built (once per process); every `connect()` returns a fresh in-memory copy of it, made with
`sqlite3.Connection.backup`, so nothing a learner (or a misbehaving agent) does can damage the
data. The world's own lookups read the master directly, under a lock, with writes refused.
"""
from __future__ import annotations

import os
from datetime import date as _date

from .clock import parse_date

TYPE_CHECKING = False  # the typing module costs milliseconds at import; annotations are lazy
if TYPE_CHECKING:  # pragma: no cover
    import sqlite3
    from collections.abc import Iterable

PRODUCT_LINES = ("Books", "Electronics", "Home", "Toys")
STATUSES = ("paid", "shipped", "cancelled")
_DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
_SCHEMA = """
CREATE TABLE orders (
    order_id     TEXT PRIMARY KEY,
    date         TEXT NOT NULL,           -- YYYY-MM-DD
    product_line TEXT NOT NULL,
    amount       REAL NOT NULL,           -- CNY, 2 decimals
    status       TEXT NOT NULL CHECK (status IN ('paid', 'shipped', 'cancelled'))
);
CREATE TABLE logistics (
    order_id        TEXT PRIMARY KEY REFERENCES orders(order_id),
    carrier         TEXT NOT NULL,
    tracking_number TEXT NOT NULL,
    last_event      TEXT NOT NULL,
    event_date      TEXT NOT NULL
);
"""
_ORDER_COLUMNS = "order_id, date, product_line, amount, status"
_CACHE: dict[str, list[tuple]] = {}
_MASTER: dict[str, object] = {}  # "conn", "pid", "lock": the master database of this process


def _rows(name: str) -> list[tuple]:
    """Return the rows of data/<name>.csv (read once, then cached)."""
    if name not in _CACHE:
        import csv

        with open(os.path.join(_DATA_DIR, f"{name}.csv"), newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            next(reader)
            _CACHE[name] = [tuple(row) for row in reader]
    return _CACHE[name]


def _build() -> sqlite3.Connection:
    """Build the shop database from the CSVs in a new in-memory connection."""
    import sqlite3

    conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.executescript(_SCHEMA)
    conn.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?)",
                     [(i, d, line, float(amount), s) for i, d, line, amount, s in _rows("orders")])
    conn.executemany("INSERT INTO logistics VALUES (?, ?, ?, ?, ?)", _rows("logistics"))
    conn.commit()
    return conn


def _master() -> tuple[sqlite3.Connection, object]:
    """(the read-only master database, its lock), built on first use in this process.

    A forked child builds its own: a SQLite connection must not cross a fork.
    """
    if _MASTER.get("pid") != os.getpid():
        import threading

        conn = _build()
        conn.execute("PRAGMA query_only = ON")
        _MASTER.update(conn=conn, pid=os.getpid(), lock=threading.Lock())
    return _MASTER["conn"], _MASTER["lock"]


def connect(read_only: bool = True) -> sqlite3.Connection:
    """Return a fresh in-memory copy of the shop database (writes refused when read_only)."""
    import sqlite3

    master, lock = _master()
    conn = sqlite3.connect(":memory:")
    with lock:
        master.backup(conn)
    conn.row_factory = sqlite3.Row
    if read_only:
        conn.execute("PRAGMA query_only = ON")
    return conn


def _query(sql: str, params: tuple = ()) -> list[dict]:
    """Run one read-only query on the master database and return the rows as dicts."""
    master, lock = _master()
    with lock:
        return [dict(row) for row in master.execute(sql, params)]


def _clean_id(order_id: str) -> str:
    """Return the order id trimmed and upper-cased ('#a1002 ' -> 'A1002')."""
    if not isinstance(order_id, str):
        raise TypeError(f"order_id must be a string like 'A1002', got {type(order_id).__name__}")
    return order_id.strip().lstrip("#").strip().upper()


def _shown(key: str, raw: object) -> str:
    """Return how an order id is quoted in messages (the cleaned id, or the raw repr if empty)."""
    return key if key else repr(raw)


def lookup_order(order_id: str) -> dict:
    """Return one order as a dict; LookupError if there is no such order."""
    key = _clean_id(order_id)
    rows = _query(f"SELECT {_ORDER_COLUMNS} FROM orders WHERE order_id = ?", (key,))
    if not rows:
        raise LookupError(f"order {_shown(key, order_id)} not found")
    return rows[0]


def _range(start_date: _date | str, end_date: _date | str) -> tuple[str, str]:
    """Validate a date range and return it as two ISO strings."""
    start = parse_date(start_date, "start_date")
    end = parse_date(end_date, "end_date")
    if start > end:
        raise ValueError(f"start_date {start} is after end_date {end}")
    return start.isoformat(), end.isoformat()


def _check_status(status: str) -> str:
    """Return a valid status name (case-insensitive; 'canceled' accepted) or raise ValueError."""
    if not isinstance(status, str):
        raise TypeError(f"status must be a string, got {type(status).__name__}")
    clean = status.strip().lower().replace("canceled", "cancelled")
    if clean not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}; got {status!r}")
    return clean


def orders_between(start_date: _date | str, end_date: _date | str,
                   status: str | None = None) -> list[dict]:
    """Return the orders placed from start_date to end_date inclusive, oldest first."""
    start, end = _range(start_date, end_date)
    sql = f"SELECT {_ORDER_COLUMNS} FROM orders WHERE date BETWEEN ? AND ?"
    params: tuple = (start, end)
    if status is not None:
        sql += " AND status = ?"
        params += (_check_status(status),)
    return _query(sql + " ORDER BY date, order_id", params)


def _order_or_error(order_id: str) -> tuple[dict | None, str | None]:
    """(the order, None), or (None, an 'Error: ...' line) when it is missing or the id is bad."""
    try:
        return lookup_order(order_id), None
    except LookupError:
        return None, f"Error: order {_shown(_clean_id(order_id), order_id)} not found"
    except (TypeError, ValueError) as exc:
        return None, f"Error: {exc}"


def order_text(order_id: str) -> str:
    """Return one order as a line of text, or 'Error: order X not found' (never raises)."""
    row, error = _order_or_error(order_id)
    if error:
        return error
    return (f"Order {row['order_id']}: {row['status']}, {row['amount']:.2f} CNY, "
            f"placed {row['date']}, product line {row['product_line']}")


def orders_text(start_date: _date | str, end_date: _date | str, status: str | None = None) -> str:
    """Return the orders in a date range as text: a header line, then one line per order."""
    try:
        rows = orders_between(start_date, end_date, status)
        start, end = _range(start_date, end_date)
    except (TypeError, ValueError) as exc:
        return f"Error: {exc}"
    if not rows:
        return f"0 orders from {start} to {end}."
    total = sum(round(row["amount"] * 100) for row in rows) / 100
    lines = [f"{len(rows)} orders from {start} to {end} (total {total:.2f} CNY):"]
    lines += [f"{r['order_id']} | {r['date']} | {r['product_line']} | {r['amount']:.2f} | "
              f"{r['status']}" for r in rows]
    return "\n".join(lines)


def lookup_tracking(order_id: str) -> dict:
    """Return the logistics record of a shipped order; LookupError if it has none."""
    order = lookup_order(order_id)
    rows = _query("SELECT * FROM logistics WHERE order_id = ?", (order["order_id"],))
    if not rows:
        raise LookupError(f"order {order['order_id']} has no tracking ({order['status']})")
    return rows[0]


def tracking_text(order_id: str) -> str:
    """Return where a shipped order is, as one line of text, or an 'Error: ...' line."""
    order, error = _order_or_error(order_id)
    if error:
        return error
    if order["status"] == "cancelled":
        return f"Order {order['order_id']} was cancelled: there is no tracking number"
    if order["status"] != "shipped":
        return (f"Order {order['order_id']} has not shipped yet (status {order['status']}): "
                "no tracking number")
    track = lookup_tracking(order["order_id"])
    return (f"Order {order['order_id']}: {track['carrier']} {track['tracking_number']}, "
            f"last event {track['event_date']}: {track['last_event']}")


def sales_by_product_line(start_date: _date | str, end_date: _date | str,
                          exclude_status: Iterable[str] | str | None = ("cancelled",)
                          ) -> dict[str, float]:
    """Return total sales (CNY) per product line in a date range, skipping excluded statuses."""
    if isinstance(exclude_status, str):
        exclude_status = (exclude_status,)
    excluded = sorted({_check_status(s) for s in (exclude_status or ())})
    totals: dict[str, int] = {}
    for row in orders_between(start_date, end_date):
        if row["status"] not in excluded:
            cents = round(row["amount"] * 100)
            totals[row["product_line"]] = totals.get(row["product_line"], 0) + cents
    return {line: totals[line] / 100 for line in sorted(totals)}


def delete_orders(ids: Iterable[str] | str, conn: sqlite3.Connection) -> int:
    """Delete orders (and their logistics) on the given connection; return how many went.

    `ids` may be a list of order ids or the string "all". A read-only connection raises
    sqlite3.OperationalError. The world's own data is never touched: only `conn` changes.
    """
    if isinstance(ids, str) and ids.strip().lower() == "all":
        conn.execute("DELETE FROM logistics")
        deleted = conn.execute("DELETE FROM orders").rowcount
        conn.commit()
        return deleted
    if isinstance(ids, str):
        keys = [_clean_id(ids)]
    else:
        keys = [_clean_id(i) for i in ids]
    if not keys:
        return 0
    marks = ", ".join("?" * len(keys))
    conn.execute(f"DELETE FROM logistics WHERE order_id IN ({marks})", keys)
    deleted = conn.execute(f"DELETE FROM orders WHERE order_id IN ({marks})", keys).rowcount
    conn.commit()
    return deleted
