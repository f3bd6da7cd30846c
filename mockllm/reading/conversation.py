"""Read a chat request into a `Conversation`: tools, rules, memory, the question and past steps.

The mock model never sees Python objects from the learner's loop, only the `messages` list (and
`tools=` in structured mode), exactly like a real model. This module turns that list into facts
the policy can use, in one pass over the messages. It is lenient: odd but valid messages never
raise. The prompt may stand in the system message or in the first user message (a whole
completion-style prompt, read by `mockllm.reading.layout`); the prompt itself is read by
`mockllm.reading.system_prompt`, each assistant reply by `mockllm.reading.replies`, and the
turns one message at a time by `mockllm.reading.history`.

A model's context is finite: of each message it reads at most MAX_MESSAGE characters, of the
prompt at most MAX_PROMPT, and it takes the question from at most MAX_QUESTION characters.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from mockllm.reading.history import (CORRECTION_PHRASES, History, PastStep, ReadOnlyDict,
                                     _advance, _advance_cached, advance, built, correction_kind, start)
from mockllm.reading.dspy_format import DspyPrompt, course_request, read_dspy
from mockllm.reading.layout import read_layout
from mockllm.reading.recent import Recent
from mockllm.reading.replies import _FIELD, _fresh, parse_input, parse_reply
from mockllm.reading.system_prompt import (ToolSpec, _get, find_rules, read_example, read_memory,
                                           read_prompt_style, read_tools_structured,
                                           read_tools_text)

__all__ = ["ToolSpec", "PastStep", "Conversation", "read_conversation", "correction_kind",
           "parse_reply", "parse_input", "CORRECTION_PHRASES", "MAX_MESSAGE", "MAX_PROMPT",
           "MAX_QUESTION"]

MAX_MESSAGE = 65_536
"""Characters of one message the model reads (the rest is beyond its attention)."""
MAX_PROMPT = 262_144
"""Characters of the prompt (system messages and instructions) the model reads."""
MAX_QUESTION = 4_096
"""Characters of the question the model works from."""


@dataclass(frozen=True)
class Conversation:
    """Everything the mock model reads from one request.

    `final_marker` is the label the prompt asks for before a final answer ('Final Answer', or
    'Answer' as llama-index asks); `input_style` is 'plain' when the format asks for the input
    to the action as plain text (LangChain's 'Action Input: the input to the action'), else
    'json'; `opening` is the start of the reply the last message already holds when it ends in
    an empty 'Thought:' (the reply then completes it, as a completion model would), else ''.
    `forced` names the tools a reply must call when `tool_choice` forces a call (every offered
    tool for 'required', the one named for a named function), else it is empty.
    `dspy` is the prompt of a DSPy adapter (`mockllm.reading.dspy_format`), read as the
    tool-calling request it restates; the reply is then written in that adapter's layout.
    """
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
    final_marker: str = "Final Answer"
    input_style: str = "json"
    opening: str = ""
    forced: tuple[str, ...] = ()
    dspy: DspyPrompt | None = None


_CJK = re.compile(r"[\u3400-\u9fff]")
_Q_PREFIX = re.compile(r"^\s*+(?:question|new task|task|问题)\s*+[:：]\s*+", re.I)
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


def _row(m: object) -> tuple[str, str, list | tuple, object]:
    """(role, text, tool calls, tool_call_id) of one message, tolerating odd shapes."""
    if type(m) is dict and len(m) == 2 and "role" in m and "content" in m:  # the common case
        role, content, calls, call_id = m["role"], m["content"], None, None
    else:
        role, content, calls, call_id = (_get(m, key) for key in _KEYS)
    role = role if type(role) is str and role else str(role or "")
    text = content if type(content) is str else _text(content)
    return role, text, [c for c in calls if c is not None] if calls else (), call_id


@lru_cache(maxsize=64)
def _read_system(system: str) -> tuple:
    """(text-mode tools, rules, has_example, example values, memory items, final marker,
    input style) of a prompt. Memoised: the same prompt is resent, and read again, each step."""
    has_example, values = read_example(system)
    return (read_tools_text(system), find_rules(system), has_example, values,
            tuple(read_memory(system).items()), *read_prompt_style(system))


@lru_cache(maxsize=64)
def _text_start(system: str) -> History:
    """The history before any message, in text mode under this prompt."""
    return start(_read_system(system)[0], False, True)


@lru_cache(maxsize=64)
def _structured_start(specs: tuple[ToolSpec, ...]) -> History:
    """The history before any message, in structured mode with these tools."""
    return start(specs, True, True)


@lru_cache(maxsize=256)
def _read_question(text: str) -> tuple[str, str]:
    """(question, language) from the user message that asks it."""
    question = _Q_PREFIX.sub("", text[:MAX_QUESTION], count=1)
    question = _FIELD.split(question, maxsplit=1)[0].strip() if _FIELD.search(question) else \
        question.strip()
    return question, "zh" if _CJK.search(question) else "en"


def _shared(past: PastStep) -> PastStep:
    """The step as it can be handed out: itself when its input is read-only, else a copy."""
    if type(past.action_input) is ReadOnlyDict:
        return past
    return PastStep(past.action, _fresh(past.action_input), past.observation, past.reply)


def _asks(text: str) -> bool:
    """Whether a user message may hold a question line (and so a whole prompt)."""
    return "uestion" in text or "UESTION" in text or "问题" in text


def _steps(h: History) -> tuple[PastStep, ...]:
    """The steps of a history as handed out (kept on the history when all can be shared)."""
    if h.view is not None:
        return h.view
    steps = tuple([past for past, _ in h.steps])
    if all([type(past.action_input) is ReadOnlyDict for past in steps]):
        h.view = steps  # all can be shared as they are (the common case)
        return steps
    return tuple(_shared(past) for past in steps)


def _turns(messages: list, specs: tuple[ToolSpec, ...] | None, prompt: str | None,
           state: tuple = (None, (), False, ""),
           memo: bool = True) -> tuple[History | None, list[str], bool, str]:
    """Read the messages in one pass: (history, prompt parts, whether a system message came after
    the first turn, the opening of a reply the last message leaves to complete).

    The history starts at the first non-system message, under the prompt read so far (or under
    `prompt` when given); a first user message that holds a whole prompt adds its instructions.
    `state` is what reading the messages before these gave (by default, there were none);
    `memo=False` reads plain messages without remembering each move (they are new).
    """
    h, parts, late, opening = state[0], list(state[1]), state[2], state[3]
    for m in messages or ():
        if h is not None and h.cached and type(m) is dict and len(m) == 2:  # the common case
            role, text = m.get("role"), m.get("content")
            if type(text) is str and (role == "assistant" or role == "user" and (
                    text.startswith("Observation") or not _asks(text))):
                h = (_advance_cached(h, role, text[:MAX_MESSAGE], (), None) if memo
                     else _advance(h, role, text[:MAX_MESSAGE], (), None, True))
                opening = ""
                continue
        role, text, calls, call_id = _row(m)
        opening = ""
        if role == "system" or role == "developer":
            parts.append(text)
            if h is None:
                continue
            late = True  # read below as a turn too: a developer message is one, to the history
        layout = read_layout(text[:MAX_PROMPT]) if role == "user" and _asks(text) else None
        if h is None:
            if layout is not None and layout.instructions:
                parts.append(layout.instructions)
            system = prompt if prompt is not None else "\n\n".join(parts)[:MAX_PROMPT]
            h = _structured_start(specs) if specs is not None else _text_start(system)
        if layout is None:
            h = advance(h, role, text[:MAX_MESSAGE], calls, call_id)
            continue
        for turn_role, turn_text in layout.turns:
            h = advance(h, turn_role, turn_text[:MAX_MESSAGE], (), None)
        opening = layout.opening
    return h, parts, late, opening


MAX_READ = 64
"""Plain conversations whose reading is remembered (a bounded memo: the oldest is dropped first)."""
MIN_HEAD = 4
"""Parts before the last two messages below which reading afresh is cheaper than a look-up."""
_READ = Recent(MAX_READ)
"""[role, content, ...] of plain messages -> what `_turns` read from them (its parts a tuple)."""


def _plain_turns(messages: list, plain: list[str]) -> tuple:
    """`_turns(messages, None, None)` of plain messages (`plain`: their roles and contents),
    resumed from what reading all of them but the last two gave. That state, and the one after
    all of them, are remembered: an agent resends its conversation two messages longer at each
    step (the same reading, a fold over the messages, cut in two)."""
    cut = max(0, len(plain) - 4)
    if cut < MIN_HEAD:
        return _turns(messages, None, None)
    whole = tuple(plain)
    known = _READ.get(whole)
    if known is not None:  # the same conversation again
        return known
    head = whole[:cut]
    state = _READ.get(head)
    if state is None:
        state = _remember(head, _turns(messages[:cut // 2], None, None))
    # The last two are new to this history: their moves are not worth remembering one by one.
    return _remember(whole, _turns(messages[cut // 2:], None, None, state, memo=False))


def _remember(key: tuple[str, ...], state: tuple) -> tuple:
    """Keep what `_turns` read from the plain parts `key` (its parts as a tuple) as the newest."""
    h, parts, late, opening = state
    return _READ.remember(key, (h, tuple(parts), late, opening))


def _forced(tool_choice: object, tools: list | None) -> tuple[str, ...]:
    """The tools a checked `tool_choice` forces a call to: all for 'required', the named one."""
    if not tools or tool_choice is None:
        return ()
    if isinstance(tool_choice, dict):
        return (tool_choice["function"]["name"],)
    return tuple(_get(_get(t, "function") or {}, "name") or "" for t in tools) \
        if tool_choice == "required" else ()


def read_conversation(messages: list, tools: list | None = None,
                      plain: list[str] | None = None, tool_choice: object = None) -> Conversation:
    """Read a chat-completion request (messages, optional tools=) into a Conversation.

    `plain` is [role, content, ...] of the messages when every one is a plain {'role', 'content'}
    dict (as `Request.plain` holds them): the conversation before the last two messages is then
    not read again when it was read before. `tool_choice` (checked) sets `forced`.
    """
    prompt = None if tools else read_dspy(messages)
    if prompt is not None:  # DSPy's fields layout: read as the request it restates
        return replace(read_conversation(*course_request(prompt)), dspy=prompt)
    specs = read_tools_structured(tools) if tools else None
    h, parts, late, opening = (_plain_turns(messages, plain) if plain is not None and specs is None
                               else _turns(messages, specs, None))
    system = "\n\n".join(parts)[:MAX_PROMPT]
    if late and specs is None:  # a system message after the turns: read them again under it
        h = _turns(messages, None, system)[0]
    tools_text, rules, has_example, values, remembered, marker, style = _read_system(system)
    opened = h is not None and h.question is not None
    question, language = _read_question(h.question) if opened else ("", "en")
    memory = {"last_city": h.before_city} if opened and h.before_city is not None else {}
    return built(
        Conversation, mode="text" if specs is None else "structured", system=system,
        tools=h.specs if h is not None else specs if specs is not None else tools_text,
        rules=rules, has_example=has_example, example_values=values,
        question=question, language=language, memory={**memory, **dict(remembered)},
        steps=_steps(h) if opened else (),
        corrections=h.corrections if opened else frozenset(),
        last_correction=h.last_kind if opened and h.last in ("user", "tool") else None,
        step=1 + (h.assistants if h is not None else 0), final_marker=marker,
        input_style=style, opening=opening if specs is None else "",
        forced=_forced(tool_choice, tools), dspy=None)
