"""Decide the next move: recognise the question's family, then let its handler pick a step.

`decide(conv)` is a pure function of the conversation. Each family handler (in
`mockllm.families`) asks for the facts it needs through a `Ctx`: a fact already observed is
returned, a missing one ends the decision with the tool call that would fetch it. So the same
code reads as a plan ("date, then weather, then answer") and resumes at the right step each turn.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from mockllm.knowledge import (day_offset, expression, find_cities, first_date, general_answer,
                               order_ids)
from mockllm.reading import Conversation, ToolSpec, correction_kind

__all__ = ["Move", "decide", "classify", "tool_kind", "offered_tools", "map_args", "Ctx",
           "FAMILIES"]


@dataclass(frozen=True)
class Move:
    """The model's next step: a tool call (action) or a final answer, with the reason for it."""
    thought: str
    action: str | None = None
    action_input: dict | None = None
    final_answer: str | None = None
    family: str = ""
    rule: str = ""


def _has(text: str, *words: str) -> bool:
    """Whether `text` holds one of `words` (ASCII words must start at a word boundary)."""
    return any(re.search(rf"\b{w}", text) if w.isascii() else w in text for w in words)


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
FAMILIES = ("date_today", "date_offset", "arithmetic", "weather", "weather_compare", "run_advice",
            "order_status", "order_total", "orders_range", "doc_lookup", "memory_recall",
            "general", "report", "unknown")
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
_PATTERNS = {
    "report": r"\breport\b|last quarter|product lines?|sales by|报告|季度|周报|销售额",
    "memory_recall": r"last time|previous session|earlier session|previously|do you remember"
                     r"|上次|上一次|之前问|还记得",
    "run_advice": r"\brun\b|\brunning\b|\bjog|跑步|晨跑",
    "weather": r"weather|\brain|\bsnow|\bsunny|temperature|forecast|\bwarm|\bcold|\bhot\b|\bwind"
               r"|umbrella|天气|下雨|下雪|气温|温度|冷|热|暖|凉|刮风|雨伞",
    "orders_range": r"orders\b.*\b(between|from|last|this|past|range|placed)\b|how many orders"
                    r"|订单.*(之间|上周|本周|这周|本月|这个月|上个月|最近)|多少[个笔]?订单",
    "date_today": r"\bdate\b|what day|几号|日期|几月几日|星期几|\btoday\b",
    "doc_lookup": r"polic|\breturn|refund|shipping|deliver|warranty|exchange|payment|invoice"
                  r"|support|contact|opening hours|how do i|how can i|how long|\bfaq|documentation"
                  r"|look up|政策|退货|退款|发货|配送|运费|保修|发票|客服|如何|怎么|多久"}


def _norm(text: str) -> str:
    """Lower-case with `_` and `-` as spaces, for keyword matching."""
    return re.sub(r"[_\-]", " ", text.lower())


def tool_kind(tool: ToolSpec) -> str | None:
    """What a tool is for, by keywords in its name first, then in name + description."""
    name = _norm(tool.name)
    for kind, words in _SIDE_EFFECTS:  # a tool named like a side effect is one, whatever it says
        if _has(name, *words):
            return kind
    for text in (name, _norm(f"{tool.name} {tool.description}")):
        for kind, matches in TOOL_KINDS:
            if matches(text):
                return kind
    return "date" if _has(_norm(tool.name), "date", "time", "日期") else None


def offered_tools(conv: Conversation) -> tuple[ToolSpec, ...]:
    """The offered tools, plus names listed by an 'unknown tool ... available tools:' error."""
    tools = list(conv.tools)
    for step in conv.steps:
        m = re.search(r"(?i)available tools?\s*(?:are|is)?\s*[:：]\s*(.+)", step.observation or "")
        for name in re.findall(r"[A-Za-z_][\w\-]*(?:\.[\w\-]+)*", m.group(1) if m else ""):
            if all(t.name != name for t in tools):
                tools.append(ToolSpec(name, "", ()))
    return tuple(tools)


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


