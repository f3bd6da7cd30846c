"""`Playground`: pick a persona, switch prompt parts and the guards, type a question, run.

Used in lessons 02 and 05. A run is `run_agent` (or `guarded_agent` with the guards on) with the
system prompt built from the parts switched on; its trace shows in a `TraceViewer`, after a line
with the stop reason and the tokens. The programmatic path sets `.value`s and calls
`playground.run.click()`; nothing waits for a person.
"""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

import mockllm
from mockllm import MockLLM
from solutions.agent import run_agent
from solutions.guards.agent import guarded_agent
from solutions.prompt import DEFAULT_PARTS, RULES, build_system_prompt
from solutions.tools import ToolRegistry, world_tools
from solutions.course.widgets.base import WidgetView, replace_output
from solutions.course.widgets.viewer import TraceViewer

QUESTION = "Is tomorrow morning good for a run in Beijing?"
SWITCHED = ("format", "example", *RULES)  # the prompt parts a toggle can take out


def seeded_client(persona: str) -> Any:
    """The default client factory: the mock with `persona` and seed 0."""
    return MockLLM(persona=persona, seed=0)


class Playground(WidgetView):
    """A persona, prompt-part toggles, a guards box, a question and a Run button. Used in lessons 02 and 05.

    `client_factory(persona)` makes each run's client; `trace` and `viewer` hold the last run.
    """

    def __init__(self, client_factory: Callable[[str], Any] | None = None, *,
                 tools: ToolRegistry | None = None, question: str = QUESTION, max_steps: int = 5) -> None:
        """A playground over `tools` (default: the whole world's), `max_steps` steps a run."""
        check_options(client_factory, tools, question, max_steps)
        self.client_factory = client_factory or seeded_client
        self.tools = world_tools() if tools is None else tools
        self.max_steps = max_steps
        self.trace: Any = None
        self.viewer: TraceViewer | None = None
        self.persona = widgets.Dropdown(options=list(mockllm.personas()), value="diligent",
                                        description="Persona")
        self.parts = {name: widgets.ToggleButton(value=True, description=name, tooltip=f"the '{name}' "
                                                 "part of the system prompt (on: in the prompt)")
                      for name in SWITCHED}
        self.guards = widgets.Checkbox(value=False, description="guards (guarded_agent)")
        self.question = widgets.Text(value=question, description="Question",
                                     layout=widgets.Layout(width="640px"))
        self.run = widgets.Button(description="Run", button_style="primary", icon="play")
        self.output = widgets.Output()
        self.run.on_click(lambda _button: self.run_once())
        self.box = widgets.VBox([widgets.HBox([self.persona, self.guards]),
                                 widgets.HBox(list(self.parts.values())),
                                 widgets.HBox([self.question, self.run]), self.output])
        self.box.add_class("react-playground")

    def prompt_parts(self) -> tuple[str, ...]:
        """The system prompt's parts, in order, without those switched off."""
        return tuple(name for name in DEFAULT_PARTS if name not in self.parts or self.parts[name].value)

    def settings(self) -> str:
        """'diligent · run_agent · prompt without example, live_data' (or 'with every part')."""
        agent = "guarded_agent" if self.guards.value else "run_agent"
        off = [name for name, toggle in self.parts.items() if not toggle.value]
        return f"{self.persona.value} · {agent} · prompt " + (f"without {', '.join(off)}" if off
                                                               else "with every part")

    def run_once(self) -> Any:
        """Run the agent with the settings on show and show its trace (what Run does); returns the trace."""
        agent = guarded_agent if self.guards.value else run_agent
        try:
            prompt = build_system_prompt(self.tools, self.prompt_parts())
            self.trace = agent(self.question.value, self.client_factory(self.persona.value), self.tools,
                               self.max_steps, system_prompt=prompt)
        except (TypeError, ValueError) as error:  # a bad question: say so, keep the last run
            replace_output(self.output, f"Not run: {error}")
            return None
        self.viewer = TraceViewer(self.trace)
        replace_output(self.output, f"{self.settings()}: {self.ending()}", self.viewer)
        return self.trace

    def ending(self) -> str:
        """'stopped: answered after 4 steps, 4459 tokens' for the last run ('' before any run)."""
        if self.trace is None:
            return ""
        steps = len(self.trace.steps)
        return (f"stopped: {self.trace.stop_reason} after {steps} step{'s' if steps != 1 else ''}, "
                f"{self.trace.total_tokens} tokens")

    def describe(self) -> str:
        """'Playground: <settings>' and the last run's ending."""
        return f"Playground: {self.settings()}" + (f": {self.ending()}" if self.trace is not None else "")


def check_options(client_factory: Any, tools: Any, question: Any, max_steps: Any) -> None:
    """Raise TypeError or ValueError when `Playground` gets bad arguments."""
    if client_factory is not None and not callable(client_factory):
        raise TypeError("client_factory must be None or a function of the persona name that returns a "
                        f"client (e.g. lambda persona: MockLLM(persona=persona)), got {type(client_factory).__name__}")
    if tools is not None and not isinstance(tools, ToolRegistry):
        raise TypeError(f"tools must be a ToolRegistry or None, got {type(tools).__name__}")
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int):
        raise TypeError(f"max_steps must be an int, got {type(max_steps).__name__}")
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
