"""What the mock model knows: values in a question (dates, offsets, cities, order ids,
expressions) and date arithmetic. General facts are in `mockllm.brain.facts`.

Pure text functions used by `mockllm.brain.policy` and the family modules. Facts about the world
come only from observations (read by `mockllm.brain.observations`), never from the world's data.
"""
from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from mockllm.reading.python_text import parse_expression

GUESS_TODAY = "2024-06-01"   # the date a model without a clock tool believes it is
ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_CJK_DATE = re.compile(r"(?<!\d)(\d{4})\s*+[年/.]\s*+(\d{1,2})\s*+[月/.]\s*+(\d{1,2})")
_ORDER_ID = re.compile(  # A1002, ORD-1003, #1003, order 123456, order no. 1003, 订单123456
    r"(?<![A-Za-z0-9])([A-Za-z]\d{3,6})(?![0-9])|\b((?i:ord|order|po)-\d{3,10})(?![\d-])"
    r"|#(\d{3,12})(?![\d-])|(?i:\border(?:s)?\s*+(?:number|no\.?|id)?\s*+[:：#]?\s*+)(\d{3,12})"
    r"(?![\d./-])|订单\s*+(?:号|编号)?\s*+[:：#]?\s*+(\d{3,12})(?![\d./-])")
_MORE_IDS = re.compile(r"\s*+(?:,|\band\b|&|和|、)\s*+#?(\d{3,12})(?![\d./-])")
_EN_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "fourteen": 14, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
           "sixty": 60, "ninety": 90, "hundred": 100}
_ZH_DIGIT = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9}
_NUM = r"(\d{1,6}+|[零一二两三四五六七八九十百]{1,8}+|" + "|".join(_EN_NUM) + r")"
"""A count: a number is tried only where it starts (see _OFFSET_ZH), and a long one is no count."""
_UNIT = {"day": 1, "days": 1, "week": 7, "weeks": 7, "天": 1, "日": 1, "周": 7, "星期": 7,
         "个星期": 7, "礼拜": 7}
_OFFSET_EN = re.compile(rf"(?i)\b(?:in\s++)?{_NUM}\s++(days?|weeks?)\s*+(from now|from today|later|"
                        r"after today|after|hence|ahead|ago|before today|before|earlier|back)?")
_OFFSET_ZH = re.compile(rf"(?<![\d零一二两三四五六七八九十百]){_NUM}\s*+(个星期|天|日|周|星期|礼拜)\s*+"
                        r"(后|以后|之后|前|以前|之前)")
_DAY_WORDS = (("day after tomorrow", 2), ("day before yesterday", -2), ("大后天", 3), ("后天", 2),
              ("前天", -2), ("tomorrow", 1), ("明天", 1), ("明日", 1), ("yesterday", -1),
              ("昨天", -1), ("昨日", -1), ("today", 0), ("今天", 0), ("今日", 0))
CITIES = {"beijing": "Beijing", "北京": "Beijing", "shanghai": "Shanghai", "上海": "Shanghai",
          "london": "London", "伦敦": "London", "paris": "Paris", "巴黎": "Paris",
          "tokyo": "Tokyo", "东京": "Tokyo", "new york": "New York", "纽约": "New York",
          "guangzhou": "Guangzhou", "广州": "Guangzhou", "shenzhen": "Shenzhen", "深圳": "Shenzhen",
          "berlin": "Berlin", "柏林": "Berlin", "hangzhou": "Hangzhou", "杭州": "Hangzhou"}
_CITY_RE = re.compile("|".join(sorted(map(re.escape, CITIES), key=len, reverse=True)), re.I)
_CITY_GUESS = re.compile(r"\b(?:in|for|at)\s++([A-Z][a-z]++(?:\s[A-Z][a-z]++)?)")

