"""The question families: for each, the steps a careful agent takes and the answer it gives.

Each handler reads like a plan. `ctx.observe(...)` returns a fact observed earlier in the run, or
stops the handler with the tool call that fetches it; so each turn resumes where the run is.
Weather families live in `mockllm.brain.weather_families`, order families (and the long report task)
in `mockllm.brain.order_families`; this module holds the rest and the `HANDLERS` table.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from mockllm.brain.calendar_families import calendar, days_between, weekday
from mockllm.brain.facts import general_answer, translation
from mockllm.brain.knowledge import (GUESS_TODAY, add_days, count_steps, day_offset, days_text,
                                     expand_powers, expression, first_date, safe_eval)
from mockllm.brain.observations import parse_search, relevant
from mockllm.brain.context import Ctx, Move, is_error
from mockllm.brain.order_families import order_status, order_total, orders_range, report
from mockllm.brain.weather_families import memory_recall, run_advice, weather, weather_compare

_STOP = set("what is the a an of for to do does did how can i my your our we you me it in on "
            "about please tell there are be with".split())
LIVE_DATA = re.compile(r"(?i)\bstock price|\bshare price|\bstocks? (?:market|today)|exchange rate"
                       r"|\bnews\b|headlines|\bscore of the|\btraffic\b|flight status|bitcoin"
                       r"|股价|汇率|新闻|头条")
"""Live data no tool of the course's world serves (prices, news, scores, traffic)."""
_IN_HEAD = re.compile(r"\*\*|[-+*/]")
_DIGITS = re.compile(r"\d++")


def _fmt(value: float | None) -> str:
    """A number as a calculator would print it (66.0 -> '66')."""
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def date_today(ctx: Ctx) -> Move:
    """Call the date tool, then answer with the observed date."""
    ctx.guess = (f"Today is {GUESS_TODAY}.", f"今天是 {GUESS_TODAY}。")
    today = ctx.today(ctx.t("I need today's date, so I will ask the date tool.", "我需要查询今天的日期。"))
    return ctx.final("answer", ctx.t(f"Today is {today}.", f"今天是 {today}。"),
                     ctx.t("The date tool told me today's date.", "日期工具告诉了我今天的日期。"))


def _offset_answer(ctx: Ctx, base: str, n: int, target: str, today: bool = True) -> str:
    """'Today is X, and 50 days from now is Y.' (or '50 days after X is Y.'), EN or ZH."""
    days = days_text(abs(n))
    if ctx.zh:
        start = f"今天是 {base}，" if today else f"{base} 的"
        return f"{start}{abs(n)} 天{'后' if n > 0 else '前'}是 {target}。"
    if not today:
        return f"{days} {'after' if n > 0 else 'before'} {base} is {target}."
    return f"Today is {base}, and {days} {'from now is' if n > 0 else 'ago was'} {target}."


def date_offset(ctx: Ctx) -> Move:
    """Date, then a date tool or the calculator; when neither works, count the days myself."""
    n, given = day_offset(ctx.conv.question) or 0, first_date(ctx.conv.question)
    ctx.guess = (_offset_answer(ctx, GUESS_TODAY, n, add_days(GUESS_TODAY, n)),) * 2
    verb = ctx.t(f"add {days_text(n)}" if n > 0 else f"count back {days_text(-n)}",
                 f"加上 {n} 天" if n > 0 else f"往前数 {-n} 天")
    prep = ctx.t(" to" if n > 0 else " from", "")
    base = given or ctx.today(ctx.t(f"I need today's date before I can {verb}.",
                                    f"我需要先知道今天的日期，才能{verb}。"))
    how = ctx.t("I have no tool that adds days to a date", "我没有给日期加天数的工具")
    if ctx.tool("date_add"):
        obs = ctx.observe("date_add", {"date": base, "days": n}, "add_days",
                          ctx.t(f"Now I can {verb}{prep} {base} with the date tool.",
                                f"现在用日期工具给 {base} {verb}。"))
        how = ctx.t("The date tool failed", "日期工具出错了")
    elif ctx.tool("calculator"):
        sign = f"+ {days_text(n)}" if n >= 0 else f"- {days_text(-n)}"
        obs = ctx.observe("calculator", {"expression": f"{base} {sign}"}, "try_calculator",
                          ctx.t(f"I will ask the calculator to {verb}{prep} {base}.",
                                f"我试试用计算器给 {base} {verb}。"))
        how = ctx.t("The calculator cannot add days to a date", "计算器不能给日期加天数")
    else:
        obs = ""
    if first_date(obs) and not is_error(obs):
        return ctx.final("answer", _offset_answer(ctx, base, n, first_date(obs), not given),
                         ctx.t("The tool gave me the new date.", "工具给出了新的日期。"))
    thought = ctx.t(f"{how}, so I will count them myself: {count_steps(base, n, False)}.",
                    f"{how}，所以我自己来数：{count_steps(base, n, True)}。")
    return ctx.final("compute_myself", _offset_answer(ctx, base, n, add_days(base, n), not given),
                     thought)


def _small(expr: str, value: float | None) -> bool:
    """Whether an expression is small enough to work out in one's head: at most four operators,
    numbers of at most four digits, a result below a billion."""
    return (value is not None and abs(value) < 1e9 and len(_IN_HEAD.findall(expr)) <= 4
            and all(len(d) <= 4 for d in _DIGITS.findall(expr)))


