"""Read the tools a prompt offers in text, in the shapes prompts list them.

Part of reading a request (see `mockllm.reading.system_prompt`). The shapes read:
- a line per tool under a tools header: `- name: description`, `name: description` (LangChain's
  `render_text_description`), `1. name: description`, `**name**: description`,
  `name(arg: type) - description`, `name(args) -> str - description`, `name[input]: description`;
- llama-index's blocks: `> Tool Name: name` / `Tool Description: ...` / `Tool Args: {...}`;
- JSON tool specs pasted in the text (`{"name": ..., "description": ..., "parameters": {...}}`);
- names listed in the format section: `one of [a, b]`.
Parameter names come from a JSON example or schema (its top-level keys, or those of its
"properties"), or from the parentheses of a signature. Every reader is one pass over the text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mockllm.reading.reply_shapes import json_string

__all__ = ["ToolSpec", "read_tools_text", "param_names"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model is offered: its name, description and parameter names."""
    name: str
    description: str
    parameters: tuple[str, ...]


_FIELD = re.compile(r"(?i)[ \t>#*_`-]*+(?:thought|action[ _]input|action|final[ _]answer"
                    r"|observation|question)[*_`]*+[ \t]*+[:：]")
_HEAD = re.compile(r"[ \t]*+(?:[-*•·][ \t]*+|\d{1,3}[.)、][ \t]*+)?[`*]*+([A-Za-z_][\w.\-]*+)[`*]*+")
_BULLET = re.compile(r"[ \t]*+(?:[-*•·]|\d{1,3}[.)、])")
_TOOLS_HEADER = re.compile(r"(?i)\btools?\b|工具")
_NAME = re.compile(r"[\w.\-]++")
_ONE_OF = re.compile(r"(?i)one of\s*+\[([^\[\]\n]++)\]")
_TOKEN = re.compile(r"[\"'“‘]([A-Za-z_]\w*+)[\"'”’]\s*+[:：]|\"(?:[^\"\\\n]|\\.)*+\"|'[^'\n]*+'"
                    r"|[{}\[\]]")
_LLAMA = re.compile(r"(?i)[ \t]*+>?[ \t]*+tool[ \t]++(name|description|args)[ \t]*+:[ \t]*+(.*)")
_SPEC_NAME = re.compile(r'"name"\s*+:\s*+"([A-Za-z_][\w.\-]{0,63}+)"')
_SPEC_DESC = re.compile(r'"description"\s*+:\s*+("(?:[^"\\\n]|\\.){0,2000}+")')
WINDOW = 4000
"""Characters after a JSON key that are read for its object (a tool spec, a schema)."""


def param_names(text: str) -> tuple[str, ...]:
    """Parameter names from JSON in `text`: the keys of its "properties" object if it has one,
    else the top-level keys of its first object ({"city": ...} -> ("city",))."""
    start = text.find("{")
    if start < 0:
        return ()
    props = text.find("properties", start, start + WINDOW)
    if props >= 0 and text.find("{", props, props + 40) >= 0:
        start = text.find("{", props, props + 40)
    keys, depth = [], 0
    for m in _TOKEN.finditer(text, start, start + WINDOW):
        token = m.group(0)
        if token in ("{", "["):
            depth += 1
        elif token in ("}", "]"):
            depth -= 1
            if depth <= 0:
                break
        elif m.group(1) and depth == 1:
            keys.append(m.group(1))
    return tuple(dict.fromkeys(keys))


def _signature(inside: str) -> tuple[str, ...]:
    """Parameter names from a signature's parentheses ('city: str, days: int = 1')."""
    return tuple(p.split(":")[0].split("=")[0].strip().lstrip("*") for p in inside.split(",")
                 if p.strip())


def tool_line(line: str) -> ToolSpec | None:
    """The tool one line describes (`- name: description`, `name(args) - description`, ...)."""
    head = _HEAD.match(line)
    if head is None:
        return None
    name, rest = head.group(1), line[head.end():].lstrip()
    params: tuple[str, ...] = ()
    opener = rest[:1]
    if opener in ("(", "["):
        close = rest.find(")" if opener == "(" else "]")
        if close < 0:
            return None
        inside, rest = rest[1:close], rest[close + 1:].lstrip(" \t`*")
        params = _signature(inside) if opener == "(" else (inside.strip(),)
        if rest.startswith("->"):  # a return annotation: the description follows ' - ' or ':'
            cuts = [i for i in (rest.find(" - ", 2), rest.find(":", 2), rest.find("：", 2)) if i > 0]
            rest = rest[min(cuts):].lstrip() if cuts else ""
    rest = rest.lstrip(" \t`*")
    if rest[:1] in (":", "："):
        desc = rest[1:].strip()
    elif rest[:1] in ("-", "–", "—") and rest[1:2] in (" ", "\t"):
        desc = rest[1:].strip()
    else:
        return None
    if not desc:
        return None
    return ToolSpec(name, desc, param_names(desc) or _described_signature(name, desc) or params)


