"""Read the turns of a conversation one message at a time: the latest question and the steps since.

Part of reading a request (see `mockllm.reading.conversation`). `History` is what has been read
so far; each message moves it on to a new, immutable `History`. An agent resends its whole conversation at
every step, so each move from a given `History` with a given message is remembered: reading the
next request only costs a look-up per message it shares with the previous one.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from mockllm.reading.replies import (_ATOMS, _fresh, _loose_args, _reply, _too_deep, parse_input,
                                     parse_reply, text_tool_calls)
from mockllm.reading.system_prompt import ToolSpec, _get

__all__ = ["CORRECTION_PHRASES", "correction_kind", "PastStep", "ReadOnlyDict", "History", "start",
           "advance"]


@dataclass(frozen=True)
class PastStep:
    """One earlier assistant action with the observation that was fed back for it."""
    action: str | None
    action_input: dict
    observation: str | None
    reply: str


def built(cls: type, **fields: object) -> object:
    """An instance of the frozen dataclass `cls` from all its fields, set at once (its `__init__`
    sets them one `object.__setattr__` call at a time, a cost reading pays at every message)."""
    instance = object.__new__(cls)
    instance.__dict__.update(fields)
    return instance


class ReadOnlyDict(dict):
    """A dict that refuses changes: the action input of a step that conversations share.

    Only inputs whose values are all str, int, float, bool or None are shared, so nothing in
    them can change. `dict(d)` or `d.copy()` gives an ordinary dict to change.
    """

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> None:
        """Refuse the change."""
        raise TypeError("a past step's action_input is read-only; change a copy: dict(...)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple:
        return ReadOnlyDict, (dict(self),)


CORRECTION_PHRASES: dict[str, tuple[str, ...]] = {
    "format": ("could not parse", "format error", "invalid format", "did not follow the format",
               "use the format", "格式"),
    "repeat": ("repeated", "same call", "already called", "same action", "重复"),
    "unknown_tool": ("unknown tool", "not a valid tool", "no tool named", "available tools"),
}
MAX_STEPS = 256
"""Steps of the current task the model keeps in view: reading stays linear in the messages."""
_OBS_PREFIX = re.compile(r"(?i)^\s*observation\s*[:：]\s*")
_FINAL = re.compile(r"(?i)final[ _]?answer|最终答案|(?m:^)[ \t*]*+answer[ \t]*+:")


def correction_kind(text: str) -> str | None:
    """Return the corrective kind ('format', 'repeat', 'unknown_tool') of a message, if any."""
    return _correction(text) if type(text) is str else _correction.__wrapped__(text)


@lru_cache(maxsize=1024)
def _correction(text: str) -> str | None:
    """`correction_kind`, memoised: the same messages are resent at every step."""
    low = text.lower()
    for kind, phrases in CORRECTION_PHRASES.items():
        for phrase in phrases:
            if phrase in low:
                return kind
    return None


@lru_cache(maxsize=1024)
def _user_message(text: str) -> tuple[str | None, str]:
    """(correction kind, text without its 'Observation:' prefix) of a user message, memoised."""
    if text.startswith("Observation: ") and not text[13:14].isspace():  # the common case
        # No phrase can start in the prefix, so the kind is the observation's own (memoised
        # under the text the policy asks about later).
        return correction_kind(text[13:]), text[13:]
    return correction_kind(text), _OBS_PREFIX.sub("", text, count=1)


class History:
    """What the messages read so far say (immutable; equal only to itself, so it keys a cache).

    `question` is the text of the user message that opened the current task (None before any
    user message); `steps` are the task's steps since, as (PastStep, call id) pairs (a step's
    input is a ReadOnlyDict when it can be shared, else a dict to copy before handing it out);
    `corrections` the correction kinds of the user/tool messages since, `last_kind` that of the
    latest one; only the last MAX_STEPS steps are kept (a model's context is finite);
    `city` the last city any step asked for and `before_city` that city when the task opened.
    """

    __slots__ = ("specs", "structured", "last", "assistants", "prev", "question", "city",
                 "before_city", "steps", "corrections", "last_kind", "cached", "view")

    def __init__(self, specs: tuple[ToolSpec, ...], structured: bool, last: str | None,
                 assistants: int, prev: tuple | None, question: str | None, city: str | None,
                 before_city: str | None, steps: tuple, corrections: frozenset,
                 last_kind: str | None, cached: bool) -> None:
        self.specs, self.structured, self.last, self.assistants = specs, structured, last, assistants
        self.prev, self.question, self.city, self.before_city = prev, question, city, before_city
        self.steps, self.corrections, self.last_kind, self.cached = steps, corrections, last_kind, cached
        self.view: tuple | None = None  # the steps as handed out, kept once worked out (a memo)


def start(specs: tuple[ToolSpec, ...], structured: bool, cached: bool) -> History:
    """The history before any message, for these offered tools (`cached`: remember its moves)."""
    return History(specs, structured, None, 0, None, None, None, None, (), frozenset(), None, cached)


def advance(h: History, role: str, text: str, calls: Sequence, call_id: object) -> History:
    """The history after one more message (memoised when the message is plain text and data)."""
    if role == "system":
        return h
    if h.cached and not calls:  # the common case, straight to the memo
        return _advance_cached(h, role, text, (), call_id if role == "tool" else None)
    key = (_calls_key(calls) if calls else ()) if h.cached else None
    if key is None:
        return _advance(h, role, text, calls, call_id, False)
    return _advance_cached(h, role, text, key, call_id if role == "tool" else None)


def _calls_key(calls: Sequence) -> tuple | None:
    """The tool calls as (id, name, arguments) strings, or None if they are not plain data."""
    key = []
    for call in calls:
        fn = call.get("function") if type(call) is dict else None
        if type(fn) is not dict:
            return None
        parts = (call.get("id"), fn.get("name"), fn.get("arguments"))
        if any(type(part) is not str for part in parts):
            return None
        key.append(parts)
    return tuple(key)


@lru_cache(maxsize=4096)
def _advance_cached(h: History, role: str, text: str, key: tuple, call_id: object) -> History:
    """`_advance` for a message whose tool calls are plain data (given as their key)."""
    calls = [{"id": i, "function": {"name": n, "arguments": a}} for i, n, a in key]
    return _advance(h, role, text, calls, call_id, True)


def _opens_task(h: History, text: str) -> bool:
    """Whether a user message starts a new task: the first one, or one after a final answer."""
    if h.question is None:
        return True
    prev = h.prev
    return (prev is not None and prev[0] == "assistant" and not prev[2]
            and _reply(prev[1])[0] is None and (h.structured or bool(_FINAL.search(prev[1])))
            and not _OBS_PREFIX.match(text) and correction_kind(text) is None)


def _advance(h: History, role: str, text: str, calls: Sequence, call_id: object,
             cached: bool) -> History:
    """The history after one more (non-system) message."""
    prev = h.prev if role == "developer" else (role, text, bool(calls))
    if role == "user" and _opens_task(h, text):
        return History(h.specs, h.structured, role, h.assistants, prev, text, h.city, h.city, (),
                       frozenset(), None, cached)
    steps, kind, city = h.steps, h.last_kind, h.city
    if role == "assistant":
        if not calls and text[:20].lstrip().startswith("Calling"):
            calls = text_tool_calls(text)
        new = (tuple([_call_step(call, h.specs, text if j == 0 else "") for j, call in enumerate(calls)])
               if calls else (_reply_step(text, h.specs),))
        for past, _ in new:
            city = _city(past.action_input, city)
        steps = steps + new
    elif role == "user":
        kind, observation = _user_message(text)
        if steps and steps[-1][0].observation is None:
            steps = steps[:-1] + (_answered(steps[-1], observation),)
    elif role == "tool":
        kind = correction_kind(text)
        waiting = [i for i, (past, _) in enumerate(steps) if past.observation is None]
        match = [i for i in waiting if call_id is not None and steps[i][1] == call_id]
        if waiting:
            i = (match or waiting)[0]
            steps = steps[:i] + (_answered(steps[i], text),) + steps[i + 1:]
    if len(steps) > MAX_STEPS:
        steps = steps[-MAX_STEPS:]
    seen = h.corrections if kind is None or kind in h.corrections else h.corrections | {kind}
    return History(h.specs, h.structured, role, h.assistants + (role == "assistant"), prev,
                   h.question, city, h.before_city, steps, seen, kind, cached)


def _reply_step(text: str, specs: tuple[ToolSpec, ...]) -> tuple[PastStep, object]:
    """The step of a text reply: its call read once (memoised), its input shared when flat."""
    name, parsed = _reply(text)
    if name is None:
        return _step(None, {}, text, None)
    if isinstance(parsed, dict):  # the memo's dict: shared read-only, or copied when nested
        flat = all([type(v) in _ATOMS for v in parsed.values()])
        return _step(name, parsed if flat else _fresh(parsed), text, None)
    return _step(name, parse_reply(text, specs)[1], text, None)


def _call_step(call: object, specs: tuple[ToolSpec, ...], reply: str) -> tuple:
    """The step of one structured tool call, its arguments parsed leniently."""
    fn = _get(call, "function") or {}
    name, args = _get(fn, "name"), _get(fn, "arguments")
    if isinstance(args, dict):
        return _step(name, {} if _too_deep(args) else dict(args), reply, _get(call, "id"))
    parsed = parse_input(str(args)) if args else {}
    tool = next((t for t in specs if t.name == name), None)
    parsed = parsed if isinstance(parsed, dict) else _loose_args(parsed, tool)
    return _step(name, parsed, reply, _get(call, "id"))


def _step(action: str | None, args: dict, reply: str, call_id: object) -> tuple[PastStep, object]:
    """A step not yet answered, with its call id; its input is shared when nothing in it can change."""
    if all([type(v) in _ATOMS for v in args.values()]):
        args = ReadOnlyDict(args)
    return built(PastStep, action=action, action_input=args, observation=None, reply=reply), call_id


def _answered(step: tuple[PastStep, object], observation: str) -> tuple[PastStep, object]:
    """The step with the observation fed back for it."""
    past, call_id = step
    return built(PastStep, action=past.action, action_input=past.action_input,
                 observation=observation, reply=past.reply), call_id


def _city(args: dict, city: str | None) -> str | None:
    """The last city (or location) the arguments name, else `city` unchanged."""
    for key, value in args.items():
        if "city" in str(key).lower() or "location" in str(key).lower():
            city = str(value)
    return city
