"""The loop in structured mode: tools offered as JSON schemas, `tool_calls` answered by `tool` messages.

Built in lesson 06 (Structured tool calls). The lesson-04 loop read an `Action:` line from the
reply's text; here the API carries each call in `message.tool_calls`, with an `id`, a name and
its `arguments` as JSON text. Every call gets exactly one `tool` message with the same
`tool_call_id`: the tool's result, or the error that explains what was wrong with the call
(`solutions.arguments` validates it). A reply without tool calls is read by
`solutions.structured_text.read_content`: the answer, or a call the model wrote as text.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

from solutions.agent import Trace, TraceStep, check_arguments, explanation_of
from solutions.arguments import decode_arguments, validate_arguments
from solutions.parsing import Step
from solutions.prompt import PARTS
from solutions.structured_text import read_content
from solutions.tools import BASIC_TOOLS, ToolRegistry

STRUCTURED_RULES = (
    "Call tools through the tool-calling interface; the program runs each call and sends its "
    "result back in a tool message.",
    "Final Answer is not a tool: when you know the answer, reply with the answer as plain text "
    "and no tool call.",
    PARTS["stop_when_enough"],
    PARTS["live_data"],
)
"""The rules of the structured-mode prompt (no tool list and no format: the API carries both)."""


@dataclass(frozen=True)
class ToolCall:
    """One call of a reply and the program's answer to it: `observation` is the tool message's content."""

    call_id: str
    action: str
    arguments: str       # the JSON text the model sent
    action_input: dict   # that text decoded ({} when it is not a JSON object)
    observation: str


@dataclass
class StructuredStep(TraceStep):
    """A TraceStep of structured mode: `calls` holds every call of the reply (action, action_input
    and observation repeat the first, so code written for lesson 04's steps still reads them)."""

    calls: list[ToolCall] = field(default_factory=list)
    read_from: str = "tool_calls"  # "tool_calls", or "content" when the text fallback read the reply


def structured_prompt() -> str:
    """The system prompt of structured mode: the role and the rules. Built in lesson 06 (Structured tool calls)."""
    rules = "\n".join(f"{number}. {rule}" for number, rule in enumerate(STRUCTURED_RULES, 1))
    return f"{PARTS['role']}\n\nRules:\n{rules}"


def tool_messages(tool_calls: list[Any], tools: ToolRegistry) -> list[dict]:
    """One `tool` message per call, in order, with the call's id: the result or the error. Built in lesson 06 (Structured tool calls)."""
    messages = []
    for call in tool_calls:
        name = call.function.name.strip()
        if name not in tools:  # the registry's message names the available tools
            observation = tools.run(name, {})
        else:
            action_input, problem = validate_arguments(tools[name], call.function.arguments)
            # Run the tool only with arguments that fit its schema; otherwise say what is wrong.
            observation = f"Error: {problem}" if problem else tools.run(name, action_input)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": observation})
    return messages


def assistant_message(message: Any) -> dict:
    """The reply as the next request must carry it: its content, and its tool_calls when it has any. Built in lesson 06 (Structured tool calls)."""
    if not message.tool_calls:
        return {"role": "assistant", "content": message.content or ""}
    calls = [{"id": call.id, "type": "function",
              "function": {"name": call.function.name, "arguments": call.function.arguments}}
             for call in message.tool_calls]
    return {"role": "assistant", "content": message.content, "tool_calls": calls}


def run_structured_step(
    client: Any,
    messages: list[dict],
    tools: ToolRegistry,
    *,
    model: str = "mock-react",
    tool_choice: str | dict | None = None,
    read_text: Callable[[str | None], Step] = read_content,
    max_tokens: int | None = None,
) -> StructuredStep:
    """Call the model once with `tools=`, answer its calls and grow `messages`. Built in lesson 06 (Structured tool calls)."""
    options: dict[str, Any] = {"tools": tools.schemas()}
    if tool_choice is not None:
        options["tool_choice"] = tool_choice
    if max_tokens is not None:
        options["max_tokens"] = max_tokens
    response = client.chat.completions.create(model=model, messages=messages, **options)
    message = response.choices[0].message
    messages.append(assistant_message(message))
    usage = response.usage.total_tokens if response.usage is not None else 0
    record = {"raw_reply": message.content or "", "tokens": usage,
              "explanation": explanation_of(response)}
    if message.tool_calls:
        answers = tool_messages(message.tool_calls, tools)
        messages.extend(answers)
        return _with_calls(StructuredStep(thought=(message.content or "").strip() or None, **record),
                           message.tool_calls, answers)
    return _text_step(read_text(message.content), messages, tools, record)


def _text_step(parsed: Step, messages: list[dict], tools: ToolRegistry, record: dict) -> StructuredStep:
    """The step for a reply without tool calls: an answer, an error to send back, or a call in the text."""
    step = StructuredStep(thought=parsed.thought, read_from="content", **record)
    if parsed.error is not None:
        messages.append({"role": "user", "content": parsed.error})
        step.error = parsed.error
        return step
    if parsed.final_answer is not None:
        step.final_answer = parsed.final_answer
        return step
    # A call written in the text has no id to answer: run it the same way, and send the
    # result back as a user message, as in text mode.
    call = SimpleNamespace(id="text", function=SimpleNamespace(
        name=parsed.action, arguments=json.dumps(parsed.action_input, ensure_ascii=False, default=str)))
    answer = tool_messages([call], tools)[0]
    messages.append({"role": "user", "content": f"Observation: {answer['content']}"})
    return _with_calls(step, [call], [answer])


def _with_calls(step: StructuredStep, calls: list[Any], answers: list[dict]) -> StructuredStep:
    """Fill `step.calls` (and its first action, input and observation) from the calls and their answers."""
    for call, answer in zip(calls, answers):
        action_input, problem = decode_arguments(call.function.arguments)
        step.calls.append(ToolCall(call.id, call.function.name, call.function.arguments,
                                   action_input if problem is None else {}, answer["content"]))
    first = step.calls[0]
    step.action, step.action_input, step.observation = first.action, first.action_input, first.observation
    return step


def structured_agent(
    question: str,
    client: Any,
    tools: ToolRegistry | None = None,
    max_steps: int = 5,
    *,
    system_prompt: str | None = None,
    model: str = "mock-react",
    tool_choice: str | dict | None = None,
    read_text: Callable[[str | None], Step] = read_content,
    max_tokens: int | None = None,
) -> Trace:
    """Answer `question` with structured tool calls in at most `max_steps` model calls. Built in lesson 06 (Structured tool calls)."""
    if tools is None:
        tools = BASIC_TOOLS
    check_arguments(question, client, tools, max_steps)
    if system_prompt is None:
        system_prompt = structured_prompt()
    messages = [{"role": "system", "content": system_prompt},
                {"role": "user", "content": question}]
    steps: list[TraceStep] = []
    for _ in range(max_steps):
        step = run_structured_step(client, messages, tools, model=model, tool_choice=tool_choice,
                                   read_text=read_text, max_tokens=max_tokens)
        steps.append(step)
        if step.final_answer is not None:
            return Trace(question, steps, step.final_answer, "answered", messages)
    return Trace(question, steps, None, "step_limit", messages)
