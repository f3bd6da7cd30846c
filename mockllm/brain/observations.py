"""Facts from observations: tolerant parsers for the world's text formats (weather, orders...).

The mock model learns about the world only by reading the observations fed back to it, so a
wrong tool result leads to a wrong answer, exactly as with a real model.
"""
from __future__ import annotations

import re

from mockllm.brain.knowledge import first_date

_ZH_CONDITIONS = {"dust storm": "沙尘暴", "partly cloudy": "多云", "sunny intervals": "晴间多云",
                  "overcast": "阴", "cloudy": "多云", "sunny": "晴", "clear": "晴",
                  "light rain": "小雨", "moderate rain": "中雨", "heavy rain": "大雨",
                  "showers": "阵雨", "thunderstorm": "雷阵雨", "snow": "雪", "fog": "雾",
                  "rain": "雨"}
_ZH_WIND = {"N": "北风", "S": "南风", "E": "东风", "W": "西风", "NE": "东北风", "NW": "西北风",
            "SE": "东南风", "SW": "西南风"}
ZH_STATUS = {"paid": "已支付", "shipped": "已发货", "cancelled": "已取消", "canceled": "已取消",
             "delivered": "已送达", "pending": "待处理", "refunded": "已退款"}
RAINY = re.compile(r"(?i)rain|shower|drizzle|thunder|雨")
BAD_WEATHER = re.compile(r"(?i)rain|storm|dust|snow|shower|thunder|hail|fog|sleet")
# Every pattern below runs in linear time: possessive quantifiers (`*+`, `++`) never give back
# what they matched, and a number is only tried where it starts (`(?<![\d.])`), not at each digit.
_WEATHER = re.compile(r"\s*+(?P<city>[^\n:：\d,，]*+)[,，\s]*+(?P<date>\d{4}-\d{2}-\d{2})?\s*+[:：]"
                      r"\s*+(?P<rest>.+)", re.S)
_NUMBER = r"-?(?<![\d.])\d{1,12}+(?:\.\d{1,12}+)?(?![\d.])"
_TEMPS = re.compile(rf"({_NUMBER})\s*+°?\s*+C?\s*+(?:to|-|–|~|至|到)\s*+({_NUMBER})\s*+°?\s*+C")
_WIND = re.compile(r"(?i)wind\s*+([NSEW]{1,3})?\s*+(\d{1,12}+(?:\.\d{1,12}+)?)\s*+km/?h")
_AQI = re.compile(r"(?i)AQI\D{0,3}(\d{1,6})(?!\d)")
_AIR = re.compile(r"(?i)air quality\s++([a-z]++(?: [a-z]++)?)")
_RANGE_HEAD = re.compile(r"(?i)(?<!\d)(\d{1,9}+)\s++orders?\s++(?:from|between)\s++(\S++)\s++(?:to|and)"
                         r"\s++(\d{4}-\d{2}-\d{2})(?:\s*+\(total\s++([\d,]++(?:\.\d++)?)\s*+([A-Z]{3})?)?")
_AMOUNT = re.compile(r"(\d++(?:\.\d++)?)\s*+(CNY|USD|EUR|RMB|元|¥)?")
_SEARCH = re.compile(r"\s*+\[([^\]\n]++)\]\s*+(.*)")
_SCORE = re.compile(r"\s*+\(score[^()]*+\)\s*+$")
_ORDER_HEAD = re.compile(r"(?i)order\s++([A-Za-z]\d++)\s*+[:：]\s*+([A-Za-z ]++)[,，]")
_EVENT = re.compile(r"(\d{1,2}:\d{2})\s*+[-–~]\s*+(\d{1,2}:\d{2})\s++([^;\n]++)")


def zh_condition(condition: str) -> str:
    """A Chinese name for an English weather condition ('Moderate rain' -> '中雨')."""
    low = condition.lower()
    return next((zh for en, zh in _ZH_CONDITIONS.items() if en in low), condition)


def parse_weather(obs: str) -> dict | None:
    """Facts from a weather observation: city, date, condition, low, high, wind, aqi, air."""
    if not (obs or "").strip() or re.match(r"(?i)\s*(error|错误)", obs):
        return None
    m = _WEATHER.match(obs)
    prefixed = m and not re.search(r"[\d,]", m.group("city"))   # 'Beijing 2025-03-15: ...'
    city, rest = (m.group("city").strip(), m.group("rest")) if prefixed else ("", obs)
    rest = rest.strip().rstrip(".")
    temps, wind = _TEMPS.search(rest), _WIND.search(rest)
    aqi, air = _AQI.search(rest), _AIR.search(rest)
    head = re.split(r"[,，]", rest)[0].strip()
    return {"city": city, "date": (m.group("date") if prefixed else None) or first_date(rest),
            "condition": re.match(r"[^\d,，]*", head).group(0).strip(" -~"), "rest": rest,
            "low": float(temps.group(1)) if temps else None,
            "high": float(temps.group(2)) if temps else None,
            "wind_dir": wind.group(1) if wind else None,
            "wind": float(wind.group(2)) if wind else None,
            "aqi": int(aqi.group(1)) if aqi else None, "air": air.group(1) if air else None}