def classify(conv: Conversation) -> str:
    """The question's family (one of FAMILIES), from its words, EN or ZH."""
    q = conv.question
    for family in ("report", "memory_recall", "run_advice"):
        if re.search(_PATTERNS[family], q, re.I):
            return family
    if re.search(_PATTERNS["weather"], q, re.I):
        return "weather_compare" if len(find_cities(q)) >= 2 else "weather"
    ids = order_ids(q)
    if not ids and re.search(_PATTERNS["orders_range"], q, re.I):
        return "orders_range"
    if ids:
        return "order_total" if len(ids) >= 2 else "order_status"
    offset, expr = day_offset(q), expression(q)
    if offset is not None and offset != 0:
        return "date_offset"
    if expr is None and re.search(_PATTERNS["date_today"], q, re.I):
        return "date_today"
    if expr:
        return "arithmetic"
    if general_answer(q, False):
        return "general"
    if re.search(_PATTERNS["doc_lookup"], q, re.I) or any(
            tool_kind(t) == "search" for t in conv.tools):
        return "doc_lookup"
    return "unknown"


class NextMove(Exception):
    """Raised by a handler's need that is not met yet: carries the move that meets it."""

    def __init__(self, move: Move) -> None:
        super().__init__(move.rule)
        self.move = move


