"""A progress bar for the sweeps, so that no cell that runs over a second sits silent.

tqdm's bar without timings (`BAR_FORMAT`): a stored notebook shows the same text on every run.
In JupyterLab it is a widget (`tqdm.auto`); in a terminal, text on stderr.
"""
from __future__ import annotations

from typing import Any

BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}"
"""The progress bar without timings, so that a stored notebook shows the same text on every run."""


def progress_bar(total: int, desc: str, enabled: bool = True) -> Any:
    """A tqdm bar of `total` steps named `desc`; a silent one when not `enabled`."""
    from tqdm.auto import tqdm  # imported when a bar is made: the modules that use it stay light

    return tqdm(total=total, desc=desc, bar_format=BAR_FORMAT, disable=not enabled)
