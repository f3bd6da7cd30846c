"""Weather families: one city, two cities compared, 'good for a run?', and recalling the city
asked about in an earlier session (from the memory section of the system prompt).
"""
from __future__ import annotations

import re

from mockllm.brain.knowledge import CITIES, add_days, day_word, find_cities, first_date
from mockllm.brain.observations import BAD_WEATHER, RAINY, parse_events, parse_weather, zh_weather
from mockllm.brain.context import Ctx, MissingTool, Move

_ZH_CITY = {en: zh for zh, en in CITIES.items() if not zh.isascii()}
_RAIN_Q = re.compile(r"(?i)\brain|umbrella|下雨|雨伞|会不会下")
_COLD_Q = re.compile(r"(?i)colder|cooler|冷")
_NO_DATA = re.compile(r"(?im)^(?>.*?no ).*?data|not found|unknown city")  # one pass a line


def _city(ctx: Ctx, city: str) -> str:
    """The city's name in the question's language."""
    return _ZH_CITY.get(city, city) if ctx.zh else city


def memory_city(memory: dict[str, str]) -> str | None:
    """The city remembered from an earlier session (last_city, city, ...), if any."""
    keys = sorted((k for k in memory if "city" in k or "城市" in k),
                  key=lambda k: ("last" not in k and "previous" not in k, k))
    return memory[keys[0]] if keys else None


def weather_date(ctx: Ctx, offset: int) -> str | None:
    """The date to ask the weather tool for (None when it takes no date); may call the date tool."""
    tool = ctx.tool("weather")
    if tool is None:
        raise MissingTool("weather")
    explicit = first_date(ctx.conv.question)
    if explicit:
        return explicit
    if tool.parameters and not any(w in p.lower() for p in tool.parameters for w in ("date", "day")):
        return None
    word = {0: ("today", "今天"), 1: ("tomorrow", "明天"), -1: ("yesterday", "昨天")}.get(
        offset, (f"{offset} days from today", f"{offset} 天后") if offset > 0 else
        (f"{-offset} days ago", f"{-offset} 天前"))
    today = ctx.today(ctx.t(f"The question is about {word[0]}, so I need today's date first.",
                            f"问题问的是{word[1]}，所以我需要先知道今天的日期。"))
    return add_days(today, offset)


def fetch_weather(ctx: Ctx, city: str, date: str | None) -> str:
    """The weather observation for a city and date (or raise NextMove with the call)."""
    args = {"city": city, "date": date} if date else {"city": city}
    when = f" on {date}" if date else ""
    return ctx.observe("weather", args, "weather", ctx.t(
        f"Now I can look up the weather in {city}{when}.", f"现在可以查询{_city(ctx, city)}"
        f"{' ' + date + ' ' if date else ''}的天气了。"))


def weather_sentence(ctx: Ctx, obs: str, city: str, date: str | None) -> tuple[str, str]:
    """(rule, answer) repeating the observed weather facts, or saying there is no data."""
    facts = parse_weather(obs)
    if facts is None:
        if _NO_DATA.search(obs):
            return "no_data", ctx.t(f"There is no weather data for {city}"
                                    f"{' on ' + date if date else ''}.",
                                    f"没有{_city(ctx, city)}{' ' + date + ' ' if date else ''}的天气数据。")
        return "tool_error", ctx.t(f"I could not get the weather for {city}: {obs.strip()}",
                                   f"没能查到{_city(ctx, city)}的天气：{obs.strip()}")
    place = facts["city"] or city
    day = facts["date"] or date or ""
    if _RAIN_Q.search(ctx.conv.question):
        yes = bool(RAINY.search(facts["condition"]))
        return "answer", ctx.t(
            f"{'Yes' if yes else 'No'}, {'rain is' if yes else 'no rain is'} expected in {place} "
            f"on {day}: {facts['rest']}.",
            f"{'会' if yes else '不会'}下雨。{_city(ctx, place)} {day}：{zh_weather(facts)}。")
    return "answer", ctx.t(f"The weather in {place} on {day}: {facts['rest']}.",
                           f"{_city(ctx, place)} {day} 的天气：{zh_weather(facts)}。")


