"""What every course widget shares: a box of ipywidgets that shows, a one-line text form, an Output.

A widget here never prints: it writes into its Output with `append_stdout` and
`append_display_data`, which work from any callback, in a browser or in a headless run, and it
never waits. Each button has a programmatic path, `.click()`, and each control a `.value`.
"""
from __future__ import annotations

from typing import Any

import ipywidgets as widgets


class WidgetView:
    """The shared face of a course widget: `box` is what JupyterLab shows, `describe()` its text."""

    box: widgets.Box

    def describe(self) -> str:
        """One line on what the widget shows now (the text form of a stored or headless output)."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Display as the widget box, with `describe()` where widgets do not render."""
        bundle = self.box._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            bundle["text/plain"] = self.describe()
        return bundle


def replace_output(output: widgets.Output, text: str | None = None, shown: Any = None) -> None:
    """Empty `output`, then write `text` (a line of its own) and display `shown` into it."""
    output.outputs = ()
    if text is not None:
        output.append_stdout(text if text.endswith("\n") else text + "\n")
    if shown is not None:
        output.append_display_data(shown)


class Rendered:
    """HTML with its plain-text form, for `append_display_data` (the text shows where HTML does not)."""

    def __init__(self, html: str, text: str) -> None:
        """Keep both forms of one view."""
        self.html, self.text = html, text

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        """Both forms, for IPython's display machinery."""
        return {"text/html": self.html, "text/plain": self.text}
