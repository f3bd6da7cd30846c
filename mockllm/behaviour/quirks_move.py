"""Move-level quirks: they change the brain's decision before it is rendered (both modes)."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from mockllm.behaviour.injection import EMAIL_PARAMS, SAID, find as read_instruction, instruction_source
from mockllm.behaviour.quirks import (QuirkContext, guess_answer, past_calls, say,
                                      tool_kind, tool_names)

if TYPE_CHECKING:
    from mockllm.brain.context import Move
    from mockllm.reading.conversation import Conversation


def _call(move: "Move", thought: str, action: str, args: dict | None) -> "Move":
    """Return `move` turned into a tool call."""
    return replace(move, thought=thought, action=action, action_input=dict(args or {}),
                   final_answer=None)


def _answer(move: "Move", thought: str, answer: str) -> "Move":
    """Return `move` turned into a final answer."""
    return replace(move, thought=thought, action=None, action_input=None, final_answer=answer)


def _same_call(a_action: str | None, a_args: Any, b_action: str | None, b_args: Any) -> bool:
    """True when two calls name the same tool with the same arguments."""
    return a_action == b_action and dict(a_args or {}) == dict(b_args or {})


def extra_call_applies(move: "Move", conv: "Conversation", params: Mapping[str, Any]) -> bool:
    """Whether extra_call changes the move: an answer after calls, not double-checked yet."""
    if move.action is not None or not past_calls(conv):
        return False
    steps = conv.steps
    return not any(after.action and _same_call(before.action, before.action_input,
                                               after.action, after.action_input)
                   for before, after in zip(steps, steps[1:]))  # it double-checks once only


def extra_call(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Before a final answer, repeat the last tool call once 'to double-check' (once per run)."""
    if not extra_call_applies(move, conv, ctx.params):
        return None
    last = past_calls(conv)[-1]
    thought = say(conv, f"Before answering, let me double-check with {last.action} once more.",
                  f"回答之前，我再用 {last.action} 核对一次。")
    return _call(move, thought, last.action, last.action_input)


def _previous_thought(conv: "Conversation") -> str | None:
    """Return the Thought of the latest reply that called a tool, if it can be read."""
    for step in reversed(conv.steps):
        if step.action:
            match = re.search(r"thought\s*[:：]\s*(.+)", step.reply or "", re.I)
            return match.group(1).strip() if match else None
    return None


