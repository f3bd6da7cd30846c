"""The course's widgets for JupyterLab, one module each, all built on `base.WidgetView`.

- `viewer.py`: `TraceViewer`, a trace one step at a time (lessons 00, 04 and 05);
- `step_view.py`: what the viewer draws for a step, in HTML and text;
- `playground.py`: `Playground`, persona, prompt parts, guards and a question (lessons 02 and 05);
- `approval.py`: `ApprovalButtons`, Approve/Deny for a waiting SafeAgent (lesson 09).

Every widget writes into its Output with `append_stdout` / `append_display_data`, never blocks,
and has a programmatic path (`.click()`, `.value`) for headless runs and tests.
"""
from solutions.course.widgets.approval import ApprovalButtons
from solutions.course.widgets.playground import Playground
from solutions.course.widgets.viewer import TraceViewer

__all__ = ["ApprovalButtons", "Playground", "TraceViewer"]
