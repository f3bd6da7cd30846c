"""Read a chat request into a `Conversation`: tools, rules, memory, the question and past steps.

The mock model never sees Python objects from the learner's loop, only the `messages` list (and
`tools=` in structured mode), exactly like a real model. This module turns that list into facts
the policy can use. It is lenient: odd but valid messages never raise. The system prompt itself
is read by `mockllm.reading.system_prompt`, each assistant reply by `mockllm.reading.replies`,
and the turns one message at a time by `mockllm.reading.history`.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from mockllm.reading.history import (CORRECTION_PHRASES, History, PastStep, ReadOnlyDict,
                                     correction_kind, read_turns, start)
from mockllm.reading.replies import _FIELD, _fresh, parse_input, parse_reply
from mockllm.reading.system_prompt import (ToolSpec, _get, find_rules, read_example, read_memory,
                                           read_tools_structured, read_tools_text)

__all__ = ["ToolSpec", "PastStep", "Conversation", "read_conversation", "correction_kind",
           "parse_reply", "parse_input", "CORRECTION_PHRASES"]


@dataclass(frozen=True)
class Conversation:
    """Everything the mock model reads from one request."""
    mode: str
    system: str
    tools: tuple[ToolSpec, ...]
    rules: frozenset[str]
    has_example: bool
    example_values: tuple[str, ...]
    question: str
    language: str
    memory: dict[str, str]
    steps: tuple[PastStep, ...]
    corrections: frozenset[str]
    last_correction: str | None
    step: int


_CJK = re.compile(r"[\u3400-\u9fff]")
_Q_PREFIX = re.compile(r"^\s*(?:question|问题)\s*[:：]\s*", re.I)
_KEYS = ("role", "content", "tool_calls", "tool_call_id")


def _text(content: object) -> str:
    """Return message content as text: None -> '', list of parts -> their text joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        parts = [p if isinstance(p, str) else str(_get(p, "text") or "") for p in content]
        return "".join(parts)
    return str(content)


def _messages(messages: list) -> tuple[list[tuple[str, str, Sequence, object]], str]:
    """(role, text, tool_calls, tool_call_id) for every message, tolerating odd shapes; and the
    system prompt (the text of the system and developer messages)."""
    out, system = [], []
    for m in messages or ():
        if type(m) is dict and len(m) == 2 and "role" in m and "content" in m:  # the common case
            role, content, calls, call_id = m["role"], m["content"], None, None
        else:
            role, content, calls, call_id = (_get(m, key) for key in _KEYS)
        role = role if type(role) is str and role else str(role or "")
        text = content if type(content) is str else _text(content)
        if role == "system" or role == "developer":
            system.append(text)
        out.append((role, text, [c for c in calls if c is not None] if calls else (), call_id))
    return out, "\n\n".join(system)


@lru_cache(maxsize=64)
def _read_system(system: str) -> tuple:
    """(text-mode tools, rules, has_example, example values, memory items) of a system prompt.

    Memoised: the same system prompt is resent, and read again, at every step.
    """
    has_example, values = read_example(system)
    return (read_tools_text(system), find_rules(system), has_example, values,
            tuple(read_memory(system).items()))


@lru_cache(maxsize=64)
def _text_start(system: str) -> History:
    """The history before any message, in text mode under this system prompt."""
    return start(_read_system(system)[0], False, True)


@lru_cache(maxsize=64)
def _structured_start(specs: tuple[ToolSpec, ...]) -> History:
    """The history before any message, in structured mode with these tools."""
    return start(specs, True, True)


@lru_cache(maxsize=256)
def _read_question(text: str) -> tuple[str, str]:
    """(question, language) from the user message that asks it."""
    question = _Q_PREFIX.sub("", text)
    question = _FIELD.split(question, maxsplit=1)[0].strip() if _FIELD.search(question) else \
        question.strip()
    return question, "zh" if _CJK.search(question) else "en"


def _shared(past: PastStep) -> PastStep:
    """The step as it can be handed out: itself when its input is read-only, else a copy."""
    if type(past.action_input) is ReadOnlyDict:
        return past
    return PastStep(past.action, _fresh(past.action_input), past.observation, past.reply)


def read_conversation(messages: list, tools: list | None = None) -> Conversation:
    """Read a chat-completion request (messages, optional tools=) into a Conversation."""
    msgs, system = _messages(messages)
    structured = bool(tools)
    _, rules, has_example, values, remembered = _read_system(system)
    h = _structured_start(read_tools_structured(tools)) if structured else _text_start(system)
    h = read_turns(h, msgs)
    opened = h.question is not None
    question, language = _read_question(h.question) if opened else ("", "en")
    kinds = h.kinds if opened else ()
    memory = {"last_city": h.before_city} if opened and h.before_city is not None else {}
    return Conversation(
        mode="structured" if structured else "text", system=system, tools=h.specs,
        rules=rules, has_example=has_example, example_values=values,
        question=question, language=language, memory={**memory, **dict(remembered)},
        steps=tuple(_shared(past) for past, _ in h.steps) if opened else (),
        corrections=frozenset(k for k in kinds if k),
        last_correction=kinds[-1] if kinds and h.last in ("user", "tool") else None,
        step=1 + h.assistants)