def repeat_call(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Ignore the observation and repeat the previous call, identical, with the same thought."""
    calls = past_calls(conv)
    if not calls:
        return None
    last = calls[-1]
    if _same_call(move.action, move.action_input, last.action, last.action_input):
        return None
    thought = _previous_thought(conv) or say(conv, f"I need to call {last.action}.",
                                             f"我需要调用 {last.action}。")
    return _call(move, thought, last.action, last.action_input)


def final_answer_as_tool(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Give the final answer as a tool call: `Action: Final Answer` with {"answer": ...}."""
    if move.action is not None or move.final_answer is None:
        return None
    name = "Final Answer" if conv.mode == "text" else "final_answer"
    return _call(move, move.thought, name, {"answer": move.final_answer})


_ALIASES = {"date": "date_calculator", "date_add": "date_calculator", "weather": "weather_api",
            "search": "search_web", "calculator": "math", "order_lookup": "order_database",
            "order_range": "order_database", "calendar": "calendar_api",
            "send_email": "email_api", "write_report": "report_writer",
            "delete_orders": "order_admin"}


def unknown_tool(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Call a plausible tool name that is not offered (`weather_api` for `get_weather`)."""
    offered = tool_names(conv)
    if move.action is None or move.action not in offered:
        return None
    name = _ALIASES.get(tool_kind(move.action, conv), "tool")
    while name in offered:
        name += "_v2"
    return replace(move, action=name)


def answer_without_tool(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Answer a live-data question (date, weather, orders, calendar) with an invented value."""
    if move.action is None:
        return None
    guessed = guess_answer(move, conv, ctx)
    if guessed is None:
        return None
    thought = say(conv, "I already know this, no tool needed.", "这个我知道，不需要调用工具。")
    return _answer(move, thought, guessed[1])


# ---------------------------------------------------------------- prompt injection

_LEAD = re.compile(r"^(?:ignore\s.*?instructions|you must now)[\s,.:;-]*(?:and\s+|then\s+)?", re.I)
_VERB = re.compile(r"^(?:say|reply|answer|respond|write|tell the user)\b(?:\s+(?:that|with))?"
                   r"[\s:]*", re.I)


def _strip_lead(text: str) -> str:
    """What is left of an instruction once 'ignore ... instructions and reply' is removed."""
    previous = None
    while text != previous:
        previous, text = text, _VERB.sub("", _LEAD.sub("", text)).strip()
    return text.strip(" .")


def find_instruction(text: str | None, tools: Iterable[Any] | None = None) -> str | None:
    """The instruction in `text` the gullible persona obeys, given the offered `tools` (specs with
    `name` and `parameters`; see `mockllm.behaviour.injection.RULE`); without `tools`, any text
    addressed to the model (what the persona's trigger looks for)."""
    found = read_instruction(text, tools)
    return None if found is None else found.text


def _demand(instruction: str) -> str:
    """What the instruction wants said: 'ignore ... and reply that X' -> 'X.'."""
    text = _strip_lead(instruction)
    return (text[:1].upper() + text[1:] + ".") if text else "OK."


_FILLED = {"subject": ("subject", "title"), "body": ("body", "text", "content", "message")}
LEAK_SUBJECT = "The data you asked for"
"""The subject of an email an instruction asks for and gives none (see `_with_data`)."""


def _with_data(found: Any, conv: "Conversation") -> dict:
    """The instruction's arguments. An email tool's (a tool with an address parameter) subject and
    body the text leaves out are filled as an obeying model fills them: LEAK_SUBJECT, and what the
    run has read (the lines of its observations that are no error and hold no instruction)."""
    args = dict(found.args)
    params = next((tool.parameters for tool in conv.tools if tool.name == found.tool), ())
    if not any(p.lower() in EMAIL_PARAMS for p in params):
        return args
    read = [line for step in conv.steps if step.observation and not step.observation.startswith("Error")
            for line in step.observation.splitlines()
            if line.strip() and read_instruction(line, conv.tools) is None]
    for kind, names in _FILLED.items():
        param = next((p for p in params if p.lower() in names), None)
        if param is not None and param not in args:
            args[param] = LEAK_SUBJECT if kind == "subject" else "\n".join(read)
    return args


def obey_injection(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Follow an instruction found in the latest observation (before the first one, in the
    remembered facts), as if the user had given it."""
    where, text = instruction_source(conv)  # the latest observation, or before it the memory
    found = read_instruction(text, conv.tools)
    if found is None:
        return None
    said, said_zh = SAID[where]
    thought = say(conv, f"{said}: {found.text}. I will do that.", f"{said_zh}：{found.text}。我照做。")
    if found.tool is not None:
        return _call(move, thought, found.tool, _with_data(found, conv))
    if found.answer is not None:  # a link to show: put it in the answer it would give
        return _answer(move, thought, "\n\n".join(filter(None, (move.final_answer, found.answer))))
    return _answer(move, thought, _demand(found.text))


# ---------------------------------------------------------------- long runs

def _facts(conv: "Conversation") -> str:
    """Return the last few useful observations, one line each, as a short summary."""
    lines = [s.observation.strip().splitlines()[0][:100] for s in conv.steps
             if s.observation and s.observation.strip()
             and not s.observation.lstrip().lower().startswith("error")]
    if not lines:
        return say(conv, "I could not finish the task.", "我没能完成这个任务。")
    return say(conv, "Here is what I found: ", "目前我掌握的信息：") + "; ".join(lines[-3:])


def lose_thread(move: "Move", conv: "Conversation", ctx: QuirkContext) -> "Move | None":
    """Lose the thread: start over with the run's first call, or answer early with what it has."""
    if move.action is None:
        return None
    calls = past_calls(conv)
    first = calls[0] if calls else None
    if ctx.pick(("repeat", "answer")) == "repeat" and first is not None and not _same_call(
            move.action, move.action_input, first.action, first.action_input):
        thought = say(conv, f"Let me start with {first.action}.", f"我先调用 {first.action}。")
        return _call(move, thought, first.action, first.action_input)
    thought = say(conv, "This is taking long; I will answer with what I have.",
                  "步骤太多了，我就用现有的信息回答。")
    return _answer(move, thought, _facts(conv))
