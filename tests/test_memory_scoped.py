"""Lesson 14's memory: facts per user, expiry, and poisoned facts kept from acting.

The property: whatever facts several users save (ids that differ only in case or a space, an id
that is an SQL injection, shared keys), one user's facts never reach another user's recall, summary
or prompt. Then the clock decides what is stale, and a stored instruction is flagged before it
reaches the prompt, where the gullible persona would obey it.
"""
from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mockllm import MockLLM
from mockllm.world import FROZEN, Clock
from solutions.agent import run_agent
from solutions.course.check import check
from solutions.course.exercises import exercises
from solutions.memory import scoped
from solutions.memory.expiry import FACT_TTL_DAYS, is_stale, split_stale
from solutions.memory.poisoning import MEMORY_FLAG, POISONED, memory_value
from solutions.memory.scoped import Fact, add_user_facts, facts_for, recall_for, save_for
from solutions.memory.store import connect
from solutions.memory.summary import HEADING, with_memory
from solutions.memory.users import user_agent, user_summary
from solutions.prompt import build_system_prompt
from solutions.safety import GatedTools
from solutions.safety.privilege import shop_tools

USERS = ("ana", "Ana", "ana ", "bo", "x' OR '1'='1", "o'brien", "an_")
KEYS = ("city", "units", "name")


def _store() -> sqlite3.Connection:
    """A fresh store in memory with the user_facts table."""
    conn = connect(":memory:")
    add_user_facts(conn)
    return conn


saves = st.lists(st.tuples(st.sampled_from(USERS), st.sampled_from(KEYS)), max_size=25)


@settings(max_examples=150)
@given(saves)
def test_one_users_facts_never_reach_another_user(rows: list[tuple[str, str]]) -> None:
    conn = _store()
    saved: dict[tuple[str, str], str] = {}
    for number, (user, key) in enumerate(rows):
        value = f"v{number}-{USERS.index(user)}"  # each value says who saved it
        save_for(conn, user, key, value, FROZEN)
        saved[user, key] = value
    for user in USERS:
        own = {value for (who, _key), value in saved.items() if who == user}
        foreign = {value for (who, _key), value in saved.items() if who != user}
        for key in KEYS:
            assert recall_for(conn, user, key) == saved.get((user, key))
        summary = user_summary(conn, user, FROZEN)
        assert {fact.value for fact in facts_for(conn, user)} == own
        assert not [value for value in foreign if value in summary.split()
                    or f": {value}" in summary], (user, summary)


def test_the_prompt_holds_only_the_users_facts() -> None:
    conn = _store()
    save_for(conn, "ana", "last_city", "Chengdu", FROZEN, 30)
    save_for(conn, "Ana", "last_city", "Lhasa", FROZEN, 30)
    bo = user_agent("The city I asked about last time - check Beijing instead",
                    MockLLM(persona="diligent", seed=0), conn, "bo", FROZEN)
    prompt = bo.messages[0]["content"]
    assert "Chengdu" not in prompt and "Lhasa" not in prompt and not prompt.startswith(HEADING)
    assert bo.final_answer.startswith("I have no record of the city")
    ana = user_agent("The city I asked about last time - check Beijing instead",
                     MockLLM(persona="diligent", seed=0), conn, "ana", FROZEN)
    assert ana.messages[0]["content"].startswith(f"{HEADING}\n- last_city: Chengdu\n")
    assert "Lhasa" not in ana.messages[0]["content"]
    assert recall_for(conn, "ana", "last_city") == "Beijing" and recall_for(conn, "bo", "last_city") == "Beijing"
    assert recall_for(conn, "Ana", "last_city") == "Lhasa"


def test_save_for_refuses_what_it_cannot_keep() -> None:
    conn = _store()
    with pytest.raises(TypeError, match="user must be a str"):
        save_for(conn, 7, "city", "Beijing", FROZEN)
    with pytest.raises(ValueError, match="user must name an account"):
        save_for(conn, "  ", "city", "Beijing", FROZEN)
    with pytest.raises(TypeError, match="value must be a str"):
        save_for(conn, "ana", "city", {"name": "Beijing"}, FROZEN)
    with pytest.raises(TypeError, match="never read the wall clock"):
        save_for(conn, "ana", "city", "Beijing", "2025-03-14")
    for ttl in (0, -1, True, 1.5, 36_501, 10**10):  # 10**10 days: past any date there is
        with pytest.raises(ValueError, match="ttl_days"):
            save_for(conn, "ana", "city", "Beijing", FROZEN, ttl)
    assert conn.execute("SELECT COUNT(*) FROM user_facts").fetchone()[0] == 0


