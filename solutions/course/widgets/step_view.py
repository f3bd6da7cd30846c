"""One step of a trace as the trace viewer shows it: the messages sent, the raw reply, the parsed
step, the tokens so far and the mock's explanation, in HTML and in text.

The parsed step is drawn by the trace display's own code (`solutions.course.display`), so the viewer and
a displayed `Trace` show a step the same way. No ipywidgets here: this module only writes text.
"""
from __future__ import annotations

import json
from html import escape
from typing import Any

from solutions.course.display import (_BOX, _HEAD, _PRE, OBSERVATION_CHARS, end_card_html, end_text_lines,
                               shorten, step_card_html, step_text_lines)

LINE_WIDTH = 100  # a message's first characters in the text form


def message_text(message: dict) -> str:
    """A message's content, with its tool calls (structured mode) written after it as JSON."""
    text = message.get("content") or ""
    calls = message.get("tool_calls")
    if calls:
        text += ("\n" if text else "") + "tool_calls: " + json.dumps(calls, ensure_ascii=False, default=str)
    return text


def sent_messages(trace: Any, index: int) -> list[dict] | None:
    """The messages sent at step `index` (0-based): as recorded, else the history before its reply."""
    recorded = getattr(trace.steps[index], "messages_sent", None)
    if recorded is not None:
        return recorded
    # Not recorded (a step built by hand or read from a log): a loop that sends the whole history
    # sent everything before the step's own reply, the (index + 1)-th assistant message.
    replies = [i for i, message in enumerate(trace.messages) if message.get("role") == "assistant"]
    return trace.messages[:replies[index]] if index < len(replies) else None


def tokens_so_far(trace: Any, number: int) -> int:
    """The tokens of steps 1 to `number`."""
    return sum(step.tokens for step in trace.steps[:number])


def tokens_line(trace: Any, number: int, budget: int | None) -> str:
    """'tokens so far: 1715 of a 5000 budget (34%)', or '... (no budget)'."""
    used = tokens_so_far(trace, number)
    if budget is None:
        return f"tokens so far: {used} (no budget)"
    over = " · over budget" if used > budget else ""
    return f"tokens so far: {used} of a {budget} budget ({round(100 * used / budget)}%){over}"


def heading(trace: Any, number: int, budget: int | None) -> str:
    """'Step 2 of 4 · tokens so far: ...'."""
    return f"Step {number} of {len(trace.steps)} · {tokens_line(trace, number, budget)}"


def step_text(trace: Any, number: int, budget: int | None = None) -> str:
    """Step `number` (1-based) of `trace` as plain text, the same content as `step_html`."""
    step, sent = trace.steps[number - 1], sent_messages(trace, number - 1)
    lines = [heading(trace, number, budget)]
    if sent is None:
        lines.append("Messages sent: not recorded")
    else:
        lines.append(f"Messages sent ({len(sent)}):")
        for index, message in enumerate(sent):
            first = shorten(message_text(message).replace("\n", " | "), LINE_WIDTH)
            lines.append(f"  {index}  {message.get('role', '?'):<9}  {first}")
    lines.append("Raw reply:")
    lines.extend("  " + line for line in (step.raw_reply or "(empty)").splitlines())
    lines.append(f"Parsed step ({step.tokens} tokens):")
    lines.extend(step_text_lines(step))
    if step.final_answer is not None or number == len(trace.steps):
        lines.extend(end_text_lines(trace, step.final_answer))
    return "\n".join(lines)


def _html_section(title: str, body: str) -> str:
    """A titled block of already escaped HTML."""
    return f"<div style=\"margin-top: 6px;\"><div style=\"{_HEAD}\">{escape(title)}</div>{body}</div>"


def _html_message(index: int, message: dict) -> str:
    """One sent message: its index and role, then its text (long ones folded)."""
    text = message_text(message)
    label = f"{index} · {message.get('role', '?')}"
    short = escape(shorten(text, OBSERVATION_CHARS))
    if len(text) > OBSERVATION_CHARS:
        short += (f"<details><summary style=\"cursor: pointer; opacity: 0.75;\">whole message "
                  f"({len(text)} characters)</summary><pre style=\"{_PRE}\">{escape(text)}</pre></details>")
    return (f"<div style=\"margin: 2px 0;\"><b>{escape(label)}</b>"
            f"<div style=\"{_PRE}\">{short}</div></div>")


def step_html(trace: Any, number: int, budget: int | None = None) -> str:
    """Step `number` (1-based) of `trace` as HTML: the request, the reply, the parsed step card."""
    step, sent = trace.steps[number - 1], sent_messages(trace, number - 1)
    head = (f"<div style=\"{_HEAD}\">Step {number} of {len(trace.steps)} <span style=\"font-weight: "
            f"normal; opacity: 0.65;\">· {escape(tokens_line(trace, number, budget))}</span></div>")
    if sent is None:
        messages = _html_section("Messages sent", "<i>not recorded</i>")
    else:
        rows = "".join(_html_message(i, message) for i, message in enumerate(sent))
        messages = _html_section(f"Messages sent ({len(sent)})",
                                 f"<details open><summary style=\"cursor: pointer; opacity: 0.75;\">"
                                 f"the request of this step</summary>{rows}</details>")
    raw = _html_section("Raw reply", f"<pre style=\"{_PRE}\">{escape(step.raw_reply or '(empty)')}</pre>")
    parsed = _html_section("Parsed step", step_card_html(number, step, OBSERVATION_CHARS))
    last = step.final_answer is not None or number == len(trace.steps)
    end = end_card_html(trace, step.final_answer) if last else ""
    return f"<div class=\"react-trace-step\" style=\"{_BOX}\">{head}{messages}{raw}{parsed}{end}</div>"
