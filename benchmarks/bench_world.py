"""Benchmark the world's lookups against rebuilding their data on every query, in one process.

Run:  python benchmarks/bench_world.py
The orders database is built once per process and the world's lookups read that master copy;
`connect()` copies it with `sqlite3.Connection.backup`. The documents are tokenised once. The
baselines below do what the world did before: build the database from the CSVs for every query,
and tokenise every document for every search. Both sides return the same rows (checked first).
"""
from __future__ import annotations

import statistics
import timeit

from mockllm.world import connect, documents, orders, search, tokenize

REPEATS = 200
ROUNDS = 5
ORDER = "A1002"


def rebuilt_lookup(order_id: str) -> list[dict]:
    """An order looked up the old way: a new database built from the CSVs for this one query."""
    conn = orders._build()
    try:
        conn.execute("PRAGMA query_only = ON")
        sql = f"SELECT {orders._ORDER_COLUMNS} FROM orders WHERE order_id = ?"
        return [dict(row) for row in conn.execute(sql, (order_id,))]
    finally:
        conn.close()


def retokenised_search(query: str, k: int = 3) -> list[dict]:
    """A search done the old way: every document tokenised again for this one query."""
    wanted = set(tokenize(query))
    scored = []
    for doc in documents():
        score = len(wanted & set(tokenize(f"{doc['title']} {doc['text']}")))
        if score:
            scored.append((-score, doc["id"], doc))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [{**doc, "score": -neg} for neg, _, doc in scored[:k]]


def per_call_us(call: object) -> float:
    """The median over ROUNDS of the time of one call, in microseconds."""
    times = timeit.repeat(call, number=REPEATS, repeat=ROUNDS)
    return statistics.median(times) / REPEATS * 1e6


def main() -> None:
    """Print each lookup's time, its baseline's, and the speed-up."""
    assert [orders.lookup_order(ORDER)] == rebuilt_lookup(ORDER)
    assert search("return policy refund") == retokenised_search("return policy refund")
    rows = [
        ("order lookup", lambda: orders.lookup_order(ORDER), lambda: rebuilt_lookup(ORDER)),
        ("connect() copy", lambda: connect().close(), lambda: orders._build().close()),
        ("document search", lambda: search("return policy refund"),
         lambda: retokenised_search("return policy refund")),
    ]
    print(f"{'':18}{'now':>12}{'rebuilt':>12}{'speed-up':>10}")
    for name, now, baseline in rows:
        fast, slow = per_call_us(now), per_call_us(baseline)
        print(f"{name:18}{fast:10.1f}us{slow:10.1f}us{slow / fast:9.0f}x")


if __name__ == "__main__":
    main()
