"""Read a prompt written by DSPy's ChatAdapter or JSONAdapter, and restate it as a course request.

DSPy sends a system message that names the fields, shows their layout, and states the task:

    Your input fields are:
    1. `question` (str):
    Your output fields are:
    1. `answer` (int):
    All interactions will be structured in the following way, with the appropriate values filled in.

    [[ ## question ## ]]
    {question}

    [[ ## answer ## ]]
    {answer}        # note: the value you produce must be a single int value

    [[ ## completed ## ]]                       <- ChatAdapter: the reply ends with this marker
    In adhering to this structure, your objective is: ...

JSONAdapter writes "Outputs will be a JSON object with the following fields." and the output
fields as a JSON object instead, and the reply is that object. The last user message holds the
inputs as `[[ ## name ## ]]` sections, then a "Respond with ..." reminder.

`dspy.ReAct` asks, at each step, for `next_thought`, `next_tool_name` and `next_tool_args`; its
objective lists the tools, one a line (`(1) calculator, whose description is <desc>...</desc>. It
takes arguments {...}.`, then `finish`), and its `trajectory` input holds the steps so far as
`thought_N`, `tool_name_N`, `tool_args_N` and `observation_N` sections. After `finish` it asks for
the signature's own outputs (with a `reasoning` first) from the same trajectory.

`read_dspy` reads all this into a `DspyPrompt`; `course_request` restates it as the messages and
`tools=` of a tool-calling request (the question, then each step as a tool call and its result),
which the rest of the reading understands. Every reader here goes through the text once, with
`str.find` and anchored patterns: linear time.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from mockllm.reading.python_text import literal

__all__ = ["OutputField", "DspyStep", "DspyPrompt", "read_dspy", "course_request", "COMPLETED",
           "FINISH", "REACT_FIELDS"]

FINISH = "finish"
"""The tool `dspy.ReAct` adds to end a run."""
REACT_FIELDS = ("next_thought", "next_tool_name", "next_tool_args")
"""The output fields of a `dspy.ReAct` step."""
MAX_TOOLS = 64
"""Tools read from one objective (the rest are beyond the model's attention)."""

_INPUTS, _OUTPUTS = "Your input fields are:", "Your output fields are:"
_STRUCTURE = "All interactions will be structured in the following way"
_JSON_OUTPUTS = "Outputs will be a JSON object with the following fields."
_OBJECTIVE = "In adhering to this structure, your objective is:"
COMPLETED = "[[ ## completed ## ]]"
"""The marker that ends a ChatAdapter reply."""
_LISTED = re.compile(r"\d++\. `(\w++)` \(")
_HEADER = re.compile(r"\[\[ ## (\w++) ## \]\]")
_STEP_KEY = re.compile(r"(thought|tool_name|tool_args|observation)_(\d++)")
_TOOL_LINE = re.compile(r"\((\d++)\) ")
_NOTE = "# note: the value you produce "
_DESCRIBED, _TAKES = ", whose description is <desc>", " It takes arguments "
_REMINDERS = ("Respond with the corresponding output fields", "Respond with a JSON object")
_QUESTION_NAMES = ("question", "query", "task", "input", "problem", "request", "prompt")


@dataclass(frozen=True)
class OutputField:
    """An output field the prompt asks for: its name and the JSON schema of its value."""
    name: str
    schema: dict = field(compare=False)


@dataclass(frozen=True)
class DspyStep:
    """One step of a ReAct trajectory: the thought, the tool called, its arguments, its result."""
    thought: str
    tool_name: str
    tool_args: dict
    observation: str


@dataclass(frozen=True)
class DspyPrompt:
    """A DSPy prompt as read: `adapter` ('chat' or 'json'), the output fields in order, the
    input fields' values (name, text) from the last user message, the tools the objective lists
    (OpenAI-style `tools=` entries, without `finish`) and the trajectory's steps."""
    adapter: str
    outputs: tuple[OutputField, ...]
    inputs: tuple[tuple[str, str], ...]
    tools: tuple[dict, ...] = ()
    steps: tuple[DspyStep, ...] = ()

    @property
    def is_react_step(self) -> bool:
        """Whether the prompt asks for a ReAct step (the three `REACT_FIELDS`)."""
        return all(any(f.name == name for f in self.outputs) for name in REACT_FIELDS)

    @property
    def question(self) -> str:
        """The task the inputs state: the question-like input, the only one, or all of them."""
        given = [(name, text) for name, text in self.inputs if name != "trajectory"]
        for name, text in given:
            if name.lower() in _QUESTION_NAMES:
                return text
        if len(given) == 1:
            return given[0][1]
        return "\n".join(f"{name}: {text}" for name, text in given)


def _text(message: object) -> tuple[str, str]:
    """(role, content) of a message when its content is text, else (role, '')."""
    if not isinstance(message, dict):
        return "", ""
    content = message.get("content")
    if isinstance(content, list):  # content parts: their text joined
        content = "".join(p.get("text") or "" for p in content if isinstance(p, dict))
    return str(message.get("role") or ""), content if isinstance(content, str) else ""


def read_dspy(messages: list) -> DspyPrompt | None:
    """The DSPy prompt these messages hold, or None when the first is no DSPy system message."""
    if not isinstance(messages, (list, tuple)) or not messages:
        return None
    first = messages[0]
    if isinstance(first, dict) and isinstance(first.get("content"), str) and \
            _INPUTS not in first["content"][:256]:
        return None  # the common case, decided without reading the message further
    role, system = _text(first)
    if role not in ("system", "developer") or not system[:256].lstrip().startswith(_INPUTS):
        return None
    start, middle = system.find(_INPUTS), system.find(_OUTPUTS)
    end = system.find(_STRUCTURE, middle)
    if middle < 0 or end < 0:
        return None
    adapter = "json" if _JSON_OUTPUTS in system else "chat" if COMPLETED in system else None
    if adapter is None:  # another adapter (XML, BAML ...): not a layout the mock writes
        return None
    inputs = _listed(system[start:middle])
    outputs = _listed(system[middle:end])
    notes = _json_notes(system, end) if adapter == "json" else _chat_notes(system, end)
    fields = tuple(OutputField(name, _schema(notes.get(name, ""))) for name in outputs)
    last = next((text for role, text in map(_text, reversed(messages)) if role == "user"), "")
    values = _sections(last, inputs)
    steps = _trajectory(dict(values).get("trajectory", ""))
    objective = system.find(_OBJECTIVE, end)
    tools = _tools(system[objective:]) if objective >= 0 else ()
    return DspyPrompt(adapter, fields, values, tools, steps)


def _listed(text: str) -> list[str]:
    """The field names a 'Your ... fields are:' list names (`1. `name` (type): ...` lines)."""
    names = []
    for line in text.splitlines():
        match = _LISTED.match(line)
        if match and match.group(1) not in names:
            names.append(match.group(1))
    return names


def _chat_notes(system: str, start: int) -> dict[str, str]:
    """name -> the note of each `{name}        # note: ...` line of ChatAdapter's layout."""
    notes = {}
    for line in system[start:].splitlines():
        at = line.find(_NOTE)
        if line.startswith("{") and at > 0 and line[:at].rstrip().endswith("}"):
            notes[line[1:at].rstrip()[:-1]] = line[at + len(_NOTE):].strip()
    return notes


def _json_notes(system: str, start: int) -> dict[str, str]:
    """name -> the note of each output field in JSONAdapter's layout (a JSON object)."""
    at = system.find(_JSON_OUTPUTS, start)
    brace = system.find("{", at)
    try:
        shown, _ = json.JSONDecoder().raw_decode(system, brace)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(shown, dict):
        return {}
    notes = {}
    for name, value in shown.items():
        text = value if isinstance(value, str) else ""
        cut = text.find(_NOTE)
        notes[name] = text[cut + len(_NOTE):].strip() if cut >= 0 else ""
    return notes


def _schema(note: str) -> dict:
    """The JSON schema of an output field's value, from the note DSPy writes after it."""
    if note == "must be True or False":
        return {"type": "boolean"}
    if note.startswith("must be a single ") and note.endswith(" value"):
        kind = note[len("must be a single "):-len(" value")]
        return {"type": {"int": "integer", "float": "number"}.get(kind, "string")}
    for lead in ("must exactly match (no extra characters) one of: ", "must be one of: "):
        if note.startswith(lead):
            return {"enum": [member.strip() for member in note[len(lead):].split(";")]}
    lead = "must adhere to the JSON schema: "
    if note.startswith(lead):
        try:
            schema = json.loads(note[len(lead):])
        except (ValueError, RecursionError):
            schema = None
        if isinstance(schema, dict):
            return schema
    return {"type": "string"}


def _sections(text: str, names: list[str]) -> tuple[tuple[str, str], ...]:
    """The (name, value) of each input field in a user message. A header opens a field only when
    it names one not yet seen (the trajectory's own headers stay in its value); the closing
    'Respond with ...' reminder is no part of the last value."""
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        match = _HEADER.fullmatch(line.strip())
        if match and match.group(1) in names and all(match.group(1) != n for n, _ in found):
            found.append((match.group(1), []))
        elif found:
            found[-1][1].append(line)
    values = [(name, "\n".join(lines).strip()) for name, lines in found]
    if values:
        name, last = values[-1]
        cuts = [at for at in (last.rfind(r) for r in _REMINDERS) if at >= 0]
        if cuts:
            values[-1] = (name, last[:max(cuts)].strip())
    return tuple(values)


def _trajectory(text: str) -> tuple[DspyStep, ...]:
    """The steps a ReAct trajectory holds (thought_N, tool_name_N, tool_args_N, observation_N)."""
    if not text:
        return ()
    parts: dict[int, dict[str, list[str]]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        header = _HEADER.fullmatch(line.strip())
        key = _STEP_KEY.fullmatch(header.group(1)) if header else None
        if key is not None:
            current = parts.setdefault(int(key.group(2)), {}).setdefault(key.group(1), [])
        elif current is not None:
            current.append(line)
    steps = []
    for index in sorted(parts):
        got = {name: "\n".join(lines).strip() for name, lines in parts[index].items()}
        steps.append(DspyStep(got.get("thought", ""), got.get("tool_name", ""),
                              _arguments(got.get("tool_args", "")), got.get("observation", "")))
    return tuple(steps)


def _arguments(text: str) -> dict:
    """A step's tool arguments: the JSON (or Python) object written, else {}."""
    for parse in (json.loads, literal):
        try:
            value = parse(text)
        except (ValueError, SyntaxError, RecursionError, MemoryError, TypeError):
            continue
        return value if isinstance(value, dict) else {}
    return {}


def _tools(objective: str) -> tuple[dict, ...]:
    """The tools a ReAct objective lists, as `tools=` entries (`finish` left out)."""
    tools = []
    for line in objective.splitlines():
        line = line.strip()
        numbered = _TOOL_LINE.match(line)
        takes = line.rfind(_TAKES)
        if numbered is None or takes < 0 or len(tools) >= MAX_TOOLS:
            continue
        head = line[numbered.end():takes]
        described = head.find(_DESCRIBED)
        name = (head[:described] if described >= 0 else head.rstrip(".")).strip()
        if described >= 0:
            closing = head.rfind("</desc>")
            desc = head[described + len(_DESCRIBED):closing if closing >= 0 else len(head)]
        else:
            desc = ""
        arguments = _arguments(line[takes + len(_TAKES):].rstrip("."))
        if not name or name == FINISH or " " in name:
            continue
        properties = {key: value if isinstance(value, dict) else {}
                      for key, value in arguments.items()}
        tools.append({"type": "function", "function": {
            "name": name, "description": desc.strip(),
            "parameters": {"type": "object", "properties": properties,
                           "required": list(properties)}}})
    return tuple(tools)


def course_request(prompt: DspyPrompt) -> tuple[list[dict], list[dict] | None]:
    """(messages, tools) of the tool-calling request that asks what the DSPy prompt asks: the
    question as the user message, then each trajectory step but `finish` as a tool call and its
    result. The tools are the objective's, else (the final extraction, whose objective lists
    none) the ones the trajectory called; None when there are neither."""
    messages: list[dict] = [{"role": "user", "content": prompt.question}]
    called: dict[str, dict] = {}
    for index, step in enumerate(prompt.steps):
        if step.tool_name == FINISH or not step.tool_name:
            continue
        call_id = f"call_dspy_{index}"
        arguments = json.dumps(step.tool_args, ensure_ascii=False)
        messages.append({"role": "assistant", "content": step.thought or None, "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": step.tool_name, "arguments": arguments}}]})
        messages.append({"role": "tool", "tool_call_id": call_id, "content": step.observation})
        properties = called.setdefault(step.tool_name, {})
        properties.update({key: {} for key in step.tool_args})
    if prompt.tools:
        return messages, list(prompt.tools)
    tools = [{"type": "function", "function": {"name": name, "description": "", "parameters": {
        "type": "object", "properties": properties}}} for name, properties in called.items()]
    return messages, tools or None