def _why(ctx: Ctx, rule: str, city: str) -> str:
    """The thought before a weather answer."""
    if rule == "no_data":
        return ctx.t(f"The weather tool has no data for {city}, so I will say so.",
                     f"天气工具没有{_city(ctx, city)}的数据，我如实说明。")
    return ctx.t("The observation has the weather I need.", "观察结果里有我需要的天气信息。")


def weather(ctx: Ctx) -> Move:
    """Date when relative, then the weather tool, then repeat its facts."""
    q = ctx.conv.question
    city = (find_cities(q) or [memory_city(ctx.conv.memory)])[0]
    if not city:
        return ctx.final("need_city", ctx.t("Which city do you mean?", "请问是哪个城市？"))
    ctx.guess = (f"It is probably sunny in {city}, around 15°C.",
                 f"{_city(ctx, city)}大概是晴天，15°C 左右。")
    date = weather_date(ctx, day_word(q))
    rule, text = weather_sentence(ctx, fetch_weather(ctx, city, date), city, date)
    return ctx.final(rule, text, _why(ctx, rule, city))


def weather_compare(ctx: Ctx) -> Move:
    """Date, weather for both cities, then compare the observed maximum temperatures."""
    a, b = find_cities(ctx.conv.question)[:2]
    ctx.guess = (f"{a} and {b} are probably about equally warm.", f"{a}和{b}的气温大概差不多。")
    date = weather_date(ctx, day_word(ctx.conv.question))
    obs = [fetch_weather(ctx, city, date) for city in (a, b)]
    facts = [parse_weather(o) for o in obs]
    parts = [weather_sentence(ctx, o, c, date)[1] for o, c in zip(obs, (a, b))]
    if any(f is None or f["high"] is None for f in facts):
        return ctx.final("answer", " ".join(parts))
    (fa, fb), cold = facts, bool(_COLD_Q.search(ctx.conv.question))
    pick = (a, fa, b, fb) if (fa["high"] < fb["high"]) == cold else (b, fb, a, fa)
    win, wf, lose, lf = pick
    if fa["high"] == fb["high"]:
        head = ctx.t(f"Both have a maximum of {fa['high']:g}°C.", f"两地最高气温都是 {fa['high']:g}°C。")
    else:
        head = ctx.t(f"{win} is {'colder' if cold else 'warmer'}: max {wf['high']:g}°C vs "
                     f"{lf['high']:g}°C in {lose}.",
                     f"{_city(ctx, win)}更{'冷' if cold else '暖和'}：最高 {wf['high']:g}°C，"
                     f"{_city(ctx, lose)}最高 {lf['high']:g}°C。")
    return ctx.final("answer", f"{head} {' '.join(parts)}", ctx.t(
        "I have the weather for both cities, so I can compare their highest temperatures.",
        "两个城市的天气都查到了，可以比较最高气温了。"))


def _run_reasons(ctx: Ctx, facts: dict, events: list[tuple[str, str, str]]) -> list[str]:
    """Why a morning run is a bad idea: weather words, AQI, wind, a morning appointment."""
    reasons = []
    if BAD_WEATHER.search(facts["condition"]):
        reasons.append(ctx.t(facts["condition"].lower(), zh_weather({**facts, "low": None,
                                                                     "wind": None, "aqi": None})))
    if (facts["aqi"] or 0) >= 150 or re.search(r"(?i)poor|unhealthy|hazard", facts["air"] or ""):
        reasons.append(ctx.t(f"air quality {facts['air'] or 'poor'} (AQI {facts['aqi']})",
                             f"空气质量差（AQI {facts['aqi']}）"))
    if (facts["wind"] or 0) >= 30:
        reasons.append(ctx.t(f"strong wind {facts['wind_dir'] or ''} {facts['wind']:g} km/h",
                             f"大风 {facts['wind']:g} km/h").replace("  ", " "))
    for start, end, title in events:
        if int(start.split(":")[0]) < 12:
            reasons.append(ctx.t(f"you have {title} at {start}-{end}",
                                 f"{start}-{end} 有安排：{title}"))
    return reasons


