"""Order families: one order's status, a total of several orders, orders in a date range, and
the long report task of lesson 11 (last quarter's sales by product line, cancelled ones dropped).
"""
from __future__ import annotations

import re

from mockllm.brain.knowledge import (all_dates, date_range, last_quarter_months, order_ids,
                                     relative_range)
from mockllm.brain.observations import ZH_STATUS, parse_order, parse_range
from mockllm.brain.context import Ctx, Move, is_error


def add_amounts(amounts: list[str]) -> str:
    """Add decimal amounts given as text, keeping their decimals ('59.90', '120.00' -> '179.90')."""
    from decimal import Decimal, InvalidOperation  # exact sums, loaded only when needed

    try:
        return str(sum((Decimal(a) for a in amounts), Decimal(0)))
    except InvalidOperation:
        return "?"
def _order_sentence(ctx: Ctx, f: dict) -> str:
    """One order's observed facts, leading with what the question asked (status, amount, date)."""
    cost = f"{f['amount']} {f['currency']}" if f["amount"] else None
    if ctx.zh:
        status = f"{ZH_STATUS.get(f['status'], f['status'])}（{f['status']}）" if f["status"] else None
        parts = [f"状态是{status}" if status else None, f"金额 {cost}" if cost else None,
                 f"下单日期 {f['date']}" if f["date"] else None]
        return f"订单 {f['id']} 的" + "，".join(p for p in parts if p) + "。"
    facts = {"status": f["status"] and f"status: {f['status']}", "amount": cost,
             "date": f["date"] and f"placed {f['date']}"}
    q = ctx.conv.question.lower()
    lead = "amount" if re.search(r"how much|cost|amount|price|total|paid for", q) else \
        "date" if re.search(r"\bwhen\b|date|placed", q) else "status"
    if not facts[lead]:
        lead = next(k for k in ("status", "amount", "date") if facts[k])
    head = {"status": f"is {f['status']}", "amount": f"cost {cost}",
            "date": f"was placed on {f['date']}"}[lead]
    rest = ", ".join(v for k, v in facts.items() if v and k != lead)
    return f"Order {f['id']} {head}" + (f" ({rest})." if rest else ".")


def _lookup(ctx: Ctx, oid: str) -> tuple[dict | None, str]:
    """Look one order up: (facts or None, the raw observation)."""
    obs = ctx.observe("order_lookup", {"order_id": oid}, "lookup",
                      ctx.t(f"I need to look up order {oid}.", f"我需要查询订单 {oid}。"))
    return parse_order(obs), obs


def order_status(ctx: Ctx) -> Move:
    """Order lookup, then answer from the observation (or say it was not found)."""
    ids = order_ids(ctx.conv.question)
    if not ids:
        return ctx.final("need_id", ctx.t("Which order do you mean? Please give its id (A1001).",
                                          "请告诉我订单号（例如 A1001）。"))
    ctx.guess = (f"Order {ids[0]} has probably shipped.", f"订单 {ids[0]} 可能已经发货了。")
    facts, obs = _lookup(ctx, ids[0])
    if facts is None:
        if "not found" not in obs.lower():
            return ctx.fail(obs)
        return ctx.final("not_found", ctx.t(f"Order {ids[0]} was not found.",
                                            f"没有找到订单 {ids[0]}。"),
                         ctx.t("The lookup says this order does not exist, so I will say so.",
                               "查询结果说这个订单不存在，我如实说明。"))
    facts["id"] = facts["id"] or ids[0]
    if not facts["status"] and not facts["amount"]:  # an unexpected shape: repeat it
        said = obs.strip()
        return ctx.final("answer", ctx.t(f"Order {ids[0]}: {said}", f"订单 {ids[0]}：{said}"))
    return ctx.final("answer", _order_sentence(ctx, facts),
                     ctx.t("The lookup gave me the order's details.", "查询结果里有订单的详情。"))


