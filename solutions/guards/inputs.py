"""Read an Action Input the way the model meant it, and write it as one line of JSON.

Built in lesson 05 (Failure clinic). Lesson 03 reads an Action Input as a JSON object, or as the
first line of a bare value with its quotes and trailing punctuation stripped. Real agents also
write JSON with comments (`// the capital`, `# in days`), code (a fenced snippet, several lines
of Python or SQL), a value over several lines (`key: value` lines, a short letter), and values
whose last character belongs to them (`cus.tomers,`). `input_to_json` rewrites such an input as
`Action Input: {...}` on one line, which lesson 03's parser then reads as it stands; an input that
lesson 03 reads well is left alone. Nothing here runs the model's text (`ast.parse` only reads it).
"""
from __future__ import annotations

import ast
import csv
import json
import re
import textwrap
import warnings

from solutions.guards.cut import field_kind, field_line
from solutions.parsing import _EMPTY_INPUTS, _FULL_WIDTH, parse_action_input

CODE_LIMIT = 20_000
"""Characters: a longer input is not read as code (ast.parse is linear, but not free)."""
_SQL = re.compile(r"\s*(?:SELECT|WITH|INSERT|UPDATE|DELETE|CREATE)\b", re.IGNORECASE)
_TALK = re.compile(r"[ \t]*(?:\(|I\b|I['’]|Let\b|Let's|Now\b|Please\b|Wait|Once\b|Then\b|Next\b|Note\b"
                   r"|Hope\b|Sure\b|OK\b|Okay\b|Thanks?\b|Thank you\b|After\b|The (?:tool|result|"
                   r"observation|output)\b)")
_ABBREVIATION = re.compile(r"(?:\w\.){2,}+")  # a last word such as D.C., U.S.A., e.g.
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "`": "`"}


def input_to_json(text: str) -> str:
    """Rewrite the first Action Input as one line of JSON when lesson 03 would misread it. Built in lesson 05 (Failure clinic)."""
    lines = text.split("\n")
    action = next((i for i, line in enumerate(lines) if field_kind(line) in ("action", "final_answer")), None)
    if action is None or field_kind(lines[action]) != "action":
        return text
    start = next((i for i in range(action + 1, len(lines)) if field_kind(lines[i])), None)
    if start is None or field_kind(lines[start]) != "action_input":
        return text
    end = next((i for i in range(start + 1, len(lines)) if field_kind(lines[i])), len(lines))
    arguments = read_input(lines[start], lines[start + 1:end])
    if arguments is None:
        return text
    line = "Action Input: " + json.dumps(arguments, ensure_ascii=False)
    return "\n".join([*lines[:start], line, *lines[end:]])


def read_input(first: str, following: list[str]) -> dict | None:
    """The arguments of an Action Input field (its line, the lines up to the next field); None: leave it to lesson 03. Built in lesson 05 (Failure clinic)."""
    body = [field_line(first)[1], *following]
    if "```" in first:
        body[0] = "```" + first.split("```", 1)[1]  # the fence opens on the Action Input line
    while body and not body[-1].strip():
        body.pop()
    content = [line for line in body if line.strip()]
    if not content:
        return None  # nothing given: lesson 03's {}
    if content[0].lstrip(" \t`").startswith("{"):
        return _commented_json("\n".join(body))
    fence = next((i for i, line in enumerate(body) if line.lstrip().startswith("```")), None)
    if fence is not None:
        return _fenced(body[fence:])
    block = _block(body)
    for code in ("\n".join(body), "\n".join(block)):
        if is_code(code):
            return {"input": textwrap.dedent(code).strip("\n")}
    if any("{" in line for line in body):
        return None  # JSON somewhere in the field: lesson 03 finds it
    if len(block) > 1:
        return {"input": "\n".join(line.rstrip() for line in block).strip()}
    if not body[0].strip() or block[0].lstrip().startswith("["):
        return None  # lesson 03's reading: nothing on the line, or a list
    return bare_value(block[0])


