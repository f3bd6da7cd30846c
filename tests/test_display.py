"""Tests for the trace display (solutions.course.display) used by Trace in lesson 04."""
from __future__ import annotations

import copy
import re

from IPython.lib.pretty import pretty

from solutions.agent import Trace, TraceStep
from solutions.course.display import explanation_line, shorten, trace_html, trace_text

EXPLANATION = {"source": "policy", "persona": "diligent", "seed": 0, "step": 1,
               "family": "date", "rule": "date/need_date", "quirks_fired": [],
               "quirks_suppressed": [], "stop_applied": None, "truncated": False}


def make_trace(observation: str = "2025-03-14", **step_changes: object) -> Trace:
    """A small answered trace: one tool call, then a final answer."""
    call = TraceStep(thought="I need today's date.", action="get_current_date",
                     action_input={}, observation=observation,
                     raw_reply="Thought: I need today's date.\nAction: get_current_date\n"
                               "Action Input: {}",
                     tokens=120, explanation=dict(EXPLANATION))
    for name, value in step_changes.items():
        setattr(call, name, value)
    answer = TraceStep(thought="I now know the final answer.", final_answer="2025-03-14",
                       raw_reply="Thought: I now know the final answer.\nFinal Answer: 2025-03-14",
                       tokens=140, explanation={**EXPLANATION, "step": 2, "rule": "date/answer"})
    return Trace("What is today's date?", [call, answer], "2025-03-14", "answered", [])


def test_text_form_is_stable() -> None:
    assert trace_text(make_trace()) == (
        "Question: What is today's date?\n"
        "\n"
        "Step 1 (120 tokens)\n"
        "  Thought:      I need today's date.\n"
        "  Action:       get_current_date\n"
        "  Action Input: {}\n"
        "  Observation:  2025-03-14\n"
        "  (mock: persona diligent · rule date/need_date · quirks none)\n"
        "\n"
        "Step 2 (140 tokens)\n"
        "  Thought:      I now know the final answer.\n"
        "  (mock: persona diligent · rule date/answer · quirks none)\n"
        "\n"
        "Final Answer: 2025-03-14\n"
        "Stopped: answered · 2 steps · 260 tokens"
    )


def test_str_and_pretty_use_the_text_form() -> None:
    trace = make_trace()
    assert str(trace) == trace_text(trace)
    assert pretty(trace) == trace_text(trace)
    assert trace._repr_html_() == trace_html(trace)


def test_multiline_text_is_indented() -> None:
    text = trace_text(make_trace(observation="line one\nline two"))
    assert "  Observation:  line one\n                line two\n" in text


def test_html_escapes_everything() -> None:
    evil = "<script>alert('x')</script>"
    trace = make_trace(observation=evil, thought=f"<b>{evil}</b>",
                       action_input={"q": evil}, action="<img src=x onerror=1>")
    trace.question = f"Q {evil} & more"
    trace.final_answer = evil
    html = trace_html(trace)
    assert "<script" not in html and "<img" not in html
    assert "&lt;b&gt;&lt;script&gt;" in html and "&amp; more" in html
    assert "&lt;img src=x onerror=1&gt;" in html


def test_html_escapes_long_observation_in_details() -> None:
    html = trace_html(make_trace(observation="<script>" + "x" * 400))
    assert "<details>" in html and "<script" not in html


def test_long_observation_is_cut_with_full_text_in_details() -> None:
    observation = "A" * 290 + "B" * 20 + "TAIL"
    html = trace_html(make_trace(observation=observation))
    details = re.search(r"<details>(.*?)</details>", html, re.S)
    assert details is not None
    assert observation in details.group(1)
    assert "314 characters" in details.group(1)
    before = html[:details.start()]
    assert "A" * 290 + "B" * 10 + "…" in before and "TAIL" not in before


def test_short_observation_has_no_details() -> None:
    html = trace_html(make_trace(observation="2025-03-14"))
    assert "<details>" not in html and "…" not in html
    assert len(shorten("x" * 300)) == 300 and shorten("x" * 301) == "x" * 300 + "…"
    assert shorten("x" * 500, None) == "x" * 500


def test_text_form_cuts_long_observations() -> None:
    trace = make_trace(observation="A" * 400 + "TAIL")
    assert "TAIL" not in trace_text(trace) and "A" * 300 + "…" in trace_text(trace)
    assert "TAIL" in trace_text(trace, max_chars=None)


def test_output_is_deterministic() -> None:
    trace = make_trace()
    assert trace_html(trace) == trace_html(copy.deepcopy(trace)) == trace_html(make_trace())
    assert trace_text(trace) == trace_text(copy.deepcopy(trace))
    for output in (trace_html(trace), trace_text(trace)):
        assert not re.search(r"0x[0-9a-f]{6,}", output)
        assert " id=" not in output


def test_html_shows_every_field() -> None:
    html = trace_html(make_trace(action="calculator", action_input={"expression": "1 + 2"},
                                 observation="3"))
    for expected in ("Step 1", "Step 2", "I need today&#x27;s date.", "calculator",
                     "{&quot;expression&quot;: &quot;1 + 2&quot;}", "120 tokens",
                     "140 tokens", "Final Answer"):
        assert expected in html


def test_explanation_line() -> None:
    fired = {**EXPLANATION, "quirks_fired": ["fullwidth_colon", "chatter"],
             "stop_applied": "Observation:", "truncated": True}
    line = explanation_line(fired)
    assert line.startswith("mock: ")
    assert "persona diligent" in line and "rule date/need_date" in line
    assert "fullwidth_colon, chatter" in line
    assert "'Observation:'" in line and "max_tokens" in line
    assert "scripted reply" in explanation_line({"source": "script", "quirks_fired": []})
    assert explanation_line({}) == ""


def test_explanation_is_muted_and_optional() -> None:
    html = trace_html(make_trace())
    assert re.search(r'opacity: 0\.65[^"]*">mock: persona diligent', html)
    bare = make_trace(explanation={})
    bare.steps[1].explanation = {}
    assert "mock:" not in trace_text(bare) and "mock:" not in trace_html(bare)


def test_stop_reason_and_totals_are_shown() -> None:
    trace = make_trace()
    for output in (trace_text(trace), trace_html(trace)):
        assert "answered" in output and "2 steps" in output and "260 tokens" in output
    limited = Trace("q", [trace.steps[0]], None, "step_limit", [])
    ending = "Final Answer: (none)\nStopped: step_limit · 1 step · 120 tokens"
    assert trace_text(limited).endswith(ending)
    assert "step_limit" in trace_html(limited) and "<i>none</i>" in trace_html(limited)


def test_format_error_step_shows_reply_and_error() -> None:
    error = "Could not parse your reply: use the format."
    step = TraceStep(raw_reply="Sure! <maybe>", error=error, tokens=30)
    trace = Trace("q", [step], None, "step_limit", [])
    text = trace_text(trace)
    assert "  Reply:        Sure! <maybe>\n" in text
    assert "  Format error: Could not parse your reply: use the format.\n" in text
    html = trace_html(trace)
    assert "Sure! &lt;maybe&gt;" in html and "Format error" in html
    assert "rgba(219,68,55" in html  # the error card stands out
