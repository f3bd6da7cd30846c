"""Lesson 07's context pieces: truncated observations, summarised history, cut replies."""
from __future__ import annotations

import copy

import pytest

from mockllm import MockLLM
from solutions.agent import run_agent, run_step
from solutions.context import (CUT_REPLY, SUMMARY_HEADER, cut_reply, summarise_history,
                               truncate_observation, truncating_tools)
from solutions.parsing import format_error
from solutions.prompt import build_system_prompt
from solutions.tools import BASIC_TOOLS, Tool, ToolRegistry, world_tools

ARITHMETIC = "What is (17 + 5) * 3?"
ADVICE = "Is tomorrow morning free for a run? Check the weather and my calendar."


# ---------------------------------------------------------------- truncate_observation

@pytest.mark.parametrize("text, limit", [("", 0), ("2025-03-14", 500), ("x" * 500, 500)])
def test_a_text_within_the_limit_comes_back_unchanged(text: str, limit: int) -> None:
    assert truncate_observation(text, limit) == text


def test_a_long_text_keeps_its_start_and_says_how_much_was_cut() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(1734))
    cut = truncate_observation(text)
    assert cut == text[:500] + "\n... [truncated 1,234 of 1,734 characters]"


def test_characters_are_counted_not_bytes() -> None:
    assert truncate_observation("天气" * 300, 500).endswith("[truncated 100 of 600 characters]")


@pytest.mark.parametrize("limit, error", [(-1, ValueError), (2.5, TypeError), (True, TypeError),
                                          ("500", TypeError)])
def test_a_bad_limit_is_refused_naming_it(limit: object, error: type) -> None:
    with pytest.raises(error, match="limit"):
        truncate_observation("text", limit)  # type: ignore[arg-type]


def test_text_that_is_not_a_str_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="text must be a str"):
        truncate_observation(b"bytes")  # type: ignore[arg-type]


# ---------------------------------------------------------------- truncating_tools

def test_truncating_tools_cut_every_long_result_and_keep_the_rest_of_each_tool() -> None:
    tools, cut = world_tools(), truncating_tools(world_tools(), 200)
    assert [(t.name, t.description, t.parameters) for t in cut] == \
        [(t.name, t.description, t.parameters) for t in tools]
    listing = {"start_date": "2024-10-01", "end_date": "2024-12-31"}
    full = tools.run("query_orders", listing)
    assert cut.run("query_orders", listing) == truncate_observation(full, 200)
    assert cut.run("get_current_date", {}) == tools.run("get_current_date", {})


def test_truncating_tools_leave_errors_and_non_text_results_readable() -> None:
    numbers = ToolRegistry([Tool("big", "returns a big number. Example: {}",
                                 {"type": "object", "properties": {}}, lambda: 7 ** 40)])
    cut = truncating_tools(numbers, 10)
    assert cut.run("big", {}) == truncate_observation(str(7 ** 40), 10)
    assert cut.run("nope", {}).startswith("Error: unknown tool 'nope'")


@pytest.mark.parametrize("tools, limit, error", [([], 10, TypeError), (BASIC_TOOLS, -5, ValueError)])
def test_truncating_tools_refuse_bad_arguments_at_once(tools: object, limit: int, error: type) -> None:
    with pytest.raises(error):
        truncating_tools(tools, limit)  # type: ignore[arg-type]


# ---------------------------------------------------------------- cut replies

def test_cut_reply_is_a_format_error_that_keeps_the_raw_reply() -> None:
    step = cut_reply('Action: calculator\nAction Input: {"expression": "(17 + 5)')
    assert step.kind == "error" and step.error == CUT_REPLY and step.action is None
    assert step.raw.endswith('"(17 + 5)')
    assert CUT_REPLY.startswith("Error: could not parse your reply: it was cut off")
    assert CUT_REPLY.endswith(format_error("x").split("x", 1)[1])  # lesson 03's format help


def _first_step(max_tokens: int, **hook: object):
    """The first step of the arithmetic question under `max_tokens`, and the messages after it."""
    messages = [{"role": "system", "content": build_system_prompt(BASIC_TOOLS)},
                {"role": "user", "content": f"Question: {ARITHMETIC}"}]
    step = run_step(MockLLM(persona="diligent", seed=0), messages, BASIC_TOOLS,
                    max_tokens=max_tokens, **hook)
    return step, messages


def test_without_the_hook_a_cut_reply_is_parsed_as_if_whole() -> None:
    step, _ = _first_step(47)
    assert step.action_input == {"expression": "(17 + 5)"} and step.observation == "22"


