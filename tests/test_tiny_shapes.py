"""The `tiny` persona's shapes of a real small model told that its reply did not work.

The course's agents, run on a real SmolLM2-135M, met four shapes no persona had: the same reply
to the same correction, over and over; the correction's placeholders copied (`Action: <one tool
name>`); the rules restated as prose; and, once tool calls are forced, a call off the question's
task with made-up arguments. Each is reproduced here through `MockLLM` with the course's prompt
(`solutions.prompt`) and the correction its loop sends (`solutions.parsing`), at temperature 0
(greedy decoding, where the real model repeated itself); the API's default temperature, 1,
keeps the first three off, so the lessons' runs are unchanged. Then: the same bytes twice, and
the course's guarded agent (lesson 05) still ends within its bounds on `tiny`.
"""
from __future__ import annotations

import json
from types import SimpleNamespace

import openai
import pytest

import mockllm
from mockllm import MockLLM
from solutions.agent import run_agent
from solutions.guards.agent import guarded_agent
from solutions.guards.parse import parse_reply
from solutions.guards.questions import QUESTIONS
from solutions.parsing import format_error, parse_step
from solutions.prompt import build_system_prompt, without
from solutions.structured import structured_agent, structured_prompt
from solutions.tools import world_tools
from timing import best_seconds

TOOLS = world_tools()
SYSTEM = build_system_prompt(TOOLS)
CALC_Q = "What is (17 + 5) * 3?"
WEATHER_Q = "What will the weather be in Beijing tomorrow?"
PROSE = "I think I remember the answer.\nThe answer is 42."
CORRECTION = parse_step(PROSE).error  # what the course's loop sends back for a reply with no fields
SEEDS = range(60)
TOLD = ("same_reply_to_correction", "copy_placeholders", "restate_rules")
TRACE_REASONS = {"answered", "step_limit", "repeated_call", "retries_exhausted"}
"""The stop reasons of lesson 05's guarded agent (tests/test_stop_reasons.py lists them all)."""


class Greedy:
    """A client that sends every request of an agent at temperature 0, and counts the calls."""

    def __init__(self, client: MockLLM) -> None:
        self.client, self.calls = client, 0
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: object) -> object:
        """The request at temperature 0."""
        self.calls += 1
        return self.client.chat.completions.create(temperature=0, **request)


def told(seed: int, system: str = SYSTEM, correction: str = CORRECTION,
         temperature: float | None = 0) -> object:
    """tiny's answer to `correction` of its prose reply, as the course's loop sends it (None: the
    request does not set a temperature)."""
    messages = [{"role": "system", "content": system},
                {"role": "user", "content": f"Question: {CALC_Q}"},
                {"role": "assistant", "content": PROSE}, {"role": "user", "content": correction}]
    options = {} if temperature is None else {"temperature": temperature}
    return MockLLM(persona="tiny", seed=seed).chat.completions.create(
        model="mock-react", messages=messages, **options)


def last_quirk(response: object) -> str | None:
    """The quirk that made the reply (the last one that fired: it replaces those before it)."""
    fired = response.x_mock["quirks_fired"]
    return fired[-1] if fired else None


def by_shape(**options: str) -> dict[str, list[object]]:
    """The responses over SEEDS, grouped by the told shape that made them."""
    groups: dict[str, list[object]] = {name: [] for name in TOLD}
    for seed in SEEDS:
        response = told(seed, **options)
        if last_quirk(response) in groups:
            groups[last_quirk(response)].append(response)
    return groups


def placeholder_lines(correction: str) -> list[str]:
    """The placeholder lines tiny copies from `correction` (imported here: new with these shapes)."""
    from mockllm.behaviour.tiny_told import placeholder_lines as lines

    return lines(correction)


def test_the_course_correction_is_the_one_the_shapes_answer() -> None:
    assert CORRECTION == format_error("no 'Action:' or 'Final Answer:' line found")
    assert "Action: <one tool name>" in CORRECTION


# ---------------------------------------------------------------- 1. the same reply, over and over

def test_told_once_it_sends_the_same_prose_again_on_most_seeds() -> None:
    same = by_shape()["same_reply_to_correction"]
    assert 0.65 <= len(same) / len(SEEDS) <= 0.95  # the rulebook's 8 in 10; the real model: 80%
    assert all(r.choices[0].message.content == PROSE for r in same)
    assert all(parse_step(r.choices[0].message.content).error == CORRECTION for r in same)