def zh_weather(facts: dict) -> str:
    """A Chinese sentence for weather facts (condition, temperatures, wind)."""
    parts = [f"{zh_condition(facts['condition'])} ({facts['condition']})"]
    if facts["low"] is not None:
        parts.append(f"{_num(facts['low'])}°C 至 {_num(facts['high'])}°C")
    if facts["wind"] is not None:
        parts.append(f"{_ZH_WIND.get(facts['wind_dir'] or '', '风力')} {_num(facts['wind'])} km/h")
    if facts["aqi"] is not None:
        parts.append(f"空气质量指数 {facts['aqi']}")
    return "，".join(parts)


def _num(x: float) -> str:
    """12.0 -> '12', 12.5 -> '12.5'."""
    return str(int(x)) if float(x).is_integer() else str(x)


def parse_order(obs: str) -> dict | None:
    """Facts from an order observation: id, status, amount, currency, date, line."""
    if not obs or re.match(r"(?i)\s*error", obs):
        return None
    m = _ORDER_HEAD.search(obs)
    status = m.group(2).strip().lower() if m else None
    if status is None:
        word = re.search(r"(?i)\b(" + "|".join(ZH_STATUS) + r")\b", obs)
        status = word.group(1).lower() if word else None
    tail = re.sub(r"\d{4}-\d{2}-\d{2}|[A-Za-z]\d{3,}", " ", obs[m.end():] if m else obs)
    amount = _AMOUNT.search(tail)  # the first number that is not a date or an order id
    line = re.search(r"(?i)product line\s+([^,.;\n]+)", obs)
    oid = m.group(1) if m else next(iter(re.findall(r"\b[A-Za-z]\d{3,6}\b", obs)), None)
    return {"id": oid, "status": status,
            "amount": amount.group(1) if amount else None,
            "currency": (amount.group(2) or "CNY") if amount else "CNY",
            "date": first_date(obs), "line": line.group(1).strip() if line else None}


def parse_range(obs: str) -> dict:
    """Facts from an orders-in-range observation: count, total, currency and the order rows."""
    head = _RANGE_HEAD.search(obs or "")
    rows = []
    for line in (obs or "").splitlines():
        cells = [c.strip() for c in line.split("|", 5)]
        if len(cells) >= 5:  # an empty cell reads as '' (the amount's unit, if any, dropped)
            rows.append({"id": cells[0], "date": cells[1], "line": cells[2],
                         "amount": cells[3].split(maxsplit=1)[0] if cells[3] else "",
                         "status": cells[4].lower()})
    return {"count": int(head.group(1)) if head else len(rows),
            "start": head.group(2) if head else None, "end": head.group(3) if head else None,
            "total": head.group(4) if head else None,
            "currency": (head.group(5) if head else None) or "CNY", "rows": rows}


def parse_search(obs: str) -> list[tuple[str, str]]:
    """(doc id, text) for each search result line, best first."""
    hits = (_SEARCH.match(line) for line in (obs or "").splitlines())
    return [(m.group(1), _SCORE.sub("", m.group(2)).strip()) for m in hits if m]


_WORD = re.compile(r"[a-z0-9]++|[\u4e00-\u9fff]")
_NOT_CONTENT = frozenset(
    "what is the a an of for to do does did how can i my your our we you me it in on about please "
    "tell there are be with any some this that which who when where why will would should could "
    "search find look up check document documents docs doc give show know "
    "的 了 吗 呢 是 我 你 么 什 在 吧 啊 请 和 有 吗 怎 样 哪 个 查 找 文 档 一 下".split())


def _words(text: str) -> list[str]:
    """Content words of a text, lower-cased, a plural 's' dropped (each CJK character a word)."""
    words = (w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
             for w in _WORD.findall(text.lower()))
    return [w for w in words if w not in _NOT_CONTENT and (len(w) > 1 or w > "\u4e00")]


def relevant(question: str, text: str) -> bool:
    """Whether a search result is about the question: it holds at least half of the question's
    content words (a word also matches a longer or shorter form of itself: ship, shipping)."""
    wanted = list(dict.fromkeys(_words(question[:2000])))[:32]
    if not wanted:
        return True
    found = set(_words(text[:20000]))
    starts = {w[:k] for w in found for k in range(4, min(len(w), 12) + 1)}
    hits = sum(1 for w in wanted if w in found or (len(w) >= 4 and w[:12] in starts)
               or any(w[:k] in found for k in range(4, min(len(w), 12))))
    return 2 * hits >= len(wanted)


def parse_events(obs: str) -> list[tuple[str, str, str]]:
    """(start, end, title) for each calendar event in a calendar observation."""
    return [(a, b, t.strip().rstrip(".")) for a, b, t in _EVENT.findall(obs or "")]