class MissingTool(Exception):
    """Raised when the tool a need requires is not offered."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def is_error(obs: str) -> bool:
    """Whether an observation reports a tool error."""
    return bool(re.match(r"(?i)\s*(error|错误|exception|traceback)", obs or ""))


def _transient(obs: str) -> bool:
    """Whether a tool error looks worth one retry (timeouts, internal failures)."""
    return bool(re.search(r"(?i)time ?out|timed out|temporar|try again|rate limit|unavailable"
                          r"|internal|exception|traceback|connection", obs))


_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def _same(a: dict, b: dict) -> bool:
    """Whether two argument dicts are the same call (case, spacing, full-width forms ignored)."""
    def norm(d: dict) -> str:
        """Canonical JSON of lower-cased keys and values, full-width folded, spaces removed."""
        return json.dumps({str(k).lower(): re.sub(r"\s+", "", str(v).translate(_FULL_WIDTH).lower())
                           for k, v in d.items()}, sort_keys=True, ensure_ascii=False)
    return norm(a) == norm(b)


NO_TOOL = {
    "date": ("find out today's date", "查询今天的日期"),
    "weather": ("check live weather", "查询实时天气"),
    "calculator": ("do this calculation reliably", "可靠地完成这个计算"),
    "order_lookup": ("look up orders", "查询订单"),
    "order_range": ("list orders by date", "按日期查询订单"),
    "search": ("search the documents", "搜索文档"),
}


class Ctx:
    """What a family handler works with: the conversation, the offered tools, and its needs."""

    def __init__(self, conv: Conversation, family: str, guesses: bool) -> None:
        self.conv, self.family, self.guesses = conv, family, guesses
        self.zh = conv.language == "zh"
        self.tools = offered_tools(conv)
        self.guess: tuple[str, str] | None = None   # (en, zh) answer used when guessing

    def t(self, en: str, zh: str) -> str:
        """Pick the English or Chinese text, by the question's language."""
        return zh if self.zh else en

    def tool(self, kind: str) -> ToolSpec | None:
        """The first offered tool of a kind ('weather', 'calculator', ...), or None."""
        return next((t for t in self.tools if tool_kind(t) == kind), None)

    def final(self, rule: str, answer: str, thought: str | None = None) -> Move:
        """A final-answer move of this family."""
        thought = thought or self.t("I now know the final answer.", "我现在知道最终答案了。")
        return Move(thought, final_answer=answer, family=self.family, rule=f"{self.family}/{rule}")

    def call(self, rule: str, tool: ToolSpec, args: dict, thought: str) -> Move:
        """A tool-call move of this family (acknowledging a corrective message first)."""
        if self.conv.last_correction == "unknown_tool":
            thought = self.t(f"That tool does not exist; I will use {tool.name}. ",
                             f"那个工具不存在，我改用 {tool.name}。") + thought
        return Move(thought, action=tool.name, action_input=dict(args), family=self.family,
                    rule=f"{self.family}/{rule}")

    def _seen(self, tool: ToolSpec, args: dict) -> list[str]:
        """Observations of earlier identical calls, corrective messages left out."""
        return [s.observation for s in self.conv.steps
                if s.observation is not None and (s.action or "").lower() == tool.name.lower()
                and _same(s.action_input, args) and correction_kind(s.observation) is None]

    def observe(self, kind: str, args: dict, rule: str, thought: str) -> str:
        """The observation for a call (made earlier), or raise NextMove with the call to make."""
        tool = self.tool(kind)
        if tool is None:
            raise MissingTool(kind)
        args = map_args(tool, args)
        seen = self._seen(tool, args)
        good = [o for o in seen if not is_error(o)]
        if good or (seen and not _transient(seen[-1])):
            return (good or seen)[-1]
        failures = [o for o in seen if is_error(o)]   # the same call failed before
        if len(failures) >= 2:
            raise NextMove(self.final("give_up", self.t(
                f"I could not get an answer: {tool.name} failed twice ({failures[-1].strip()}).",
                f"我没能得到答案：{tool.name} 连续两次出错（{failures[-1].strip()}）。"),
                self.t("The tool keeps failing, so I will stop and say so.",
                       "这个工具一直出错，我停下来如实说明。")))
        if seen:
            thought = self.t(f"{tool.name} failed ({seen[-1].strip()}); I will try once more.",
                             f"{tool.name} 出错了（{seen[-1].strip()}），我再试一次。")
        raise NextMove(self.call(rule, tool, args, thought))

    def fail(self, obs: str, rule: str = "tool_error") -> Move:
        """Answer that a tool returned an error the run cannot work around."""
        said = obs.strip()
        return self.final(rule, self.t(f"I could not find that out: the tool said \"{said}\".",
                                       f"我没能查到：工具返回了“{said}”。"))

    def today(self, thought: str) -> str:
        """Today's date as observed from the date tool (or raise NextMove to call it)."""
        obs = self.observe("date", {}, "need_date", thought)
        date = first_date(obs)
        if date is None:
            raise NextMove(self.final("tool_error", self.t(
                f"I could not read today's date from the date tool (\"{obs.strip()}\").",
                f"我没能从日期工具得到今天的日期（“{obs.strip()}”）。")))
        return date

    def missing(self, kind: str) -> Move:
        """The answer when a needed tool is not offered: a guess, or an honest refusal."""
        if self.guesses and self.guess:
            return self.final("guess", self.t(*self.guess), self.t(
                "I have no tool for this, so I will answer from what I believe.",
                "我没有合适的工具，只能凭印象回答。"))
        en, zh = NO_TOOL.get(kind, ("answer this", "回答这个问题"))
        return self.final("no_tool", self.t(f"I cannot {en} with the tools I have.",
                                            f"我现有的工具无法{zh}。"),
                          self.t(f"None of my tools can {en}, and I should not guess.",
                                 f"我没有能{zh}的工具，也不应该猜测。"))


def decide(conv: Conversation, *, guesses: bool = False) -> Move:
    """The next move for a conversation: a tool call or a final answer (a pure function)."""
    from mockllm.families import HANDLERS  # families builds on this module, so import late

    ctx = Ctx(conv, classify(conv), guesses)
    try:
        return HANDLERS[ctx.family](ctx)
    except NextMove as nxt:
        return nxt.move
    except MissingTool as missing:
        return ctx.missing(missing.kind)
