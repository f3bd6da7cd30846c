"""Read the system prompt: the offered tools, the rules, the memory section and the example.

Part of reading a request (see `mockllm.reading.conversation`). Everything here is a pure
function of the system prompt text.
"""
from __future__ import annotations

import json
import re

from mockllm.reading.rules import RULE_PHRASES, read_rules
from mockllm.reading.tool_lists import ToolSpec, read_tools_text

__all__ = ["ToolSpec", "RULE_PHRASES", "find_rules", "read_tools_text", "read_tools_structured",
           "read_memory", "read_example", "read_prompt_style"]


_MEMORY_HEADER = re.compile(r"(?i)memory|summary|known facts|记忆|摘要")
_KV = re.compile(r"\s*+([A-Za-z_\u4e00-\u9fff][\w \u4e00-\u9fff]{0,30}?)\s*+[:：=]\s*+(.*\S)")
_USER_FACT = re.compile(r"(?i)\bthe user'?s ([a-z][a-z ]{0,20}?) (?:is|was) ([^.;\n]++)")
_LAST = re.compile(r"(?i)\b(?:last|previous)\b")
_ABOUT_CITY = re.compile(r"(?i)\babout (?:the weather in )?([A-Z][a-z]++)")
# Field lines: `[ \t]` (not `\s`) before a field name, so no pattern runs across blank lines.
_QUESTION_LINE = re.compile(r"(?m)^[ \t]*+Question[ \t]*+[:：]")
_FINAL_LINE = re.compile(r"(?m)^[ \t]*+Final Answer[ \t]*+[:：].*$")
_OBSERVATION_LINE = re.compile(r"(?m)^[ \t]*+Observation[ \t]*+[:：](.*)$")
_INPUT_LINE = re.compile(r"(?m)^[ \t]*+Action Input[ \t]*+[:：](.*)$")
_FINAL_VALUE_LINE = re.compile(r"(?m)^[ \t]*+Final Answer[ \t]*+[:：](.*)$")
_ANSWER_LINE = re.compile(r"(?m)^[ \t`*]*+Answer[ \t]*+:")
_JSON_WORDS = ("json", "{", "object", "dict", "kwargs", "...", "<", "…")


def _get(obj: object, key: str) -> object:
    """Read `key` from a dict or an attribute-style object."""
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def find_rules(system: str) -> frozenset[str]:
    """Return the rule ids the system prompt states (read by meaning, see `mockllm.reading.rules`)."""
    low = system.lower()
    found = set(read_rules(system))
    has_example = read_example(system)[0]
    outside = _without_example(system).lower() if has_example else low
    if "action input:" in outside and "thought:" in outside:  # the format section, not the example
        found.add("format")
    if has_example:
        found.add("example")
    return frozenset(found)


def _without_example(system: str) -> str:
    """The system prompt with its worked example (Question: ... Final Answer: line) cut out."""
    q = _QUESTION_LINE.search(system)
    finals = list(_FINAL_LINE.finditer(system, q.end())) if q else []
    if not finals:
        return system
    return system[:q.start()] + system[finals[-1].end():]


def read_tools_structured(tools: list) -> tuple[ToolSpec, ...]:
    """Tools from an OpenAI-style `tools=[{"type": "function", "function": {...}}]` list."""
    specs = []
    for t in tools or ():
        fn = _get(t, "function") or t
        name = _get(fn, "name")
        if not isinstance(name, str):
            continue
        params = _get(fn, "parameters") or {}
        props = _get(params, "properties") or {}
        specs.append(ToolSpec(name, str(_get(fn, "description") or ""),
                              tuple(props) if isinstance(props, dict) else ()))
    return tuple(specs)


def read_prompt_style(system: str) -> tuple[str, str]:
    """(final marker, input style) the prompt's format asks for.

    The marker is 'Answer' when the format ends a run with 'Answer:' and never names a 'Final
    Answer' (llama-index's ReAct header), else 'Final Answer'. The input style is 'plain' when the
    format's 'Action Input:' line describes a plain value ('the input to the action', as in
    LangChain's template), else 'json'.
    """
    outside = _without_example(system) if read_example(system)[0] else system
    marker = "Answer" if _ANSWER_LINE.search(outside) and "final answer" not in \
        outside.lower() else "Final Answer"
    described = _INPUT_LINE.search(outside)
    text = described.group(1).strip().lower() if described else ""
    plain = bool(text) and not any(word in text for word in _JSON_WORDS)
    return marker, "plain" if plain else "json"


def read_memory(system: str) -> dict[str, str]:
    """Facts from a memory / summary / known-facts section of the system prompt."""
    memory: dict[str, str] = {}
    if not _MEMORY_HEADER.search(system):  # no section header anywhere: no line to read
        return memory
    inside = False
    for line in system.splitlines():
        s = line.strip().strip("*").strip()
        parts = re.split(r"[:：]", s, maxsplit=1)
        head, rest = parts[0], parts[1] if len(parts) > 1 else ""
        if _MEMORY_HEADER.search(head) and len(head) < 40 and (len(parts) > 1
                                                                or line.lstrip()[:1] in "#["):
            inside = True
            if rest.strip():
                _memory_line(rest.strip(), memory)
            continue
        if not inside:
            continue
        if not s:
            inside = not memory
        elif line.lstrip().startswith("#") or (s.endswith((":", "：")) and not _KV.match(s)):
            inside = False
        else:
            _memory_line(s, memory)
    return memory


def _memory_line(s: str, memory: dict[str, str]) -> None:
    """Add the facts of one memory line (`key: value` or a sentence) to `memory`."""
    facts = _USER_FACT.findall(s)
    for key, value in facts:
        memory[key.strip().replace(" ", "_").lower()] = value.strip()
    last = _LAST.search(s)
    cities = list(_ABOUT_CITY.finditer(s, last.end())) if last else []
    if cities and not facts:  # 'last time ... about X': the last city named after it
        memory["last_city"] = cities[-1].group(1)
        return
    m = _KV.match(s.lstrip("-*• "))
    if m and not facts:
        memory[m.group(1).strip().replace(" ", "_").lower()] = m.group(2).strip().rstrip(".")


def read_example(system: str) -> tuple[bool, tuple[str, ...]]:
    """Whether the system prompt holds a worked example, and its literal values."""
    q = _QUESTION_LINE.search(system)
    if not q:
        return False, ()
    tail = system[q.end():]
    obs = [o.strip() for o in _OBSERVATION_LINE.findall(tail)]
    obs = [o for o in obs if o and not re.match(r"(?i)(the |<|\.\.\.|result of)", o)]
    if not obs:
        return False, ()
    values: list[str] = []
    for raw in _INPUT_LINE.findall(tail):
        try:
            parsed = json.loads(raw.strip())
        except ValueError:
            parsed = raw.strip()
        items = parsed.values() if isinstance(parsed, dict) else [parsed]
        values += [str(v) for v in items if str(v)]
    values += obs
    values += [a.strip() for a in _FINAL_VALUE_LINE.findall(tail)]
    return True, tuple(values)
