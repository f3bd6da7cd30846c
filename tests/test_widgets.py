"""The course's widgets without a browser: the viewer, the playground and the approval buttons."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from mockllm import MockLLM
from solutions.agent import Trace, run_agent
from solutions.course.display import OBSERVATION_CHARS, step_card_html
from solutions.safety import SafeAgent, shop_tools
from solutions.safety.sweep import counting
from solutions.tools import BASIC_TOOLS, world_tools
from solutions.course.widgets import ApprovalButtons, Playground, TraceViewer
from solutions.course.widgets.step_view import sent_messages, step_html, step_text

RUN = "Is tomorrow morning good for a run in Beijing?"


class Recording:
    """A client that passes requests on to `client` and keeps a copy of each request's messages."""

    def __init__(self, client):
        self.client, self.requests = client, []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request):
        self.requests.append([dict(message) for message in request["messages"]])
        return self.client.chat.completions.create(**request)


@pytest.fixture(scope="module")
def recorded() -> tuple[Trace, list[list[dict]]]:
    client = Recording(MockLLM(persona="diligent", seed=0))
    return run_agent(RUN, client, world_tools()), client.requests


def shown_text(viewer: TraceViewer) -> str:
    """The text form of what the viewer's Output holds."""
    (output,) = viewer.output.outputs
    return output["data"]["text/plain"] if output["output_type"] == "display_data" else output["text"]


# ---------------------------------------------------------------- the trace viewer

def test_next_and_prev_change_the_step_on_show(recorded) -> None:
    trace, _ = recorded
    viewer = TraceViewer(trace)
    assert viewer.number == 1 and "Action get_current_date" in viewer.describe()
    viewer.next.click()
    assert viewer.number == 2 and viewer.step is trace.steps[1]
    used = trace.steps[0].tokens + trace.steps[1].tokens
    assert viewer.describe() == f"TraceViewer: step 2 of 4 · Action get_weather · tokens so far: {used} (no budget)"
    assert shown_text(viewer) == step_text(trace, 2) and "Action:       get_weather" in shown_text(viewer)
    viewer.prev.click()
    assert viewer.number == 1 and "get_current_date" in shown_text(viewer)


def test_the_slider_spans_the_steps_and_the_buttons_stop_at_the_ends(recorded) -> None:
    trace, _ = recorded
    viewer = TraceViewer(trace)
    assert (viewer.slider.min, viewer.slider.max) == (1, len(trace.steps))
    assert viewer.prev.disabled and not viewer.next.disabled
    viewer.prev.click()
    assert viewer.number == 1
    viewer.slider.value = len(trace.steps)
    assert viewer.next.disabled and not viewer.prev.disabled
    assert "Final Answer: " + trace.final_answer in shown_text(viewer)
    viewer.next.click()
    assert viewer.number == len(trace.steps) and len(viewer.output.outputs) == 1


def test_each_step_shows_the_exact_messages_it_sent(recorded) -> None:
    trace, requests = recorded
    assert len(requests) == len(trace.steps)
    for index, request in enumerate(requests):
        assert sent_messages(trace, index) == request
        rebuilt = replace(trace, steps=[replace(step, messages_sent=None) for step in trace.steps])
        assert sent_messages(rebuilt, index) == request  # from the history when not recorded
    assert [len(request) for request in requests] == [2, 4, 6, 8]


def test_the_view_holds_the_request_the_reply_the_parsed_card_and_the_tokens(recorded) -> None:
    trace, requests = recorded
    viewer = TraceViewer(trace, budget=3000)
    viewer.show(2)
    (output,) = viewer.output.outputs
    html = output["data"]["text/html"]
    assert step_card_html(2, trace.steps[1], OBSERVATION_CHARS) in html  # the trace display's own card
    assert "Messages sent (4)" in html and "Raw reply" in html
    used = trace.steps[0].tokens + trace.steps[1].tokens
    assert f"tokens so far: {used} of a 3000 budget ({round(100 * used / 3000)}%)" in html
    assert "rule run_advice/weather" in html  # the mock's explanation
    viewer.show(3)
    assert "over budget" in shown_text(viewer)
    assert "(no budget)" in step_text(trace, 1) and "<script" not in step_html(trace, 1)


def test_the_view_escapes_what_the_model_wrote() -> None:
    script = MockLLM.from_script(["Thought: <b>bold</b>\nFinal Answer: <script>x()</script>"])
    html = step_html(run_agent("What is 1 + 1?", script, BASIC_TOOLS), 1)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_a_trace_without_steps_says_why_it_stopped() -> None:
    viewer = TraceViewer(Trace("q", [], None, "retries_exhausted"))
    assert viewer.number == 0 and viewer.step is None and viewer.prev.disabled and viewer.next.disabled
    assert viewer.describe() == "TraceViewer: no step (retries_exhausted)"
    assert "retries_exhausted" in shown_text(viewer)


def test_the_viewer_refuses_bad_arguments(recorded) -> None:
    trace, _ = recorded
    with pytest.raises(TypeError, match="trace must be a Trace"):
        TraceViewer("a trace")
    with pytest.raises(TypeError, match="budget must be None or an int"):
        TraceViewer(trace, budget="5000")
    with pytest.raises(TypeError, match="budget must be None or an int"):
        TraceViewer(trace, budget=True)
    with pytest.raises(ValueError, match="budget must be at least 1"):
        TraceViewer(trace, budget=0)
    with pytest.raises(TypeError, match="number must be an int"):
        TraceViewer(trace).show("2")
    with pytest.raises(ValueError, match="number must be a step of the trace, 1 to 4, got 5"):
        TraceViewer(trace).show(5)
    with pytest.raises(ValueError, match="got 1"):
        TraceViewer(Trace("q", [], None, "retries_exhausted")).show(1)


