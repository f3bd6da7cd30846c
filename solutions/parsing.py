"""Turn a raw model reply into a Step, or into a corrective error. Built in lesson 03 (Parsing the reply).

Decisions, each one a choice a learner may make differently:
- Everything from the first `Observation:` line on is cut: the model made it up, and anything
  after it (even a Final Answer) was built on that invention.
- An Action and a Final Answer in one reply: whichever comes first wins. A Final Answer written
  after an Action was written before the Observation existed, so it is a guess; text after a
  Final Answer is run-on and is dropped.
- Only the first Action is kept (one action per reply).
- An Action without an Action Input gives `action_input={}` and no error: the tool registry then
  says which arguments are missing, which is the more useful correction.
- A bare-string Action Input becomes `{"input": "..."}`; the registry hands it to a tool's only
  parameter. `none`, `null` and an empty input become `{}`.
- `Action: Final Answer` counts as a final answer, taken from Action Input's "answer" (or first
  value, or its text).
- The Final Answer keeps everything up to the next field line (answers may have several lines).
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

_FIELD = re.compile(
    r"(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)?(?P<heading>#{1,6}[ \t]*)?(?P<bold>[*_`]{1,3})?"
    r"(?P<name>final[ _]?answer|action[ _]?input|action|thought|observation|question"
    r"|最终答案|最終答案|行动输入|行动|思考|观察|问题)"
    r"(?:[ \t]*\d{1,2}(?![\d.]))?"  # numbered, as in the ReAct paper: "Thought 1:"
    r"[ \t]*(?P<close>[*_`]{1,3}[ \t]*)?(?P<colon>[:：])?", re.IGNORECASE)
_KINDS = {"finalanswer": "final_answer", "最终答案": "final_answer", "最終答案": "final_answer",
          "actioninput": "action_input", "行动输入": "action_input", "action": "action",
          "行动": "action", "thought": "thought", "思考": "thought", "observation": "observation",
          "观察": "observation", "question": "question", "问题": "question"}
_INLINE_INPUT = re.compile(r"\baction[ _]?input[ \t]*[:：]", re.IGNORECASE)
_CALL = re.compile(r"([A-Za-z_]\w*)[ \t]*\((.*)\)", re.DOTALL)
_FULL_WIDTH = {**{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)},  # （１７，：） -> (17,:)
               0x3000: " "}
_CURLY = {ord("“"): '"', ord("”"): '"', ord("‘"): "'", ord("’"): "'"}
_EMPTY_INPUTS = {"", "none", "null", "n/a", "nothing", "no input", "{}"}
_LITERAL_EVAL_LIMIT = 2000  # characters; ast.literal_eval is safe but not free

FORMAT_HELP = (
    "Reply in exactly this format:\n"
    "Thought: <your reasoning>\n"
    "Action: <one tool name>\n"
    'Action Input: <a JSON object, for example {"expression": "45 * 3 - 10"}>\n'
    "or, when you know the answer:\n"
    "Thought: I now know the final answer.\n"
    "Final Answer: <the answer>"
)
"""The format shown in every corrective message."""


@dataclass(frozen=True)
class Step:
    """One parsed reply: an action, a final answer, or an error to send back. Built in lesson 03 (Parsing the reply)."""

    thought: str | None = None
    action: str | None = None
    action_input: dict = field(default_factory=dict)
    final_answer: str | None = None
    error: str | None = None
    raw: str = ""

    @property
    def kind(self) -> str:
        """Return 'error', 'final' or 'action'."""
        if self.error is not None:
            return "error"
        return "final" if self.final_answer is not None else "action"


def parse_step(text: str) -> Step:
    """Parse a ReAct reply into a Step; never raises, whatever `text` is. Built in lesson 03 (Parsing the reply)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        return Step(error=format_error(f"the reply is not text (got {type(text).__name__})"))
    try:
        return _parse(text)
    except Exception as exc:  # a parser must never crash the loop; say what happened instead
        return Step(error=format_error(f"unexpected {type(exc).__name__}"), raw=text)


def format_error(problem: str) -> str:
    """Return the corrective message for `problem`, with the expected format. Built in lesson 03 (Parsing the reply)."""
    return f"Error: could not parse your reply: {problem}. {FORMAT_HELP}"


