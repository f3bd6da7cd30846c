"""Read the prompt rules by meaning: concept groups matched in order within each sentence.

A rule is not one fixed phrase. Each rule has a few forms; a form is a short chain of concept
groups (a prohibition, a verb, an object...), each found within a few words of the one before,
inside one sentence. "Never write the Observation yourself", "Do not invent the tool's output"
and "不要编造观察结果" are one form of `no_observation`: a prohibition, a word for making text
up, the observation. A prohibition that is cancelled ("never forget to", "you don't need to")
prohibits nothing, and a trigger word under a negation ("don't stop", "不必等待") does not count.

Everything is linear in the prompt: one scan splits it into sentences of word tokens (a Chinese
character is a token of its own), one pass per sentence finds every group's matches (terms are
looked up by their first token), and each form tries a bounded window after each match.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

__all__ = ["RULE_PHRASES", "GROUPS", "FORMS", "WAIT_FORMS", "Step", "read_rules", "sentences"]

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


# ---------------------------------------------------------------- splitting into sentences

_BREAKS = frozenset(".!?;。！？；")
_APOSTROPHES = {"\u2019": "'", "\u2018": "'", "`": " "}


def _is_cjk(ch: str) -> bool:
    """True for a Chinese character (a token of its own)."""
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def _is_word(ch: str) -> bool:
    """True for a character of an English word token."""
    return ch.isascii() and (ch.isalnum() or ch in "_'-")


def sentences(text: str) -> list[list[str]]:
    """Split `text` into sentences of lower-case tokens, in one linear scan.

    A sentence ends at . ! ? ; (and their full-width forms) before a space or the end, and at a
    line break unless the next line goes on in lower case (wrapped prose). A word is a run of
    ASCII letters, digits, `_`, `'` and `-`; a possessive 's is dropped; each Chinese character
    is a token.
    """
    out: list[list[str]] = []
    current: list[str] = []
    word: list[str] = []
    n = len(text)
    i = 0

    def flush_word() -> None:
        if word:
            token = "".join(word).strip("'-").lower()
            if token.endswith("'s"):
                token = token[:-2]
            if token:
                current.append(token)
            word.clear()

    def flush_sentence() -> None:
        flush_word()
        if current:
            out.append(current.copy())
            current.clear()

    while i < n:
        ch = _APOSTROPHES.get(text[i], text[i])
        if _is_word(ch):
            word.append(ch)
        elif _is_cjk(ch):
            flush_word()
            current.append(ch)
        elif ch in _BREAKS:
            nxt = text[i + 1] if i + 1 < n else " "
            if ch in "。！？；" or nxt.isspace() or not nxt.isascii():
                flush_sentence()
            else:
                flush_word()
        elif ch == "\n":
            j = i + 1
            while j < n and text[j] in " \t":
                j += 1
            if not (j < n and "a" <= text[j] <= "z"):
                flush_sentence()
            else:
                flush_word()
        else:
            flush_word()
        i += 1
    flush_sentence()
    return out


def _words(*terms: str) -> tuple[tuple[str, ...], ...]:
    """Terms as token tuples: English split on spaces, each Chinese character a token."""
    return tuple(tuple(_tokens_of(term)) for term in terms)


def _tokens_of(text: str) -> list[str]:
    """The tokens of one lexicon term or of one sentence (see `sentences`)."""
    found = sentences(text)
    return [token for sentence in found for token in sentence]


# ---------------------------------------------------------------- the lexicon: concept groups

_NOT = ("never", "not", "don't", "dont", "doesn't", "mustn't", "shouldn't", "can't", "cannot",
        "won't", "no", "nor", "avoid", "refrain from", "without", "under no circumstances",
        "forbidden to", "prohibited from", "not allowed to",
        "不要", "不能", "不可", "不得", "不应", "不许", "不准", "别", "禁止", "切勿", "勿", "绝不",
        "决不", "严禁", "不允许", "无需", "不必", "不需要", "不用")
_CANCEL = ("forget", "fail", "hesitate", "omit", "neglect", "need", "have to", "needn't",
           "make up for",
           "忘", "忘记", "忘了")
GROUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "not": _words(*_NOT),
    "cancel": _words(*_CANCEL),
    "speaker": _words("i", "i'll", "i'm", "i am", "we", "we'll", "let me", "我", "我会", "我将",
                      "我们"),
    # no_observation
    "fabricate": _words(
        "write", "writes", "writing", "wrote", "written", "invent", "invents", "inventing",
        "invented", "make up", "makes up", "making up", "made up", "made-up", "fabricate",
        "fabricating", "fabricated", "imagine", "imagining", "imagined", "guess", "guessing",
        "generate", "generating", "produce", "producing", "create", "creating", "fill in",
        "simulate", "simulating", "fake", "faking", "pretend", "predict", "predicting",
        "hallucinate", "hallucinating", "supply", "add", "include", "type", "output", "emit",
        "assume", "anticipate", "forge",
        "写", "编", "编造", "捏造", "虚构", "伪造", "杜撰", "生成", "模拟", "想象", "假设", "猜",
        "猜测", "输出", "填写", "补充", "预测", "给出"),
    "observation": _words(
        "observation", "observations", "observation line", "tool output", "tool outputs",
        "output", "outputs", "result", "results", "response", "responses", "tool response",
        "return value", "return values", "what the tool returns", "what the tool returned",
        "what the tool said", "what the tools return", "what the tool will return",
        "what the tool will answer", "what the tool will say", "what it will return",
        "what a tool returns", "what the tool gives back",
        "观察", "观察结果", "结果", "输出", "返回", "返回值", "工具结果", "工具输出"),
    "pronoun": _words("it", "them", "this", "that", "one", "any", "它", "其", "它们"),
    "wait": _words("wait", "waiting", "await", "pause", "等待", "等", "等候"),
    "stop": _words("stop", "stopping", "halt", "end your reply", "end your message",
                   "end your turn", "end your response", "end the reply", "end the message",
                   "end your answer", "finish your reply", "finish your message",
                   "停", "停止", "停下", "停住", "结束回复", "结束本轮", "结束你的回复"),
    "after": _words("after", "once", "right after", "immediately after", "as soon as",
                    "之后", "后", "以后", "写完"),
    "action_field": _words("action input", "action", "tool call", "the call", "动作", "调用"),
    "returned": _words("observation", "observations", "result", "results", "output", "response",
                       "tool", "tools", "system", "program", "function", "answer from the tool",
                       "观察", "结果", "返回", "工具", "系统", "程序"),
    # one_action
    "one": _words("one", "a single", "single", "exactly one", "only one", "just one",
                  "at most one", "no more than one", "一个", "一次", "单个", "一条", "一步", "一项"),
    "strict": _words("only", "exactly", "single", "at most", "just", "no more than",
                     "只", "仅", "只能", "最多", "至多"),
    "action": _words("action", "actions", "action block", "action blocks", "动作", "操作"),
    "tool": _words("tool", "tools", "call", "calls", "tool call", "tool calls", "function",
                   "function call", "function calls", "工具", "调用"),
    "scope": _words("per reply", "per turn", "per message", "per response", "per step",
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
    "many": _words("two", "several", "multiple", "more than one", "many", "both", "a second",
                   "another action", "chain", "多个", "两个", "几个", "多条", "多次", "连续"),
    # final_not_tool
    "final": _words("final answer", "final_answer", "finalanswer", "最终答案", "最终回答"),
    "is_not": _words("is not", "isn't", "is never", "are not", "is no", "is not one of",
                     "不是", "并非", "不算", "不属于"),
    "put": _words("write", "use", "put", "call", "treat", "name", "list", "output", "emit",
                  "写", "用", "把", "调用", "使用", "当作"),
    "named": _words("called", "named", "by the name", "叫", "叫做", "名为", "名叫"),
    "not_a": _words("not", "isn't", "不是", "并非", "而不是"),
    "tool_kind": _words("tool", "tools", "action", "actions", "function", "tool name",
                        "something you call", "a call", "callable", "工具", "动作", "函数",
                        "调用"),
    "use_as": _words("as", "as if it were", "as if it was", "in", "on", "into", "for", "after", "当作", "当成", "作为", "写在", "写进",
                     "放在", "当", "用作"),
    # stop_when_enough
    "stop_now": _words("stop", "finish", "halt", "answer right away", "answer immediately",
                       "right away", "immediately", "at once", "straight away", "as soon as",
                       "no more", "no further", "without further", "without more",
                       "without any more", "without another", "stop calling", "stop using",
                       "立即", "立刻", "马上", "停止", "停下", "不要再", "不再", "别再", "无需再",
                       "就给出", "就回答", "就停"),
    "enough": _words("enough", "sufficient", "all the information you need",
                     "what you need", "the information you need", "have the answer",
                     "know the answer", "can answer", "able to answer", "already have",
                     "already know", "can be answered", "answer is known", "know enough",
                     "足够", "够了", "已经知道", "已知道", "能够回答", "可以回答", "能回答", "已经有"),
    "more": _words("more", "extra", "additional", "further", "another", "again", "unnecessary",
                   "redundant", "superfluous", "keep", "continue", "repeat", "repeated",
                   "再", "再次", "多余", "额外", "更多", "重复", "继续"),
    "call_verb": _words("call", "calling", "calls", "use", "using", "run", "running", "invoke",
                        "invoking", "make", "making", "tool", "tools", "tool call",
                        "tool calls", "调用", "使用", "工具", "执行"),
    "call_act": _words("call", "calling", "use", "using", "invoke", "invoking", "make", "making",
                       "run", "调用", "使用"),
    "instead": _words("instead of", "rather than", "而不是", "而非"),
    "recheck": _words("double-check", "double check", "re-check", "recheck", "re-verify",
                      "verify again", "check again", "confirm again", "再次确认", "重复确认",
                      "再确认", "二次确认"),
    # live_data
    "must": _words("must", "always", "have to", "required to", "should always",
                   "only", "必须", "务必", "一定要", "总是", "始终", "要", "应该", "只能"),
    "use": _words("call", "use", "query", "look up", "look it up", "check", "consult",
                  "rely on", "get", "fetch", "come from", "obtain", "调用", "使用", "查询", "获取",
                  "通过", "依靠", "用"),
    "tools": _words("tool", "tools", "tool call", "a tool call", "function", "functions",
                    "工具"),
    "live": _words("live", "live data", "current", "real-time", "realtime", "up-to-date",
                   "today", "today's", "date", "dates", "weather", "now", "latest", "orders",
                   "calendar", "time", "changes over time",
                   "实时", "当前", "今天", "日期", "天气", "最新", "订单", "日历", "现在"),
    "live_strict": _words("live", "live data", "current", "real-time", "realtime", "up-to-date",
                          "latest", "实时", "最新", "当前"),
    "guess": _words("guess", "guessing", "assume", "assuming", "make up", "invent", "estimate",
                    "speculate", "猜", "猜测", "假设", "编造", "臆测", "推测"),
    "memory": _words("from memory", "your own knowledge", "your knowledge", "your training",
                     "training data", "what you remember", "prior knowledge",
                     "凭记忆", "记忆", "自己的知识", "训练数据", "已有知识"),
    "answer_verb": _words("answer", "respond", "reply", "state", "回答", "作答", "答"),
    # words that open another clause: a chain does not run across them
    "connective": _words("until", "before", "unless", "when", "whenever", "if", "while",
                         "because", "since", "but", "till", "else",
                         "直到", "之前", "以前", "除非", "如果", "但是", "因为"),
}
"""Each concept group: the terms (as token tuples) that stand for it."""

@dataclass(frozen=True)
class Step:
    """One link of a form: a group found at most `gap` tokens after the previous link's end."""

    group: str
    gap: int = 3
    positive: bool = False  # a trigger word: a negation just before it cancels it
    across: bool = False    # may follow a clause-opening word ('stop WHEN you have enough')