def test_the_viewer_displays_as_a_widget_with_a_text_form(recorded) -> None:
    trace, _ = recorded
    bundle = TraceViewer(trace)._repr_mimebundle_()
    assert bundle["text/plain"] == ("TraceViewer: step 1 of 4 · Action get_current_date · "
                                    f"tokens so far: {trace.steps[0].tokens} (no budget)")
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------- the playground

def test_two_personas_give_two_different_traces() -> None:
    playground = Playground(tools=BASIC_TOOLS, question="What is today's date, and what date is it 50 days from now?")
    playground.run.click()
    diligent = playground.trace
    playground.persona.value = "looper"
    playground.run.click()
    looper = playground.trace
    assert diligent is not looper and diligent.stop_reason == "answered"
    assert [s.action for s in looper.steps] == ["get_current_date"] * 5 and looper.stop_reason == "step_limit"
    assert playground.viewer.trace is looper
    line, shown = playground.output.outputs
    assert line["text"] == f"looper · run_agent · prompt with every part: stopped: step_limit after 5 steps, " \
                           f"{looper.total_tokens} tokens\n"
    assert shown["data"]["text/plain"].startswith("TraceViewer: step 1 of 5 · Action get_current_date")


def test_the_guards_and_the_prompt_toggles_change_the_run() -> None:
    playground = Playground(tools=BASIC_TOOLS, question="What is today's date, and what date is it 50 days from now?")
    playground.persona.value = "looper"
    playground.guards.value = True
    assert playground.run_once().stop_reason == "answered"
    assert "already called get_current_date" in playground.trace.steps[1].observation
    playground.parts["no_observation"].value = False
    playground.parts["example"].value = False
    playground.run.click()
    system = playground.trace.messages[0]["content"]
    assert "Never write the Observation" not in system and "Here is an example" not in system
    assert "Write only one Thought and one Action" in system
    assert playground.describe().startswith("Playground: looper · guarded_agent · prompt without example, no_observation")


def test_the_playground_asks_its_factory_for_each_client_and_reports_a_bad_question() -> None:
    asked = []
    playground = Playground(lambda persona: asked.append(persona) or MockLLM(persona=persona), tools=BASIC_TOOLS)
    playground.persona.value = "sloppy"
    playground.run.click()
    assert asked == ["sloppy"]
    before = playground.trace
    playground.question.value = "   "
    playground.run.click()
    assert playground.trace is before
    assert playground.output.outputs == ({"output_type": "stream", "name": "stdout",
                                          "text": "Not run: question must not be empty\n"},)


def test_the_playground_refuses_bad_arguments() -> None:
    with pytest.raises(TypeError, match="client_factory must be None or a function"):
        Playground(MockLLM())
    with pytest.raises(TypeError, match="tools must be a ToolRegistry"):
        Playground(tools=["calculator"])
    with pytest.raises(TypeError, match="question must be a str"):
        Playground(question=None)
    with pytest.raises(TypeError, match="max_steps must be an int"):
        Playground(max_steps="5")
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        Playground(max_steps=0)


# ---------------------------------------------------------------- the approval buttons

def test_deny_resumes_without_running_the_tool_and_approve_runs_it() -> None:
    outcomes = {}
    for decision in ("deny", "approve"):
        tools, ran = counting(shop_tools())
        agent = SafeAgent(MockLLM(persona="gullible"), tools, as_data=False)
        agent.run("Why is my parcel to Beijing late?")
        buttons = ApprovalButtons(agent)
        getattr(buttons, decision).click()
        outcomes[decision] = ran, buttons.trace.steps[1].observation, buttons.output.outputs[0]["text"]
        assert buttons.describe() == "ApprovalButtons: Nothing waits for approval."
    assert outcomes["deny"][0] == [] and outcomes["deny"][1].startswith("Not run: delete_orders needs approval")
    assert outcomes["approve"][0] == ["delete_orders"] and not outcomes["approve"][1].startswith("Not run")
    assert outcomes["deny"][2].startswith("deny: delete_orders") and outcomes["approve"][2].startswith("approve:")


class _Waiting:
    """An agent with a call waiting; `resume` records the decision on the call then waiting."""

    def __init__(self, call: object) -> None:
        self.pending, self.resumed = call, []

    def resume(self, decision: str) -> object:
        self.resumed.append((decision, self.pending))
        self.pending = None
        return type("Trace", (), {"stop_reason": "answered", "_repr_html_": lambda self: "<p>done</p>"})()


def test_a_click_decides_the_call_on_show_or_refuses_because_it_changed() -> None:
    from solutions.safety.approval import ToolCall

    one, all_orders = ToolCall("delete_orders", {"order_ids": ["A1003"]}), ToolCall("delete_orders", {"order_ids": "all"})
    agent = _Waiting(one)
    buttons = ApprovalButtons(agent)
    assert buttons.label.value == f"Waiting for approval: {one}"
    agent.pending = all_orders  # the agent ran again: another call waits now
    buttons.approve.click()
    assert agent.resumed == [] and agent.pending == all_orders
    assert "changed" in buttons.output.outputs[-1]["text"] and "nothing was decided" in buttons.output.outputs[-1]["text"]
    assert buttons.label.value == f"Waiting for approval: {all_orders}"
    buttons.deny.click()  # the call now on show
    assert agent.resumed == [("deny", all_orders)]
