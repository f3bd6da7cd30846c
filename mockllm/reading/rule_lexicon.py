"""The words of the prompt rules: concept groups, and the forms that chain them into a rule.

A form is a short chain of concept groups, each found within a few words of the one before,
inside one sentence: `no_observation`'s first form is a prohibition ("never", "不要"), then a word
for making text up ("write", "invent", "编造"), then the observation ("the tool's output",
"观察结果"). `mockllm.reading.rules` reads a prompt with them. A gap counts English words; a
Chinese character counts half a word.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RULE_PHRASES", "GROUPS", "Step", "FORMS", "WAIT_FORMS"]

RULE_PHRASES: dict[str, tuple[str, ...]] = {
    "one_action": ("one action", "only one action", "one thought and one action"),
    "no_observation": ("never write an observation", "never write the observation",
                       "do not write the observation", "don't write the observation",
                       "不要自己写 observation"),
    "final_not_tool": ("final answer is not a tool",),
    "stop_when_enough": ("stop when you have enough", "as soon as you have enough"),
    "live_data": ("must call a tool", "must use a tool", "use tools for live data", "never guess"),
}
"""A few plain phrasings of each rule: the ones the course's prompt and lessons use."""


# ---------------------------------------------------------------- the lexicon: concept groups

_NOT = ("never", "not", "don't", "dont", "doesn't", "mustn't", "shouldn't", "can't", "cannot",
        "won't", "no", "nor", "avoid", "refrain from", "without", "under no circumstances",
        "forbidden to", "prohibited from", "not allowed to",
        "不要", "不能", "不可", "不得", "不应", "不许", "不准", "别", "禁止", "切勿", "勿", "绝不",
        "决不", "严禁", "不允许", "无需", "不必", "不需要", "不用")
_CANCEL = ("forget", "fail", "hesitate", "omit", "neglect", "need", "have to", "needn't",
           "make up for",
           "忘", "忘记", "忘了")
