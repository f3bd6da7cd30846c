"""Read one assistant reply in the text format: the action it calls and its Action Input.

Part of reading a request (see `mockllm.reading.conversation`). Lenient: markdown, lower-case or
Chinese field names, full-width punctuation, loose (non-JSON) inputs and a Python dict's repr (as
llama-index writes the input back) are all understood, and smolagents' 'Calling tools:' text is
read as the calls it lists. JSON nested deeper than MAX_DEPTH is refused, not recursed into. An
agent resends every earlier reply at each step, so a reply is parsed once and its result kept
(copied out).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache

from mockllm.reading.reply_shapes import MAX_DEPTH, call_arguments, is_no_action, read_blob
from mockllm.reading.system_prompt import ToolSpec

__all__ = ["parse_reply", "parse_input", "text_tool_calls"]

_FIELD = re.compile(r"(?im)^[ \t>#*_`-]*(thought|action[ _]input|action|final[ _]answer|observation"
                    r"|question|最终答案|思考|行动输入|行动)[*_`]*\s*[:：][*_`]*[ \t]*")
_FINAL_NAME = re.compile(r"(?i)^final[ _]?answer$|^最终答案$")
_NAME = re.compile(r"[\w.\-]+")
FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}  # （１７＋５） -> (17+5)
_REPAIRS = {**FULL_WIDTH, **str.maketrans("“”‘’", "\"\"''")}  # full-width forms, curly quotes
_FENCE = re.compile(r"^```\w*|```$")
_TRAILING_COMMA = re.compile(r",\s*+([}\]])")
_PY_LITERAL = re.compile(r"'((?:[^'\\\n]|\\.)*+)'|\"(?:[^\"\\\n]|\\.)*+\"|\b(True|False|None)\b")
_JSON_WORDS = {"True": "true", "False": "false", "None": "null"}


def _json_of_python(match: re.Match) -> str:
    """One token of a Python dict's repr as JSON: a 'string' in double quotes, True -> true."""
    if match.group(2):
        return _JSON_WORDS[match.group(2)]
    if match.group(1) is None:
        return match.group(0)
    return json.dumps(match.group(1).replace("\\'", "'"), ensure_ascii=False)