_MONTHS = ("", "January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def month_days(year: int, month: int) -> int:
    """Number of days in a month."""
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    return (nxt - dt.timedelta(days=1)).day


@lru_cache(maxsize=1024)
def first_date(text: str) -> str | None:
    """The first date in `text` as YYYY-MM-DD (accepts 2025-3-14 and 2025年3月14日)."""
    for pattern in (ISO, _CJK_DATE):
        for m in pattern.finditer(text or ""):
            found = m.group(0)
            try:
                if pattern is ISO and len(found) == 10 and found.isascii():
                    dt.date.fromisoformat(found)  # already YYYY-MM-DD: only check the day exists
                    return found
                return dt.date(*map(int, m.groups())).isoformat()
            except ValueError:
                continue
    return None


def all_dates(text: str) -> list[str]:
    """Every valid YYYY-MM-DD date in `text`, in order."""
    return [d for d in (first_date(m.group(0)) for m in ISO.finditer(text)) if d]


@lru_cache(maxsize=1024)
def add_days(iso: str, days: int) -> str:
    """`iso` plus `days` days, as YYYY-MM-DD."""
    return (dt.date.fromisoformat(iso) + dt.timedelta(days=days)).isoformat()


def days_text(n: int) -> str:
    """'1 day', '50 days'."""
    return f"{n} day" if abs(n) == 1 else f"{n} days"


def count_steps(iso: str, days: int, zh: bool) -> str:
    """Explain counting `days` days from `iso` month by month (17 left in March, 30 in April...)."""
    day = dt.date.fromisoformat(iso)
    if days < 0:
        return f"从 {iso} 往回数 {-days} 天" if zh else f"counting back {days_text(-days)} from {iso}"
    parts, left, first = [], days, True
    while left > 0:
        in_month = month_days(day.year, day.month) - (day.day if first else 0)
        take = min(in_month, left)
        name = f"{day.month}月" if zh else _MONTHS[day.month]
        if zh:
            parts.append(f"{name}{'还剩' if first else ''} {take} 天")
        else:
            parts.append(f"{days_text(take)} {'left ' if first else ''}in {name}")
        left -= take
        day, first = (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1), False
    return ("，".join(parts)) if zh else ", ".join(parts)


def number(word: str) -> int | None:
    """An integer from digits, an English number word or Chinese numerals (三, 五十, 两百)."""
    word = word.lower()
    if word.isdigit():
        return int(word) if len(word) <= 6 else None
    if word in _EN_NUM:
        return _EN_NUM[word]
    total, current = 0, 0
    for ch in word:
        if ch in _ZH_DIGIT:
            current = _ZH_DIGIT[ch]
        elif ch in "十百":
            total += (current or 1) * (10 if ch == "十" else 100)
            current = 0
        else:
            return None
    return total + current


MAX_OFFSET = 100_000
"""Days: a longer offset is no date question (it would leave the calendar)."""


@lru_cache(maxsize=1024)
def day_offset(question: str) -> int | None:
    """A relative day count asked for ('50 days from now' -> 50, '三天后' -> 3, 'a week ago' -> -7)."""
    for m in _OFFSET_ZH.finditer(question):
        n = number(m.group(1))
        if n is not None and n * _UNIT[m.group(2)] <= MAX_OFFSET:
            return n * _UNIT[m.group(2)] * (-1 if "前" in m.group(3) else 1)
    for m in _OFFSET_EN.finditer(question):
        n, relation = number(m.group(1)), (m.group(3) or "").lower()
        bare_in = m.group(0).lower().startswith("in") and "how many" not in question.lower()
        if n is not None and (relation or bare_in) and n * _UNIT[m.group(2).lower()] <= MAX_OFFSET:
            sign = -1 if relation in ("ago", "before today", "before", "earlier", "back") else 1
            return n * _UNIT[m.group(2).lower()] * sign
    for word, n in _DAY_WORDS[:-3]:
        if re.search(rf"(?i)\b{word}\b" if word.isascii() else word, question):
            return n
    return None


@lru_cache(maxsize=1024)
def day_word(question: str) -> int:
    """Days from today named by the question (tomorrow -> 1, 昨天 -> -1); 0 when none."""
    for word, n in _DAY_WORDS:
        if re.search(rf"(?i)\b{word}\b" if word.isascii() else word, question):
            return n
    return 0


def find_cities(text: str) -> list[str]:
    """City names in `text`, in order of appearance, English spelling, without repeats."""
    found = [CITIES[m.group(0).lower()] for m in _CITY_RE.finditer(text)]
    if not found:
        found = [m.group(1) for m in _CITY_GUESS.finditer(text)]
    return list(dict.fromkeys(found))


def order_ids(text: str) -> list[str]:
    """Order ids in `text` (A1002, ORD-1003, #1003, 'order 123456' and the numbers listed after
    it), upper-cased, without a '#', in order, without repeats."""
    found = []
    for m in _ORDER_ID.finditer(text):
        found.append(next(g for g in m.groups() if g).upper())
        end = m.end()
        while m.group(4) or m.group(5):  # 'orders 1001 and 1002': the numbers that follow
            more = _MORE_IDS.match(text, end)
            if more is None:
                break
            found.append(more.group(1))
            end = more.end()
    return list(dict.fromkeys(found))


MAX_EXPRESSION = 200
"""Characters: a longer expression is not worked out in the model's head."""


def safe_eval(expr: str) -> float | None:
    """Evaluate + - * / ** and parentheses on numbers by walking the AST (no eval).

    None for anything else, and for an expression longer than MAX_EXPRESSION characters.
    """
    if len(expr) > MAX_EXPRESSION:
        return None
    import ast  # only needed when guessing without a calculator

    ops = {ast.Add: float.__add__, ast.Sub: float.__sub__, ast.Mult: float.__mul__,
           ast.Div: float.__truediv__, ast.Pow: float.__pow__}

    def walk(node: ast.AST) -> float:
        """The value of one node (ValueError for anything but numbers and operators)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -walk(node.operand) if isinstance(node.op, ast.USub) else walk(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 64:
                raise ValueError("power too large")
            return ops[type(node.op)](left, right)
        raise ValueError("unsupported")
    try:
        return walk(parse_expression(expr).body)
    except (ValueError, SyntaxError, ZeroDivisionError, OverflowError, RecursionError):
        return None


_FULLWIDTH = str.maketrans("（）＋－＊／×÷０１２３４５６７８９．", "()+-*/*/0123456789.")
_DEC = r"(?<![\d.])(\d++(?:\.\d++)?)"  # a decimal, tried only where it starts: linear time
_WORD_OPS = tuple((re.compile(p, re.I), repl) for p, repl in (
    (rf"{_DEC}\s*+(?:%|percent|per cent)\s*+of\s*+{_DEC}", r"\1 / 100 * \2"),
    (rf"{_DEC}\s*+的\s*+{_DEC}\s*+次方", r"\1 ** \2"),
    (rf"{_DEC}\s*+squared", r"\1 ** 2"), (rf"{_DEC}\s*+cubed", r"\1 ** 3"),
    (r"to the power of|raised to(?: the power of)?|\^", " ** "),
    (r"multiplied by|\btimes\b|乘以|乘|(?<=\d)\s*+[xX]\s*+(?=\d)", " * "),
    (r"divided by|除以", " / "), (r"\bplus\b|加上|加", " + "), (r"\bminus\b|减去|减", " - ")))
_SPAN = re.compile(r"[\d.()+\-*/ ]++")
_HAS_OP = re.compile(r"[\d)]\s*+(?:\*\*|[-+*/])\s*+[\d(]")
_POWER = re.compile(r"((?<![\d.])\d++(?:\.\d++)?|\([^()]*+\))\s*+\*\*\s*+(\d{1,6}+)(?![\d.])")


@lru_cache(maxsize=1024)
def expression(question: str) -> str | None:
    """The arithmetic expression in a question ('2 to the power of 10' -> '2 ** 10')."""
    s = _ORDER_ID.sub(" ", ISO.sub(" ", question.translate(_FULLWIDTH)))
    for pattern, repl in _WORD_OPS:
        s = pattern.sub(repl, s)
    spans = [m.group(0) for m in _SPAN.finditer(s) if _HAS_OP.search(m.group(0))]
    if not spans:
        return None
    span = _balanced(max(spans, key=len).rstrip(" .+-*/").lstrip(" .+*/"))
    return re.sub(r"\s+", " ", span) or None


def _balanced(span: str) -> str:
    """`span` without the unmatched '(' it starts with and the unmatched ')' it ends with."""
    start, end = 0, len(span)
    opened, closed = span.count("("), span.count(")")
    while start < end and span[start] == "(" and opened > closed:
        start, opened = start + 1, opened - 1
        while start < end and span[start].isspace():
            start += 1
    while end > start and span[end - 1] == ")" and closed > opened:
        end, closed = end - 1, closed - 1
        while end > start and span[end - 1].isspace():
            end -= 1
    return span[start:end]


def expand_powers(expr: str) -> str | None:
    """Rewrite `a ** n` as repeated multiplication ('2 ** 3' -> '2 * 2 * 2'); None if none."""
    def repeat(m: re.Match) -> str:
        """One `a ** n` written as n factors."""
        n = int(m.group(2))
        return " * ".join([m.group(1)] * n) if 0 < n <= 64 else ("1" if n == 0 else m.group(0))
    out = _POWER.sub(repeat, expr)
    return None if out == expr or "**" in out else out


def month_range(year: int, month: int) -> tuple[str, str]:
    """First and last day of a month, as YYYY-MM-DD."""
    last = month_days(year, month)
    return dt.date(year, month, 1).isoformat(), dt.date(year, month, last).isoformat()


def last_quarter_months(today: str) -> list[tuple[str, str]]:
    """(start, end) of each month of the calendar quarter before `today`'s quarter."""
    day = dt.date.fromisoformat(today)
    first = 3 * ((day.month - 1) // 3) + 1 - 3
    year = day.year - (1 if first < 1 else 0)
    first = first + 12 if first < 1 else first
    return [month_range(year, m) for m in range(first, first + 3)]


_RANGES = (
    (r"last week|上周|上个星期|上星期", "last_week"), (r"this week|本周|这周|这个星期", "this_week"),
    (r"last month|上个月|上月", "last_month"), (r"this month|本月|这个月", "this_month"),
    (r"last quarter|上季度|上个季度", "last_quarter"), (r"this year|今年", "this_year"),
    (r"(?:last|past)\s++(\d{1,5})\s++days|最近\s*+(\d{1,5})\s*+天", "last_n"),
    (r"yesterday|昨天", "yesterday"), (r"today|今天", "today"))


def relative_range(question: str) -> str | None:
    """The name of a relative date range in the question ('last_week', 'this_month'...)."""
    return next((name for p, name in _RANGES if re.search(p, question, re.I)), None)


def date_range(question: str, today: str | None) -> tuple[str, str] | None:
    """(start, end) asked for: two explicit dates, or a relative range resolved from `today`."""
    dates = all_dates(question)
    if len(dates) >= 2:
        return dates[0], dates[1]
    name = relative_range(question)
    if name is None or today is None:
        return (dates[0], dates[0]) if dates else None
    day = dt.date.fromisoformat(today)
    monday = day - dt.timedelta(days=day.weekday())
    if name == "last_week":
        return (monday - dt.timedelta(7)).isoformat(), (monday - dt.timedelta(1)).isoformat()
    if name == "this_week":
        return monday.isoformat(), today
    if name in ("this_month", "this_year"):
        return day.replace(day=1, month=1 if name == "this_year" else day.month).isoformat(), today
    if name == "last_month":
        prev = day.replace(day=1) - dt.timedelta(days=1)
        return month_range(prev.year, prev.month)
    if name == "last_quarter":
        months = last_quarter_months(today)
        return months[0][0], months[-1][1]
    if name == "last_n":
        n = int(next(g for g in re.search(_RANGES[6][0], question, re.I).groups() if g))
        return add_days(today, -(n - 1)), today
    return (add_days(today, -1),) * 2 if name == "yesterday" else (today, today)