GROUPS: dict[str, tuple[str, ...]] = {
    "not": _NOT,
    "cancel": _CANCEL,
    "speaker": ("i", "i'll", "i'm", "i am", "we", "we'll", "let me", "我", "我会", "我将",
                      "我们"),
    # no_observation
    "fabricate": (
        "write", "writes", "writing", "wrote", "written", "invent", "invents", "inventing",
        "invented", "make up", "makes up", "making up", "made up", "made-up", "fabricate",
        "fabricating", "fabricated", "imagine", "imagining", "imagined", "guess", "guessing",
        "generate", "generating", "produce", "producing", "create", "creating", "fill in",
        "simulate", "simulating", "fake", "faking", "pretend", "predict", "predicting",
        "hallucinate", "hallucinating", "supply", "add", "include", "type", "output", "emit",
        "assume", "anticipate", "forge",
        "写", "编", "编造", "捏造", "虚构", "伪造", "杜撰", "生成", "模拟", "想象", "假设", "猜",
        "猜测", "输出", "填写", "补充", "预测", "给出"),
    "observation": (
        "observation", "observations", "observation line", "tool output", "tool outputs",
        "output", "outputs", "result", "results", "response", "responses", "tool response",
        "return value", "return values", "what the tool returns", "what the tool returned",
        "what the tool said", "what the tools return", "what the tool will return",
        "what the tool will answer", "what the tool will say", "what it will return",
        "what a tool returns", "what the tool gives back",
        "观察", "观察结果", "结果", "输出", "返回", "返回值", "工具结果", "工具输出"),
    "pronoun": ("it", "them", "this", "that", "one", "any", "它", "其", "它们"),
    "wait": ("wait", "waiting", "await", "pause", "等待", "等", "等候"),
    "stop": ("stop", "stopping", "halt", "end your reply", "end your message",
                   "end your turn", "end your response", "end the reply", "end the message",
                   "end your answer", "finish your reply", "finish your message",
                   "停", "停止", "停下", "停住", "结束回复", "结束本轮", "结束你的回复"),
    "after": ("after", "once", "right after", "immediately after", "as soon as",
                    "之后", "后", "以后", "写完"),
    "action_field": ("action input", "action", "tool call", "the call", "动作", "调用"),
    "returned": ("observation", "observations", "result", "results", "output", "response",
                       "tool", "tools", "system", "program", "function", "answer from the tool",
                       "观察", "结果", "返回", "工具", "系统", "程序"),
    # one_action
    "one": ("one", "a single", "single", "exactly one", "only one", "just one",
                  "at most one", "no more than one", "一个", "一次", "单个", "一条", "一步", "一项"),
    "strict": ("only", "exactly", "single", "at most", "just", "no more than",
                     "只", "仅", "只能", "最多", "至多"),
    "action": ("action", "actions", "action block", "action blocks", "动作", "操作"),
    "tool": ("tool", "tools", "call", "calls", "tool call", "tool calls", "function",
                   "function call", "function calls", "工具", "调用"),
    "scope": ("per reply", "per turn", "per message", "per response", "per step",
                    "at a time", "each time", "in each", "each reply", "each turn", "each message",
                    "each response", "every reply", "every turn", "every message",
                    "every response", "in a reply", "in a response", "in a message",
                    "in one reply", "in one response", "in one message", "each of your",
                    "at once", "at the same time", "simultaneously", "in parallel", "in one go",
                    "the same reply", "the same message", "the same response", "a single reply",
                    "a single message", "a single response",
                    "同时", "一起", "同一回复", "同一条回复", "同一个回复", "一次回复",
                    "每次", "每轮", "每一轮", "每条", "一次", "每个回复", "一条回复", "每一步", "每步",
                    "回复中", "回复里"),
    "many": ("two", "several", "multiple", "more than one", "many", "both", "a second",
                   "another action", "chain", "多个", "两个", "几个", "多条", "多次", "连续"),
    # final_not_tool
    "final": ("final answer", "final_answer", "finalanswer", "最终答案", "最终回答"),
    "is_not": ("is not", "isn't", "is never", "are not", "is no", "is not one of",
                     "不是", "并非", "不算", "不属于"),
    "put": ("write", "use", "put", "call", "treat", "name", "list", "output", "emit",
                  "写", "用", "把", "调用", "使用", "当作"),
    "named": ("called", "named", "by the name", "叫", "叫做", "名为", "名叫"),
    "not_a": ("not", "isn't", "不是", "并非", "而不是"),
    "tool_kind": ("tool", "tools", "action", "actions", "function", "tool name",
                        "something you call", "a call", "callable", "工具", "动作", "函数",
                        "调用"),
    "use_as": ("as", "as if it were", "as if it was", "in", "on", "into", "for", "after",
               "当作", "当成", "作为", "写在", "写进",
                     "放在", "当", "用作"),
    # stop_when_enough
    "stop_now": ("stop", "finish", "halt", "answer right away", "answer immediately",
                       "right away", "immediately", "at once", "straight away", "as soon as",
                       "no more", "no further", "without further", "without more",
                       "without any more", "without another", "stop calling", "stop using",
                       "立即", "立刻", "马上", "停止", "停下", "不要再", "不再", "别再", "无需再",
                       "就给出", "就回答", "就停"),
    "enough": ("enough", "sufficient", "all the information you need",
                     "what you need", "the information you need", "have the answer",
                     "know the answer", "can answer", "able to answer", "already have",
                     "already know", "can be answered", "answer is known", "know enough",
                     "足够", "够了", "已经知道", "已知道", "能够回答", "可以回答", "能回答", "已经有"),
    "more": ("more", "extra", "additional", "further", "another", "again", "unnecessary",
                   "redundant", "superfluous", "keep", "continue", "repeat", "repeated",
                   "再", "再次", "多余", "额外", "更多", "重复", "继续"),
    "call_verb": ("call", "calling", "calls", "use", "using", "run", "running", "invoke",
                        "invoking", "make", "making", "tool", "tools", "tool call",
                        "tool calls", "调用", "使用", "工具", "执行"),
    "call_act": ("call", "calling", "use", "using", "invoke", "invoking", "make", "making",
                       "run", "调用", "使用"),
    "instead": ("instead of", "rather than", "而不是", "而非"),
    "recheck": ("double-check", "double check", "re-check", "recheck", "re-verify",
                      "verify again", "check again", "confirm again", "再次确认", "重复确认",
                      "再确认", "二次确认"),
    # live_data
    "must": ("must", "always", "have to", "required to", "should always",
                   "only", "必须", "务必", "一定要", "总是", "始终", "要", "应该", "只能"),
    "use": ("call", "use", "query", "look up", "look it up", "check", "consult",
                  "rely on", "get", "fetch", "come from", "obtain", "调用", "使用", "查询", "获取",
                  "通过", "依靠", "用"),
    "tools": ("tool", "tools", "tool call", "a tool call", "function", "functions",
                    "工具"),
    "live": ("live", "live data", "current", "real-time", "realtime", "up-to-date",
                   "today", "today's", "date", "dates", "weather", "now", "latest", "orders",
                   "calendar", "time", "changes over time",
                   "实时", "当前", "今天", "日期", "天气", "最新", "订单", "日历", "现在"),
    "live_strict": ("live", "live data", "current", "real-time", "realtime", "up-to-date",
                          "latest", "实时", "最新", "当前"),
    "guess": ("guess", "guessing", "assume", "assuming", "make up", "invent", "estimate",
                    "speculate", "猜", "猜测", "假设", "编造", "臆测", "推测"),
    "memory": ("from memory", "your own knowledge", "your knowledge", "your training",
                     "training data", "what you remember", "prior knowledge",
                     "凭记忆", "记忆", "自己的知识", "训练数据", "已有知识"),
    "answer_verb": ("answer", "respond", "reply", "state", "回答", "作答", "答"),
    # words that open another clause: a chain does not run across them
    "connective": ("until", "before", "unless", "when", "whenever", "if", "while",
                         "because", "since", "but", "till", "else",
                         "直到", "之前", "以前", "除非", "如果", "但是", "因为"),
}
"""Each concept group: the terms that stand for it (words split on spaces; a Chinese character
is a word of its own)."""

