"""Calendar families: the user's events on a day, the days until (or between) dates, a weekday.

A day named by the question is read as a date (2025-03-20, 2025年3月20日, March 20, 3月20日), a
holiday with a fixed date (Christmas, 元旦...), or a day relative to today (tomorrow, in 3 days),
which needs today's date from the date tool. Counting days and naming a weekday need no tool: a
capable model does that arithmetic itself, and says how.
"""
from __future__ import annotations

import datetime as dt
import re

from mockllm.brain.context import Ctx, MissingTool, Move, is_error
from mockllm.brain.knowledge import GUESS_TODAY, add_days, day_offset, day_word, first_date
from mockllm.brain.observations import parse_events

__all__ = ["CALENDAR_Q", "asks_days_between", "asks_weekday", "calendar", "days_between",
           "weekday"]

CALENDAR_Q = re.compile(r"(?i)\bcalendar|\bschedule|\bagenda|\bappointments?\b|\bmeetings?\b"
                        r"|\bevents?\b|日程|安排|日历|会议|约会")
_DAYS_Q = re.compile(r"(?i)how many (?:more )?days|number of days|days (?:are )?(?:left|remaining)"
                     r"|days (?:until|till|to go|since)|多少天|几天")
_WEEKDAY_Q = re.compile(r"(?i)day of the week|\bweekday\b|星期几|周几|礼拜几")
_WHAT_DAY = re.compile(r"(?i)\bwhat day\b")
_HOLIDAYS = (  # (pattern, month, day, English name, Chinese name)
    (r"christmas eve|平安夜", 12, 24, "Christmas Eve", "平安夜"),
    (r"christmas|xmas|圣诞", 12, 25, "Christmas", "圣诞节"),
    (r"new year'?s eve|跨年夜", 12, 31, "New Year's Eve", "跨年夜"),
    (r"new year|元旦", 1, 1, "New Year's Day", "元旦"),
    (r"valentine|情人节", 2, 14, "Valentine's Day", "情人节"),
    (r"halloween|万圣节", 10, 31, "Halloween", "万圣节"),
    (r"national day|国庆", 10, 1, "National Day", "国庆节"),
    (r"labou?r day|劳动节", 5, 1, "Labour Day", "劳动节"))
_HOLIDAY_RE = tuple((re.compile(p, re.I), m, d, en, zh) for p, m, d, en, zh in _HOLIDAYS)
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")
_MONTH = "(" + "|".join(f"{n}|{n[:3]}" for n in _MONTH_NAMES) + "|sept)"
_EN_DATE = re.compile(rf"(?i)\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s++(?:of\s++)?{_MONTH}\b|{_MONTH}\.?\s++"
                      rf"(\d{{1,2}})(?:st|nd|rd|th)?\b)(?:,?\s++(\d{{4}})\b)?")
_CJK_MONTH_DAY = re.compile(r"(?<![\d年])(\d{1,2})\s*+月\s*+(\d{1,2})\s*+[日号]")
_ISO_OR_CJK = re.compile(r"(?<!\d)\d{4}\s*+[-年/.]\s*+\d{1,2}\s*+[-月/.]\s*+\d{1,2}")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ZH_WEEKDAYS = "一二三四五六日"
_WEEKDAY_NAME = re.compile(r"(?i)\b(next\s++)?(monday|tuesday|wednesday|thursday|friday|saturday"
                           r"|sunday)\b|(下)?(?:星期|周|礼拜)([一二三四五六日天])")


def _holiday(question: str) -> tuple[int, int, str, str] | None:
    """(month, day, English name, Chinese name) of a fixed-date holiday the question names."""
    return next(((m, d, en, zh) for p, m, d, en, zh in _HOLIDAY_RE if p.search(question)), None)


def _english(m: re.Match) -> tuple[int, int, int | None]:
    """(month, day, year or None) of an English date match ('1 January 2000', 'Mar 20')."""
    name, day = (m.group(2), m.group(1)) if m.group(1) else (m.group(3), m.group(4))
    month = next(i for i, n in enumerate(_MONTH_NAMES, 1) if n.startswith(name.lower()[:3]))
    return month, int(day), int(m.group(5)) if m.group(5) else None


