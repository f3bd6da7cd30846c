"""`parse_reply`: the lesson-03 parser with the real-world shapes read and the invented part cut.

Built in lesson 05 (Failure clinic). The reply goes through the rewrites of
`solutions.guards.shapes` (JSON blob, call syntax, `Action: None`) and the cut of
`solutions.guards.cut`, then through lesson 03's `parse_step`, unchanged. Two checks follow,
strict about meaning where lesson 03 was lenient about form: an Action must name one tool (an
echoed template line such as "the tool to use, one of [...]" names none), and an Action Input
that copies the tool's JSON schema holds no arguments. A bare Action Input keeps its text as the
model wrote it ("Beijing, 2025-03-15"), so the guarded registry can bind it to the parameters.
"""
from __future__ import annotations

import csv
from dataclasses import replace

from solutions.guards.cut import cut_after_action_input
from solutions.guards.shapes import blob_to_fields, call_to_fields, drop_empty_action
from solutions.parsing import Step, _fields, _input_text, _strip_fences, format_error, parse_step

REWRITES = (blob_to_fields, call_to_fields, drop_empty_action, cut_after_action_input)
"""The rewrites `parse_reply` applies, in order, before lesson 03's parser reads the reply."""
_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_MAX_NAME = 64


def parse_reply(text: str) -> Step:
    """Parse a ReAct reply, real-world shapes included, into a Step; never raises. Built in lesson 05 (Failure clinic)."""
    if not isinstance(text, (str, bytes)):
        return parse_step(text)  # lesson 03's error for a value that is not text
    raw = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
    try:
        fixed = raw.replace("\r\n", "\n").replace("\r", "\n")
        for rewrite in REWRITES:
            fixed = rewrite(fixed)
        step = strict(parse_step(fixed), fixed)
        return step if step.raw == raw else replace(step, raw=raw)
    except Exception as exc:  # a parser must never crash the loop
        return Step(error=format_error(f"unexpected {type(exc).__name__}"), raw=raw)


def strict(step: Step, text: str) -> Step:
    """`step`, or an error when its action names no single tool or its input copies a schema. Built in lesson 05 (Failure clinic).

    `text` is the reply `step` was parsed from: a bare Action Input is read again from it.
    """
    if step.action is None:
        return step
    name = step.action
    if not name or len(name) > _MAX_NAME or not set(name) <= _NAME_CHARS or name[0].isdigit():
        shown = name if len(name) <= 60 else name[:57] + "..."
        return replace(step, action=None, action_input={}, error=format_error(
            f"the 'Action:' line must hold one tool name, such as calculator; got {shown!r}"))
    if isinstance(step.action_input.get("properties"), dict) and step.action_input.get("type") == "object":
        return replace(step, action_input={}, action=None, error=format_error(
            "the Action Input copies the tool's schema (type, properties); write the values "
            "themselves"))
    bare = _bare_input(step.action_input, text)
    return step if bare is step.action_input else replace(step, action_input=bare)


def _bare_input(action_input: dict, text: str) -> dict:
    """A bare Action Input as the model wrote it, without the quotes lesson 03 stripped."""
    if list(action_input) != ["input"] or not isinstance(action_input["input"], str):
        return action_input
    fields, _ = _fields(text)
    decisive = next((i for i, (kind, _) in enumerate(fields) if kind == "action"), None)
    given = _input_text(fields, decisive) if decisive is not None else None
    if given is None or "{" in given:
        return action_input  # JSON (call syntax is rewritten as JSON too): already values
    line = next((line for line in _strip_fences(given).split("\n") if line.strip()), "").strip()
    return action_input if len(split_values(line)) == 1 else {"input": line}  # one value: lesson 03's


def split_values(text: str) -> list[str]:
    """Comma-separated values, quotes respected and removed: 'Beijing, "2025-03-15"' -> two values. Built in lesson 05 (Failure clinic)."""
    try:
        row = next(csv.reader([text], skipinitialspace=True), [])
    except csv.Error:
        return [text]
    return [value.strip().strip("'\"`").strip() for value in row] or [""]