def _described_signature(name: str, desc: str) -> tuple[str, ...]:
    """Parameters of a description that starts with the tool's signature ('calc(expr: str) ...')."""
    if not desc.startswith(name + "("):
        return ()
    close = desc.find(")")
    return _signature(desc[len(name) + 1:close]) if close > 0 else ()


def is_tools_header(line: str) -> bool:
    """A line that introduces a tool list ('You have access to these tools:', '## Tools')."""
    s = line.strip().strip("*").strip()
    if not s or not _TOOLS_HEADER.search(s) or tool_line(line):
        return False
    return s.endswith((":", "：")) or line.lstrip().startswith("#") or len(s.split()) <= 3


def _tools_after(lines: list[str], start: int) -> tuple[list[ToolSpec], int]:
    """Tool lines from `start` on (indented continuation lines joined on), and the index of the
    last line read as part of the list."""
    tools: list[ToolSpec] = []
    prose, blank, last = 0, False, start - 1
    for i in range(start, len(lines)):
        line = lines[i]
        tool = None if _FIELD.match(line) else tool_line(line)
        if tool and (_BULLET.match(line) or not (blank and tools)):
            tools.append(tool)
            blank = False
        elif not line.strip():
            blank = True
        elif tools and line[:1] in (" ", "\t"):
            last = tools[-1]
            desc = f"{last.description} {line.strip()}"
            tools[-1] = ToolSpec(last.name, desc, last.parameters or param_names(desc))
        elif tools or prose:
            break
        else:
            prose += 1
        last = i
    return tools, last


def _listed(lines: list[str]) -> list[ToolSpec]:
    """Tools listed under each tools header; without a header, bulleted lines with a lower-case
    identifier as their name."""
    found: list[ToolSpec] = []
    read_to = -1
    for i, line in enumerate(lines):
        if i > read_to and ("ool" in line or "OOL" in line or "工具" in line) and is_tools_header(line):
            tools, read_to = _tools_after(lines, i + 1)
            found += tools
    if found:
        return found
    tools = (tool_line(line) for line in lines if _BULLET.match(line))
    return [t for t in tools if t and re.search(r"[a-z_]", t.name) and t.name[0].islower()]


def _llama_blocks(lines: list[str]) -> list[ToolSpec]:
    """llama-index's tool blocks: '> Tool Name:', 'Tool Description:' (and the lines after it),
    'Tool Args:' with the JSON schema of the arguments."""
    tools, name, desc, params = [], None, [], ()
    for line in lines + ["> Tool Name: "]:
        m = _LLAMA.match(line)
        field = m.group(1).lower() if m else None
        if field == "name":
            if name:
                tools.append(ToolSpec(name, " ".join(desc).strip(), params))
            found = _NAME.match(m.group(2).strip())
            name, desc, params = (found.group(0) if found else None), [], ()
        elif name and field == "description":
            desc = [m.group(2).strip()]
        elif name and field == "args":
            params = param_names(m.group(2))
        elif name and desc and line.strip() and not params:
            desc.append(line.strip())
    return tools


def _json_specs(text: str) -> list[ToolSpec]:
    """Tools given as JSON specs in the text: a "name" with a "description" or "parameters"."""
    if '"name"' not in text:
        return []
    marks = list(_SPEC_NAME.finditer(text))
    tools = []
    for i, m in enumerate(marks):
        end = min(marks[i + 1].start() if i + 1 < len(marks) else len(text), m.end() + WINDOW)
        part = text[m.end():end]
        has_params = '"parameters"' in part or '"input_schema"' in part
        desc = _SPEC_DESC.search(part)
        if not has_params and desc is None:
            continue  # a "name" key of some other JSON (an example's arguments)
        description = json_string(desc.group(1)) if desc else ""
        props = part.find('"properties"')
        tools.append(ToolSpec(m.group(1), description, param_names(part[props:]) if props >= 0
                              else ()))
    return tools


def read_tools_text(text: str) -> tuple[ToolSpec, ...]:
    """Tools a text prompt lists, in any of the shapes above, in the order they are listed."""
    lines = text.splitlines()
    found = _listed(lines)
    if "tool name" in text.lower():
        found += _llama_blocks(lines)
    found += _json_specs(text)
    names = {t.name for t in found}
    for m in _ONE_OF.finditer(text):
        for name in (n.strip(" `'\"") for n in m.group(1).split(",")):
            if _NAME.fullmatch(name) and name not in names:
                names.add(name)
                found.append(ToolSpec(name, "", ()))
    return tuple({t.name: t for t in found}.values())