def _month_day(question: str) -> tuple[int, int] | None:
    """(month, day) written without a year: 'March 20', '20 March', '3月20日'."""
    for m in _EN_DATE.finditer(question):
        month, day, year = _english(m)
        if year is None:
            return month, day
    m = _CJK_MONTH_DAY.search(question)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _dates(question: str) -> list[str]:
    """Full dates the question writes (2025-03-20, 2025年3月20日, 1 January 2000), in order."""
    found = [(m.start(), first_date(m.group(0))) for m in _ISO_OR_CJK.finditer(question)]
    for m in _EN_DATE.finditer(question):
        month, day, year = _english(m)
        if year is not None:
            try:
                found.append((m.start(), dt.date(year, month, day).isoformat()))
            except ValueError:
                continue
    return [d for _, d in sorted(found) if d]


def _weekday_named(question: str, today: str) -> str | None:
    """The date of a weekday the question names ('on Friday', 'next Monday', '周五'): its next
    occurrence from today (today itself unless 'next' is said)."""
    m = _WEEKDAY_NAME.search(question)
    if m is None:
        return None
    index = WEEKDAYS.index(m.group(2).capitalize()) if m.group(2) else \
        _ZH_WEEKDAYS.index(m.group(4).replace("天", "日"))
    ahead = (index - dt.date.fromisoformat(today).weekday()) % 7
    return add_days(today, ahead or (7 if m.group(1) or m.group(3) else 0))


def _next(today: str, month: int, day: int) -> str | None:
    """The first `month`/`day` on or after `today` (None for a day no year has)."""
    year = int(today[:4])
    for y in (year, year + 1):
        try:
            date = dt.date(y, month, day).isoformat()
        except ValueError:
            return None
        if date >= today:
            return date
    return None


def _day_asked(ctx: Ctx, why: str) -> tuple[str | None, str]:
    """(the day the question asks about, its name: a holiday, 'Today', 'Tomorrow'... or ''),
    asking the date tool when the day is relative to today. None when the day cannot be a date."""
    q = ctx.conv.question
    dates = _dates(q)
    if dates:
        return dates[0], ""
    holiday, month_day = _holiday(q), _month_day(q)
    offset = day_word(q) or day_offset(q) or 0
    today = ctx.today(why)
    if holiday:
        return _next(today, holiday[0], holiday[1]), ctx.t(holiday[2], holiday[3])
    if month_day:
        return _next(today, *month_day), ""
    named = None if offset else _weekday_named(q, today)
    if named:
        return named, ""
    relative = {0: ("Today", "今天"), 1: ("Tomorrow", "明天"), -1: ("Yesterday", "昨天")}
    return add_days(today, offset), ctx.t(*relative[offset]) if offset in relative else ""


def calendar(ctx: Ctx) -> Move:
    """The events on the day asked about, from the calendar tool."""
    ctx.guess = ("You probably have nothing planned that day.", "你那天大概没有什么安排。")
    if ctx.tool("calendar") is None:
        raise MissingTool("calendar")
    date, _ = _day_asked(ctx, ctx.t("I need today's date to know which day you mean.",
                                    "我需要先知道今天的日期，才能确定是哪一天。"))
    if date is None:
        return ctx.final("bad_date", ctx.t("That day does not exist.", "没有这一天。"))
    obs = ctx.observe("calendar", {"date": date}, "events", ctx.t(
        f"I will check your calendar for {date}.", f"我来查看你 {date} 的日程。"))
    if is_error(obs):
        return ctx.fail(obs)
    events = parse_events(obs)
    if not events:
        return ctx.final("answer", ctx.t(f"You have nothing on your calendar on {date}.",
                                         f"你 {date} 没有安排。"),
                         ctx.t("The calendar shows no events that day.", "日程里那天没有安排。"))
    listed = "; ".join(f"{start}-{end} {title}" for start, end, title in events)
    return ctx.final("answer", ctx.t(f"On {date} you have: {listed}.", f"你 {date} 的安排：{listed}。"),
                     ctx.t("The calendar lists the day's events.", "日程里列出了当天的安排。"))