def test_in_the_course_loop_the_same_reply_comes_over_and_over() -> None:
    identical = pairs = distinct = 0
    for item in QUESTIONS:
        trace = run_agent(item["question"], Greedy(MockLLM(persona="tiny")), TOOLS, max_steps=6)
        replies = [step.raw_reply for step in trace.steps]
        identical += sum(a == b for a, b in zip(replies, replies[1:]))
        pairs += len(replies) - 1
        distinct += len(set(replies))
    # the real model at temperature 0: 78% of replies its previous one again, 2.1 distinct a run
    assert identical / pairs > 0.6 and distinct / len(QUESTIONS) < 2.6, (identical, pairs, distinct)


def test_a_prose_reply_stays_the_same_to_the_end_of_a_run() -> None:
    stuck = []
    for seed in range(12):
        trace = run_agent(CALC_Q, Greedy(MockLLM(persona="tiny", seed=seed)), TOOLS, max_steps=6)
        fired = [step.explanation["quirks_fired"][-1:] for step in trace.steps]
        if fired[1:] == [["same_reply_to_correction"]] * 5:
            stuck.append(trace)
    assert stuck
    for trace in stuck:
        assert len({step.raw_reply for step in trace.steps}) == 1
        assert len({step.error for step in trace.steps}) == 1 and trace.stop_reason == "step_limit"


# ---------------------------------------------------------------- 2. the placeholders copied

def test_it_copies_the_placeholders_of_the_course_correction() -> None:
    copied = by_shape()["copy_placeholders"]
    assert copied
    for response in copied:
        content = response.choices[0].message.content
        assert content.endswith("Thought: <your reasoning>\nAction: <one tool name>\n"
                                "Action Input: <a JSON object, for example "
                                '{"expression": "45 * 3 - 10"}>')
        step = parse_reply(content)  # lesson 05's parser takes the placeholder as the tool's name
        assert step.action == "<one tool name>" and step.error is None
        assert TOOLS.run(step.action, step.action_input).startswith("Error: unknown tool")


def test_it_copies_placeholders_written_inline_in_a_correction() -> None:
    inline = ("Error: could not parse your reply. Reply with `Action: <one tool name>` and "
              "`Action Input: <JSON>`.")
    assert placeholder_lines(inline) == ["Action: <one tool name>", "Action Input: <JSON>"]
    copied = by_shape(correction=inline)["copy_placeholders"]
    assert copied
    assert all(r.choices[0].message.content.endswith("Action: <one tool name>\nAction Input: <JSON>")
               for r in copied)


def test_a_correction_without_placeholders_is_not_copied() -> None:
    plain = ("Error: could not parse your reply. Reply with 'Thought:', 'Action:' and "
             "'Action Input:' lines.")
    assert placeholder_lines(plain) == []
    assert not by_shape(correction=plain)["copy_placeholders"]


# ---------------------------------------------------------------- 3. the rules restated

def test_it_restates_the_prompt_rules_as_prose() -> None:
    restated = by_shape()["restate_rules"]
    assert restated
    for response in restated:
        content = response.choices[0].message.content
        assert "You should " in content and parse_step(content).error is not None  # prose, no step
        assert not any(line.split(":")[0] in ("Thought", "Action", "Final Answer")
                       for line in content.splitlines())


def test_the_rules_it_restates_are_the_prompt_own() -> None:
    said = " ".join(r.choices[0].message.content for r in by_shape()["restate_rules"])
    assert "never write an observation yourself" in said
    system = build_system_prompt(TOOLS, without("no_observation"))
    fewer = " ".join(r.choices[0].message.content for r in by_shape(system=system)["restate_rules"])
    assert fewer and "never write an observation" not in fewer


# ---------------------------------------------------------------- at the API's default temperature

@pytest.mark.parametrize("temperature", [None, 0.7])
def test_above_temperature_0_none_of_them_fires(temperature: float | None) -> None:
    for seed in SEEDS:
        assert not set(told(seed, temperature=temperature).x_mock["quirks_fired"]) & set(TOLD)


# ---------------------------------------------------------------- 4. forced calls off the task

def forced(choice: object, question: str = WEATHER_Q, seed: int = 0, client: object = None) -> object:
    """tiny's reply in tool-call mode with `tool_choice=choice`."""
    client = client or MockLLM(persona="tiny", seed=seed)
    return client.chat.completions.create(
        model="mock-react", tools=TOOLS.schemas(), tool_choice=choice,
        messages=[{"role": "system", "content": structured_prompt()},
                  {"role": "user", "content": question}])


def calls_of(response: object) -> list[tuple[str, dict]]:
    """(name, arguments) of the reply's tool calls."""
    calls = response.choices[0].message.tool_calls or []
    return [(call.function.name, json.loads(call.function.arguments)) for call in calls]


