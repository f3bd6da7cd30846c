"""Readable views of a trace: a text block per step, and HTML cards for Jupyter.

Used by `solutions.agent.Trace` (lesson 04), which imports this module; this module imports no
reference code: it reads any object with a trace's fields (`TraceLike`, `StepLike`). Output is
deterministic: no ids, no times.
"""
from __future__ import annotations

import json
from html import escape
from typing import Any, Protocol, Sequence


class StepLike(Protocol):
    """What a step display reads: the fields of `solutions.agent.TraceStep`."""

    thought: str | None
    action: str | None
    action_input: dict
    observation: str | None
    final_answer: str | None
    error: str | None
    raw_reply: str
    tokens: int
    explanation: dict


class TraceLike(Protocol):
    """What a trace display reads: the fields of `solutions.agent.Trace`."""

    question: str
    final_answer: str | None
    stop_reason: str

    @property
    def steps(self) -> Sequence[StepLike]: ...

    @property
    def total_tokens(self) -> int: ...

OBSERVATION_CHARS = 300  # observations longer than this are shortened on screen
ELLIPSIS = "…"
LABEL_WIDTH = 14  # "Action Input: " in the text form

# Inline styles built from translucent greys, so they read in light and dark themes.
_BOX = ("font-family: var(--jp-content-font-family, system-ui, sans-serif); font-size: 13px; "
        "line-height: 1.45; color: inherit; max-width: 980px;")
_HEAD = "font-weight: 600; margin-bottom: 3px;"
_GRID = "display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 1px 12px;"
_LABEL = "font-weight: 600; white-space: nowrap;"
_CELL = "white-space: pre-wrap; overflow-wrap: anywhere; text-align: left;"
_MONO = "font-family: var(--jp-code-font-family, ui-monospace, monospace); font-size: 12px;"
_CODE = f"{_MONO} background: rgba(127,127,127,0.14); padding: 0 3px; border-radius: 3px;"
_PRE = (f"{_MONO} background: rgba(127,127,127,0.14); padding: 4px 6px; border-radius: 3px; "
        "display: block; white-space: pre-wrap; margin: 4px 0 0 0;")
_MUTED = "opacity: 0.65; font-size: 12px; margin-top: 3px;"
# The colour of a card's left edge: a step, a format error, an answer, any other ending.
STEP_COLOUR, ERROR_COLOUR = "rgba(66,133,244,0.75)", "rgba(219,68,55,0.8)"
ANSWER_COLOUR, OTHER_END_COLOUR = "rgba(15,157,88,0.85)", "rgba(244,160,0,0.9)"


def _card(colour: str) -> str:
    """The inline style of a card with a coloured left edge."""
    return (f"border: 1px solid rgba(127,127,127,0.35); border-left: 4px solid {colour}; "
            "border-radius: 4px; padding: 6px 10px; margin: 6px 0; "
            "background: rgba(127,127,127,0.06);")


def shorten(text: str, limit: int | None = OBSERVATION_CHARS) -> str:
    """`text` cut to `limit` characters with an ellipsis (unchanged when short enough)."""
    if limit is None or len(text) <= limit:
        return text
    return text[:limit].rstrip() + ELLIPSIS


def format_input(action_input: Any) -> str:
    """An action input as one line of JSON (keys in the order the model wrote them)."""
    return json.dumps(action_input, ensure_ascii=False, default=str)


def explanation_line(explanation: dict) -> str:
    """The mock's reasons for a reply in one line ('' when there are none)."""
    if not explanation:
        return ""
    parts = []
    if explanation.get("source") == "script":
        parts.append("scripted reply")
    if explanation.get("persona"):
        parts.append(f"persona {explanation['persona']}")
    if explanation.get("rule"):
        parts.append(f"rule {explanation['rule']}")
    quirks = explanation.get("quirks_fired") or []
    parts.append("quirks " + (", ".join(str(q) for q in quirks) if quirks else "none"))
    if explanation.get("stop_applied"):
        parts.append(f"stopped at {explanation['stop_applied']!r}")
    if explanation.get("truncated"):
        parts.append("cut by max_tokens")
    return "mock: " + " · ".join(parts)


def _step_fields(step: StepLike, limit: int | None) -> list[tuple[str, str]]:
    """The (label, text) pairs worth showing for one step, in reading order."""
    fields = []
    if step.thought:
        fields.append(("Thought", step.thought))
    # A structured step (lesson 06) lists every tool call of its reply in `calls`, each with the
    # arguments as the model sent them; a lesson-04 step is its own single call.
    for call in getattr(step, "calls", None) or [step]:
        if call.action is not None:
            fields.append(("Action", call.action))
            fields.append(("Action Input", getattr(call, "arguments", None)
                           or format_input(call.action_input)))
        if call.observation is not None:
            fields.append(("Observation", shorten(call.observation, limit)))
    if step.error is not None:
        fields.append(("Reply", shorten(step.raw_reply, limit)))
        fields.append(("Format error", step.error))
    return fields  # the final answer is shown once, under the last step