@dataclass(frozen=True)
class Step:
    """One link of a form: a group found at most `gap` words after the previous link's end."""

    group: str
    gap: int = 3
    positive: bool = False  # a trigger word: a negation just before it cancels it
    across: bool = False    # may follow a clause-opening word ('stop WHEN you have enough')


def _form(*steps: tuple | str) -> tuple[Step, ...]:
    """A form from (group, gap[, positive[, across]]) tuples or bare group names (gap 3)."""
    return tuple(Step(*s) if isinstance(s, tuple) else Step(s) for s in steps)


FORMS: dict[str, tuple[tuple[Step, ...], ...]] = {
    "no_observation": (
        _form("not", ("fabricate", 4), ("observation", 5)),  # never write the Observation
        # the Observation: never write it
        _form("observation", ("not", 12), ("fabricate", 4), ("pronoun", 2)),
        _form("observation", ("not", 12), ("fabricate", 4)),  # 观察结果由系统提供，不要自己写
        # do not write anything after Action Input
        _form("not", ("fabricate", 3), ("after", 3), ("action_field", 3)),
    ),
    "one_action": (
        _form("one", ("action", 0)),  # only one Action
        _form("one", ("tool", 1), ("scope", 4)),  # one tool call per reply
        _form("scope", ("strict", 6), ("one", 3), ("tool", 2)),  # 每次只调用一个工具
        _form("not", ("many", 4), ("action", 2)),  # never write two Actions
        _form("not", ("many", 4), ("tool", 2), ("scope", 4)),  # do not call several tools at once
        _form("not", ("scope", 4), ("many", 4), ("tool", 2)),  # 请勿在同一回复中调用多个工具
    ),
    "final_not_tool": (
        _form("final", ("is_not", 3), ("tool_kind", 2)),  # Final Answer is not a tool
        # do not use Final Answer as an Action
        _form("not", ("put", 3), ("final", 3), ("use_as", 3), ("tool_kind", 4)),
        # never write `Action: Final Answer`
        _form("not", ("put", 3), ("tool_kind", 3), ("final", 2)),
        # Final Answer must not appear as a tool
        _form("final", ("not", 3), ("use_as", 4), ("tool_kind", 3)),
        # Final Answer is a line, not something you call
        _form("final", ("not_a", 8), ("tool_kind", 2)),
        # there is no tool called Final Answer
        _form("not", ("tool_kind", 1), ("named", 2), ("final", 1)),
    ),
    "stop_when_enough": (
        _form(("stop_now", 0, True), ("enough", 8, False, True)),  # stop when you have enough
        _form("enough", ("stop_now", 10, True, True)),  # once you know the answer, stop
        _form("not", ("more", 3), ("call_verb", 3)),  # never repeat a tool call
        _form("not", ("call_verb", 0), ("more", 3)),  # don't call more tools
        _form("instead", ("call_verb", 2), ("more", 2)),  # instead of calling more tools
        _form("instead", ("more", 2), ("call_verb", 2)),  # rather than more tool calls
        _form("not", ("recheck", 5)),  # do not double-check
        # never call a tool once the answer is known
        _form("not", ("call_act", 0), ("enough", 10, False, True)),
        # 不要在已经知道答案后继续调用工具
        _form("not", ("enough", 6, False, True), ("more", 4), ("call_verb", 3)),
    ),
    "live_data": (
        _form(("must", 0, True), ("use", 3), ("tools", 3)),  # you must call a tool
        # always check the date with a tool
        _form(("must", 0, True), ("use", 0), ("live", 3), ("tools", 8)),
        _form("use", ("tools", 3), ("live_strict", 4)),  # use tools for live data
        _form("use", ("live_strict", 3), ("tools", 4)),  # look up live data with the tools
        _form("instead", ("guess", 2)),  # ... instead of guessing
        # for live data you must call a tool
        _form("live", ("must", 12, True), ("use", 3), ("tools", 3)),
        _form("not", ("guess", 0)),  # never guess
        _form("not", ("guess", 4), ("live", 5)),  # don't make up live values
        _form("not", ("answer_verb", 10), ("memory", 8)),  # never answer ... from memory
        _form("not", ("memory", 3)),  # not your own knowledge
    ),
}
"""Each rule's forms: chains of concept groups, read within one sentence."""

WAIT_FORMS: tuple[tuple[Step, ...], ...] = (
    _form(("wait", 0, True), ("returned", 5)),  # wait for the result
    _form(("stop", 0, True), ("after", 4), ("action_field", 4)),  # stop after Action Input
)
"""The forms of no_observation that say 'wait for the result' or 'stop after the Action'.

They are not read in a sentence that states one_action: 'one Action per reply, then wait for
the Observation' is the one-action rule's own wording, and a model still invents the
Observation under it until told not to (lesson 02).
"""