def _form(*steps: tuple | str) -> tuple[Step, ...]:
    """A form from (group, gap[, positive[, across]]) tuples or bare group names (gap 3)."""
    return tuple(Step(*s) if isinstance(s, tuple) else Step(s) for s in steps)


FORMS: dict[str, tuple[tuple[Step, ...], ...]] = {
    "no_observation": (
        _form("not", ("fabricate", 4), ("observation", 5)),
        _form("observation", ("not", 12), ("fabricate", 4), ("pronoun", 2)),
        _form("observation", ("not", 12), ("fabricate", 4)),
        _form("not", ("fabricate", 3), ("after", 3), ("action_field", 3)),
    ),
    "one_action": (
        _form("one", ("action", 0)),
        _form("one", ("tool", 1), ("scope", 4)),
        _form("scope", ("strict", 6), ("one", 3), ("tool", 2)),
        _form("not", ("many", 4), ("action", 2)),
        _form("not", ("many", 4), ("tool", 2), ("scope", 4)),
        _form("not", ("scope", 4), ("many", 4), ("tool", 2)),
    ),
    "final_not_tool": (
        _form("final", ("is_not", 3), ("tool_kind", 2)),
        _form("not", ("put", 3), ("final", 3), ("use_as", 3), ("tool_kind", 4)),
        _form("not", ("put", 3), ("tool_kind", 3), ("final", 2)),
        _form("final", ("not", 3), ("use_as", 4), ("tool_kind", 3)),
        _form("final", ("not_a", 8), ("tool_kind", 2)),
        _form("not", ("tool_kind", 1), ("named", 2), ("final", 1)),
    ),
    "stop_when_enough": (
        _form(("stop_now", 0, True), ("enough", 8, False, True)),
        _form("enough", ("stop_now", 10, True, True)),
        _form("not", ("more", 3), ("call_verb", 3)),
        _form("not", ("call_verb", 0), ("more", 3)),
        _form("instead", ("call_verb", 2), ("more", 2)),
        _form("instead", ("more", 2), ("call_verb", 2)),
        _form("not", ("recheck", 5)),
        _form("not", ("call_act", 0), ("enough", 10, False, True)),
        _form("not", ("enough", 6, False, True), ("more", 4), ("call_verb", 3)),
    ),
    "live_data": (
        _form(("must", 0, True), ("use", 3), ("tools", 3)),
        _form(("must", 0, True), ("use", 0), ("live", 3), ("tools", 8)),
        _form("use", ("tools", 3), ("live_strict", 4)),
        _form("use", ("live_strict", 3), ("tools", 4)),
        _form("instead", ("guess", 2)),
        _form("live", ("must", 12, True), ("use", 3), ("tools", 3)),
        _form("not", ("guess", 0)),
        _form("not", ("guess", 4), ("live", 5)),
        _form("not", ("answer_verb", 10), ("memory", 8)),
        _form("not", ("memory", 3)),
    ),
}
"""Each rule's forms: chains of concept groups, read within one sentence."""