def end_line(trace: TraceLike) -> str:
    """'Stopped: answered · 3 steps · 412 tokens'."""
    steps = len(trace.steps)
    return (f"Stopped: {trace.stop_reason} · {steps} step{'s' if steps != 1 else ''}"
            f" · {trace.total_tokens} tokens")


def _text_field(label: str, text: str) -> str:
    """One labelled field, continuation lines indented under the text."""
    pad = " " * (LABEL_WIDTH + 2)
    body = text.replace("\n", "\n" + pad)
    return f"  {label + ':':<{LABEL_WIDTH}}{body}"


def trace_text(trace: TraceLike, max_chars: int | None = OBSERVATION_CHARS) -> str:
    """The trace as plain text, one block per step (observations cut at `max_chars`)."""
    lines = [f"Question: {trace.question}"]
    for number, step in enumerate(trace.steps, start=1):
        lines.append("")
        lines.append(f"Step {number} ({step.tokens} tokens)")
        lines.extend(step_text_lines(step, max_chars))
    lines.append("")
    lines.extend(end_text_lines(trace, trace.final_answer))
    return "\n".join(lines)


def step_text_lines(step: StepLike, max_chars: int | None = OBSERVATION_CHARS) -> list[str]:
    """A step's labelled fields, then the mock's explanation in brackets (when there is one)."""
    lines = [_text_field(label, text) for label, text in _step_fields(step, max_chars)]
    why = explanation_line(step.explanation)
    return lines + [f"  ({why})"] if why else lines


def end_text_lines(trace: TraceLike, answer: str | None) -> list[str]:
    """'Final Answer: ...' (or '(none)') and the stop line."""
    return [f"Final Answer: {answer if answer is not None else '(none)'}", end_line(trace)]


def _html_observation(observation: str, limit: int) -> str:
    """A shortened observation, with the full text folded in a <details> when cut."""
    short = escape(shorten(observation, limit))
    if len(observation) <= limit:
        return short
    return (f"{short}<details><summary style=\"cursor: pointer; opacity: 0.75;\">"
            f"full observation ({len(observation)} characters)</summary>"
            f"<pre style=\"{_PRE}\">{escape(observation)}</pre></details>")


def _html_row(label: str, value_html: str) -> str:
    """One grid row: a bold label and an already escaped value."""
    return (f"<div style=\"{_LABEL}\">{escape(label)}</div>"
            f"<div style=\"{_CELL}\">{value_html}</div>")


def step_card_html(number: int, step: StepLike, limit: int) -> str:
    """One card: the step's fields, its tokens and the mock's explanation."""
    rows = []
    for label, text in _step_fields(step, None):
        if label == "Observation":
            value = _html_observation(text, limit)
        elif label in ("Action", "Action Input"):
            value = f"<code style=\"{_CODE}\">{escape(text)}</code>"
        else:
            value = escape(shorten(text, limit) if label == "Reply" else text)
        rows.append(_html_row(label, value))
    why = explanation_line(step.explanation)
    muted = f"<div style=\"{_MUTED}\">{escape(why)}</div>" if why else ""
    card = _card(ERROR_COLOUR if step.error is not None else STEP_COLOUR)
    return (f"<div style=\"{card}\"><div style=\"{_HEAD}\">Step {number}"
            f" <span style=\"font-weight: normal; opacity: 0.65;\">· {escape(str(step.tokens))} tokens</span>"
            f"</div><div style=\"{_GRID}\">{''.join(rows)}</div>{muted}</div>")


def trace_html(trace: TraceLike, max_chars: int = OBSERVATION_CHARS) -> str:
    """The trace as HTML: a card per step, then the final answer, stop reason and totals."""
    cards = "".join(step_card_html(n, step, max_chars) for n, step in enumerate(trace.steps, 1))
    return (f"<div class=\"react-trace\" style=\"{_BOX}\">"
            f"<div style=\"{_HEAD}\">Question: <span style=\"font-weight: normal;\">"
            f"{escape(trace.question)}</span></div>{cards}{end_card_html(trace, trace.final_answer)}</div>")


def end_card_html(trace: TraceLike, answer: str | None) -> str:
    """The closing card: the final answer (or none), the stop reason, steps and tokens."""
    style = _card(ANSWER_COLOUR if trace.stop_reason == "answered" else OTHER_END_COLOUR)
    shown = ("<i>none</i>" if answer is None
             else f"<span style=\"white-space: pre-wrap;\">{escape(answer)}</span>")
    return (f"<div style=\"{style}\"><b>Final Answer:</b> {shown}"
            f"<div style=\"{_MUTED}\">{escape(end_line(trace))}</div></div>")
