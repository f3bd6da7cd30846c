"""The approval gate: a dangerous tool runs only when a policy (or a person) says so.

Built in lesson 09 (Safety limits). A policy is "approve", "deny", "ask", or a function of the
ToolCall that returns one of them. `approval_decision` turns a call into "run", "deny" or "ask";
`GatedTools` is a registry that asks it before every call and keeps the call that waits for a
person in `pending`, so the loop can stop there and resume later (see `solutions.safety.agent`).

The gate lives in the tools, not only in `GatedTools.run`: each dangerous tool it holds carries a
function that asks the gate first. A wrapper that rebuilds a registry from its tools (an
allowlist, `subset`, truncation, lesson 05's guarded registry) gets the gated functions, so a
gated registry stays gated whatever wraps it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Union

from solutions.tools import Tool, ToolRegistry

POLICIES = ("approve", "deny", "ask")
Policy = Union[str, Callable[["ToolCall"], str]]

WAITING = "Waiting for approval: a person must approve {action} before it runs."
DENIED = ("Not run: {action} needs approval and it was denied. Do not call it again; "
          "answer with what you have.")


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for: the tool's name and its input."""

    action: str
    action_input: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.action}({self.action_input})"


def needs_approval(action: Any, tools: ToolRegistry) -> bool:
    """True when `action` names a dangerous tool of `tools`, ignoring case and spaces. Built in lesson 09 (Safety limits)."""
    name = action.strip().casefold() if isinstance(action, str) else ""
    return any(tool.dangerous and tool.name.casefold() == name for tool in tools)


def check_policy(policy: Any) -> None:
    """Raise a clear error unless `policy` is one of POLICIES or a function."""
    if not callable(policy) and policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)} or a function of the call, "
                         f"got {policy!r}")


def approval_decision(action: str, action_input: dict, tools: ToolRegistry, policy: Policy) -> str:
    """'run', 'deny' or 'ask' for one call: only dangerous tools go to the policy. Built in lesson 09 (Safety limits).

    A policy that raises, or returns anything but "approve", "deny" or "ask", denies: when in
    doubt, the dangerous tool does not run.
    """
    if not needs_approval(action, tools):
        return "run"
    try:
        decision = policy(ToolCall(action, action_input)) if callable(policy) else policy
    except Exception:  # a broken policy must not open the gate
        return "deny"
    if decision == "approve":
        return "run"
    return decision if decision == "ask" else "deny"


class GatedTools(ToolRegistry):
    """A registry whose dangerous tools run only when approved. Built in lesson 09 (Safety limits).

    `attempts` lists every call of a dangerous tool with what happened to it: "ran", "denied" or
    "waiting"; `waiting` holds the calls that wait for a person, in the order they came (a reply
    with several tool calls can ask for two), and `pending` is the first of them (None when
    nothing waits), the one `decide` answers.
    """

    def __init__(self, tools: ToolRegistry, policy: Policy = "ask") -> None:
        """Wrap `tools` under `policy`; each dangerous tool is held with its function behind the gate."""
        check_policy(policy)
        super().__init__(self._gated(tool) if tool.dangerous else tool for tool in tools)
        self.inner = tools  # its own run() is kept: wrap a DataTools, and its marking stays
        self.policy = policy
        self.waiting: list[ToolCall] = []
        self.attempts: list[tuple[ToolCall, str]] = []

    @property
    def pending(self) -> ToolCall | None:
        """The call a person decides next: the first that waits (None when nothing waits)."""
        return self.waiting[0] if self.waiting else None

    def _gated(self, tool: Tool) -> Tool:
        """`tool` with a function that asks this gate before the real one runs."""
        def behind_the_gate(**arguments: Any) -> str:
            return self._through_gate(ToolCall(tool.name, dict(arguments)), lambda: tool.function(**arguments))
        return replace(tool, function=behind_the_gate)

    def run(self, name: str, action_input: dict | None) -> str:
        """Run the call when the gate allows it; otherwise say why it did not run."""
        call = ToolCall(name if isinstance(name, str) else str(name),
                        action_input if isinstance(action_input, dict) else {})
        return self._through_gate(call, lambda: self.inner.run(name, action_input))

    def _through_gate(self, call: ToolCall, execute: Callable[[], str]) -> str:
        """`execute()` when the gate allows `call`; otherwise why it did not run (or that it waits)."""
        decision = approval_decision(call.action, call.action_input, self, self.policy)
        if decision == "ask":
            self.waiting.append(call)  # behind any call that waits already: none is lost
            self.attempts.append((call, "waiting"))
            return WAITING.format(action=call.action)
        if decision == "deny":
            self.attempts.append((call, "denied"))
            return DENIED.format(action=call.action)
        if needs_approval(call.action, self):
            self.attempts.append((call, "ran"))
        return execute()

    def decide(self, decision: str) -> str:
        """A person's answer to the pending call: its observation ("approve" runs it, "deny" does not)."""
        if decision not in ("approve", "deny"):
            raise ValueError(f"decision must be 'approve' or 'deny', got {decision!r}")
        if not self.waiting:
            raise ValueError("no call is waiting for approval")
        call = self.waiting.pop(0)
        waited = self.attempts.index((call, "waiting"))
        self.attempts[waited] = (call, "ran" if decision == "approve" else "denied")
        if decision == "deny":
            return DENIED.format(action=call.action)
        return self.inner.run(call.action, call.action_input)