def asks_days_between(question: str) -> bool:
    """Whether the question asks how many days lie until, since or between dates."""
    return bool(_DAYS_Q.search(question)) and bool(
        _dates(question) or _holiday(question) or _month_day(question))


def _days(n: int, zh: bool) -> str:
    """'1 day', '286 days' (or '286 天')."""
    return f"{n} 天" if zh else f"{n} day" if n == 1 else f"{n} days"


def days_between(ctx: Ctx) -> Move:
    """Days between two dates, or from today until (or since) a date or holiday."""
    q = ctx.conv.question
    dates = _dates(q)
    ctx.guess = (f"About {_days(abs(_span(GUESS_TODAY, dates[0])), False)}." if dates else
                 "About a hundred days.",) * 2
    if len(dates) >= 2:
        n = _span(dates[0], dates[1])
        return ctx.final("answer", ctx.t(f"There are {_days(abs(n), False)} between {dates[0]} and "
                                         f"{dates[1]}.", f"{dates[0]} 和 {dates[1]} 相差 {abs(n)} 天。"),
                         ctx.t(f"I count the days myself: from {dates[0]} to {dates[1]} is "
                               f"{_days(abs(n), False)}.", f"我自己来数：从 {dates[0]} 到 {dates[1]} "
                                                           f"是 {abs(n)} 天。"))
    why = ctx.t("I need today's date to count the days.", "我需要先知道今天的日期才能数天数。")
    target, name = _day_asked(ctx, why)
    today = ctx.today(why)
    if target is None:
        return ctx.final("bad_date", ctx.t("That day does not exist.", "没有这一天。"))
    n, label = _span(today, target), _label(ctx, name, target)
    thought = ctx.t(f"I count the days myself: from {today} to {target} is {_days(abs(n), False)}.",
                    f"我自己来数：从 {today} 到 {target} 是 {abs(n)} 天。")
    if n >= 0:
        return ctx.final("answer", ctx.t(f"There are {_days(n, False)} left until {label}; "
                                         f"today is {today}.",
                                         f"距离{label}还有 {n} 天（今天是 {today}）。"), thought)
    return ctx.final("answer", ctx.t(f"{label} was {_days(-n, False)} ago; today is {today}.",
                                     f"{label}已经过去 {-n} 天了（今天是 {today}）。"), thought)


def _span(start: str, end: str) -> int:
    """Days from `start` to `end` (negative when `end` comes first)."""
    return (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days


def _label(ctx: Ctx, name: str, date: str) -> str:
    """'Christmas (2025-12-25)', '圣诞节（2025-12-25）', or the date alone."""
    return ctx.t(f"{name} ({date})", f"{name}（{date}）") if name else date


def asks_weekday(question: str) -> bool:
    """Whether the question asks which day of the week a date is."""
    return bool(_WEEKDAY_Q.search(question)) or bool(
        _WHAT_DAY.search(question) and (_dates(question) or _holiday(question)
                                        or _month_day(question)))


def weekday(ctx: Ctx) -> Move:
    """The weekday of the day asked about (today's date from the date tool when relative)."""
    guessed = dt.date.fromisoformat(GUESS_TODAY).weekday()
    ctx.guess = (f"It is probably a {WEEKDAYS[guessed]}.", f"大概是星期{_ZH_WEEKDAYS[guessed]}。")
    date, name = _day_asked(ctx, ctx.t("I need today's date to know which day you mean.",
                                       "我需要先知道今天的日期，才能确定是哪一天。"))
    if date is None:
        return ctx.final("bad_date", ctx.t("That day does not exist.", "没有这一天。"))
    index = dt.date.fromisoformat(date).weekday()
    label = _label(ctx, name, date)
    return ctx.final("answer", ctx.t(f"{label} is a {WEEKDAYS[index]}.",
                                     f"{label}是星期{_ZH_WEEKDAYS[index]}。"),
                     ctx.t(f"I work out the weekday of {date} myself: it is a {WEEKDAYS[index]}.",
                           f"我自己推算 {date} 是星期几：星期{_ZH_WEEKDAYS[index]}。"))
