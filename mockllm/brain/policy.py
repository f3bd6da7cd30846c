"""Decide the next move: recognise the question's family, then let its handler pick a step.

`decide(conv)` is a pure function of the conversation. Each family handler (in the `HANDLERS`
table of `mockllm.brain.families`) asks for the facts it needs through a `Ctx`
(`mockllm.brain.context`): a fact already observed is returned, a missing one ends the decision
with the tool call that would fetch it. So the same code reads as a plan ("date, then weather,
then answer") and resumes at the right step each turn.
"""
from __future__ import annotations

import re
from functools import lru_cache

from mockllm.brain.calendar_families import CALENDAR_Q, asks_days_between, asks_weekday
from mockllm.brain.context import Ctx, MissingTool, Move, NextMove
from mockllm.brain.families import HANDLERS, LIVE_DATA
from mockllm.brain.facts import asks_translation, general_answer
from mockllm.brain.knowledge import day_offset, expression, find_cities, order_ids
from mockllm.brain.plan_families import HANDLERS as PLAN_HANDLERS, planning_family
from mockllm.reading.conversation import Conversation
from mockllm.reading.tool_kinds import tool_kind

__all__ = ["Move", "decide", "classify", "FAMILIES"]


FAMILIES = ("date_today", "date_offset", "arithmetic", "weather", "weather_compare", "run_advice",
            "order_status", "order_total", "orders_range", "doc_lookup", "memory_recall",
            "general", "report", "calendar", "days_between", "weekday", "translate", "live_data",
            "unknown", *PLAN_HANDLERS)
_PATTERNS = {
    "report": r"\breport\b|last quarter|product lines?|sales by|报告|季度|周报|销售额",
    "memory_recall": r"last time|previous session|earlier session|previously|do you remember"
                     r"|上次|上一次|之前问|还记得",
    "run_advice": r"\brun\b|\brunning\b|\bjog|跑步|晨跑",
    "weather": r"weather|\brain|\bsnow|\bsunny|temperature|forecast|\bwarm|\bcold|\bhot\b|\bwind"
               r"|umbrella|天气|下雨|下雪|气温|温度|冷|热|暖|凉|刮风|雨伞",
    # '(?m)^(?>.*?X).*?Y': Y after the first X of a line (after any X, then): one pass a line
    "orders_range": r"(?m)^(?>.*?\borders\b).*?\b(between|from|last|this|past|range|placed)\b"
                    r"|how many orders|(?m:^)(?>.*?订单).*?(之间|上周|本周|这周|本月|这个月|上个月|最近)"
                    r"|多少[个笔]?订单",
    "date_today": r"\bdate\b|what day|几号|日期|几月几日|星期几|\btoday\b",
    "doc_lookup": r"polic|\breturn|refund|shipping|deliver|warranty|exchange|payment|invoice"
                  r"|support|contact|opening hours|how do i|how can i|how long|\bfaq|documentation"
                  r"|look up|政策|退货|退款|发货|配送|运费|保修|发票|客服|如何|怎么|多久"}


def classify(conv: Conversation) -> str:
    """The question's family (one of FAMILIES), from its words, EN or ZH."""
    family = _question_family(conv.question)
    if family == "unknown" and any(tool_kind(t) == "search" for t in conv.tools):
        return "doc_lookup"
    return family


@lru_cache(maxsize=256)
def _question_family(q: str) -> str:
    """The family from the question alone ('unknown' may still become 'doc_lookup' by the tools)."""
    planning = planning_family(q)
    if planning:
        return planning
    if asks_translation(q):
        return "translate"
    for family in ("report", "memory_recall", "run_advice"):
        if _pattern(family).search(q):
            return family
    if _pattern("weather").search(q):
        return "weather_compare" if len(find_cities(q)) >= 2 else "weather"
    ids = order_ids(q)
    if not ids and _pattern("orders_range").search(q):
        return "orders_range"
    if ids:
        return "order_total" if len(ids) >= 2 else "order_status"
    if CALENDAR_Q.search(q):
        return "calendar"
    if asks_weekday(q):
        return "weekday"
    if asks_days_between(q):
        return "days_between"
    if LIVE_DATA.search(q):
        return "live_data"
    offset, expr = day_offset(q), expression(q)
    if offset is not None and offset != 0:
        return "date_offset"
    if expr is None and _pattern("date_today").search(q):
        return "date_today"
    if expr:
        return "arithmetic"
    if general_answer(q, False):
        return "general"
    return "doc_lookup" if _pattern("doc_lookup").search(q) else "unknown"


@lru_cache(maxsize=16)
def _pattern(family: str) -> re.Pattern:
    """The compiled question pattern of a family (case-insensitive)."""
    return re.compile(_PATTERNS[family], re.I)


def decide(conv: Conversation, *, guesses: bool = False) -> Move:
    """The next move for a conversation: a tool call or a final answer (a pure function)."""
    ctx = Ctx(conv, classify(conv), guesses)
    try:
        return (PLAN_HANDLERS.get(ctx.family) or HANDLERS[ctx.family])(ctx)
    except NextMove as nxt:
        return nxt.move
    except MissingTool as missing:
        return ctx.missing(missing.kind)
