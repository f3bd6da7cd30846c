"""Read the system prompt: the offered tools, the rules, the memory section and the example.

Part of reading a request (see `mockllm.reading.conversation`). Everything here is a pure
function of the system prompt text.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["ToolSpec", "RULE_PHRASES", "find_rules", "read_tools_text", "read_tools_structured",
           "read_memory", "read_example"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model is offered: its name, description and parameter names."""
    name: str
    description: str
    parameters: tuple[str, ...]


RULE_PHRASES: dict[str, tuple[str, ...]] = {
    "one_action": ("one action", "only one action", "one thought and one action"),
    "no_observation": ("never write an observation", "never write the observation",
                       "do not write the observation", "don't write the observation",
                       "不要自己写 observation"),
    "final_not_tool": ("final answer is not a tool",),
    "stop_when_enough": ("stop when you have enough", "as soon as you have enough"),
    "live_data": ("must call a tool", "must use a tool", "use tools for live data", "never guess"),
}
_FIELD = re.compile(r"(?im)^[ \t>#*_`-]*(thought|action[ _]input|action|final[ _]answer"
                    r"|observation|question)[*_`]*\s*[:：]")
_NAME = re.compile(r"[\w.\-]+")
_TOOL_LINE = re.compile(r"^\s*(?:[-*•·]\s*|\d+[.)、]\s*)?[`*]*([A-Za-z_][\w.\-]*)[`*]*\s*"
                        r"(?:\(([^)]*)\))?\s*[`*]*\s*[:：]\s*(.+)$")
_TOOLS_HEADER = re.compile(r"(?i)(\btools?\b|工具)")
_KEYS = re.compile(r"[\"'“‘]([A-Za-z_]\w*)[\"'”’]\s*[:：]")
_ONE_OF = re.compile(r"(?i)one of\s*\[([^\]]+)\]")
_MEMORY_HEADER = re.compile(r"(?i)memory|summary|known facts|记忆|摘要")
_KV = re.compile(r"^\s*([A-Za-z_\u4e00-\u9fff][\w \u4e00-\u9fff]{0,30}?)\s*[:：=]\s*(.+?)\s*$")
_USER_FACT = re.compile(r"(?i)\bthe user'?s ([a-z][a-z ]{0,20}?) (?:is|was) ([^.;\n]+)")
_LAST_CITY = re.compile(r"(?i)\b(?:last|previous)\b.*\babout (?:the weather in )?([A-Z][a-z]+)")


def _get(obj: object, key: str) -> object:
    """Read `key` from a dict or an attribute-style object."""
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def find_rules(system: str) -> frozenset[str]:
    """Return the rule ids whose phrases appear in the system prompt."""
    low = system.lower()
    found = {rule for rule, phrases in RULE_PHRASES.items() if any(p in low for p in phrases)}
    has_example = read_example(system)[0]
    outside = _without_example(system).lower() if has_example else low
    if "action input:" in outside and "thought:" in outside:  # the format section, not the example
        found.add("format")
    if has_example:
        found.add("example")
    return frozenset(found)


def _without_example(system: str) -> str:
    """The system prompt with its worked example (Question: ... Final Answer: line) cut out."""
    q = re.search(r"(?m)^\s*Question\s*[:：]", system)
    finals = list(re.finditer(r"(?m)^\s*Final Answer\s*[:：].*$", system[q.end():])) if q else []
    if not finals:
        return system
    return system[:q.start()] + system[q.end() + finals[-1].end():]


def _param_names(description: str) -> tuple[str, ...]:
    """Parameter names from a JSON example in a tool description ({"city": ...})."""
    start = description.find("{")
    if start < 0:
        return ()
    end = description.find("}", start)
    chunk = description[start:end + 1 if end >= 0 else None]
    return tuple(dict.fromkeys(_KEYS.findall(chunk)))


