"""Generate the shop's orders.csv and logistics.csv for mockllm's offline world.

Run once; the CSVs are committed as data and the package only ever reads them.
Deterministic: every "random" choice comes from a blake2b hash of fixed parts (no `random`).

    python scripts/make_world_data.py           # (re)write mockllm/world/data/*.csv
    python scripts/make_world_data.py --check   # exit 1 if the committed files differ
"""
from __future__ import annotations

import csv
import hashlib
import io
import sys
from datetime import date, timedelta
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "mockllm" / "world" / "data"
TODAY = date(2025, 3, 14)
ORDER_FIELDS = ("order_id", "date", "product_line", "amount", "status")
LOGISTICS_FIELDS = ("order_id", "carrier", "tracking_number", "last_event", "event_date")

# The five orders every lesson (and the real-replies README) relies on: never change these.
FIXED_ORDERS = (
    ("A1001", "2025-03-10", "Books", "59.90", "paid"),
    ("A1002", "2025-03-08", "Books", "120.00", "shipped"),
    ("A1003", "2025-03-01", "Toys", "35.50", "cancelled"),
    ("A1004", "2025-03-12", "Electronics", "249.99", "shipped"),
    ("A1005", "2025-03-13", "Home", "15.00", "paid"),
)
FIXED_LOGISTICS = {
    "A1002": ("SF Express", "SF1402881733502", "Delivered, signed for by the recipient",
              "2025-03-11"),
    "A1004": ("JD Logistics", "JDV004417259031", "In transit: left the Guangzhou sorting centre",
              "2025-03-13"),
}
# Orders A0801..A1000 are spread over these months (more around Singles' Day and Christmas).
MONTH_COUNTS = ((2024, 10, 34), (2024, 11, 46), (2024, 12, 42), (2025, 1, 42), (2025, 2, 36))
# A few more March orders after the fixed five (ids A1006..).
MARCH_EXTRA_DAYS = ("2025-03-03", "2025-03-05", "2025-03-09", "2025-03-11", "2025-03-14")
LINE_WEIGHTS = {"Books": 35, "Electronics": 20, "Home": 25, "Toys": 20}
PRICE_RANGES = {"Books": (18, 160), "Electronics": (99, 1500), "Home": (25, 600), "Toys": (19, 400)}
CENTS = ("00", "00", "90", "99", "50", "80")
CARRIERS = ("SF Express", "JD Logistics", "ZTO Express", "YTO Express", "China Post EMS")
TRACKING_SHAPES = {"SF Express": ("SF", 13), "JD Logistics": ("JDV", 12), "ZTO Express": ("78", 12),
                   "YTO Express": ("YT", 13), "China Post EMS": ("11", 11)}
DELIVERED = ("Delivered, signed for by the recipient", "Delivered to a parcel locker",
             "Delivered, signed for at the reception desk")


def h(*parts: object) -> int:
    """Return a 64-bit integer that depends only on `parts` (same recipe as mockllm._hash)."""
    digest = hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def pick_weighted(weights: dict[str, int], *parts: object) -> str:
    """Pick a key of `weights` with probability proportional to its weight."""
    roll = h(*parts) % sum(weights.values())
    for key, weight in weights.items():
        if roll < weight:
            return key
        roll -= weight
    raise AssertionError("unreachable")


def day_weights(year: int, month: int) -> dict[str, int]:
    """Return each day of the month with a weight (sales peaks, Spring Festival dip)."""
    first = date(year, month, 1)
    weights = {}
    day = first
    while day.month == month:
        weight = 3 if day.weekday() >= 5 else 2
        if day == date(2024, 11, 11):
            weight = 40  # Singles' Day
        elif date(2024, 12, 18) <= day <= date(2024, 12, 24):
            weight = 6  # Christmas shopping
        elif date(2025, 1, 27) <= day <= date(2025, 2, 4):
            weight = 0  # Spring Festival holiday
        weights[day.isoformat()] = weight
        day += timedelta(days=1)
    return weights


