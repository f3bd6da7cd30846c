"""`parse_reply`: the lesson-03 parser with the real-world shapes read and the invented part cut.

Built in lesson 05 (Failure clinic). The reply goes through the rewrites of
`solutions.guards.shapes` (JSON blob, call syntax, `Action: None`) and `solutions.guards.inputs`
(an Action Input as the model meant it: JSON with comments, code, several lines, a value as
written), the cut of `solutions.guards.cut`, then through lesson 03's `parse_step`, unchanged.
Two checks follow, strict about meaning where lesson 03 was lenient about form: an Action must
name one tool (an echoed template line such as "the tool to use, one of [...]" names none), and
an Action Input that copies the tool's JSON schema holds no arguments. A tool name may hold any
characters ("Search the internet", "搜索"): the guarded registry matches it to a tool.
"""
from __future__ import annotations

import re
from dataclasses import replace

from solutions.guards.cut import cut_after_action_input
from solutions.guards.inputs import input_to_json
from solutions.guards.shapes import blob_to_fields, call_to_fields, drop_empty_action
from solutions.parsing import Step, format_error, parse_step

REWRITES = (blob_to_fields, call_to_fields, drop_empty_action, input_to_json, cut_after_action_input)
"""The rewrites `parse_reply` applies, in order, before lesson 03's parser reads the reply."""
MAX_NAME = 100
"""Characters: a longer Action line is a sentence, not a tool name."""
_LIST = re.compile(r"\bone of\b|\[[^\]]*,", re.IGNORECASE)  # "one of [a, b]": the template's list


def parse_reply(text: str) -> Step:
    """Parse a ReAct reply, real-world shapes included, into a Step; never raises. Built in lesson 05 (Failure clinic)."""
    if not isinstance(text, (str, bytes)):
        return parse_step(text)  # lesson 03's error for a value that is not text
    raw = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
    try:
        fixed = raw.replace("\r\n", "\n").replace("\r", "\n")
        for rewrite in REWRITES:
            fixed = rewrite(fixed)
        step = strict(parse_step(fixed), raw.replace("\r\n", "\n").replace("\r", "\n"))
        return step if step.raw == raw else replace(step, raw=raw)
    except Exception as exc:  # a parser must never crash the loop
        return Step(error=format_error(f"unexpected {type(exc).__name__}"), raw=raw)


def strict(step: Step, reply: str) -> Step:
    """`step`, or an error when its action names no single tool or its input copies a schema. Built in lesson 05 (Failure clinic).

    A tool name is written on one line of `reply` (a JSON blob's "calc\\nFinal Answer: 42" is
    not), holds no list of names and is at most MAX_NAME characters long.
    """
    if step.action is None:
        return step
    name = step.action
    if len(name) > MAX_NAME or _LIST.search(name) or name not in reply:
        shown = name if len(name) <= 60 else name[:57] + "..."
        return replace(step, action=None, action_input={}, error=format_error(
            f"the 'Action:' line must hold one tool name, such as calculator; got {shown!r}"))
    if isinstance(step.action_input.get("properties"), dict) and step.action_input.get("type") == "object":
        return replace(step, action_input={}, action=None, error=format_error(
            "the Action Input copies the tool's schema (type, properties); write the values "
            "themselves"))
    return step