def run_advice(ctx: Ctx) -> Move:
    """Date, weather for the day, the calendar if offered, then yes or no with the reasons."""
    q = ctx.conv.question
    city = (find_cities(q) or [memory_city(ctx.conv.memory) or "Beijing"])[0]
    offset = day_word(q) if re.search(r"(?i)today|tomorrow|yesterday|今天|明天|后天", q) else 1
    ctx.guess = ("Yes, it will probably be fine for a run.", "应该可以，天气大概不错。")
    date = weather_date(ctx, offset)
    obs = fetch_weather(ctx, city, date)
    facts = parse_weather(obs)
    if facts is None:
        return ctx.final(*weather_sentence(ctx, obs, city, date))
    events = []
    if ctx.tool("calendar") and date:
        events = parse_events(ctx.observe("calendar", {"date": date}, "calendar", ctx.t(
            f"I should also check the calendar for the morning of {date}.",
            f"我还应该看看 {date} 上午的日程。")))
    reasons = _run_reasons(ctx, facts, events)
    place, why = _city(ctx, city), ctx.t(
        "I have the weather" + (" and the calendar" if ctx.tool("calendar") else "")
        + ", so I can judge the morning.", "天气" + ("和日程" if ctx.tool("calendar") else "")
        + "都清楚了，可以判断了。")
    if reasons:
        return ctx.final("answer", ctx.t(
            f"No, the morning of {date} is not good for a run in {place}: {', '.join(reasons)}.",
            f"不适合。{date} 上午在{place}跑步不合适：{'，'.join(reasons)}。"), why)
    return ctx.final("answer", ctx.t(
        f"Yes, the morning of {date} looks good for a run in {place}: {facts['rest']}.",
        f"适合。{date} 上午适合在{place}跑步：{zh_weather(facts)}。"), why)


def memory_recall(ctx: Ctx) -> Move:
    """Use the remembered city; with a new city named, check its weather and mention the old one."""
    remembered = memory_city(ctx.conv.memory)
    named = [c for c in find_cities(ctx.conv.question) if c != remembered]
    note = ctx.t(f"Last time you asked about {remembered} (from memory).",
                 f"上次你问的是{_city(ctx, remembered)}（来自记忆）。") if remembered else ctx.t(
        "I have no record of the city you asked about last time.", "我没有你上次所问城市的记录。")
    ctx.guess = ("I think it was Beijing.", "我猜是北京。")
    if not named and not remembered:
        if ctx.guesses:
            return ctx.missing("memory")
        return ctx.final("no_memory", ctx.t(
            "I don't know: I have no memory of earlier sessions.", "我不知道：我没有之前会话的记忆。"),
            ctx.t("Nothing in my context says what was asked before.", "上下文里没有之前问题的记录。"))
    city = named[0] if named else remembered
    if not named and not re.search(r"(?i)weather|天气|check|查", ctx.conv.question):
        return ctx.final("answer", note, ctx.t("The memory section tells me the city.",
                                               "记忆部分告诉了我这个城市。"))
    date = weather_date(ctx, day_word(ctx.conv.question))
    rule, text = weather_sentence(ctx, fetch_weather(ctx, city, date), city, date)
    return ctx.final(rule, f"{note} {text}" if named else f"{text} {note}", ctx.t(
        "I have the weather, and my memory says which city was asked about before.",
        "天气查到了，记忆里也有上次问的城市。") if remembered else None)