def test_with_the_hook_a_cut_reply_runs_nothing_and_is_sent_back() -> None:
    step, messages = _first_step(47, cut_reply=cut_reply)
    assert step.error == CUT_REPLY and step.observation is None and step.action is None
    assert messages[-2]["role"] == "assistant" and messages[-2]["content"] == step.raw_reply
    assert messages[-1] == {"role": "user", "content": CUT_REPLY}


def test_the_hook_leaves_whole_replies_to_parse() -> None:
    step, _ = _first_step(512, cut_reply=cut_reply)
    assert step.action == "calculator" and step.observation == "66"


# ---------------------------------------------------------------- summarise_history

def _history(question: str, tools: ToolRegistry, **options: object) -> list[dict]:
    """The messages of a whole diligent run of `question`."""
    return run_agent(question, MockLLM(persona="diligent", seed=0), tools, max_steps=8,
                     **options).messages


def test_a_short_history_is_sent_as_it_is() -> None:
    messages = _history(ARITHMETIC, BASIC_TOOLS)  # two replies
    assert summarise_history(messages, keep_last=2) == messages
    assert summarise_history(messages, keep_last=2) is not messages


def test_old_steps_become_action_lines_in_the_question_and_the_last_steps_stay() -> None:
    messages = _history(ADVICE, world_tools())    # date, weather, calendar, answer
    before = copy.deepcopy(messages)
    view = summarise_history(messages, keep_last=1)
    assert messages == before                     # the history itself is not changed
    assert view[0] == messages[0] and view[2:] == messages[-1:]
    summary = view[1]["content"]
    assert summary.startswith(messages[1]["content"] + "\n\n" + SUMMARY_HEADER + "\n")
    assert summary.count("Action: ") == 3 and "Thought" not in summary
    assert "Action: get_current_date\nAction Input: {}\nObservation: 2025-03-14" in summary


def test_a_long_observation_is_summarised_by_its_first_line() -> None:
    messages = _history("How many orders were placed from 2024-10-01 to 2024-12-31?", world_tools())
    summary = summarise_history(messages, keep_last=0)[1]["content"]
    assert "Observation: 122 orders from 2024-10-01 to 2024-12-31 (total 33771.92 CNY):\n" \
           "... [truncated 5,680 of 5,742 characters]" in summary
    assert len(summarise_history(messages, keep_last=0)) == 2


def test_format_errors_and_cut_replies_are_left_out_of_the_summary() -> None:
    script = MockLLM.from_script(["I think it is 66.", "Thought: compute.\nAction: calculator\n"
                                  'Action Input: {"expression": "(17 + 5) * 3"}',
                                  "Thought: done.\nFinal Answer: 66"])
    messages = run_agent(ARITHMETIC, script, BASIC_TOOLS).messages
    summary = summarise_history(messages, keep_last=0)[1]["content"]
    assert summary.count("Action: ") == 1 and "I think" not in summary and "66" in summary


def test_the_mock_reads_the_summary_as_its_own_earlier_steps() -> None:
    """Summarised after the first call, the run makes the same calls and gives the same answer."""
    from solutions.budget import budgeted_agent

    full = run_agent(ADVICE, MockLLM(persona="diligent", seed=0), world_tools())
    short = budgeted_agent(ADVICE, MockLLM(persona="diligent", seed=0), world_tools(),
                           summarise_after=1, keep_last=1, max_observation_chars=None)
    assert [s.action for s in short.steps] == [s.action for s in full.steps]
    assert short.final_answer == full.final_answer and short.total_tokens < full.total_tokens


@pytest.mark.parametrize("keep_last", [-1, 1.5, None, True])
def test_a_bad_keep_last_is_refused(keep_last: object) -> None:
    with pytest.raises(ValueError, match="keep_last"):
        summarise_history([], keep_last)  # type: ignore[arg-type]


def test_messages_that_are_not_dicts_are_refused() -> None:
    with pytest.raises(TypeError, match="list of dicts"):
        summarise_history(["Question: ?", "Final Answer: 1"], keep_last=0)  # type: ignore[list-item]


def test_a_history_without_a_question_before_the_first_reply_is_refused() -> None:
    messages = [{"role": "assistant", "content": "Action: get_current_date\nAction Input: {}"},
                {"role": "user", "content": "Observation: 2025-03-14"},
                {"role": "assistant", "content": "Final Answer: 2025-03-14"}]
    with pytest.raises(ValueError, match="question"):
        summarise_history(messages, keep_last=1)
