"""What a family handler works with and returns: the `Ctx` of one decision and its `Move`.

Shared by `mockllm.brain.policy` (which classifies the question and dispatches) and the family
modules (which hold the handlers), so neither needs to import the other's internals.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mockllm.brain.knowledge import first_date
from mockllm.reading.conversation import Conversation, ToolSpec, correction_kind
from mockllm.reading.history import built
from mockllm.reading.recent import Recent
from mockllm.reading.replies import FULL_WIDTH
from mockllm.reading.tool_kinds import map_args, tool_kind

__all__ = ["Move", "Ctx", "NextMove", "MissingTool", "is_error", "offered_tools"]


@dataclass(frozen=True)
class Move:
    """The model's next step: a tool call (action) or a final answer, with the reason for it."""
    thought: str
    action: str | None = None
    action_input: dict | None = None
    final_answer: str | None = None
    family: str = ""
    rule: str = ""


_AVAILABLE = re.compile(r"(?i)available tools?\s*+(?:are|is)?\s*+[:：]\s*+(.+)")
_TOOL_NAME = re.compile(r"[A-Za-z_][\w\-]*(?:\.[\w\-]+)*")


def offered_tools(conv: Conversation) -> tuple[ToolSpec, ...]:
    """The offered tools, plus names listed by an 'unknown tool ... available tools:' error
    (`conv.tools` itself when there are none)."""
    tools = list(conv.tools)
    for step in conv.steps:
        said = step.observation
        if not said or not ("vailable" in said or "VAILABLE" in said):
            continue  # the common case: no list of tools to read
        for name in _listed_tools(said):
            if all(t.name != name for t in tools):
                tools.append(ToolSpec(name, "", ()))
    return conv.tools if len(tools) == len(conv.tools) else tuple(tools)


_KINDS = Recent(64)
"""A tools tuple -> its first tool of each kind: the same tools come with every step of a run."""


def _first_of_each_kind(tools: tuple[ToolSpec, ...]) -> dict[str, ToolSpec]:
    """The first tool of each kind ('weather', 'calculator', ...) among `tools`."""
    kinds: dict[str, ToolSpec] = {}
    for t in tools:
        kinds.setdefault(tool_kind(t), t)
    return kinds


@lru_cache(maxsize=1024)
def _listed_tools(observation: str) -> tuple[str, ...]:
    """The tool names an observation lists after 'available tools:' (memoised, as it is resent)."""
    m = _AVAILABLE.search(observation)
    return tuple(_TOOL_NAME.findall(m.group(1) if m else ""))


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


_ERROR = re.compile(r"(?i)\s*(error|错误|exception|traceback)")
_TRANSIENT = re.compile(r"(?i)time ?out|timed out|temporar|try again|rate limit|unavailable"
                        r"|internal|exception|traceback|connection")


def is_error(obs: str) -> bool:
    """Whether an observation reports a tool error."""
    return bool(_ERROR.match(obs or ""))


def _transient(obs: str) -> bool:
    """Whether a tool error looks worth one retry (timeouts, internal failures)."""
    return bool(_TRANSIENT.search(obs))


_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=1024)
def _fold(text: str) -> str:
    """A value as `_same` compares it: full-width folded, lower-cased, spaces removed."""
    return _SPACES.sub("", text.translate(FULL_WIDTH).lower())


def _canon(d: dict) -> dict[str, str]:
    """Lower-cased keys and folded values: equal for the same call (as canonical JSON would be)."""
    return {str(k).lower(): _fold(str(v)) for k, v in d.items()}


def _same(a: dict, b: dict) -> bool:
    """Whether two argument dicts are the same call (case, spacing, full-width forms ignored)."""
    return _canon(a) == _canon(b)


NO_TOOL = {
    "date": ("find out today's date", "查询今天的日期"),
    "weather": ("check live weather", "查询实时天气"),
    "calculator": ("do this calculation reliably", "可靠地完成这个计算"),
    "order_lookup": ("look up orders", "查询订单"),
    "order_range": ("list orders by date", "按日期查询订单"),
    "search": ("search the documents", "搜索文档"),
    "calendar": ("check your calendar", "查看你的日程"),
}


class Ctx:
    """What a family handler works with: the conversation, the offered tools, and its needs."""

    def __init__(self, conv: Conversation, family: str, guesses: bool) -> None:
        self.conv, self.family, self.guesses = conv, family, guesses
        self.zh = conv.language == "zh"
        self.tools = offered_tools(conv)
        self.guess: tuple[str, str] | None = None   # (en, zh) answer used when guessing
        self._kinds: dict[str, ToolSpec] | None = None
        self._calls: dict[str, list] | None = None

    def t(self, en: str, zh: str) -> str:
        """Pick the English or Chinese text, by the question's language."""
        return zh if self.zh else en

    def tool(self, kind: str) -> ToolSpec | None:
        """The first offered tool of a kind ('weather', 'calculator', ...), or None."""
        if self._kinds is None:
            self._kinds = _KINDS.of(self.tools, _first_of_each_kind)
        return self._kinds.get(kind)

    def final(self, rule: str, answer: str, thought: str | None = None) -> Move:
        """A final-answer move of this family."""
        thought = thought or self.t("I now know the final answer.", "我现在知道最终答案了。")
        return built(Move, thought=thought, action=None, action_input=None, final_answer=answer,
                     family=self.family, rule=f"{self.family}/{rule}")

    def call(self, rule: str, tool: ToolSpec, args: dict, thought: str) -> Move:
        """A tool-call move of this family (acknowledging a corrective message first)."""
        if self.conv.last_correction == "unknown_tool":
            thought = self.t(f"That tool does not exist; I will use {tool.name}. ",
                             f"那个工具不存在，我改用 {tool.name}。") + thought
        return built(Move, thought=thought, action=tool.name, action_input=dict(args),
                     final_answer=None, family=self.family, rule=f"{self.family}/{rule}")

    def _seen(self, tool: ToolSpec, args: dict) -> list[str]:
        """Observations of earlier identical calls, corrective messages left out."""
        if self._calls is None:  # the answered steps by lower-cased action, once per decision
            self._calls = {}
            for s in self.conv.steps:
                if s.observation is not None:
                    self._calls.setdefault((s.action or "").lower(), []).append(s)
        earlier = self._calls.get(tool.name.lower())
        if not earlier:
            return []
        wanted = _canon(args)
        return [s.observation for s in earlier
                if correction_kind(s.observation) is None and _canon(s.action_input) == wanted]

    def observe(self, kind: str, args: dict, rule: str, thought: str) -> str:
        """The observation for a call (made earlier), or raise NextMove with the call to make."""
        tool = self.tool(kind)
        if tool is None:
            raise MissingTool(kind)
        args = map_args(tool, args)
        seen = self._seen(tool, args)
        if not seen:  # the common case: a call not made yet
            raise NextMove(self.call(rule, tool, args, thought))
        good = [o for o in seen if not is_error(o)]
        if good or not _transient(seen[-1]):
            return (good or seen)[-1]
        failures = [o for o in seen if is_error(o)]   # the same call failed before
        if len(failures) >= 2:
            raise NextMove(self.final("give_up", self.t(
                f"I could not get an answer: {tool.name} failed twice ({failures[-1].strip()}).",
                f"我没能得到答案：{tool.name} 连续两次出错（{failures[-1].strip()}）。"),
                self.t("The tool keeps failing, so I will stop and say so.",
                       "这个工具一直出错，我停下来如实说明。")))
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