def _parse(text: str) -> Step:
    """Find the fields and decide between an action, a final answer and an error."""
    fields, cut = _fields(text)
    decisive = next((i for i, (kind, _) in enumerate(fields) if kind in ("action", "final_answer")), None)
    before = fields[:decisive] if decisive is not None else fields
    thought = next((_clean(value) for kind, value in reversed(before) if kind == "thought"), None) or None
    if decisive is None:
        return Step(thought=thought, error=format_error(_missing(text, fields, cut)), raw=text)
    kind, value = fields[decisive]
    if kind == "final_answer":
        answer = _clean(value)
        if not answer:
            return Step(thought=thought, error=format_error("the 'Final Answer:' line is empty"), raw=text)
        return Step(thought=thought, final_answer=answer, raw=text)
    return _action_step(thought, value, _input_text(fields, decisive), text)


def _fields(text: str) -> tuple[list[tuple[str, str]], bool]:
    """Return the (kind, value) fields in order, cut at the first Observation, and whether a cut happened."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    marks: list[tuple[str, int, str]] = []  # (kind, line number, rest of that line)
    cut = False
    for number, line in enumerate(lines):
        found = _field_line(line)
        if found and found[0] == "observation":
            lines, cut = lines[:number], True
            break
        inline = _INLINE_INPUT.search(found[1]) if found and found[0] == "action" else None
        if found and inline:  # "Action: calculator Action Input: {...}" on one line
            marks += [("action", number, found[1][:inline.start()]),
                      ("action_input", number, found[1][inline.end():])]
        elif found:
            marks.append((found[0], number, found[1]))
    ends = [number for _, number, _ in marks[1:]] + [len(lines)]
    return [(kind, "\n".join([rest, *lines[number + 1:end]]))
            for (kind, number, rest), end in zip(marks, ends)], cut


def _field_line(line: str) -> tuple[str, str] | None:
    """Return (kind, rest of line) when `line` starts a field, tolerating markdown and `：`."""
    stripped = line.lstrip(" \t>")
    match = _FIELD.match(stripped)
    if not match:
        return None
    rest = stripped[match.end():]
    if match["colon"] is None and (rest.strip(" \t*_`") or not (match["heading"] or match["bold"])):
        return None  # a bare word such as "Actions" or "Thought it over", not a field
    kind = _KINDS.get(match["name"].lower().replace(" ", "").replace("_", ""))
    return (kind, rest.lstrip(" \t*_`")) if kind else None


def _missing(text: str, fields: list[tuple[str, str]], cut: bool) -> str:
    """Describe what is missing from a reply that has no Action and no Final Answer."""
    if not text.strip():
        return "the reply is empty"
    found = [kind for kind, _ in fields]
    problem = "no 'Action:' or 'Final Answer:' line found"
    if "action_input" in found:
        problem = "found 'Action Input:' but no 'Action:' line naming the tool"
    elif "thought" in found:
        problem = "found a Thought but no 'Action:' or 'Final Answer:' line"
    if cut:
        problem += " (everything from 'Observation:' on was ignored: never write the Observation yourself)"
    return problem


def _input_text(fields: list[tuple[str, str]], start: int) -> str | None:
    """Return the first Action Input after field `start`, before the next Action or Final Answer."""
    for kind, value in fields[start + 1:]:
        if kind in ("action", "final_answer"):
            return None
        if kind == "action_input":
            return value
    return None


def _action_step(thought: str | None, value: str, input_text: str | None, raw: str) -> Step:
    """Build the Step for an Action line (or an `Action: Final Answer` in disguise)."""
    name = _strip_marks(next((line for line in value.split("\n") if line.strip()), ""))
    call = _CALL.fullmatch(name)
    if call:  # Action: calculator(2 + 2) -> the name, and the input if none was given
        name, input_text = call[1], input_text if input_text is not None else call[2]
    if not name:
        return Step(thought=thought, error=format_error("the 'Action:' line names no tool"), raw=raw)
    action_input, problem = parse_action_input(input_text)
    if re.sub(r"[\s_\-]", "", name.lower()) in ("finalanswer", "最终答案"):
        answer = action_input.get("answer", next(iter(action_input.values()), "")) if not problem else ""
        if str(answer).strip():
            return Step(thought=thought, final_answer=str(answer).strip(), raw=raw)
        problem = "Final Answer is not a tool; write 'Final Answer: <the answer>' on its own line"
    if problem:
        return Step(thought=thought, error=format_error(problem), raw=raw)
    return Step(thought=thought, action=name, action_input=action_input, raw=raw)


def parse_action_input(text: str | None) -> tuple[dict, str | None]:
    """Return (arguments, None) or ({}, problem) for an Action Input text. Built in lesson 03 (Parsing the reply)."""
    if text is None:
        return {}, None
    first, _, rest = text.partition("\n")
    if not first.strip() and not rest.lstrip().startswith(("{", "`", "[")):
        return {}, None  # nothing on the line and no JSON below it: the input is missing
    body = _strip_fences(text).translate(_FULL_WIDTH)
    if "{" in body:
        return _json_object(body)
    if body.lstrip().startswith("["):
        return {}, 'the Action Input must be a JSON object like {"name": "value"}, not a list'
    bare = _strip_marks(next((line for line in body.split("\n") if line.strip()), ""))
    return ({}, None) if bare.lower() in _EMPTY_INPUTS else ({"input": bare}, None)


def _json_object(text: str) -> tuple[dict, str | None]:
    """Read the JSON object in `text`: from the first `{` to its `}` (or the last `}`), repairing if needed."""
    start, end, balanced = text.index("{"), text.rfind("}"), _balanced_end(text, text.index("{"))
    candidates = [text[start:balanced + 1]] if balanced > start else []
    if end > start:
        candidates.append(text[start:end + 1])
    candidates.append(text[start:].split("\n")[0].rstrip().rstrip(",") + "}")  # unclosed brace
    candidates.append(text[start:].rstrip().rstrip(",") + "}")
    for candidate in dict.fromkeys(c for c in candidates if len(c) > 1):
        value = _load(candidate)
        if isinstance(value, dict):
            return {str(key): item for key, item in value.items()}, None
    return {}, 'the Action Input is not a valid JSON object; write it like {"name": "value"}'


def _balanced_end(text: str, start: int) -> int:
    """Return the index of the `}` closing the `{` at `start` (strings respected), or -1."""
    depth, quote, escaped = 0, "", False
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            escaped, quote = (not escaped and char == "\\"), ("" if char == quote and not escaped else quote)
        elif char in "\"'":
            quote = char
        elif char in "{}":
            depth += 1 if char == "{" else -1
            if depth == 0:
                return index
    return -1


def _load(candidate: str) -> object:
    """Try json, then json on a repaired copy, then ast.literal_eval (safe: literals only)."""
    repaired = re.sub(r",\s*([}\]])", r"\1", candidate.translate(_CURLY))
    swapped = re.sub(r"(?<=[{,:\[])(\s*)'|'(?=\s*[,:}\]])", lambda m: (m[1] or "") + '"', repaired)
    attempts = [candidate, repaired, swapped]  # swapped: {'q': 'what's new'} -> {"q": "what's new"}
    if repaired.count('"') % 2 == 1 and repaired.endswith("}"):
        attempts.append(repaired[:-1].rstrip() + '"}')  # close a string left open: {"city": "Beijing}
    for attempt in attempts:
        try:
            return json.loads(attempt)
        except (ValueError, RecursionError):
            continue
    if len(repaired) <= _LITERAL_EVAL_LIMIT:
        try:
            return ast.literal_eval(repaired)  # single quotes; literal_eval never runs code
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
    return None


def _strip_fences(text: str) -> str:
    """Drop markdown code-fence lines (```json ... ```) and surrounding backticks."""
    lines = [line for line in text.split("\n") if not line.strip().startswith("```")]
    return "\n".join(lines).strip().strip("`")


def _strip_marks(text: str) -> str:
    """Strip spaces, markdown marks, quotes, brackets and trailing punctuation around a short value."""
    marks = "*_`'\"“”‘’ \t"
    text = text.strip().strip(marks).rstrip(".,;:：。").strip(marks)
    if text.startswith("[") and text.endswith("]") and text.count("[") == 1:
        text = text[1:-1].strip()
    return text


def _clean(value: str) -> str:
    """Return a field's text without code fences, markdown marks and outer whitespace."""
    lines = [line for line in value.split("\n") if not line.strip().startswith("```")]
    return "\n".join(lines).strip().strip("*").strip()
