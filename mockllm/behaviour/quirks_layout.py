"""Layout quirks: the fields are all there, but not laid out the way a strict parser expects.

An Action Input that is not JSON (`Beijing`, `"Beijing"`, `None`), JSON in a code fence or in
inline code, pretty-printed over several lines, or cut off inside a string; whole field lines in
bold; blank lines or indentation between the fields. Each function takes (text, move, conv, ctx)
and returns the new text, or None when it does not apply; `*_args` variants break a tool call.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable

from mockllm.behaviour.quirks import Output, QuirkContext, block, edit_arguments

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation

FIELD_NAMES = ("thought", "action input", "action", "final answer", "observation")
_MARKS = " \t*_`#>-"


def field_at(line: str) -> tuple[str, int] | None:
    """(field name, index where its value starts) when `line` starts a field, else None.

    Tolerates the decorations earlier quirks add: indentation, `**Thought:**`, `Thought：`.
    """
    stripped = line.lstrip(_MARKS)
    low, offset = stripped.lower(), len(line) - len(stripped)
    for name in FIELD_NAMES:  # "action input" is tried before "action"
        if not low.startswith(name):
            continue
        k = _skip(line, offset + len(name), "*_`")
        if line[k:k + 1] in (":", "："):
            return name, _skip(line, k + 1, "*_` \t")
        return None
    return None


def _skip(line: str, k: int, chars: str) -> int:
    """The first index from `k` on whose character is not one of `chars`."""
    while k < len(line) and line[k] in chars:
        k += 1
    return k


def with_input(text: str, fn: Callable[[str], str | None], *, cut: bool = False) -> str | None:
    """Replace the value of the first `Action Input:` line by `fn(value)`; None if none or no
    change. `cut`: the reply ends right after the new value (it was cut off there)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        found = field_at(line)
        if found and found[0] == "action input":
            head, value = line[:found[1]].rstrip(), line[found[1]:]
            new = fn(value)
            if new is None or new == value:
                return None
            joined = f"{head}{new}" if new.startswith("\n") else f"{head} {new}"
            return "\n".join(lines[:i] + [joined] + ([] if cut else lines[i + 1:]))
    return None


def _json_object(value: str) -> dict | None:
    """The value as a JSON object, if it is exactly one (the rendered, unbroken input)."""
    try:
        found = json.loads(value)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _loose(args: dict, quoted: bool) -> str:
    """The arguments' values as a bare or quoted list: `Beijing, 2025-03-15` / `"Beijing"`."""
    if not args:
        return "None"
    as_text = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in args.values()]
    return ", ".join(json.dumps(v, ensure_ascii=False) if quoted else v for v in as_text)


def input_not_json(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """An Action Input that is not JSON: a bare string, a quoted string, or `None` for no input.

    With the entry param `single`, only for a tool of at most one argument.
    """
    # real: smollm2-135m/order_total/B/t0.7/s2/step2 (`Action Input: I want to use the ...`)
    if ctx.params.get("single") and len(move.action_input or {}) > 1:
        return None
    quoted = ctx.pick((False, True), "quoted")
    return with_input(text, lambda v: None if (found := _json_object(v)) is None
                      else _loose(found, quoted))


def input_fenced(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """The Action Input JSON in a markdown code fence on the lines below the field."""
    fence = ctx.pick(("```json", "```"), "fence")
    return with_input(text, lambda v: f"\n{fence}\n{v}\n```" if v.startswith("{") else None)


def input_inline_code(text: str, move: "Move", conv: "Conversation",
                      ctx: QuirkContext) -> str | None:
    """The Action Input JSON in inline code: `{"city": "Beijing"}` between backticks."""
    return with_input(text, lambda v: f"`{v}`" if v.startswith("{") else None)


def multiline_json(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """The Action Input pretty-printed over several lines, as chat-tuned models write JSON."""
    # real: smollm2-135m/order_a1002/B/t0.7/s1/step2 writes its JSON indented over many lines
    indent = ctx.pick((2, 4), "indent")
    return with_input(text, lambda v: json.dumps(found, ensure_ascii=False, indent=indent)
                      if (found := _json_object(v)) else None)


def _cut_in_string(source: str, ctx: QuirkContext) -> str | None:
    """JSON cut off inside its last string value, or with that string's closing quote missing."""
    found = _json_object(source)
    strings = [v for v in (found or {}).values() if isinstance(v, str) and v]
    if not strings:
        return None
    compact = json.dumps(found, ensure_ascii=False)
    literal = json.dumps(strings[-1], ensure_ascii=False)
    start = compact.rfind(literal)
    if ctx.pick(("cut", "unclosed"), "cut") == "unclosed":  # {"expression": "45 * 12}
        return compact[:start + len(literal) - 1] + compact[start + len(literal):]
    return compact[:start + 1 + max(1, (len(literal) - 2) // 2)]  # {"city": "Beij


def json_cut_in_string(text: str, move: "Move", conv: "Conversation",
                       ctx: QuirkContext) -> str | None:
    """The Action Input cut off inside a string, and the reply ends there."""
    # real: smollm2-135m/order_a9999/C/t0.7/s1/step4 (`{"expression": "45 * 12}`),
    # smollm2-135m/order_a9999/B/t0.7/s1/step3 (`{"expression": "45 *`)
    cut = with_input(text, lambda v: _cut_in_string(v, ctx), cut=True)
    if cut is None and move.action is not None:  # no input line in the text: write the step
        cut = with_input(block(move.thought, move.action, move.action_input),
                         lambda v: _cut_in_string(v, ctx), cut=True)
    return cut


def json_cut_in_string_args(out: Output, move: "Move", conv: "Conversation",
                            ctx: QuirkContext) -> Output | None:
    """Tool-call arguments cut off inside a string."""
    return edit_arguments(out, lambda source: _cut_in_string(source, ctx))


def bold_field_lines(text: str, move: "Move", conv: "Conversation",
                     ctx: QuirkContext) -> str | None:
    """Whole field lines in bold: `**Action: get_weather**` (not on top of other markdown)."""
    if "**" in text:
        return None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        found = field_at(line)
        value = line[found[1]:].strip() if found else ""
        if found and value and not value.endswith(("{", "`")) and (
                value[:1] != "{" or value.endswith("}")):  # never on top of an unclosed brace
            indent = line[:len(line) - len(line.lstrip())]
            lines[i] = f"{indent}**{line.strip()}**"
    new = "\n".join(lines)
    return new if new != text else None


def field_spacing(text: str, move: "Move", conv: "Conversation", ctx: QuirkContext) -> str | None:
    """Blank lines between the fields, the fields indented, or the input on the line below."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if field_at(line)]
    if len(starts) < 2:
        return None
    style = ctx.pick(("blank", "indent", "next_line"), "spacing")
    if style == "next_line":
        return with_input(text, lambda v: f"\n{v}" if v.strip() else None)
    for i in starts[1:]:
        if style == "indent":
            lines[i] = "  " + lines[i]
        elif lines[i - 1].strip():
            lines[i] = "\n" + lines[i]
    return "\n".join(lines)
