"""Read a chat request into a `Conversation`: tools, rules, memory, the question and past steps.

The mock model never sees Python objects from the learner's loop, only the `messages` list (and
`tools=` in structured mode), exactly like a real model. This module turns that list into facts
the policy can use. It is lenient: odd but valid messages never raise. The system prompt itself
is read by `mockllm.system_prompt`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from mockllm.system_prompt import (ToolSpec, _get, find_rules, read_example, read_memory,
                                   read_tools_structured, read_tools_text)

__all__ = ["ToolSpec", "PastStep", "Conversation", "read_conversation", "correction_kind",
           "parse_reply", "parse_input"]


@dataclass(frozen=True)
class PastStep:
    """One earlier assistant action with the observation that was fed back for it."""
    action: str | None
    action_input: dict
    observation: str | None
    reply: str


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


CORRECTION_PHRASES: dict[str, tuple[str, ...]] = {
    "format": ("could not parse", "format error", "invalid format", "did not follow the format",
               "use the format", "格式"),
    "repeat": ("repeated", "same call", "already called", "same action", "重复"),
    "unknown_tool": ("unknown tool", "not a valid tool", "no tool named", "available tools"),
}

_CJK = re.compile(r"[\u3400-\u9fff]")
_FIELD = re.compile(r"(?im)^[ \t>#*_`-]*(thought|action[ _]input|action|final[ _]answer|observation"
                    r"|question|最终答案|思考|行动输入|行动)[*_`]*\s*[:：][*_`]*[ \t]*")
_FINAL_NAME = re.compile(r"(?i)^final[ _]?answer$|^最终答案$")
_NAME = re.compile(r"[\w.\-]+")
_OBS_PREFIX = re.compile(r"(?i)^\s*observation\s*[:：]\s*")
_Q_PREFIX = re.compile(r"^\s*(?:question|问题)\s*[:：]\s*", re.I)


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


def correction_kind(text: str) -> str | None:
    """Return the corrective kind ('format', 'repeat', 'unknown_tool') of a message, if any."""
    low = text.lower()
    for kind, phrases in CORRECTION_PHRASES.items():
        if any(p in low for p in phrases):
            return kind
    return None


_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}  # （１７＋５） -> (17+5)


def parse_input(raw: str) -> dict | str:
    """Parse an Action Input leniently: a dict from (repaired) JSON, else the loose text."""
    raw = re.sub(r"^```\w*|```$", "", raw.strip()).strip()
    start, end = raw.find("{"), raw.rfind("}")
    if start >= 0 and end > start:
        chunk = raw[start:end + 1]  # valid JSON keeps its values exactly (Chinese text included)
        fixed = chunk.translate(_FULL_WIDTH).translate(str.maketrans("“”‘’", "\"\"''"))
        for cand in (chunk, fixed, re.sub(r",\s*([}\]])", r"\1", fixed.replace("'", '"'))):
            try:
                value = json.loads(cand)
            except ValueError:
                continue
            return value if isinstance(value, dict) else str(value)
        return {}
    if raw.startswith(("{", "[")):
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw.splitlines()[0].strip().strip("\"'“”`") if raw.strip() else ""
    if value is None:
        return ""
    return value if isinstance(value, dict) else str(value)


def _loose_args(value: str, tool: ToolSpec | None) -> dict:
    """Map a loose (non-JSON) input onto the tool's parameter names."""
    if not value:
        return {}
    params = tool.parameters if tool else ()
    parts = [p.strip().strip("\"'") for p in value.split(",")]
    if len(params) == 1:
        return {params[0]: value}
    if len(params) > 1 and len(parts) == len(params):
        return dict(zip(params, parts))
    return {"input": value}


def parse_reply(content: str, tools: tuple[ToolSpec, ...] = ()) -> tuple[str | None, dict]:
    """Return (action, action_input) from an assistant reply in the text format, leniently."""
    fields = [(m.group(1).lower().replace("_", " "), m.start(), m.end())
              for m in _FIELD.finditer(content)]
    cut = next((s for name, s, _ in fields if name == "observation"), len(content))
    fields = [f for f in fields if f[1] < cut]
    for i, (name, _, end) in enumerate(fields):
        if name in ("final answer", "最终答案"):
            return None, {}
        if name not in ("action", "行动"):
            continue
        value = content[end:fields[i + 1][1] if i + 1 < len(fields) else cut].strip()
        line = value.splitlines()[0].strip(" `'\"*[]") if value else ""
        m = _NAME.match(line)
        if not m or _FINAL_NAME.match(line.strip()):
            return None, {}
        nxt = fields[i + 1] if i + 1 < len(fields) else None
        if nxt and nxt[0] in ("action input", "行动输入"):
            stop = fields[i + 2][1] if i + 2 < len(fields) else cut
            raw = content[nxt[2]:stop]
        else:
            rest = line[m.end():].strip()
            raw = rest.strip("()[]") if rest[:1] in ("(", "[", "{") else ""
        parsed = parse_input(raw)
        tool = next((t for t in tools if t.name == m.group(0)), None)
        return m.group(0), parsed if isinstance(parsed, dict) else _loose_args(parsed, tool)
    return None, {}