WAIT_FORMS: tuple[tuple[Step, ...], ...] = (
    _form(("wait", 0, True), ("returned", 5)),
    _form(("stop", 0, True), ("after", 4), ("action_field", 4)),
)
"""The forms of no_observation that say 'wait for the result' or 'stop after the Action'.

They are not read in a sentence that states one_action: 'one Action per reply, then wait for
the Observation' is the one-action rule's own wording, and a model still invents the
Observation under it until told not to (lesson 02).
"""

# ---------------------------------------------------------------- matching

def _index() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """Every term of every group, by its first token."""
    index: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for group, terms in GROUPS.items():
        for term in terms:
            if term:
                index.setdefault(term[0], []).append((group, term))
    return index


_INDEX = _index()


class _Found:
    """The spans of each group's terms in one sentence, sorted by start, for windowed look-ups.

    Places are in units: an English word is two, a Chinese character one (a Chinese word is
    about two characters), so that one gap of `Step.gap` words fits both languages.
    """

    def __init__(self, tokens: list[str]) -> None:
        at = [0]
        for token in tokens:
            at.append(at[-1] + (1 if _is_cjk(token[0]) else 2))
        spans: dict[str, list[tuple[int, int]]] = {}
        n = len(tokens)
        for start, token in enumerate(tokens):
            for group, term in _INDEX.get(token, ()):
                end = start + len(term)
                if end <= n and tuple(tokens[start:end]) == term:
                    spans.setdefault(group, []).append((at[start], at[end]))
        speakers = sorted(b for _, b in spans.get("speaker", ()))  # where each 'I' ends
        if "not" in spans:  # 'I should not guess': what the speaker does, not a rule
            spans["not"] = [(a, b) for a, b in spans["not"] if not _within(speakers, a - 4, a)]
        negators = spans.get("not", []) + spans.get("speaker", []) + spans.get("cancel", [])
        self.negators = sorted(negators, key=lambda span: span[1])
        self.not_ends = [b for _, b in self.negators]
        cancels = sorted(a for a, _ in spans.get("cancel", ()))
        if "not" in spans:  # 'never forget to', 'you don't need to': permission, not a rule
            spans["not"] = [(a, b) for a, b in spans["not"] if not _within(cancels, b, b + 4)]
        self.spans = spans
        self.starts = {group: [a for a, _ in found] for group, found in spans.items()}
        self.breaks = self.starts.get("connective", [])

    def near(self, group: str, lo: int, hi: int) -> list[tuple[int, int]]:
        """The spans of `group` that start within [lo, hi]."""
        starts = self.starts.get(group)
        if not starts:
            return []
        return self.spans[group][bisect_left(starts, lo):bisect_right(starts, hi)]

    def negated(self, start: int, end: int) -> bool:
        """True when a negation, 'need to' or 'I' ends at most one word before the span
        [start, end) or inside it ('不需要' holds '要')."""
        i = bisect_left(self.not_ends, start - 2)
        while i < len(self.not_ends) and self.not_ends[i] <= end:
            if self.negators[i][0] < start:
                return True
            i += 1
        return False

    def broken(self, lo: int, hi: int) -> bool:
        """True when a clause-opening word starts within [lo, hi)."""
        return _within(self.breaks, lo, hi - 1)