def order_total(ctx: Ctx) -> Move:
    """Look up each order, add the amounts with the calculator if offered, answer the total."""
    ids = order_ids(ctx.conv.question)
    ctx.guess = ("The total is probably about 100 CNY.", "总金额大约是 100 元。")
    found = [(oid, *_lookup(ctx, oid)) for oid in ids]
    amounts = [f["amount"] for _, f, _ in found if f and f["amount"]]
    missing = [oid for oid, f, _ in found if not f]
    total = add_amounts(amounts)
    if ctx.tool("calculator") and len(amounts) > 1:
        obs = ctx.observe("calculator", {"expression": " + ".join(amounts)}, "sum",
                          ctx.t("Now I add the amounts with the calculator.", "现在用计算器把金额相加。"))
        total = total if is_error(obs) else money(obs)
    listed = ctx.t(" and ", " 和 ").join(oid for oid, f, _ in found if f)
    text = ctx.t(f"The total of orders {listed} is {total} CNY ({' + '.join(amounts)}).",
                 f"订单 {listed} 的总金额是 {total} 元（{' + '.join(amounts)}）。")
    if missing:
        text += ctx.t(f" Not found: {', '.join(missing)}.", f" 未找到：{'、'.join(missing)}。")
    return ctx.final("answer", text, ctx.t("I have every amount and their sum.",
                                           "每笔金额和总和都有了。"))


def money(text: str) -> str:
    """An observed amount with two decimals ('179.9' -> '179.90'); other text unchanged."""
    return f"{float(text):.2f}" if re.fullmatch(r"-?\d+(?:\.\d+)?", text.strip()) else text.strip()


def _orders(n: int) -> str:
    """'was 1 order' or 'were 3 orders'."""
    return "was 1 order" if n == 1 else f"were {n} orders"


def orders_range(ctx: Ctx) -> Move:
    """Resolve the date range (from the observed date when relative), list the orders, answer."""
    q = ctx.conv.question
    ctx.guess = ("There were probably about 10 orders.", "大概有 10 个订单。")
    today = None
    if len(all_dates(q)) < 2:
        today = ctx.today(ctx.t(f"I need today's date to work out the dates of "
                                      f"'{relative_range(q) or 'this month'}'.",
                                      "我需要先知道今天的日期，才能确定时间范围。"))
    start, end = date_range(q, today) or date_range("this month", today)
    if ctx.tool("order_range") is None and ctx.tool("order_lookup") is not None:
        return ctx.missing("order_range")
    obs = ctx.observe("order_range", {"start_date": start, "end_date": end}, "list_orders",
                      ctx.t(f"Now I list the orders from {start} to {end}.",
                            f"现在查询 {start} 到 {end} 的订单。"))
    if is_error(obs):
        return ctx.fail(obs)
    r = parse_range(obs)
    total = f" (total {r['total']} {r['currency']})" if r["total"] else ""
    return ctx.final("answer", ctx.t(
        f"There {_orders(r['count'])} from {start} to {end}{total}.",
        f"{start} 到 {end} 共有 {r['count']} 个订单" + (f"，总金额 {r['total']} 元。" if r["total"]
                                                     else "。")))




def _quarter_rows(ctx: Ctx, months: list[tuple[str, str]]) -> tuple[list[dict], list[str]]:
    """Pull each month of the quarter with the orders-range tool: (rows, error observations)."""
    rows, errors = [], []
    for start, end in months:
        obs = ctx.observe("order_range", {"start_date": start, "end_date": end}, "pull_month",
                          ctx.t(f"Next I pull the orders of {start[:7]} ({start} to {end}).",
                                f"接下来查询 {start[:7]} 的订单（{start} 到 {end}）。"))
        if is_error(obs):
            errors.append(obs.strip())
        rows += parse_range(obs)["rows"]
    return rows, errors


SHORT_SUM = 180  # characters: the model keeps each calculator expression short, as tools cap them


def _chunks(amounts: list[str]) -> list[list[str]]:
    """Split amounts into runs whose ' + '-joined sum stays under SHORT_SUM characters."""
    chunks: list[list[str]] = [[]]
    for amount in amounts:
        if chunks[-1] and len(" + ".join(chunks[-1] + [amount])) > SHORT_SUM:
            chunks.append([])
        chunks[-1].append(amount)
    return chunks