def _fenced(lines: list[str]) -> dict | None:
    """The code of a fenced block (`lines[0]` opens it); fenced JSON is read as JSON."""
    language = lines[0].strip().removeprefix("```").strip()
    if language.endswith("```"):  # ```print(1)``` on one line
        code, language = language.removesuffix("```").strip(), ""
    else:
        closing = next((i for i in range(1, len(lines)) if lines[i].strip().startswith("```")), len(lines))
        code = "\n".join(lines[1:closing]).strip("\n")
    if not code.strip():
        return None
    if language.lower() in ("json", "json5") or code.lstrip().startswith(("{", "[", "json")):
        return _commented_json(code)  # fenced JSON: lesson 03 reads it, comments aside
    return {"input": textwrap.dedent(code).strip("\n")}


def _commented_json(text: str) -> dict | None:
    """The JSON object of `text` once its comments are removed, or None when it has none."""
    clean = strip_comments(text)
    if clean == text:
        return None  # no comment: lesson 03 reads it (trailing commas included)
    arguments, problem = parse_action_input(clean)
    return None if problem else arguments


def strip_comments(text: str) -> str:
    """`text` without `//`, `#` and `/* */` comments outside its strings. Built in lesson 05 (Failure clinic)."""
    kept, start, index, quote, size = [], 0, 0, "", len(text)
    while index < size:
        char = text[index]
        if quote:
            index += 2 if char == "\\" else 1
            quote = "" if char == quote else quote
            continue
        if char in "\"'":
            quote = char
        elif char == "#" or text.startswith("//", index) or text.startswith("/*", index):
            kept.append(text[start:index])
            close = "*/" if text.startswith("/*", index) else "\n"
            found = text.find(close, index + 2)
            index = size if found < 0 else found + (2 if close == "*/" else 0)
            start = index
            continue
        index += 1
    kept.append(text[start:])
    return "".join(kept)


def _block(body: list[str]) -> list[str]:
    """The input's lines: up to the first blank line, and before a line that talks about the step."""
    lines = body if body[0].strip() else body[1:]  # an input may start on the line below
    lines = lines[:next((i for i, line in enumerate(lines) if not line.strip()), len(lines))]
    talk = next((i for i, line in enumerate(lines) if i and _TALK.match(line)), len(lines))
    return lines[:talk] or [""]


def is_code(text: str) -> bool:
    """True for several lines of Python (not only names and values) or an SQL query. Built in lesson 05 (Failure clinic)."""
    if "\n" not in text.strip() or len(text) > CODE_LIMIT:
        return False
    if _SQL.match(text):
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an odd escape in a string is no reason to warn
            tree = ast.parse(textwrap.dedent(text).strip("\n"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(not isinstance(node, ast.Expr) or isinstance(node.value, ast.Call) for node in tree.body)


def bare_value(line: str) -> dict:
    """One line of bare input as written: marks and a pair of quotes removed, its punctuation kept. Built in lesson 05 (Failure clinic).

    A final '.' that ends a sentence goes ("return policy." -> "return policy"), not one that
    belongs to an abbreviation ("Washington D.C."); several values keep their quotes, for binding.
    """
    value = line.translate(_FULL_WIDTH).strip().strip("*_` \t")
    if len(split_values(value)) > 1:
        return {"input": value}
    if value.endswith(".") and _quoted(value[:-1]):
        value = value[:-1]  # "return policy".
    if _quoted(value):
        value = value[1:-1]
    elif value.endswith("。") or (value.endswith(".") and not value.endswith("..")
                                 and not _ABBREVIATION.fullmatch(value.rsplit(None, 1)[-1])):
        value = value[:-1].rstrip()
    return {} if value.strip().lower() in _EMPTY_INPUTS else {"input": value}


def _quoted(value: str) -> bool:
    """True when the whole value is one quoted string: "x", 'x', “x”, `x`."""
    return len(value) >= 2 and _QUOTES.get(value[0]) == value[-1] and value[0] not in value[1:-1]


def split_values(text: str) -> list[str]:
    """Comma-separated values, quotes respected and removed: 'Beijing, "2025-03-15"' -> two values. Built in lesson 05 (Failure clinic).

    Several lines are several values, one a line.
    """
    if "\n" in text.strip():
        return [line.strip() for line in text.split("\n") if line.strip()]
    try:
        row = next(csv.reader([text], skipinitialspace=True), [])
    except csv.Error:
        return [text]
    return [value.strip().strip("'\"`").strip() for value in row] or [""]
