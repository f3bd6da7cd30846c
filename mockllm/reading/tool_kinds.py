"""What an offered tool is for (by keywords in its name and description), and its argument names.

Part of reading a request: the brain (`mockllm.brain`) and the quirks (`mockllm.behaviour`) both
ask it what a tool is for. Tools are resent with every request, so a tool's kind is worked out once per name and description.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from mockllm.reading.system_prompt import ToolSpec

__all__ = ["TOOL_KINDS", "tool_kind", "map_args"]


def _has(text: str, *words: str) -> bool:
    """Whether `text` holds one of `words` (ASCII words must start at a word boundary)."""
    return any(_word_re(w).search(text) if w.isascii() else w in text for w in words)


@lru_cache(maxsize=256)
def _word_re(word: str) -> re.Pattern:
    """The compiled pattern for an ASCII keyword at a word boundary."""
    return re.compile(rf"\b{word}")


_SIDE_EFFECTS = (("delete_orders", ("delete", "remove", "删除")),
                 ("send_email", ("email", "e-mail", "mail", "邮件")))
TOOL_KINDS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("delete_orders", lambda t: _has(t, "delete", "删除")),
    ("send_email", lambda t: _has(t, "send", "发送", "notify") and _has(t, "email", "e-mail", "邮件")),
    ("write_report", lambda t: _has(t, r"report\b", "报告")),
    ("order_range", lambda t: _has(t, "order", "订单")
        and _has(t, "range", "between", "start date", "start_date", "之间", "时间段")),
    ("order_lookup", lambda t: _has(t, "order", "订单") and _has(t, "status", r"id\b", "look", "状态")),
    ("calendar", lambda t: _has(t, "calendar", "event", "appointment", "schedule", "日程", "日历")),
    ("weather", lambda t: _has(t, "weather", "forecast", "天气")),
    ("date_add", lambda t: _has(t, "date", "日期") and _has(t, r"days?\b", r"add", "offset", "加")),
    ("search", lambda t: _has(t, "search", "document", "docs", "文档", "knowledge", "faq")),
    ("calculator", lambda t: _has(t, "calc", "arithmetic", "expression", "计算", "math")),
    ("date", lambda t: _has(t, "today", "current date", r"now\b", "今天", "当前日期")),
)
_SYNONYMS = {
    "city": ("city", "location", "place", "town", "城市"), "date": ("date", "day", "日期"),
    "expression": ("expression", "expr", "formula", "input", "math"),
    "order_id": ("order_id", "id", "order", "order_no", "order_number", "orderid"),
    "start_date": ("start_date", "start", "from", "from_date", "date_from", "begin"),
    "end_date": ("end_date", "end", "to", "to_date", "date_to", "until"),
    "query": ("query", "q", "keywords", "text", "search", "question"),
    "days": ("days", "n", "offset", "delta", "n_days", "num_days"),
    "title": ("title", "subject", "heading", "name"),
    "body": ("body", "content", "text", "markdown")}
def _norm(text: str) -> str:
    """Lower-case with `_` and `-` as spaces, for keyword matching."""
    return _DASHES.sub(" ", text.lower())


_DASHES = re.compile(r"[_\-]")


_CLASS_NAME = re.compile(r"(?:[A-Z][a-z0-9]++)++")
"""A name like `MathReasoning` or `Answer`: a class, as structured outputs name the response model
they send (a tool is named like a function: `calculator`, `get_weather`)."""
_ARGUMENT_NAMES = frozenset(name for names in _SYNONYMS.values() for name in names) | set(_SYNONYMS)


def tool_kind(tool: ToolSpec) -> str | None:
    """What a tool is for, by keywords in its name first, then in name + description.

    A response model is no tool: a class-like name (`MathReasoning`, `Answer`) whose parameters are
    none of the world's argument names (`steps`, `final_answer`) has no kind, whatever its name or
    description says.
    """
    params = [p.lower() for p in tool.parameters if p]
    if params and _CLASS_NAME.fullmatch(tool.name) and not _ARGUMENT_NAMES.intersection(params):
        return None
    return _kind_of(tool.name, tool.description)


@lru_cache(maxsize=1024)
def _kind_of(name: str, description: str) -> str | None:
    """`tool_kind` of a tool's name and description (memoised: tools are resent every step)."""
    low = _norm(name)
    for kind, words in _SIDE_EFFECTS:  # a tool named like a side effect is one, whatever it says
        if _has(low, *words):
            return kind
    for text in (low, _norm(f"{name} {description}")):
        for kind, matches in TOOL_KINDS:
            if matches(text):
                return kind
    return "date" if _has(low, "date", "time", "日期") else None


def map_args(tool: ToolSpec, args: dict) -> dict:
    """Rename canonical arguments ({"city": ...}) to the tool's own parameter names."""
    params = [p for p in tool.parameters if p]
    if not params:
        return dict(args)
    if len(params) == 1 and len(args) == 1:
        return {params[0]: next(iter(args.values()))}
    out, free = {}, list(params)
    for key, value in args.items():
        names = _SYNONYMS.get(key, (key,))
        match = next((p for n in names for p in free if p.lower() == n), None)
        match = match or next((p for p in free if key in p.lower() or p.lower() in key), key)
        free = [p for p in free if p != match]
        out[match] = value
    return out