def _loads(text: str) -> object:
    """json.loads, with JSON nested deeper than MAX_DEPTH refused as a ValueError."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if _too_deep(value):
        raise ValueError("nested too deep")
    return value


def _too_deep(value: object) -> bool:
    """Whether lists and dicts in `value` nest deeper than MAX_DEPTH (checked without recursion)."""
    if type(value) is dict and all(type(v) in _ATOMS for v in value.values()):
        return False  # the common case: a flat object
    level = [value]
    for _ in range(MAX_DEPTH + 1):
        level = [item for v in level if isinstance(v, (dict, list))
                 for item in (v.values() if isinstance(v, dict) else v)]
        if not level:
            return False
    return True


def _candidates(chunk: str) -> Iterator[str]:
    """The JSON text as written (values kept exactly, Chinese text included), then repaired."""
    yield chunk
    fixed = chunk.translate(_REPAIRS)
    yield fixed
    yield _TRAILING_COMMA.sub(r"\1", fixed.replace("'", '"'))
    if fixed.count('"') % 2 and fixed.endswith("}"):  # cut inside a string: {"city": "Beij}
        yield fixed[:-1] + '"}'
    if "'" in fixed:  # a Python dict's repr: {'query': "today's date", 'exact': True}
        yield _TRAILING_COMMA.sub(r"\1", _PY_LITERAL.sub(_json_of_python, fixed))


def parse_input(raw: str) -> dict | str:
    """Parse an Action Input leniently: a dict from (repaired) JSON, else the loose text."""
    raw = raw.strip()
    if "```" in raw:
        raw = _FENCE.sub("", raw).strip()
    if raw[:1] == '"' and raw[1:2] == "{":  # arguments encoded twice: "{\"city\": \"Beijing\"}"
        try:
            raw = str(_loads(raw))
        except ValueError:
            pass
    start, end = raw.find("{"), raw.rfind("}")
    if start >= 0:
        # From the first { to the last }, or, for an unclosed brace, its first line closed once.
        chunk = raw[start:end + 1] if end > start else raw[start:].splitlines()[0].rstrip() + "}"
        return _first_json(chunk)
    if raw.startswith("["):
        return {}
    try:
        value = _loads(raw)
    except ValueError:
        value = raw.splitlines()[0].strip().strip("\"'“”`") if raw.strip() else ""
    if value is None or str(value).strip().lower() in ("none", "n/a"):  # null, None, N/A: no input
        return ""
    return value if isinstance(value, dict) else str(value)


def _first_json(chunk: str) -> dict | str:
    """The first repair candidate of `chunk` that parses as JSON, or {}."""
    for cand in _candidates(chunk):
        try:
            value = _loads(cand)
        except ValueError:
            continue
        return value if isinstance(value, dict) else str(value)
    return {}


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
    name, parsed = _reply(content)
    if name is None:
        return None, {}
    if isinstance(parsed, dict):
        return name, _fresh(parsed)
    return name, _loose_args(parsed, next((t for t in tools if t.name == name), None))


_ATOMS = (str, int, float, bool, type(None))


def _fresh(value: object) -> object:
    """A copy of parsed JSON (dicts and lists copied, the rest immutable), so caches stay clean."""
    if isinstance(value, dict):
        return {key: item if type(item) in _ATOMS else _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


_CALLING = re.compile(r"\s*+Calling tools:\s*+(?=\[)")


def text_tool_calls(content: str) -> list[dict]:
    """The tool calls an assistant message lists as text, as smolagents sends earlier calls back:
    'Calling tools:\n[{'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments':
    {...}}}]' (a Python list's repr, or JSON). [] when the message is no such list."""
    found = _CALLING.match(content)
    if found is None:
        return []
    listed = content[found.end():].strip()
    for text in (listed, _TRAILING_COMMA.sub(r"\1", _PY_LITERAL.sub(_json_of_python, listed))):
        try:
            calls = _loads(text)
        except ValueError:
            continue
        if isinstance(calls, list):
            return [c for c in calls if isinstance(c, dict) and isinstance(c.get("function"), dict)]
    return []


def _reply(content: str) -> tuple[str | None, dict | str]:
    """`_reply_call`, memoised for plain strings."""
    return _reply_call(content) if type(content) is str else _reply_call.__wrapped__(content)


_CANONICAL = re.compile(r"Thought: [^\n]*+\nAction: ([\w.\-]++)\nAction Input: (\{[^\n]*\})")
"""A reply exactly as the mock writes one: read at once, with the result of the long way."""


@lru_cache(maxsize=1024)
def _canonical_input(raw: str) -> dict | str:
    """`parse_input` of a canonical reply's Action Input, memoised: inputs recur ({} above all).

    Like `_reply_call`'s, the result is shared: its readers copy it out.
    """
    return parse_input(raw)


@lru_cache(maxsize=256)
def _names_a_tool(name: str) -> bool:
    """Whether an Action line's name is a tool's, not 'None' or the final answer (memoised:
    the same few names come back in every reply)."""
    return not is_no_action(name) and not _FINAL_NAME.match(name)


@lru_cache(maxsize=1024)
def _reply_call(content: str) -> tuple[str | None, dict | str]:
    """The action name of a reply and its input as parsed (not yet fitted to the tool's names).

    Memoised: every earlier reply is resent, and parsed again, at each step.
    """
    plain = _CANONICAL.fullmatch(content)
    if plain and _names_a_tool(plain.group(1)):
        return plain.group(1), _canonical_input(plain.group(2))
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
        blob = read_blob(content[:cut], parse_input) if value[:1] in ("{", "`") else None
        if blob is not None:  # Action: followed by a JSON blob, fenced or not
            return blob
        line = value.splitlines()[0].strip(" `'\"*[]") if value else ""
        if is_no_action(line):  # Action: None / N/A: it means to answer
            continue
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
            kwargs = call_arguments(raw) if rest[:1] == "(" else None  # tool(city="Beijing")
            if kwargs:
                return m.group(0), kwargs
        return m.group(0), parse_input(raw)
    return read_blob(content[:cut], parse_input) or (None, {})  # a bare JSON blob, no fields
