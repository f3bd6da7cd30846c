"""The safe agent: the lesson-04 loop behind every safety limit of lesson 09.

Built in lesson 09 (Safety limits). `SafeAgent` runs `run_step` unchanged on guarded parts: an
allowlisted registry, observations marked as data (`DataTools`), the approval gate
(`GatedTools`), an audit log written as each step happens, the step and token budgets of lesson
07 (`run_within_budget`, `UsageMeter`) and an escalation after two tool failures. When a call
waits for a person the run returns at once with stop_reason "waiting_for_approval";
`resume("approve")` or `resume("deny")` carries it on. No cell ever waits.
"""
from __future__ import annotations

from typing import Any, Iterable

from solutions.agent import Trace, TraceStep, check_arguments, run_step
from solutions.budget import UsageMeter, check_limits, run_within_budget
from solutions.guards.agent import STOP
from solutions.guards.parse import parse_reply
from solutions.parsing import Step
from solutions.prompt import build_system_prompt
from solutions.safety.approval import GatedTools, Policy, ToolCall
from solutions.safety.audit import AuditLog
from solutions.safety.injection import DataTools
from solutions.safety.privilege import allowlist
from solutions.tools import ToolRegistry

MAX_FAILURES = 2
"""Tool failures ('Error: ...' observations) after which a run stops and asks a person."""


class _Stop(Exception):
    """Ends the steps of a run early with a stop reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SafeAgent:
    """An agent with least privilege, approval, an audit log, budgets and escalation. Built in lesson 09 (Safety limits).

    Each defence can be switched off alone, to see what it does: `allow=None` offers every tool,
    `policy=None` runs dangerous tools unasked, `as_data=False` hands tool output over as it is.
    """

    def __init__(self, client: Any, tools: ToolRegistry, *, allow: Iterable[str] | None = None,
                 policy: Policy | None = "ask", as_data: bool = True, audit: AuditLog | None = None,
                 max_steps: int = 6, token_budget: int | None = None,
                 max_failures: int | None = MAX_FAILURES, **options: Any) -> None:
        """Set up the agent; `options` go to run_step (model, max_tokens, stop, parse)."""
        check_arguments("a question", client, tools, max_steps)  # the question comes with run()
        check_limits(token_budget=token_budget, max_failures=max_failures)
        self.client, self.audit, self.max_steps = client, audit, max_steps
        self.token_budget, self.max_failures = token_budget, max_failures
        self.offered = allowlist(tools, allow) if allow is not None else tools
        inner = DataTools(self.offered) if as_data else self.offered
        self.tools = GatedTools(inner, policy if policy is not None else "approve")
        self.options = {"stop": STOP, **options}
        self.parse = self.options.pop("parse", parse_reply)
        self.trace: Trace | None = None

    @property
    def pending(self) -> ToolCall | None:
        """The call that waits for a person's approval, or None."""
        return self.tools.pending

    def run(self, question: str, *, system_prompt: str | None = None) -> Trace:
        """Start a run on `question` and take steps until it ends or waits for approval."""
        check_arguments(question, self.client, self.offered, self.max_steps)
        prompt = build_system_prompt(self.offered) if system_prompt is None else system_prompt
        self.messages = [{"role": "system", "content": prompt},
                         {"role": "user", "content": f"Question: {question}"}]
        self.steps: list[TraceStep] = []
        self.failures, self.meter = 0, UsageMeter(self.client)
        self.tools.waiting.clear()  # a new run: no call of an earlier one still waits
        self.question = question
        self._log("question", text=question)
        return self._go()

    def resume(self, decision: str) -> Trace:
        """Answer the pending call ("approve" runs it, "deny" does not) and carry the run on."""
        call = self.pending
        observation = self.tools.decide(decision)  # ValueError when nothing waits
        step = self.steps[-1]
        step.observation = observation
        self.messages.append({"role": "user", "content": f"Observation: {observation}"})
        self._log("approval", len(self.steps), decision=decision, action=call.action)
        self._log("observation", len(self.steps), text=observation, tokens=step.tokens)
        return self._finish("escalated") if self._count_failure(step) else self._go()

    def _go(self) -> Trace:
        """Take the steps left; record and return the trace."""
        try:
            _, reason = run_within_budget(self._take_step, self.meter,
                                          self.max_steps - len(self.steps), self.token_budget)
        except _Stop as stop:
            reason = stop.reason
        return self._finish(reason)

    def _finish(self, reason: str) -> Trace:
        """The trace of the run so far, ended (or paused) by `reason`; logged unless it waits."""
        answer = self.steps[-1].final_answer if reason == "answered" else None
        self.trace = Trace(self.question, self.steps, answer, reason, self.messages)
        if reason != "waiting_for_approval":
            self._log("stop", reason=reason, answer=answer)
        return self.trace

    def _take_step(self) -> TraceStep:
        """One step of run_step, logged; raise _Stop when it waits for approval or escalates."""
        step = run_step(self.meter, self.messages, self.tools, parse=self._parse_and_log,
                        **self.options)
        self.steps.append(step)
        if self.pending is not None:
            self.messages.pop()  # the placeholder observation: the real one comes with the decision
            step.observation = None
            self._log("approval", len(self.steps), decision="waiting", action=self.pending.action,
                      action_input=self.pending.action_input)
            raise _Stop("waiting_for_approval")
        if step.observation is not None:
            self._log("observation", len(self.steps), text=step.observation, tokens=step.tokens)
        if self._count_failure(step):
            raise _Stop("escalated")
        return step

    def _count_failure(self, step: TraceStep) -> bool:
        """Count a failed tool call; True when the run must stop and escalate to a person."""
        if step.observation is not None and step.observation.startswith("Error:"):
            self.failures += 1
        return self.max_failures is not None and self.failures >= self.max_failures

    def _parse_and_log(self, reply: str) -> Step:
        """Parse a reply and log its thought and action before the tool runs."""
        parsed = self.parse(reply)
        number = len(self.steps) + 1
        if parsed.thought:
            self._log("thought", number, text=parsed.thought)
        if parsed.error is not None:
            self._log("error", number, text=parsed.error)
        elif parsed.final_answer is not None:
            self._log("answer", number, text=parsed.final_answer)
        elif parsed.action is not None:
            self._log("action", number, action=parsed.action, action_input=parsed.action_input)
        return parsed

    def _log(self, kind: str, step: int | None = None, **fields: Any) -> None:
        """Write a record when the agent has an audit log."""
        if self.audit is not None:
            self.audit.write(kind, step, **fields)
