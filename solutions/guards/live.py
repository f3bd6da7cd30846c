"""Refuse once a final answer that no tool supports, when the question needs live data.

Built in lesson 05 (Failure clinic). The prompt rule "for live data you must call a tool" works
on most models; this check catches the ones it does not, from the trace.
"""
from __future__ import annotations

import re
from typing import Any

LIVE_DATA = re.compile(
    r"\b(?:today|tomorrow|yesterday|now|current|date|day|weather|forecast|rain|snow|temperature"
    r"|orders?|calendar|appointments?|schedule|free)\b|今天|明天|昨天|现在|日期|几号|天气|下雨|气温|订单|日程",
    re.IGNORECASE)
"""Words of questions whose answer changes with the world: dates, weather, orders, the calendar."""
LIVE_DATA_NOTE = ("Error: you answered without calling a tool, but this question needs live data "
                  "(dates, weather, orders, calendar) that only a tool can give. Use the format: "
                  "call a tool first (Action and Action Input), then write the Final Answer from "
                  "its Observation.")
"""The corrective message after an unsupported answer to a live-data question (sent once)."""


def needs_live_data(question: str) -> bool:
    """True when `question` asks about dates, weather, orders or the calendar. Built in lesson 05 (Failure clinic)."""
    return bool(LIVE_DATA.search(question[:4000]))


def live_data_refusal(question: str, steps: list[Any]) -> str | None:
    """LIVE_DATA_NOTE when the run's answer came without any tool call to a live-data question, once; else None. Built in lesson 05 (Failure clinic)."""
    if not needs_live_data(question) or any(step.observation is not None for step in steps):
        return None
    if any(step.error == LIVE_DATA_NOTE for step in steps):
        return None  # told once: a second answer stands, and the trace shows both
    return LIVE_DATA_NOTE
