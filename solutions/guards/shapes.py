"""Rewrite the action shapes of real models into the lesson-03 fields, so that `parse_step` reads them.

Built in lesson 05 (Failure clinic). Each function takes a reply and returns it with one shape
rewritten as `Action:` / `Action Input:` (or `Final Answer:`) lines, or unchanged when the shape
is absent. Each reads the reply in one pass over its lines; none runs any of the model's text.

- A JSON blob instead of the fields, as LangChain's JSON agents ask for:
  `{"action": "get_weather", "action_input": {...}}`, fenced or not, with or without `Action:`;
  or a call copied in a tool schema's shape: `{"name": "get_weather", "arguments": {...}}`.
- Call syntax: `Action: get_weather(city="Beijing", date="2025-03-15")`, `calculator({"expression":
  "2+2"})`, or a name with spaces (`Ask question to coworker(question="...")`); a signature copied
  from the tool list (`Delegate work to coworker(task: str, context: str)`) leaves the name alone;
  the ReAct paper's brackets: `Action: search_docs[return policy]`.
- An empty action above an answer: `Action: None`, `Action: N/A`, `Action: (no action needed)`.
"""
from __future__ import annotations

import ast
import json
import re
from typing import Any

from solutions.guards.cut import field_kind, field_line
from solutions.parsing import _LITERAL_EVAL_LIMIT, _json_object, parse_action_input

