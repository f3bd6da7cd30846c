"""Spot an identical repeated call: tell the model the first time, stop the run the second time.

Built in lesson 05 (Failure clinic). A model that ignores its observations calls the same tool
with the same input again and again, and every call costs a step and a model call.
"""
from __future__ import annotations

REPEAT_NOTE = ("Note: you already called {action} with this exact input, and its result is above. "
               "Do not repeat the same call: use the result, call a different tool, or write the "
               "Final Answer.")
"""Added to the observation of a call made once before (the mock reads 'already called')."""
STOP_NOTE = "Error: the same call was repeated twice; the run stops here."
"""The observation of a call made twice before: the run ends with stop_reason 'repeated_call'."""


def repeat_verdict(calls: list[tuple[str, dict]], action: str, action_input: dict) -> str:
    """'new', 'repeat' (the identical call was made once before) or 'stop' (twice or more). Built in lesson 05 (Failure clinic)."""
    earlier = sum(1 for name, arguments in calls if name == action and arguments == action_input)
    if earlier == 0:
        return "new"
    return "repeat" if earlier == 1 else "stop"