def _is_tools_header(line: str) -> bool:
    """A line that introduces a tool list ('You have access to these tools:', '## Tools')."""
    s = line.strip().strip("*").strip()
    if not s or not _TOOLS_HEADER.search(s) or _TOOL_LINE.match(line):
        return False
    return s.endswith((":", "：")) or line.lstrip().startswith("#") or len(s.split()) <= 3


def read_tools_text(system: str) -> tuple[ToolSpec, ...]:
    """Tools listed in a text system prompt (`- name: description` lines under a tools header)."""
    lines, found = system.splitlines(), []
    for i, line in enumerate(lines):
        if _is_tools_header(line):
            found += _tools_after(lines[i + 1:])
    if not found:  # no header: bulleted lines whose name looks like an identifier
        found = [_tool_from(m) for m in map(_TOOL_LINE.match, lines)
                 if m and re.match(r"\s*[-*•]", m.string) and re.search(r"[a-z_]", m.group(1))
                 and m.group(1)[0].islower()]
    names = {t.name for t in found}
    for m in _ONE_OF.finditer(system):
        for name in (n.strip(" `'\"") for n in m.group(1).split(",")):
            if _NAME.fullmatch(name) and name not in names:
                names.add(name)
                found.append(ToolSpec(name, "", ()))
    return tuple({t.name: t for t in found}.values())


def _tool_from(m: re.Match) -> ToolSpec:
    """Build a ToolSpec from a tool-line match (parameters from parens or a JSON example)."""
    desc = m.group(3).strip()
    params = _param_names(desc)
    if not params and m.group(2):
        params = tuple(p.split(":")[0].split("=")[0].strip() for p in m.group(2).split(",")
                       if p.strip())
    return ToolSpec(m.group(1), desc, params)


def _tools_after(lines: list[str]) -> list[ToolSpec]:
    """Tool lines following a header, with indented continuation lines joined on."""
    tools: list[ToolSpec] = []
    prose, blank = 0, False
    for line in lines:
        m = _TOOL_LINE.match(line)
        bulleted = re.match(r"\s*(?:[-*•·]|\d+[.)、])", line)
        if m and not _FIELD.match(line) and (bulleted or not (blank and tools)):
            tools.append(_tool_from(m))
            blank = False
        elif not line.strip():
            blank = True
        elif tools and line[:1] in (" ", "\t") and line.strip():
            last = tools[-1]
            desc = f"{last.description} {line.strip()}"
            tools[-1] = ToolSpec(last.name, desc, last.parameters or _param_names(desc))
        elif line.strip() and (tools or prose):
            break
        elif line.strip():
            prose += 1
    return tools


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


def read_memory(system: str) -> dict[str, str]:
    """Facts from a memory / summary / known-facts section of the system prompt."""
    memory: dict[str, str] = {}
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
    last = _LAST_CITY.search(s)
    if last and not facts:
        memory["last_city"] = last.group(1)
        return
    m = _KV.match(s.lstrip("-*• "))
    if m and not facts:
        memory[m.group(1).strip().replace(" ", "_").lower()] = m.group(2).strip().rstrip(".")


def read_example(system: str) -> tuple[bool, tuple[str, ...]]:
    """Whether the system prompt holds a worked example, and its literal values."""
    q = re.search(r"(?m)^\s*Question\s*[:：]", system)
    if not q:
        return False, ()
    tail = system[q.end():]
    obs = [o.strip() for o in re.findall(r"(?m)^\s*Observation\s*[:：](.*)$", tail)]
    obs = [o for o in obs if o and not re.match(r"(?i)(the |<|\.\.\.|result of)", o)]
    if not obs:
        return False, ()
    values: list[str] = []
    for raw in re.findall(r"(?m)^\s*Action Input\s*[:：](.*)$", tail):
        try:
            parsed = json.loads(raw.strip())
        except ValueError:
            parsed = raw.strip()
        items = parsed.values() if isinstance(parsed, dict) else [parsed]
        values += [str(v) for v in items if str(v)]
    values += obs
    values += [a.strip() for a in re.findall(r"(?m)^\s*Final Answer\s*[:：](.*)$", tail)]
    return True, tuple(values)