def _within(sorted_places: list[int], lo: int, hi: int) -> bool:
    """True when some place of the sorted list lies within [lo, hi]."""
    i = bisect_left(sorted_places, lo)
    return i < len(sorted_places) and sorted_places[i] <= hi


def _holds(form: tuple[Step, ...], found: _Found) -> bool:
    """True when the chain of groups of `form` runs through the sentence."""
    first = form[0]
    return any(not (first.positive and found.negated(start, end)) and _chain(form, 1, end, found)
               for start, end in found.spans.get(first.group, ()))


def _chain(form: tuple[Step, ...], k: int, end: int, found: _Found) -> bool:
    """True when steps k.. of `form` follow a link that ends at `end` (each within its gap)."""
    if k == len(form):
        return True
    step = form[k]
    return any(not (step.positive and found.negated(start, stop)) and (step.across or not found.broken(end, start))
               and _chain(form, k + 1, stop, found)
               for start, stop in found.near(step.group, end, end + 2 * step.gap))


def read_rules(text: str) -> frozenset[str]:
    """The rule ids (one_action, no_observation, ...) that some sentence of `text` states."""
    rules: set[str] = set()
    for tokens in sentences(text):
        found = _Found(tokens)
        if not found.spans:
            continue
        here = {rule for rule, forms in FORMS.items() if any(_holds(f, found) for f in forms)}
        if "one_action" not in here and any(_holds(f, found) for f in WAIT_FORMS):
            here.add("no_observation")
        rules |= here
    return frozenset(rules)
