"""Least privilege: the side-effect tools, a per-task allowlist, read-only tools, a 30-day window.

Built in lesson 09 (Safety limits). `shop_tools()` is `world_tools()` plus the two tools with side
effects, both marked dangerous (they need approval): `delete_orders`, and `send_email` (an email
cannot be called back, and it can carry data out; it is also idempotent: the outbox sends the same
email twice once, by a key of its normalised content). `allowlist` and `read_only` cut a registry down to what a task
needs, and `query_orders` answers only for the last 30 days: a check in the tool, not a wish in the prompt.
"""
from __future__ import annotations

import datetime
from typing import Iterable

from mockllm import world
from mockllm.world.email import content_key
from solutions.tools import Tool, ToolRegistry, _params, world_tools

ORDER_WINDOW_DAYS = 30
"""How far back (in days, counted from today) the order tools of a task may look."""

SIDE_EFFECT_TOOLS = frozenset({"delete_orders", "send_email"})
"""The tools that change the world: never in a read-only registry."""


idempotency_key = content_key
"""The key the outbox gives an email sent without one: sha256 of its normalised content (16 hex digits)."""


def send_email_tool(outbox: world.Outbox) -> Tool:
    """A dangerous `send_email` tool on `outbox` that sends an email once, however often it is called. Built in lesson 09 (Safety limits)."""
    if not isinstance(outbox, world.Outbox):
        raise TypeError(f"outbox must be a mockllm.world.Outbox, got {type(outbox).__name__}")

    def send_email(to: str, subject: str, body: str) -> str:
        for name, value in (("to", to), ("subject", subject), ("body", body)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string, got {type(value).__name__}")
        return outbox.send(to, subject, body)  # no key: the outbox keys the email by its content

    return Tool("send_email", "sends an email (a side effect: the same email is sent only once). "
                'Example: {"to": "li.wei@example.com", "subject": "Your order", "body": "It has shipped."}',
                _params(to=("string", "an email address"), subject=("string", "the subject line"),
                        body=("string", "the text of the email")), send_email, dangerous=True)


def delete_orders_tool(conn: object = None) -> Tool:
    """A dangerous `delete_orders` tool on `conn` (a fresh copy of the shop database by default). Built in lesson 09 (Safety limits)."""
    conn = world.connect(read_only=False) if conn is None else conn

    def delete_orders(order_ids: str | list) -> str:
        if not isinstance(order_ids, (str, list)):
            raise TypeError(f'order_ids must be a list of ids or "all", got {type(order_ids).__name__}')
        return f"Deleted {world.delete_orders(order_ids, conn)} orders"

    return Tool("delete_orders", "deletes orders for good (dangerous: a person must approve it). "
                'Example: {"order_ids": ["A1003"]}',
                _params(order_ids=("array", 'a list of order ids, or "all"')), delete_orders,
                dangerous=True)


def recent_orders_tool(clock: "world.Clock | None" = None, days: int = ORDER_WINDOW_DAYS) -> Tool:
    """`query_orders` limited to the last `days` days before today. Built in lesson 09 (Safety limits)."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise ValueError(f"days must be a whole number of days, 0 or more, got {days!r}")
    clock = world.FROZEN if clock is None else clock

    def query_orders(start_date: str, end_date: str) -> str:
        earliest = clock.today() - datetime.timedelta(days=days)
        start = world.parse_date(start_date, "start_date")
        if start < earliest:
            raise ValueError(f"this task may only see orders of the last {days} days: start_date must "
                             f"be {earliest.isoformat()} or later, got {start.isoformat()}")
        return world.orders_text(start_date, end_date)

    query = world_tools()["query_orders"]
    description = f"{query.description} Only the last {days} days are available."
    return Tool("query_orders", description, query.parameters, query_orders)


def shop_tools(clock: "world.Clock | None" = None, *, conn: object = None,
               outbox: "world.Outbox | None" = None, order_window: int | None = ORDER_WINDOW_DAYS
               ) -> ToolRegistry:
    """world_tools() with the 30-day query_orders, plus delete_orders and send_email. Built in lesson 09 (Safety limits).

    `order_window=None` leaves query_orders unlimited.
    """
    tools = [tool for tool in world_tools(clock)]
    if order_window is not None:
        tools = [recent_orders_tool(clock, order_window) if tool.name == "query_orders" else tool
                 for tool in tools]
    outbox = world.Outbox() if outbox is None else outbox
    return ToolRegistry([*tools, delete_orders_tool(conn), send_email_tool(outbox)])


def allowlist(tools: ToolRegistry, names: Iterable[str]) -> ToolRegistry:
    """Only the tools called `names`, the ones a task needs (ValueError on an unknown name). Built in lesson 09 (Safety limits)."""
    if not isinstance(tools, ToolRegistry):
        raise TypeError(f"tools must be a ToolRegistry, got {type(tools).__name__}")
    if isinstance(names, str):
        raise TypeError(f"names must be a list of tool names such as ['get_weather'], got {names!r}")
    return tools.subset(*names)


def read_only(tools: ToolRegistry) -> ToolRegistry:
    """The tools of `tools` that change nothing: no dangerous ones, no side effects. Built in lesson 09 (Safety limits)."""
    if not isinstance(tools, ToolRegistry):
        raise TypeError(f"tools must be a ToolRegistry, got {type(tools).__name__}")
    return ToolRegistry(tool for tool in tools if not tool.dangerous and tool.name not in SIDE_EFFECT_TOOLS)