@pytest.mark.parametrize("seed", range(8))
def test_tool_choice_required_gets_a_call_off_the_task_with_made_up_arguments(seed: int) -> None:
    response = forced("required", seed=seed)
    openai.types.chat.ChatCompletion.model_validate(response.model_dump())
    [(name, arguments)] = calls_of(response)
    assert name != "get_weather" and "Beijing" not in json.dumps(arguments)
    schema = next(s["function"]["parameters"] for s in TOOLS.schemas() if s["function"]["name"] == name)
    assert set(arguments) == set(schema.get("required", schema.get("properties", {})))
    assert last_quirk(response) == "off_task_call" and "adjusted" not in response.x_mock


@pytest.mark.parametrize("seed", range(8))
def test_a_named_function_is_called_with_made_up_arguments(seed: int) -> None:
    response = forced({"type": "function", "function": {"name": "get_weather"}}, seed=seed)
    [(name, arguments)] = calls_of(response)
    assert name == "get_weather" and "Beijing" not in json.dumps(arguments)  # not the question's
    assert arguments["date"] != "2025-03-15" and "adjusted" not in response.x_mock
    assert last_quirk(response) == "off_task_call"
    assert response.choices[0].finish_reason == "stop"  # as the API reports a named choice


def test_the_off_task_call_reaches_the_openai_sdk() -> None:
    response = forced("required", client=mockllm.openai_client("tiny", 0))
    assert isinstance(response, openai.types.chat.ChatCompletion)
    assert response.model_extra["x_mock"]["quirks_fired"][-1] == "off_task_call"
    assert calls_of(response) == calls_of(forced("required"))


def test_without_a_forced_choice_there_is_no_off_task_call() -> None:
    for choice in ("auto", "none"):
        assert all(last_quirk(forced(choice, seed=seed)) != "off_task_call" for seed in range(8))


# ---------------------------------------------------------------- the rulebook, determinism, bounds

def test_the_rulebook_names_each_shape_with_its_trigger() -> None:
    rows = {row["quirk"]: row for row in mockllm.rulebook() if row["persona"] == "tiny"}
    assert rows["same_reply_to_correction"]["trigger"].startswith("after a correction: 8 in 10 replies")
    assert rows["copy_placeholders"]["trigger"].startswith("after a correction: 1 in 10 replies")
    assert rows["restate_rules"]["trigger"].startswith("after a correction: 1 in 10 replies")
    assert rows["off_task_call"]["trigger"] == \
        "tool calls forced (tool_choice 'required' or a named function)"
    assert all("temperature 0" in rows[name]["what_you_see"] for name in TOLD)
    assert all(rows[name]["suppressed_by"] == "nothing" for name in (*TOLD, "off_task_call"))


def test_each_shape_gives_the_same_bytes_twice() -> None:
    for make in (lambda: [told(seed).model_dump_json() for seed in SEEDS],
                 lambda: [forced("required", seed=seed).model_dump_json() for seed in range(8)],
                 lambda: [str(run_agent(CALC_Q, Greedy(MockLLM(persona="tiny", seed=seed)), TOOLS,
                                        6).messages) for seed in range(6)]):
        assert make() == make()


@pytest.mark.parametrize("max_steps", [1, 6])
def test_the_guarded_agent_ends_within_its_bounds_on_tiny(max_steps: int) -> None:
    for item in QUESTIONS:
        model = Greedy(MockLLM(persona="tiny"))
        trace = guarded_agent(item["question"], model, TOOLS, max_steps, sleep=lambda s: None)
        assert model.calls <= max_steps and len(trace.steps) <= max_steps
        assert trace.stop_reason in TRACE_REASONS
        assert (trace.final_answer is None) == (trace.stop_reason != "answered")


def test_a_structured_agent_forced_to_call_ends_at_its_step_limit_on_tiny() -> None:
    trace = structured_agent(WEATHER_Q, MockLLM(persona="tiny"), TOOLS, 4, tool_choice="required")
    assert trace.stop_reason == "step_limit" and len(trace.steps) == 4
    assert all(step.action != "get_weather" or "Beijing" not in json.dumps(step.action_input)
               for step in trace.steps)


def test_reading_placeholders_takes_linear_time() -> None:
    for unit in ("Action: <" + "x" * 150, "action" + " " * 50, "Action:" + " " * 40 + "<"):
        small, large = (unit * (n // len(unit)) for n in (4_096, 65_536))
        assert best_seconds(lambda: placeholder_lines(large)) <= 32 * best_seconds(
            lambda: placeholder_lines(small)) + 0.010