def line_weights(month: int) -> dict[str, int]:
    """Return the product-line mix for a month (gadgets in November, toys in December)."""
    weights = dict(LINE_WEIGHTS)
    if month == 11:
        weights["Electronics"] = 30
    if month == 12:
        weights["Toys"] = 30
    return weights


def amount_for(line: str, key: str) -> str:
    """Return a shop-like price such as '59.90' for a product line."""
    low, high = PRICE_RANGES[line]
    return f"{low + h('amount', key) % (high - low + 1)}.{CENTS[h('cents', key) % len(CENTS)]}"


def status_for(day: str, key: str) -> str:
    """Return a status: older orders are shipped or cancelled, the last days may still be paid."""
    roll = h("status", key) % 100
    if roll < 10:
        return "cancelled"
    if date.fromisoformat(day) >= TODAY - timedelta(days=4) and roll < 60:
        return "paid"
    return "shipped"


def build_orders() -> list[tuple[str, str, str, str, str]]:
    """Return every order row (generated ones plus the fixed five), sorted by id."""
    drafts = []
    for year, month, count in MONTH_COUNTS:
        weights = day_weights(year, month)
        for n in range(count):
            drafts.append((pick_weighted(weights, "day", year, month, n), h("tie", year, month, n)))
    drafts.sort()
    rows = []
    for number, (day, _) in enumerate(drafts, start=801):
        rows.append(_order(f"A{number:04d}", day))
    for number, day in enumerate(MARCH_EXTRA_DAYS, start=1006):
        rows.append(_order(f"A{number:04d}", day))
    rows.extend(FIXED_ORDERS)
    return sorted(rows)


def _order(order_id: str, day: str) -> tuple[str, str, str, str, str]:
    line = pick_weighted(line_weights(int(day[5:7])), "line", order_id)
    return (order_id, day, line, amount_for(line, order_id), status_for(day, order_id))


def tracking_number(carrier: str, key: str) -> str:
    """Return a carrier-shaped tracking number."""
    prefix, length = TRACKING_SHAPES[carrier]
    return prefix + f"{h('tracking', key):020d}"[-length:]


def build_logistics(orders: list[tuple[str, str, str, str, str]]) -> list[tuple[str, ...]]:
    """Return one logistics row per shipped order."""
    rows = []
    for order_id, day, _line, _amount, status in orders:
        if status != "shipped":
            continue
        if order_id in FIXED_LOGISTICS:
            rows.append((order_id, *FIXED_LOGISTICS[order_id]))
            continue
        carrier = CARRIERS[h("carrier", order_id) % len(CARRIERS)]
        delivered = date.fromisoformat(day) + timedelta(days=2 + h("transit", order_id) % 4)
        if delivered <= TODAY:
            event, when = DELIVERED[h("event", order_id) % len(DELIVERED)], delivered
        else:
            event, when = "In transit: arrived at the regional sorting centre", TODAY
        number = tracking_number(carrier, order_id)
        rows.append((order_id, carrier, number, event, when.isoformat()))
    return rows


def render_csv(fields: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """Return CSV text with a header and '\\n' line endings."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    writer.writerows(rows)
    return out.getvalue()


def expected_files() -> dict[str, str]:
    """Return {file name: content} for every generated data file."""
    orders = build_orders()
    return {"orders.csv": render_csv(ORDER_FIELDS, orders),
            "logistics.csv": render_csv(LOGISTICS_FIELDS, build_logistics(orders))}


def main(argv: list[str]) -> int:
    """Write the CSVs, or with --check report whether the committed ones are up to date."""
    files = expected_files()
    if "--check" in argv:
        stale = [name for name, text in files.items()
                 if not (DATA_DIR / name).exists()
                 or (DATA_DIR / name).read_text(encoding="utf-8") != text]
        print("stale: " + ", ".join(stale) if stale else "world data is up to date")
        return 1 if stale else 0
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (DATA_DIR / name).write_text(text, encoding="utf-8")
        print(f"wrote {DATA_DIR / name} ({text.count(chr(10)) - 1} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
