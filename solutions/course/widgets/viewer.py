"""`TraceViewer`: step through a trace one step at a time, with Prev/Next buttons and a slider.

Used in lessons 00, 04 and 05. For the step on show it displays what `step_view` draws: the exact
messages sent, the raw reply, the parsed step, the tokens so far against a budget and the mock's
explanation. Clicking is also a method (`viewer.next.click()`), and `viewer.slider.value = 3`
jumps to step 3; nothing waits for a person.
"""
from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from solutions.course.widgets.base import Rendered, WidgetView, replace_output
from solutions.course.widgets.step_view import step_html, step_text, tokens_line


def check_trace(trace: Any) -> None:
    """Raise TypeError unless `trace` looks like a Trace (question, steps, messages, stop_reason)."""
    missing = [name for name in ("question", "steps", "messages", "stop_reason") if not hasattr(trace, name)]
    if missing or not isinstance(trace.steps, list):
        raise TypeError("trace must be a Trace (what run_agent or guarded_agent returns), "
                        f"got {type(trace).__name__}")


def check_budget(budget: Any) -> None:
    """Raise TypeError or ValueError unless `budget` is None or a positive int of tokens."""
    if budget is None:
        return
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise TypeError(f"budget must be None or an int (tokens), got {type(budget).__name__}")
    if budget < 1:
        raise ValueError(f"budget must be at least 1 token, got {budget}")


class TraceViewer(WidgetView):
    """Prev/Next buttons and a step slider over `trace`, the step on show below them. Used in lessons 00, 04 and 05.

    `budget` (tokens, or None) is what the tokens so far are measured against.
    """

    def __init__(self, trace: Any, budget: int | None = None) -> None:
        """A viewer on step 1 of `trace` (a Trace from run_agent, guarded_agent, ...)."""
        check_trace(trace)
        check_budget(budget)
        self.trace, self.budget = trace, budget
        count = len(trace.steps)
        self.prev = widgets.Button(description="Prev", icon="arrow-left", tooltip="the step before")
        self.next = widgets.Button(description="Next", icon="arrow-right", tooltip="the step after")
        self.slider = widgets.IntSlider(value=1, min=1, max=max(count, 1), description="Step",
                                        disabled=count < 2, continuous_update=False)
        self.output = widgets.Output()
        self.prev.on_click(lambda _button: self._move(-1))
        self.next.on_click(lambda _button: self._move(+1))
        self.slider.observe(lambda _change: self._render(), names="value")
        self.box = widgets.VBox([widgets.HBox([self.prev, self.slider, self.next]), self.output])
        self.box.add_class("react-trace-viewer")
        self._render()

    @property
    def number(self) -> int:
        """The step on show, from 1 (0 when the trace has no step)."""
        return self.slider.value if self.trace.steps else 0

    @property
    def step(self) -> Any:
        """The TraceStep on show (None when the trace has no step)."""
        return self.trace.steps[self.number - 1] if self.trace.steps else None

    def show(self, number: int) -> None:
        """Show step `number`, from 1 to the last step (what moving the slider does)."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"number must be an int, got {type(number).__name__}")
        if not self.slider.min <= number <= len(self.trace.steps):
            raise ValueError(f"number must be a step of the trace, 1 to {len(self.trace.steps)}, got {number}")
        self.slider.value = number  # the slider's observer redraws

    def _move(self, by: int) -> None:
        """One step back or forward, staying at the first or last step (what Prev and Next do)."""
        self.slider.value = min(max(self.number + by, self.slider.min), self.slider.max)

    def text(self) -> str:
        """The step on show as plain text (what the viewer shows, without the HTML)."""
        if not self.trace.steps:
            return f"No step: the run stopped ({self.trace.stop_reason}) before the model replied."
        return step_text(self.trace, self.number, self.budget)

    def describe(self) -> str:
        """'TraceViewer: step 2 of 4 · Action get_weather · tokens so far: ...' (or its answer or error)."""
        if not self.trace.steps:
            return f"TraceViewer: no step ({self.trace.stop_reason})"
        step = self.step
        shown = (f"Action {step.action}" if step.action is not None
                 else "Final Answer" if step.final_answer is not None else "Format error")
        return f"TraceViewer: step {self.number} of {len(self.trace.steps)} · {shown} · " + tokens_line(
            self.trace, self.number, self.budget)

    def _render(self) -> None:
        """Redraw the step on show and set which buttons lead anywhere."""
        count = len(self.trace.steps)
        self.prev.disabled = self.number <= 1
        self.next.disabled = self.number >= count
        if count == 0:
            replace_output(self.output, self.text())
            return
        replace_output(self.output, shown=Rendered(step_html(self.trace, self.number, self.budget), self.text()))