def arithmetic(ctx: Ctx) -> Move:
    """Calculator on the question's expression; retry once without `**` if it is refused.

    Without a calculator, a small expression is worked out in the model's head, as any capable
    model would; a larger one is refused rather than guessed.
    """
    expr = expression(ctx.conv.question) or ""
    value = safe_eval(expr)
    ctx.guess = (f"{expr} = {_fmt(value)}",) * 2
    if ctx.tool("calculator") is None and not ctx.guesses and _small(expr, value):
        return ctx.final("in_head", ctx.t(f"{expr} = {_fmt(value)}", f"{expr} 的结果是 {_fmt(value)}。"),
                         ctx.t("This is small enough to work out in my head.",
                               "这个算式很简单，我心算就行。"))
    obs = ctx.observe("calculator", {"expression": expr}, "calculate",
                      ctx.t(f"I should compute {expr} with the calculator.",
                            f"我应该用计算器计算 {expr}。"))
    alt = expand_powers(expr) if is_error(obs) else None
    if alt:
        obs = ctx.observe("calculator", {"expression": alt}, "retry_without_power", ctx.t(
            f"The calculator refused '**', so I will write the power as a multiplication: {alt}.",
            f"计算器不接受“**”，我把乘方写成连乘：{alt}。"))
    if is_error(obs):
        return ctx.fail(obs)
    return ctx.final("answer", ctx.t(f"{expr} = {obs.strip()}", f"{expr} 的结果是 {obs.strip()}。"),
                     ctx.t(f"The calculator returned {obs.strip()}.", f"计算器返回了 {obs.strip()}。"))


def _query(question: str) -> str:
    """Search words from a question: its content words, without question words."""
    words = re.findall(r"[\w\u4e00-\u9fff%-]+", question.lower())
    kept = [w for w in words if w not in _STOP]
    return " ".join(kept) or question.strip()


def doc_lookup(ctx: Ctx) -> Move:
    """Search the documents, answer by quoting the best match."""
    ctx.guess = ("Usually within 7 days.", "通常在 7 天之内。")
    obs = ctx.observe("search", {"query": _query(ctx.conv.question)}, "search",
                      ctx.t("I should look this up in the documents.", "我应该在文档里查一下。"))
    hits = parse_search(obs)
    if not hits:
        return ctx.final("not_found", ctx.t(
            f"I could not find anything about that in the documents ({obs.strip()}).",
            f"文档里没有找到相关内容（{obs.strip()}）。"))
    doc, text = hits[0]
    if not relevant(ctx.conv.question, text):
        return ctx.final("not_relevant", ctx.t(
            f"I searched the documents, but found nothing relevant to your question (the best "
            f"match, {doc}, is about something else).",
            f"我搜索了文档，但没有找到与你的问题相关的内容（最接近的 {doc} 讲的是别的事）。"),
            ctx.t(f"The best match, {doc}, does not answer the question.",
                  f"最接近的文档 {doc} 并不回答这个问题。"))
    return ctx.final("answer", ctx.t(f"According to {doc}: {text}", f"根据文档 {doc}：{text}"),
                     ctx.t(f"The best match, {doc}, answers the question.",
                           f"最相关的文档 {doc} 回答了这个问题。"))


def general(ctx: Ctx) -> Move:
    """Answer from general knowledge, no tool needed."""
    return ctx.final("answer", general_answer(ctx.conv.question, ctx.zh) or "",
                     ctx.t("This is general knowledge; no tool is needed.", "这是常识，不需要工具。"))


def translate(ctx: Ctx) -> Move:
    """Translate a common phrase from memory; no tool needed."""
    rule, answer = translation(ctx.conv.question, ctx.zh) or ("unknown_phrase", ctx.t(
        "I'm not sure what to translate, or into which language.", "我不确定要翻译什么，或翻译成哪种语言。"))
    return ctx.final(rule, answer, ctx.t("Translating a common phrase needs no tool.",
                                         "翻译常用语不需要工具。"))


def live_data(ctx: Ctx) -> Move:
    """Say that no offered tool serves this kind of live data."""
    return ctx.final("no_tool", ctx.t(
        "I have no access to live data of that kind: none of my tools provides it.",
        "我无法获取这类实时数据：我的工具都不提供。"),
        ctx.t("This needs live data that none of my tools serves, and I should not guess.",
              "这需要实时数据，我的工具都不提供，我也不应该猜测。"))


def unknown(ctx: Ctx) -> Move:
    """A polite 'I'm not sure' answer."""
    return ctx.final("not_sure", ctx.t("I'm not sure how to answer that with the tools I have.",
                                       "抱歉，我不确定怎么用现有的工具回答这个问题。"),
                     ctx.t("Nothing I can look up or compute answers this.", "我查不到也算不出答案。"))


HANDLERS: dict[str, Callable[[Ctx], Move]] = {
    "date_today": date_today, "date_offset": date_offset, "arithmetic": arithmetic,
    "weather": weather, "weather_compare": weather_compare, "run_advice": run_advice,
    "order_status": order_status, "order_total": order_total, "orders_range": orders_range,
    "doc_lookup": doc_lookup, "memory_recall": memory_recall, "general": general,
    "report": report, "calendar": calendar, "days_between": days_between, "weekday": weekday,
    "translate": translate, "live_data": live_data, "unknown": unknown,
}