_BLOB_START = re.compile(r"[ \t>]*+(?:`{1,3}(?:json)?[ \t]*+)?(?:action[ \t]*+[:：][ \t]*+)?\{", re.I)
_CALL_LINE = re.compile(r"[ \t*_`]*+([^()\n]*?[^()\s*_`])[ \t]*+\((.*)\)[ \t*_`.]*+", re.DOTALL)
_BRACKETS = re.compile(r"[ \t*_`]*+([A-Za-z_][\w.\-]*+)\[([^\[\]\n]*+)\][ \t*_`.]*+")  # Search[query]
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")  # a name lesson 03 reads before "("
_PARAMETER = r"\*{0,2}+[A-Za-z_]\w*+[ \t]*+(?::[^,=]*+)?+(?:=[^,]*+)?+"
_SIGNATURE = re.compile(rf"[ \t]*+{_PARAMETER}(?:,[ \t]*+{_PARAMETER})*+")
"""A parameter list as a tool list shows it: `task: str, context: str, coworker: Optional[str] = None`."""
_TYPE_WORDS = re.compile(r":[ \t]*(?:str|int|float|bool|list|dict|Any|Optional|Union|List|Dict)\b")
_NAME_KEYS = ("action", "tool", "tool_name", "name", "function")
_INPUT_KEYS = ("action_input", "tool_input", "arguments", "parameters", "args", "input")
_NO_ACTION = {"none", "n/a", "na", "null", "nil", "nothing", "no action", "no action needed",
              "no tool", "no tool needed", "not needed", "-"}


def first_decision(lines: list[str]) -> int | None:
    """The index of the first Action or Final Answer line, or None. Built in lesson 05 (Failure clinic)."""
    return next((i for i, line in enumerate(lines) if field_kind(line) in ("action", "final_answer")), None)


def _input_after(lines: list[str], index: int) -> int | None:
    """The index of the Action Input line that is the next field after line `index`, or None."""
    following = next((i for i in range(index + 1, len(lines)) if field_kind(lines[i])), None)
    return following if following is not None and field_kind(lines[following]) == "action_input" else None


def blob_to_fields(text: str) -> str:
    """Rewrite a JSON-blob action ({"action": ..., "action_input": ...}) as fields. Built in lesson 05 (Failure clinic)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if _BLOB_START.match(line):
            return _rewrite_blob(lines, index) or text
        found = field_line(line)
        if found and found[0] in ("action", "action_input", "final_answer") and found[1].strip():
            return text  # the fields are in use: no blob
    return text


def _rewrite_blob(lines: list[str], index: int) -> str | None:
    """The reply with the blob starting on line `index` rewritten as fields, or None if it is no action."""
    blob, problem = _json_object("\n".join(lines[index:]))
    keys = {str(key).lower().replace(" ", "_"): value for key, value in blob.items()}
    if isinstance(keys.get("function"), dict):  # {"type": "function", "function": {"name": ..., ...}}
        keys = {str(key).lower(): value for key, value in keys["function"].items()}
    name = next((key for key in _NAME_KEYS if isinstance(keys.get(key), str)), None)
    given = next((key for key in _INPUT_KEYS if key in keys), None)
    if problem or name is None or (name != "action" and given is None):
        return None  # no action: a name key, and (but for "action") an input key
    head = lines[:index]
    while head and (head[-1].strip().startswith("```") or not head[-1].strip()
                    or (field_kind(head[-1]) == "action" and not field_line(head[-1])[1].strip())):
        head.pop()  # the fence and the bare `Action:` label above the blob
    return "\n".join([*head, *_fields_for(keys[name], keys.get(given) if given else None)])


def _fields_for(action: str, value: Any) -> list[str]:
    """The field lines for one action and its input (a Final Answer when the action says so)."""
    action = " ".join(action.split())  # one line: a name cannot smuggle in another field
    if re.sub(r"[\s_\-]", "", action.lower()) in ("finalanswer", "最终答案"):
        answer = value.get("answer", next(iter(value.values()), "")) if isinstance(value, dict) else value
        return [f"Final Answer: {answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)}"]
    if isinstance(value, str):
        value, _ = parse_action_input(value)  # a JSON text, a bare value or nothing
    arguments = value if isinstance(value, dict) else {} if value is None else {"input": value}
    return [f"Action: {action}", f"Action Input: {json.dumps(arguments, ensure_ascii=False)}"]


def call_to_fields(text: str) -> str:
    """Rewrite `Action: tool(a, key=value)` as the tool's name and a JSON Action Input. Built in lesson 05 (Failure clinic)."""
    lines = text.split("\n")
    index = first_decision(lines)
    if index is None or field_kind(lines[index]) != "action":
        return text
    call = _CALL_LINE.fullmatch(field_line(lines[index])[1])
    if call is None:
        return _brackets(lines, index)
    name, inside = call[1].strip(), call[2]
    if _TYPE_WORDS.search(inside) and _SIGNATURE.fullmatch(inside):  # a signature holds no values
        return "\n".join([*lines[:index], f"Action: {name}", *lines[index + 1:]])
    if _input_after(lines, index) is not None:  # an explicit Action Input wins, as in lesson 03
        if _IDENTIFIER.fullmatch(name) or call_arguments(inside) is None:
            return text  # lesson 03 reads the name before the parentheses itself
        return "\n".join([*lines[:index], f"Action: {name}", *lines[index + 1:]])
    arguments = call_arguments(inside)
    if arguments is None:
        return text
    fields = [f"Action: {name}", f"Action Input: {json.dumps(arguments, ensure_ascii=False, default=str)}"]
    return "\n".join([*lines[:index], *fields, *lines[index + 1:]])


def _brackets(lines: list[str], index: int) -> str:
    """The reply with `Action: search_docs[return policy]` (the ReAct paper's form) as fields."""
    call = _BRACKETS.fullmatch(field_line(lines[index])[1])
    if call is None or _input_after(lines, index) is not None:
        return "\n".join(lines)
    arguments = {"input": call[2].strip()} if call[2].strip() else {}
    fields = [f"Action: {call[1]}", f"Action Input: {json.dumps(arguments, ensure_ascii=False)}"]
    return "\n".join([*lines[:index], *fields, *lines[index + 1:]])


def call_arguments(inside: str) -> dict | None:
    """The arguments written between a call's parentheses, e.g. '"a", b=2' -> {"input": "a", "b": 2}; None if they are not Python arguments. Built in lesson 05 (Failure clinic).

    Keywords keep their names; one positional dict is the input itself; one positional value
    becomes {"input": value}, several a list
    under "input" (the guarded registry binds them to the tool's parameters in order). A value
    that is not a literal keeps its source text: (17 * 3) gives {"input": "17 * 3"}.
    ast.parse only reads the text; nothing in it runs.
    """
    if len(inside) > _LITERAL_EVAL_LIMIT:
        return None
    source = f"f({inside.strip()})"
    try:
        tree = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name) or tree.func.id != "f" \
            or any(isinstance(a, ast.Starred) for a in tree.args) or any(k.arg is None for k in tree.keywords):
        return None
    values = [_value(node, source) for node in tree.args]
    if len(values) == 1 and isinstance(values[0], dict) and not tree.keywords:
        return {str(key): value for key, value in values[0].items()}  # f({"a": 1}): the dict is the input
    arguments: dict = {} if not values else {"input": values[0] if len(values) == 1 else values}
    arguments.update({k.arg: _value(k.value, source) for k in tree.keywords})
    return arguments


def _value(node: ast.AST, source: str) -> Any:
    """A literal's value, or the node's source text when it is not a literal."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ast.get_source_segment(source, node)


def drop_empty_action(text: str) -> str:
    """Remove an `Action: None` line (and an empty Action Input under it), so the answer decides. Built in lesson 05 (Failure clinic)."""
    lines = text.split("\n")
    index = first_decision(lines)
    if index is None or field_kind(lines[index]) != "action" or not _says_nothing(lines[index]):
        return text
    drop = {index}
    following = _input_after(lines, index)
    if following is not None and _says_nothing(lines[following]):
        drop.add(following)
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


def _says_nothing(line: str) -> bool:
    """True when a field line's value is empty or a 'none' word."""
    value = field_line(line)[1].strip(" \t*_`'\"()[].").lower()
    return value in _NO_ACTION
