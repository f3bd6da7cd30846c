"""Approve/Deny buttons for the call a SafeAgent keeps waiting: a person's side of the gate.

Built in lesson 09 (Safety limits). Nothing here waits: `SafeAgent.run` has already returned
with stop_reason "waiting_for_approval"; a click (or `.approve.click()` in a test) calls
`resume`, and the buttons write what happened into their Output. Any object with `pending` and
`resume(decision)` can be approved this way.
"""
from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from solutions.course.widgets.base import WidgetView


def describe_pending(agent: Any) -> str:
    """One line on what waits for approval (or that nothing does)."""
    call = agent.pending
    return "Nothing waits for approval." if call is None else f"Waiting for approval: {call}"


class ApprovalButtons(WidgetView):
    """Approve and Deny buttons for `agent`'s pending call, with an Output below them. Built in lesson 09 (Safety limits).

    `decisions` lists every click's decision; `trace` is the run after the last click.
    """

    def __init__(self, agent: Any) -> None:
        """Buttons for `agent` (a SafeAgent, or anything with `pending` and `resume`)."""
        if not hasattr(agent, "pending") or not callable(getattr(agent, "resume", None)):
            raise TypeError(f"agent must have .pending and .resume(decision), got {type(agent).__name__}")
        self.agent = agent
        self.decisions: list[str] = []
        self.trace: Any = None
        self.shown: Any = None  # the call on show, which a click decides
        self.label = widgets.Label(describe_pending(agent))
        self.approve = widgets.Button(description="Approve", button_style="danger", icon="check")
        self.deny = widgets.Button(description="Deny", button_style="success", icon="times")
        self.output = widgets.Output()
        self.approve.on_click(lambda _button: self.decide("approve"))
        self.deny.on_click(lambda _button: self.decide("deny"))
        self.box = widgets.VBox([self.label, widgets.HBox([self.approve, self.deny]), self.output])
        self._refresh()

    def decide(self, decision: str) -> None:
        """Resume the agent with `decision` and show the result (what a click does).

        A click decides the call the buttons show: when the waiting call has changed since (the
        agent ran again), nothing is decided, and the buttons show the new call for the next click.
        """
        if self.agent.pending is None:
            self.output.append_stdout("Nothing waits for approval: the click did nothing.\n")
            self._refresh()
            return
        call = self.agent.pending
        if call != self.shown:
            self.output.append_stdout(f"The call waiting changed since the buttons showed {self.shown}: "
                                      f"nothing was decided. Now waiting: {call}; click again to decide it.\n")
            self._refresh()
            return
        self.decisions.append(decision)
        self.trace = self.agent.resume(decision)
        self.output.append_stdout(f"{decision}: {call} -> the run {self.trace.stop_reason}\n")
        self.output.append_display_data(self.trace)
        self._refresh()

    def describe(self) -> str:
        """'ApprovalButtons: Waiting for approval: ...' (or that nothing waits)."""
        return f"ApprovalButtons: {describe_pending(self.agent)}"

    def _refresh(self) -> None:
        """Show what waits now (the call a click decides); disable the buttons when nothing does."""
        self.shown = self.agent.pending
        self.label.value = describe_pending(self.agent)
        self.approve.disabled = self.deny.disabled = self.agent.pending is None