def _sum_with_calculator(ctx: Ctx, line: str, amounts: list[str]) -> str | None:
    """Add up one line's amounts with the calculator, a short sum at a time; None on an error."""
    chunks, partials = _chunks(amounts), []
    for number, chunk in enumerate(chunks, 1):
        part = ctx.t(f" (part {number} of {len(chunks)})", f"（第 {number}/{len(chunks)} 部分）") \
            if len(chunks) > 1 else ""
        obs = ctx.observe("calculator", {"expression": " + ".join(chunk)}, "sum_line",
                          ctx.t(f"Now I add up the {line} orders{part}: {len(chunk)} amounts.",
                                f"现在把 {line} 的订单加起来{part}：{len(chunk)} 笔金额。"))
        if is_error(obs):
            return None
        partials.append(money(obs))
    if len(partials) == 1:
        return partials[0]
    obs = ctx.observe("calculator", {"expression": " + ".join(partials)}, "sum_parts",
                      ctx.t(f"Now I add the {len(partials)} partial sums of {line}.",
                            f"现在把 {line} 的 {len(partials)} 个部分和加起来。"))
    return None if is_error(obs) else money(obs)


def _line_totals(ctx: Ctx, rows: list[dict]) -> dict[str, str]:
    """Total per product line of the kept rows, each added up with the calculator if offered."""
    lines: dict[str, list[str]] = {}
    for row in rows:
        lines.setdefault(row["line"], []).append(row["amount"])
    totals, calculator = {}, ctx.tool("calculator")
    for line in sorted(lines):
        amounts, totals[line] = lines[line], add_amounts(lines[line])
        if len(amounts) > 1 and calculator:
            total = _sum_with_calculator(ctx, line, amounts)
            if total is None:  # the calculator failed: add this line and the rest myself
                calculator = None
            else:
                totals[line] = total
    return totals


def _calculator_failed(ctx: Ctx) -> bool:
    """Whether a calculator call of this run returned an error."""
    tool = ctx.tool("calculator")
    return bool(tool) and any(s.action == tool.name and is_error(s.observation or "")
                              for s in ctx.conv.steps)


def _write(ctx: Ctx, span: str, body: str, why: str) -> str:
    """Save the report with the write_report tool when offered; the body plus the receipt."""
    if not ctx.tool("write_report"):
        return body
    title = ctx.t(f"Sales report {span}", f"销售报告 {span}")
    obs = ctx.observe("write_report", {"title": title, "body": body}, "write_report",
                      why + ctx.t("Now I will write the report.", "现在写报告。"))
    return body + ctx.t(f" Report: {obs.strip()}", f" 报告：{obs.strip()}")


def report(ctx: Ctx) -> Move:
    """Date, the three months of last quarter, one sum per product line, the report, the answer."""
    ctx.guess = ("Sales were probably steady across all product lines last quarter.",
                 "上季度各产品线的销售额大概都比较平稳。")
    today = ctx.today(ctx.t("I need today's date to work out which months last quarter covers.",
                            "我需要先知道今天的日期，才能确定上季度是哪几个月。"))
    months = last_quarter_months(today)
    rows, errors = _quarter_rows(ctx, months)
    kept = [r for r in rows if not re.match(r"(?i)cancel|已取消", r["status"])]
    totals = _line_totals(ctx, kept)
    span, dropped = f"{months[0][0]} to {months[-1][1]}", len(rows) - len(kept)
    summary = "; ".join(f"{line}: {total} CNY" for line, total in totals.items()) or ctx.t(
        "no orders", "没有订单")
    body = ctx.t(f"Sales by product line, {span} ({len(kept)} orders, {dropped} cancelled "
                 f"dropped): {summary}.", f"{span} 各产品线销售额（{len(kept)} 个订单，"
                 f"已剔除 {dropped} 个取消的订单）：{summary}。")
    if errors:
        body += ctx.t(f" Some months failed: {'; '.join(errors)}.",
                      f" 部分月份查询失败：{'；'.join(errors)}。")
    why = ctx.t("The calculator rejected a long sum, so I added the amounts myself. ",
                "计算器拒绝了太长的算式，所以金额是我自己加的。") if _calculator_failed(ctx) else \
        ctx.t("All totals are ready. ", "所有合计都算好了。")
    return ctx.final("answer", _write(ctx, span, body, why),
                     why + ctx.t("I have everything the report needs.", "报告需要的内容都齐了。"))