def _is_final(content: str, structured: bool) -> bool:
    """Whether an assistant reply without an action ended its task with an answer."""
    return structured or bool(re.search(r"(?i)final[ _]?answer|最终答案", content))


def _messages(messages: list) -> list[tuple[str, str, list, object]]:
    """(role, text, tool_calls, tool_call_id) for every message, tolerating odd shapes."""
    out = []
    for m in messages or ():
        calls = [c for c in (_get(m, "tool_calls") or ()) if c is not None]
        out.append((str(_get(m, "role") or ""), _text(_get(m, "content")), calls,
                    _get(m, "tool_call_id")))
    return out


def _call_args(call: object, tools: tuple[ToolSpec, ...]) -> tuple[str | None, dict]:
    """(name, arguments) of one structured tool call, arguments parsed leniently."""
    fn = _get(call, "function") or {}
    name, args = _get(fn, "name"), _get(fn, "arguments")
    if isinstance(args, dict):
        return name, dict(args)
    parsed = parse_input(str(args)) if args else {}
    tool = next((t for t in tools if t.name == name), None)
    return name, parsed if isinstance(parsed, dict) else _loose_args(parsed, tool)


def _question_index(msgs: list, structured: bool, tools: tuple[ToolSpec, ...]) -> int:
    """Index of the user message that opened the current task (the latest new question)."""
    q, prev = -1, None
    for i, (role, text, calls, _) in enumerate(msgs):
        if role == "user" and (q < 0 or (
                prev is not None and prev[0] == "assistant" and not prev[2]
                and parse_reply(prev[1], tools)[0] is None and _is_final(prev[1], structured)
                and not _OBS_PREFIX.match(text) and correction_kind(text) is None)):
            q = i
        if role not in ("system", "developer"):
            prev = (role, text, calls)
    return q


def _walk(msgs: list, tools: tuple[ToolSpec, ...]) -> tuple[list[dict], list[str | None]]:
    """Past steps (as dicts) and the correction kind of each user/tool message, in order."""
    steps: list[dict] = []
    kinds: list[str | None] = []
    for role, text, calls, call_id in msgs:
        if role == "assistant":
            for j, call in enumerate(calls):
                name, args = _call_args(call, tools)
                steps.append({"action": name, "action_input": args, "observation": None,
                              "reply": text if j == 0 else "", "id": _get(call, "id")})
            if not calls:
                action, args = parse_reply(text, tools)
                steps.append({"action": action, "action_input": args, "observation": None,
                              "reply": text, "id": None})
        elif role in ("user", "tool"):
            kinds.append(correction_kind(text))
            waiting = [s for s in steps if s["observation"] is None]
            if role == "user" and steps and steps[-1]["observation"] is None:
                steps[-1]["observation"] = _OBS_PREFIX.sub("", text, count=1)
            elif role == "tool" and waiting:
                match = [s for s in waiting if call_id is not None and s["id"] == call_id]
                (match or waiting)[0]["observation"] = text
    return steps, kinds


def _history_memory(steps: list[dict]) -> dict[str, str]:
    """Facts from earlier tasks replayed in the same messages (the last city looked up)."""
    memory: dict[str, str] = {}
    for s in steps:
        for key, value in s["action_input"].items():
            if "city" in str(key).lower() or "location" in str(key).lower():
                memory["last_city"] = str(value)
    return memory


def read_conversation(messages: list, tools: list | None = None) -> Conversation:
    """Read a chat-completion request (messages, optional tools=) into a Conversation."""
    msgs = _messages(messages)
    structured = bool(tools)
    system = "\n\n".join(t for r, t, _, _ in msgs if r in ("system", "developer"))
    specs = read_tools_structured(tools) if structured else read_tools_text(system)
    q = _question_index(msgs, structured, specs)
    question = _Q_PREFIX.sub("", msgs[q][1]) if q >= 0 else ""
    question = _FIELD.split(question, maxsplit=1)[0].strip() if _FIELD.search(question) else \
        question.strip()
    before, _ = _walk(msgs[:max(q, 0)], specs)
    steps, kinds = _walk(msgs[q + 1:] if q >= 0 else [], specs)
    memory = {**_history_memory(before), **read_memory(system)}
    has_example, values = read_example(system)
    last = next((r for r, *_ in reversed(msgs) if r != "system"), None)
    return Conversation(
        mode="structured" if structured else "text", system=system, tools=specs,
        rules=find_rules(system), has_example=has_example, example_values=values,
        question=question, language="zh" if _CJK.search(question) else "en", memory=memory,
        steps=tuple(PastStep(s["action"], s["action_input"], s["observation"], s["reply"])
                    for s in steps),
        corrections=frozenset(k for k in kinds if k),
        last_correction=kinds[-1] if kinds and last in ("user", "tool") else None,
        step=1 + sum(1 for r, *_ in msgs if r == "assistant"))