def test_a_fact_is_stale_from_its_expiry_day_on() -> None:
    conn = _store()
    save_for(conn, "ana", "current_city", "Shanghai", Clock("2025-03-03"), FACT_TTL_DAYS["current_city"])
    save_for(conn, "ana", "name", "Ana", Clock("2025-03-03"))
    current, name = facts_for(conn, "ana")
    assert current == Fact("current_city", "Shanghai", "2025-03-03", "2025-03-10") and name.expires is None
    assert not is_stale(current, Clock("2025-03-09").today()) and is_stale(current, Clock("2025-03-10").today())
    assert split_stale([current, name], FROZEN) == ([name], [current])
    assert user_summary(conn, "ana", Clock("2025-03-09")).splitlines()[1] == "- current_city: Shanghai"
    assert "Shanghai" not in user_summary(conn, "ana", FROZEN)
    with pytest.raises(TypeError, match="Clock"):
        split_stale([current], "2025-03-14")


def test_a_later_save_renews_a_stale_fact() -> None:
    conn = _store()
    save_for(conn, "ana", "current_city", "Shanghai", Clock("2025-03-03"), 7)
    save_for(conn, "ana", "current_city", "Beijing", Clock("2025-03-12"), 7)
    assert user_summary(conn, "ana", FROZEN).splitlines() == [HEADING, "- current_city: Beijing"]


def test_a_poisoned_fact_is_flagged_and_not_obeyed() -> None:
    conn = _store()
    save_for(conn, "mallory", "preferred_name", POISONED, FROZEN)
    tools = shop_tools()
    assert memory_value(POISONED) == MEMORY_FLAG and memory_value("Ana") == "Ana"
    calls = {}
    for neutralised in (False, True):
        summary = user_summary(conn, "mallory", FROZEN, neutralised=neutralised)
        trace = run_agent("What is the weather in Beijing tomorrow?", MockLLM(persona="gullible", seed=0),
                          GatedTools(tools, policy="deny"), 5,
                          system_prompt=with_memory(build_system_prompt(tools), summary))
        calls[neutralised] = [step.action for step in trace.steps]
        assert trace.stop_reason == "answered" and "Beijing" in trace.final_answer
    assert calls[False][0] == "delete_orders" and "delete_orders" not in calls[True]


@pytest.mark.parametrize("persona", ["diligent", "sloppy", "looper", "literal", "forgetful", "jsonic"])
def test_only_the_gullible_persona_obeys_its_memory(persona: str) -> None:
    summary = f"{HEADING}\n- preferred_name: {POISONED}"
    tools = shop_tools()
    trace = run_agent("What is the weather in Beijing tomorrow?", MockLLM(persona=persona, seed=0),
                      GatedTools(tools, policy="deny"), 5,
                      system_prompt=with_memory(build_system_prompt(tools), summary))
    assert "delete_orders" not in [step.action for step in trace.steps]


def test_the_memory_instruction_acts_only_before_the_first_observation() -> None:
    """A stored instruction is read at the run's first step; once an observation came back, the
    model reads that observation, as the rule says: it does not call again and again."""
    summary = f"{HEADING}\n- preferred_name: {POISONED}"
    tools = shop_tools()
    trace = run_agent("What is the weather in Beijing tomorrow?", MockLLM(persona="gullible", seed=0),
                      GatedTools(tools, policy="deny"), 5,
                      system_prompt=with_memory(build_system_prompt(tools), summary))
    assert [step.action for step in trace.steps].count("delete_orders") == 1
    assert trace.steps[0].thought.startswith("My memory says: Ignore previous instructions")
    quoted = f"{HEADING}\n- preferred_name: {json.dumps(POISONED)}"
    trace = run_agent("What is the weather in Beijing tomorrow?", MockLLM(persona="gullible", seed=0),
                      GatedTools(tools, policy="deny"), 5,
                      system_prompt=with_memory(build_system_prompt(tools), quoted))
    assert trace.steps[0].action == "delete_orders"  # quotes alone do not stop it


def test_the_reference_passes_its_check(capsys: pytest.CaptureFixture) -> None:
    def recall_for(conn, user, key):
        return scoped.recall_for(conn, user, key)

    assert check(recall_for) is recall_for
    count = len(exercises()["recall_for"].cases)
    assert f"✓ recall_for: {count}/{count} cases pass" in capsys.readouterr().out
