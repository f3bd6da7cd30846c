"""The offline world the course's tools talk to: a frozen clock, weather, a shop's orders
(SQLite), documents to search, a calendar and an email outbox. Deterministic and import-light:
data files are read, and the database built, only on first use.

Note: `mockllm.world.weather` (the attribute) is the `weather()` function; the module is
`mockllm.world.weather` in `sys.modules` (use `from mockllm.world.weather import ...`).
"""
from __future__ import annotations

from .calendar import calendar_text, events
from .clock import FROZEN, TODAY, Clock, parse_date
from .documents import documents, get_document, search, search_text, tokenize
from .email import Outbox
from .orders import (
    PRODUCT_LINES,
    STATUSES,
    connect,
    delete_orders,
    lookup_order,
    lookup_tracking,
    order_text,
    orders_between,
    orders_text,
    sales_by_product_line,
    tracking_text,
)
from .weather import air_quality_word, canonical_city, cities, weather, weather_text

__all__ = [
    "TODAY", "Clock", "FROZEN", "parse_date",
    "weather", "weather_text", "cities", "canonical_city", "air_quality_word",
    "PRODUCT_LINES", "STATUSES", "connect", "lookup_order", "orders_between", "order_text",
    "orders_text", "lookup_tracking", "tracking_text", "sales_by_product_line", "delete_orders",
    "documents", "get_document", "search", "search_text", "tokenize",
    "events", "calendar_text",
    "Outbox",
]
