"""Checkpoints of the report task: the order list, the totals by product line, the report text.

Built in lesson 11 (Long tasks). Each validator returns the problems it found (an empty list
when the checkpoint holds), so a stage runner can stop and say why.
"""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

_ROW = re.compile(r"(?m)^\s*([A-Z]\d{3,6})\s*\|\s*(\d{4}-\d{2}-\d{2})\s*\|\s*([^|\n]+?)\s*\|"
                  r"\s*(-?\d+(?:\.\d+)?)\s*\|\s*([a-z]+)\s*$")
_HEAD = re.compile(r"(\d+) orders? from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})")
_TOTAL = re.compile(r"([A-Za-z][\w ]{0,40}?): (\d+(?:\.\d+)?) CNY")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def last_quarter(today: str) -> tuple[str, str]:
    """First and last day of the calendar quarter before the one `today` (YYYY-MM-DD) is in."""
    day = dt.date.fromisoformat(today)
    first_month = 3 * ((day.month - 1) // 3) + 1   # this quarter's first month
    end = dt.date(day.year, first_month, 1) - dt.timedelta(days=1)
    return dt.date(end.year, end.month - 2, 1).isoformat(), end.isoformat()


def order_rows(text: str) -> list[dict]:
    """The order rows of an orders listing ('A0801 | 2024-10-01 | Books | 156.90 | shipped')."""
    return [{"id": m.group(1), "date": m.group(2), "line": m.group(3), "amount": m.group(4),
             "status": m.group(5)} for m in _ROW.finditer(text or "")]


def listed_count(text: str) -> int | None:
    """How many orders a listing's first line says it holds ('122 orders from ...'), or None."""
    found = _HEAD.search(text or "")
    return int(found.group(1)) if found else None


def _decimal(value: Any) -> Decimal | None:
    """A money amount as a finite Decimal, or None when it is not one (a bool is not an amount)."""
    if isinstance(value, bool):
        return None
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return amount if amount.is_finite() else None


def is_day(value: Any) -> bool:
    """True when `value` is a day written YYYY-MM-DD that the calendar has."""
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


ORDER_KEYS = ("id", "date", "line", "amount")
"""What every order row holds (order_rows adds its status)."""


def validate_orders(rows: Any, start: str, end: str) -> list[str]:
    """Every problem of an order list: not a list of orders, a bad or out-of-range date, a bad amount, a repeated id."""
    if not isinstance(rows, list) or not rows:
        return ["the order list is empty or not a list"]
    problems, seen = [], set()
    for row in rows:
        if not isinstance(row, dict) or not set(ORDER_KEYS) <= row.keys() or not isinstance(row["id"], str):
            problems.append(f"a row is not an order ({', '.join(ORDER_KEYS)}): {row!r:.120}")
            continue
        if not is_day(row["date"]):
            problems.append(f"order {row['id']} has no date YYYY-MM-DD ({row['date']!r})")
        elif not start <= row["date"] <= end:
            problems.append(f"order {row['id']} is dated {row['date']}, outside {start} to {end}")
        if row["id"] in seen:
            problems.append(f"order {row['id']} is listed twice")
        seen.add(row["id"])
        if _decimal(row["amount"]) is None:
            problems.append(f"order {row['id']} has no amount ({row['amount']!r})")
    return problems


def kept_orders(rows: list[dict]) -> list[dict]:
    """The rows that were not cancelled."""
    return [row for row in rows if not str(row.get("status", "")).startswith("cancel")]


def amounts_by_line(rows: list[dict]) -> dict[str, list[str]]:
    """The amounts of each product line, lines in alphabetical order."""
    lines: dict[str, list[str]] = {}
    for row in sorted(rows, key=lambda r: r["line"]):
        lines.setdefault(row["line"], []).append(row["amount"])
    return lines


def line_totals(text: str) -> dict[str, str]:
    """The totals written as 'Books: 3317.01 CNY' in a text."""
    return {line.strip(): amount for line, amount in _TOTAL.findall(text or "")}


def amounts_text(lines: dict[str, list[str]]) -> str:
    """The amounts of each product line, one line each ('Books: 156.90, 89.00')."""
    return "\n".join(f"{line}: {', '.join(amounts)}" for line, amounts in lines.items())


def totals_text(totals: dict[str, str]) -> str:
    """The totals as line_totals reads them ('Books: 3317.01 CNY; Toys: 88.00 CNY')."""
    return "; ".join(f"{line}: {total} CNY" for line, total in totals.items())


def validate_totals(totals: Any, rows: list[dict]) -> list[str]:
    """Problems of the totals: a line missing or extra, or a total unequal to its orders' sum."""
    if not isinstance(totals, dict) or not totals:
        return ["the totals are empty or not a dict of product line -> amount"]
    expected = {line: sum(map(Decimal, amounts), Decimal(0))
                for line, amounts in amounts_by_line(rows).items()}
    problems = [f"product line {line} has no total" for line in expected if line not in totals]
    problems += [f"{line} is not a product line of the orders" for line in totals
                 if line not in expected]
    for line, total in totals.items():
        value = _decimal(total)
        if line in expected and (value is None or abs(value - expected[line]) > Decimal("0.005")):
            problems.append(f"{line}: {total} does not match the sum of its orders, "
                            f"{expected[line]}")
    return problems


def validate_report(text: Any, totals: dict[str, str], start: str, end: str) -> list[str]:
    """Problems of the report text: not text, the period or a line's total missing from it."""
    if not isinstance(text, str) or not text.strip():
        return ["the report is empty or not text"]
    problems = [f"the report does not give the period {start} to {end}"
                for _ in [0] if start not in text or end not in text]
    problems += [f"the report does not give {line}'s total {total}"
                 for line, total in totals.items() if f"{line}: {total}" not in text]
    return problems
