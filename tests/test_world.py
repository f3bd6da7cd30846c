"""Tests for mockllm.world: frozen clock, weather, orders (SQLite), documents, calendar, email."""
from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from mockllm import world
from mockllm.world import (
    FROZEN, PRODUCT_LINES, STATUSES, TODAY, Clock, Outbox, calendar_text, cities, connect,
    delete_orders, documents, events, get_document, lookup_order, lookup_tracking, order_text,
    orders_between, orders_text, parse_date, sales_by_product_line, search, search_text,
    tokenize, tracking_text, weather_text,
)
from mockllm.world.weather import air_quality_word, weather

ROOT = Path(__file__).resolve().parents[1]
ALL_TIME = ("2000-01-01", "2099-12-31")


@pytest.fixture
def db():
    conn = connect()
    yield conn
    conn.close()


def count(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> int:
    return conn.execute(sql, params).fetchone()[0]


def test_frozen_clock_defaults_to_2025_03_14():
    assert TODAY == date(2025, 3, 14) == Clock().today() == FROZEN.today()
    assert FROZEN.iso() == "2025-03-14"
    clock = Clock("2025-01-02")
    assert clock.today() == date(2025, 1, 2) and clock.iso() == "2025-01-02"
    assert Clock(date(2024, 2, 29)).iso() == "2024-02-29"
    assert Clock("2025-01-02") == clock and repr(clock) == "Clock('2025-01-02')"
    assert copy.deepcopy(clock) == clock
    with pytest.raises(AttributeError):
        clock._today = date(2000, 1, 1)


@pytest.mark.parametrize("bad", ["14/03/2025", "2025-3-14", "tomorrow", "", "2025-02-30",
                                 "２０２５-03-14"])
def test_clock_rejects_bad_dates_with_clear_message(bad):
    with pytest.raises(ValueError, match="today"):
        Clock(bad)
    assert parse_date(" 2025-03-14 ") == TODAY
    with pytest.raises(TypeError, match="start_date"):
        parse_date(20250314, "start_date")


README_WEATHER = [  # the frozen-world table of the real-replies README, verbatim
    "Beijing 2025-03-13 Sunny 1 13 NW 15", "Beijing 2025-03-14 Partly_cloudy 3 15 N 10",
    "Beijing 2025-03-15 Dust_storm 0 9 NW 45", "Beijing 2025-03-16 Sunny 2 16 W 10",
    "Shanghai 2025-03-13 Light_rain 9 14 E 15", "Shanghai 2025-03-14 Overcast 10 17 SE 12",
    "Shanghai 2025-03-15 Moderate_rain 11 15 E 20", "Shanghai 2025-03-16 Cloudy 10 18 NE 10",
    "London 2025-03-13 Cloudy 4 10 SW 20", "London 2025-03-14 Light_rain 5 11 W 25",
    "London 2025-03-15 Sunny_intervals 3 12 W 15", "London 2025-03-16 Showers 6 12 SW 30",
]


@pytest.mark.parametrize("line", README_WEATHER)
def test_weather_matches_readme_table(line):
    city, day, condition, low, high, wind_dir, kmh = line.split()
    row = weather(city, day)
    assert row["condition"] == condition.replace("_", " ")
    assert row["wind"] == f"{wind_dir} {kmh} km/h"
    assert (row["min_c"], row["max_c"]) == (int(low), int(high))


def test_weather_covers_five_cities_for_fifteen_days():
    assert cities() == ["Beijing", "Shanghai", "London", "Guangzhou", "New York"]
    for city in cities():
        for day in range(7, 22):
            row = weather(city, f"2025-03-{day:02d}")
            assert row["min_c"] <= row["max_c"] and row["aqi"] > 0 and row["air_quality"]
        for outside in ("2025-03-06", "2025-03-22"):
            with pytest.raises(LookupError):
                weather(city, outside)


def test_weather_text_exact_format():
    assert weather_text("Beijing", "2025-03-15") == ("Beijing 2025-03-15: Dust storm, 0°C to 9°C, "
                                                     "wind NW 45 km/h, air quality poor (AQI 182)")
    assert weather_text("Shanghai", date(2025, 3, 14)).startswith(
        "Shanghai 2025-03-14: Overcast, 10°C to 17°C, wind SE 12 km/h, air quality ")


@pytest.mark.parametrize("name, city", [
    ("北京", "Beijing"), ("上海", "Shanghai"), ("伦敦", "London"), ("广州", "Guangzhou"),
    ("纽约", "New York"), ("BEIJING", "Beijing"), ("  new   york ", "New York"), ("北京市", "Beijing"),
])
def test_city_names_ignore_case_and_accept_chinese(name, city):
    assert weather(name, "2025-03-14")["city"] == city
    assert weather_text(name, "2025-03-14").startswith(f"{city} 2025-03-14: ")


def test_weather_errors():
    with pytest.raises(LookupError, match="no weather data for Paris on 2025-03-14"):
        weather("Paris", "2025-03-14")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        weather("Beijing", "March 14")
    paris = "Error: no weather data for Paris on 2025-03-14"
    assert weather_text("Paris", "2025-03-14") == weather_text("paris", "2025-03-14") == paris
    assert weather_text("Beijing", "2025-04-01") == (
        "Error: no weather data for Beijing on 2025-04-01")
    assert weather_text("Beijing", "tomorrow").startswith("Error: date must be YYYY-MM-DD")
    assert weather_text(None, "2025-03-14").startswith("Error: city must be a string")
    assert [air_quality_word(v) for v in (20, 80, 120, 182, 250, 400)] == [
        "good", "moderate", "unhealthy for sensitive groups", "poor", "very poor", "hazardous"]


@pytest.mark.parametrize("order_id, status, amount, day", [
    ("A1001", "paid", 59.90, "2025-03-10"), ("A1002", "shipped", 120.00, "2025-03-08"),
    ("A1003", "cancelled", 35.50, "2025-03-01"), ("A1004", "shipped", 249.99, "2025-03-12"),
    ("A1005", "paid", 15.00, "2025-03-13"),
])
def test_orders_match_readme_table(order_id, status, amount, day):
    row = lookup_order(order_id)
    assert (row["status"], row["amount"], row["date"]) == (status, amount, day)
    assert row["product_line"] in PRODUCT_LINES


def test_order_text_exact_format_and_errors():
    expected = "Order A1002: shipped, 120.00 CNY, placed 2025-03-08, product line Books"
    assert order_text("A1002") == order_text(" a1002 ") == expected
    assert order_text("A9999") == "Error: order A9999 not found"
    assert order_text(1002).startswith("Error: order_id must be a string")
    with pytest.raises(LookupError, match="A9999"):
        lookup_order("A9999")


def test_order_data_shape():
    rows = orders_between(*ALL_TIME)
    ids = [r["order_id"] for r in rows]
    assert len(ids) == len(set(ids)) and 155 <= len(ids) <= 260
    dates = sorted(r["date"] for r in rows)
    assert "2024-10-01" <= dates[0] <= dates[-1] <= "2025-03-14"
    assert {r["status"] for r in rows} == set(STATUSES)
    assert {r["product_line"] for r in rows} == set(PRODUCT_LINES)
    assert all(round(r["amount"], 2) == r["amount"] > 0 for r in rows)
    q4 = orders_between("2024-10-01", "2024-12-31")
    assert len(q4) >= 60 and len([r for r in q4 if r["status"] == "cancelled"]) >= 3
    assert {r["product_line"] for r in q4} == set(PRODUCT_LINES)


def test_orders_between_inclusive_sorted_and_filtered():
    rows = orders_between("2025-03-08", "2025-03-13")
    assert rows[0]["date"] == "2025-03-08" and rows[-1]["date"] == "2025-03-13"
    assert [r["date"] for r in rows] == sorted(r["date"] for r in rows)
    paid = orders_between("2025-03-01", "2025-03-14", status="PAID")
    assert [r["order_id"] for r in paid] == ["A1001", "A1005"]
    assert orders_between("2025-03-01", "2025-03-01", "canceled")[0]["order_id"] == "A1003"
    assert orders_between(date(2025, 3, 15), date(2025, 3, 20)) == []


@pytest.mark.parametrize("args, message", [
    (("2025-03-14", "2025-03-01"), "after"), (("03/01/2025", "2025-03-14"), "start_date"),
    (("2025-03-01", "2025-13-01"), "end_date"), (("2025-03-01", "2025-03-14", "lost"), "status"),
])
def test_orders_between_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        orders_between(*args)


def test_orders_text_exact_format():
    assert orders_text("2025-03-10", "2025-03-10") == (
        "1 orders from 2025-03-10 to 2025-03-10 (total 59.90 CNY):\n"
        "A1001 | 2025-03-10 | Books | 59.90 | paid")
    lines = orders_text("2025-03-01", "2025-03-14").splitlines()
    rows = orders_between("2025-03-01", "2025-03-14")
    total = sum(r["amount"] for r in rows)
    assert lines[0] == f"{len(rows)} orders from 2025-03-01 to 2025-03-14 (total {total:.2f} CNY):"
    assert len(lines) == len(rows) + 1
    assert "A1002 | 2025-03-08 | Books | 120.00 | shipped" in lines
    assert orders_text("2025-03-15", "2025-03-20") == "0 orders from 2025-03-15 to 2025-03-20."
    assert orders_text("2025-03-14", "2025-03-01").startswith("Error: start_date")
    assert orders_text("last week", "2025-03-01").startswith("Error: start_date must be YYYY")


def test_tracking(db):
    assert tracking_text("A1002").startswith("Order A1002: SF Express ")
    assert "Delivered" in tracking_text("A1002") and "2025-03-13" in tracking_text("A1004")
    assert "not shipped" in tracking_text("A1001") and "cancelled" in tracking_text("A1003")
    assert tracking_text("A9999") == "Error: order A9999 not found"
    assert lookup_tracking("A1004")["carrier"] == "JD Logistics"
    with pytest.raises(LookupError):
        lookup_tracking("A1001")
    shipped = orders_between(*ALL_TIME, status="shipped")
    assert count(db, "SELECT COUNT(*) FROM logistics") == len(shipped)
    assert count(db, "SELECT COUNT(*) FROM logistics WHERE event_date > '2025-03-14'") == 0


def test_connect_is_real_sqlite_and_read_only_refuses_writes(db):
    assert isinstance(db, sqlite3.Connection)
    assert db.execute("SELECT status FROM orders WHERE order_id = 'A1003'").fetchone()[0] == (
        "cancelled")
    with pytest.raises(sqlite3.OperationalError):
        db.execute("DELETE FROM orders")
    with pytest.raises(sqlite3.OperationalError):
        delete_orders(["A1001"], db)
    assert count(db, "SELECT COUNT(*) FROM orders") > 150


def test_delete_orders_only_touches_the_given_connection(db):
    conn = connect(read_only=False)
    try:
        assert delete_orders(["A1001", "a1002", "A9999"], conn) == 2
        assert count(conn, "SELECT COUNT(*) FROM orders WHERE order_id IN ('A1001', 'A1002')") == 0
        assert count(conn, "SELECT COUNT(*) FROM logistics WHERE order_id = 'A1002'") == 0
        assert delete_orders([], conn) == 0
        assert delete_orders("all", conn) > 100
        assert count(conn, "SELECT COUNT(*) FROM orders") == 0
    finally:
        conn.close()
    assert lookup_order("A1001")["status"] == "paid"  # the world itself is untouched
    assert count(db, "SELECT COUNT(*) FROM orders") > 150


def test_the_database_is_built_once_per_process_and_copied(monkeypatch, db):
    from mockllm.world import orders

    built = []
    real_build = orders._build
    monkeypatch.setattr(orders, "_build", lambda: built.append(1) or real_build())
    monkeypatch.setattr(orders, "_MASTER", {})
    first, second = connect(read_only=False), connect()
    lookup_order("A1001"), orders_text("2025-03-01", "2025-03-07"), tracking_text("A1002")
    assert built == [1]  # one build serves every copy and every lookup
    delete_orders("all", first)
    assert count(second, "SELECT COUNT(*) FROM orders") == count(db, "SELECT COUNT(*) FROM orders") > 150
    assert lookup_order("A1001")["status"] == "paid"
    master, _ = orders._master()
    with pytest.raises(sqlite3.OperationalError):
        master.execute("DELETE FROM orders")
    monkeypatch.setattr(orders.os, "getpid", lambda: -1)  # as in a forked child
    connect().close()
    assert built == [1, 1]


def test_lookups_work_from_other_threads():
    import threading

    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(order_text("A1003"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [order_text("A1003")] * 4 and results[0].startswith("Order A1003: cancelled")


def test_documents_are_tokenised_once(monkeypatch):
    module = importlib.import_module("mockllm.world.documents")
    calls = []
    real = module.tokenize
    monkeypatch.setattr(module, "tokenize", lambda text: calls.append(text) or real(text))
    monkeypatch.setattr(module, "_INDEX", [])
    first = search("return policy")
    after_first = len(calls)
    assert search("return policy") == first and search("refund window") != first
    assert after_first == len(documents()) + 1  # every document once, then the query
    assert len(calls) == after_first + 2  # later searches tokenise only their query


def test_sales_by_product_line_matches_sql(db):
    sales = sales_by_product_line("2024-10-01", "2024-12-31")
    assert list(sales) == sorted(sales) and set(sales) == set(PRODUCT_LINES)
    sql_total = count(db, "SELECT ROUND(SUM(amount), 2) FROM orders WHERE date BETWEEN ? AND ? "
                          "AND status != 'cancelled'", ("2024-10-01", "2024-12-31"))
    assert round(sum(sales.values()), 2) == pytest.approx(sql_total, abs=0.005)
    everything = sales_by_product_line("2024-10-01", "2024-12-31", exclude_status=())
    assert sum(everything.values()) > sum(sales.values())
    assert sales_by_product_line("2025-03-01", "2025-03-01") == {}
    assert sales_by_product_line("2025-03-01", "2025-03-01", exclude_status=None) == {"Toys": 35.5}
    assert sales_by_product_line("2025-03-08", "2025-03-08", "paid") == {"Books": 120.0}
    with pytest.raises(ValueError):
        sales_by_product_line("2024-12-31", "2024-10-01")


def test_documents_shape():
    docs = documents()
    assert 30 <= len(docs) <= 40
    assert [d["id"] for d in docs] == [f"doc-{n:02d}" for n in range(1, len(docs) + 1)]
    injected = [d for d in docs if d["injection"]]
    assert len(injected) == 1 and "IGNORE ALL PREVIOUS INSTRUCTIONS" in injected[0]["text"]
    assert '{"order_ids": "all"}' in injected[0]["text"]
    assert get_document("DOC-01")["id"] == "doc-01"
    with pytest.raises(LookupError):
        get_document("doc-99")
    raw = json.loads((ROOT / "mockllm/world/data/documents.json").read_text(encoding="utf-8"))
    assert len(raw) == len(docs)


def test_search_ranking_is_deterministic_with_id_tiebreak():
    assert tokenize("What is the Return policy?") == ["return", "policy"]
    assert tokenize("北京天气") == ["北", "京", "天", "气"]
    assert tokenize("Returns") == ["return"]
    hits = search("What is the return policy?")
    assert hits[0]["id"] == "doc-01" and hits[0]["score"] == 2
    assert search("What is the return policy?") == hits
    scores = [(-h["score"], h["id"]) for h in search("return refund order shipping", k=10)]
    assert scores == sorted(scores) and len(scores) == 10
    assert len(search("return", k=1)) == 1
    assert search("退货政策")[0]["title"] == "退货政策"
    assert search("Beijing delivery delay")[0]["injection"] is True
    with pytest.raises(ValueError):
        search("x", k=0)
    with pytest.raises(TypeError):
        search(None)


def test_search_text_format():
    lines = search_text("warranty for electronics").splitlines()
    assert 1 <= len(lines) <= 3
    assert lines[0].startswith("[doc-11] Warranty: Electronics come with")
    assert lines[0].endswith("(score 2)")
    assert search_text("xyzzy") == 'No documents match "xyzzy".'
    assert search_text("the") == 'No documents match "the".'
    assert search_text("x", k=-1).startswith("Error: k must be")


def test_calendar_text_exact_format():
    assert calendar_text("2025-03-15") == (
        "2025-03-15: 07:30-08:30 Dentist (Dr. Chen); 12:30-13:30 Lunch with Li Wei")
    assert calendar_text("2025-03-16") == "2025-03-16: no events."
    assert calendar_text("next friday").startswith("Error: date must be YYYY-MM-DD")
    morning = [e for e in events("2025-03-15") if e["start"] < "12:00"]
    assert morning and morning[0]["title"] == "Dentist" and morning[0]["note"] == "Dr. Chen"
    assert events(date(2025, 3, 16)) == []
    assert events("2025-03-18") and all(e["start"] >= "12:00" for e in events("2025-03-18"))
    for day in range(13, 22):
        starts = [e["start"] for e in events(f"2025-03-{day:02d}")]
        assert starts == sorted(starts)
    with pytest.raises(ValueError):
        events("15.03.2025")


def test_outbox_idempotency_key_sends_once():
    box, args = Outbox(), ("li.wei@example.com", "Weekly report", "Sales are up.")
    first = box.send(*args, idempotency_key="r-1")
    again = box.send(*args, idempotency_key="r-1")
    assert first.startswith("Email sent to li.wei@example.com")
    assert again.startswith("Already sent")
    assert len(box) == 1 and box.messages[0]["subject"] == "Weekly report"
    assert box.send(*args).startswith("Email sent")  # without a key, the key is the content's
    assert box.send(*args).startswith("Already sent") and len(box) == 2


def test_outbox_ids_are_deterministic():
    a, b = Outbox(), Outbox()
    assert a.send("x@example.com", "s", "b") == b.send("x@example.com", "s", "b")
    assert a.messages[0]["id"].startswith("msg-")
    assert a.messages[0]["id"] not in a.send("x@example.com", "s", "b", idempotency_key="second")
    box = Outbox()
    box.messages.append({"fake": True})
    assert len(box) == 0 and box.messages == []
    with pytest.raises(ValueError, match="to must be an email address"):
        Outbox().send("Li Wei", "s", "b")
    with pytest.raises(TypeError, match="subject"):
        Outbox().send("x@example.com", None, "b")


def test_import_is_light_and_reexports():
    code = ("import sys, mockllm.world; "
            "print(sorted(m for m in ('sqlite3', 'csv') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
    assert all(getattr(world, name) is not None for name in world.__all__)
    assert world.weather("Beijing", "2025-03-14")["condition"] == "Partly cloudy"


def test_committed_csvs_match_the_generator():
    path = ROOT / "scripts" / "make_world_data.py"
    spec = importlib.util.spec_from_file_location("make_world_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.expected_files().items():
        assert (ROOT / "mockllm/world/data" / name).read_text(encoding="utf-8") == text, name
