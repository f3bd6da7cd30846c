"""Bad requests and bad client options fail like a real API's 400: ValueError/TypeError naming the field."""
from __future__ import annotations

import copy
import sys
import types

import pytest

from mockllm import MockLLM

USER = {"role": "user", "content": "Question: what day is it?"}
CALL = {"id": "call_1", "type": "function", "function": {"name": "get_current_date", "arguments": "{}"}}
ASSISTANT_CALL = {"role": "assistant", "content": None, "tool_calls": [CALL]}
TOOL = {"type": "function", "function": {"name": "get_current_date", "description": "Today's date."}}


def _create(**overrides: object) -> object:
    """Send one request to a scripted client, with `overrides` replacing the valid defaults."""
    request = {"model": "mock-react", "messages": [USER], **overrides}
    return MockLLM.from_script(["ok"]).chat.completions.create(**request)


REQUEST_CASES = [
    # (id, overrides, exception, text the message must contain (regex))
    ("messages-str", {"messages": "hi"}, TypeError, r"'messages'.*list of messages"),
    ("messages-dict", {"messages": USER}, TypeError, r"'messages'"),
    ("messages-empty", {"messages": []}, ValueError, r"'messages'.*at least one"),
    ("message-str", {"messages": ["hi"]}, TypeError, r"'messages\[0\]'.*dict"),
    ("message-no-role", {"messages": [{"content": "hi"}]}, ValueError, r"messages\[0\]\.role.*user"),
    ("message-bad-role", {"messages": [{"role": "bot", "content": "hi"}]}, ValueError,
     r"messages\[0\]\.role.*'bot'.*system, developer, user, assistant, tool"),
    ("message-role-int", {"messages": [{"role": 3, "content": "hi"}]}, TypeError, r"messages\[0\]\.role"),
    ("message-role-list", {"messages": [{"role": ["user"], "content": "hi"}]}, TypeError,
     r"'messages\[0\]\.role'.*a str, one of system"),
    ("message-role-list-with-more", {"messages": [{"role": ["user"], "content": "hi", "name": "x"}]},
     TypeError, r"'messages\[0\]\.role'"),
    ("message-no-content", {"messages": [{"role": "user"}]}, ValueError, r"messages\[0\]\.content"),
    ("user-content-none", {"messages": [{"role": "user", "content": None}]}, ValueError,
     r"messages\[0\]\.content.*tool_calls"),
    ("assistant-content-none", {"messages": [USER, {"role": "assistant", "content": None}]}, ValueError,
     r"messages\[1\]\.content"),
    ("content-int", {"messages": [{"role": "user", "content": 42}]}, TypeError,
     r"messages\[0\]\.content.*str or a list"),
    ("content-image-part", {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]},
     ValueError, r"messages\[0\]\.content\[0\].*text parts"),
    ("tool-no-id", {"messages": [USER, ASSISTANT_CALL, {"role": "tool", "content": "2025-03-14"}]},
     ValueError, r"messages\[2\]\.tool_call_id"),
    ("tool-wrong-id", {"messages": [USER, ASSISTANT_CALL, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]},
     ValueError, r"messages\[2\].*'call_9'.*call_1"),
    ("tool-call-unanswered", {"messages": [USER, ASSISTANT_CALL, USER]}, ValueError,
     r"messages\[2\].*call_1.*no 'tool' message"),
    ("tool-call-last-unanswered", {"messages": [USER, ASSISTANT_CALL]}, ValueError, r"call_1.*no 'tool' message"),
    ("tool-call-args-dict", {"messages": [USER, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}]}]}, TypeError,
     r"messages\[1\]\.tool_calls\[0\]\.function\.arguments.*json\.dumps"),
    ("tool-calls-not-list", {"messages": [USER, {"role": "assistant", "content": "", "tool_calls": "f()"}]},
     TypeError, r"messages\[1\]\.tool_calls"),
    ("name-int", {"messages": [{"role": "user", "content": "hi", "name": 7}]}, TypeError, r"messages\[0\]\.name"),
    ("stop-five", {"stop": ["a", "b", "c", "d", "e"]}, ValueError, r"'stop'.*at most 4"),
    ("stop-item-int", {"stop": ["Observation:", 1]}, TypeError, r"'stop\[1\]'"),
    ("stop-item-empty", {"stop": [""]}, ValueError, r"'stop\[0\]'.*non-empty"),
    ("stop-empty-str", {"stop": ""}, ValueError, r"'stop'"),
    ("stop-int", {"stop": 5}, TypeError, r"'stop'.*up to 4"),
    ("max-tokens-zero", {"max_tokens": 0}, ValueError, r"'max_tokens'.*positive"),
    ("max-tokens-negative", {"max_tokens": -5}, ValueError, r"'max_tokens'"),
    ("max-tokens-str", {"max_tokens": "10"}, TypeError, r"'max_tokens'.*positive int"),
    ("max-tokens-float", {"max_tokens": 1.5}, TypeError, r"'max_tokens'"),
    ("max-tokens-bool", {"max_tokens": True}, TypeError, r"'max_tokens'"),
    ("max-completion-tokens-conflict", {"max_tokens": 5, "max_completion_tokens": 6}, ValueError,
     r"max_tokens or max_completion_tokens"),
    ("temperature-low", {"temperature": -0.1}, ValueError, r"'temperature'.*0 to 2"),
    ("temperature-high", {"temperature": 2.5}, ValueError, r"'temperature'.*0 to 2"),
    ("temperature-nan", {"temperature": float("nan")}, ValueError, r"'temperature'"),
    ("temperature-str", {"temperature": "hot"}, TypeError, r"'temperature'"),
    ("tools-dict", {"tools": TOOL}, TypeError, r"'tools'.*non-empty list"),
    ("tools-empty", {"tools": []}, ValueError, r"'tools'.*None"),
    ("tools-no-function", {"tools": [{"type": "function", "name": "f"}]}, ValueError, r"'tools\[0\]'"),
    ("tools-bad-type", {"tools": [{"type": "retrieval", "function": {"name": "f"}}]}, ValueError, r"'tools\[0\]'"),
    ("tools-bad-name", {"tools": [{"type": "function", "function": {"name": "get weather"}}]}, ValueError,
     r"'tools\[0\]\.function\.name'.*letters, digits"),
    ("tools-parameters-list", {"tools": [{"type": "function", "function": {"name": "f", "parameters": []}}]},
     TypeError, r"tools\[0\]\.function\.parameters"),
    ("tool-choice-unknown", {"tools": [TOOL], "tool_choice": "always"}, ValueError, r"'tool_choice'.*'auto'"),
    ("tool-choice-without-tools", {"tool_choice": "auto"}, ValueError, r"'tool_choice'.*tools= is given"),
    ("tool-choice-unknown-function", {"tools": [TOOL], "tool_choice": {"type": "function", "function": {"name": "x"}}},
     ValueError, r"'tool_choice'.*get_current_date"),
    ("n-two", {"n": 2}, ValueError, r"'n'.*exactly one"),
    ("n-str", {"n": "1"}, TypeError, r"'n'"),
    ("stream-str", {"stream": "yes"}, TypeError, r"'stream'"),
    ("model-empty", {"model": ""}, TypeError, r"'model'"),
    ("unknown-keyword", {"max_token": 5}, TypeError, r"'max_token'.*did you mean 'max_tokens'"),
]


@pytest.mark.parametrize(("overrides", "error", "pattern"), [case[1:] for case in REQUEST_CASES],
                         ids=[case[0] for case in REQUEST_CASES])
def test_bad_request_names_the_field(overrides: dict, error: type, pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        _create(**overrides)


@pytest.fixture
def fake_personas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand in for `mockllm.behaviour.personas` so option checks are tested on their own."""
    module = types.ModuleType("mockllm.behaviour.personas")
    module.personas = lambda: {"diligent": "follows the rules", "tiny": "a small model"}
    module.PERSONAS = {"diligent": None, "tiny": None}
    module.rulebook = lambda: "the rulebook"
    module.QUIRKS = {"full_width_punctuation": None, "fabricate_observation": None}
    monkeypatch.setitem(sys.modules, "mockllm.behaviour.personas", module)


OPTION_CASES = [
    ("persona-unknown", {"persona": "genius"}, ValueError, r"'persona'.*'genius'.*diligent, tiny"),
    ("persona-int", {"persona": 3}, TypeError, r"'persona'.*diligent, tiny"),
    ("seed-str", {"seed": "0"}, TypeError, r"'seed'.*int"),
    ("quirks-list", {"quirks": ["fabricate_observation"]}, TypeError, r"'quirks'.*dict"),
    ("quirk-unknown", {"quirks": {"telepathy": [1]}}, ValueError,
     r"'quirks'.*'telepathy'.*full_width_punctuation, fabricate_observation"),
    ("quirk-steps-str", {"quirks": {"fabricate_observation": "1"}}, TypeError, r"quirks\['fabricate_observation'\]"),
    ("quirk-step-zero", {"quirks": {"fabricate_observation": [0]}}, TypeError, r"ints from 1"),
    ("failure-kind", {"failures": {3: "explode"}}, ValueError, r"'failures\[3\]'.*rate_limit, timeout"),
    ("failure-call-zero", {"failures": {0: "timeout"}}, ValueError, r"'failures'.*call number"),
    ("failure-call-str", {"failures": {"3": "timeout"}}, ValueError, r"'failures'"),
    ("failures-list", {"failures": [3]}, TypeError, r"'failures'"),
]


@pytest.mark.usefixtures("fake_personas")
@pytest.mark.parametrize(("options", "error", "pattern"), [case[1:] for case in OPTION_CASES],
                         ids=[case[0] for case in OPTION_CASES])
def test_bad_client_option_names_the_field(options: dict, error: type, pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        MockLLM(**options)


@pytest.mark.usefixtures("fake_personas")
def test_good_client_options_are_kept() -> None:
    client = MockLLM(persona="tiny", seed=7, quirks={"fabricate_observation": [2, 3]}, failures={1: "timeout"})
    assert (client.persona, client.seed, client.quirks, client.failures, client.calls) == (
        "tiny", 7, {"fabricate_observation": (2, 3)}, {1: "timeout"}, 0)


def test_bad_failures_in_scripted_mode() -> None:
    with pytest.raises(ValueError, match=r"failures\[1\].*rate_limit"):
        MockLLM.from_script(["ok"], failures={1: "ratelimit"})


def test_valid_variants_are_accepted() -> None:
    answered = [USER, ASSISTANT_CALL, {"role": "tool", "tool_call_id": "call_1", "content": "2025-03-14"}]
    parts = [{"role": "developer", "content": [{"type": "text", "text": "Be brief."}]}, USER]
    for overrides in [
        {"messages": answered}, {"messages": parts}, {"messages": tuple(parts)}, {"stop": "Observation:"},
        {"stop": ["a", "b", "c", "d"]}, {"stop": []}, {"temperature": 0}, {"temperature": 2}, {"max_tokens": 1},
        {"tools": [TOOL], "tool_choice": "required"}, {"n": 1, "top_p": 0.5, "seed": 3, "user": "me"},
        {"tools": [TOOL], "tool_choice": {"type": "function", "function": {"name": "get_current_date"}}},
        {"max_completion_tokens": 5},
    ]:
        assert _create(**overrides).choices[0].message.role == "assistant"


def test_validation_does_not_change_the_callers_messages() -> None:
    messages = [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]
    before = copy.deepcopy(messages)
    _create(messages=messages)
    assert messages == before


def test_a_rejected_request_is_not_counted() -> None:
    client = MockLLM.from_script(["first"])
    with pytest.raises(ValueError):
        client.chat.completions.create(model="m", messages=[])
    assert client.calls == 0
    assert client.chat.completions.create(model="m", messages=[USER]).choices[0].message.content == "first"


def _tool(properties: dict) -> dict:
    """A function tool whose parameters have `properties`."""
    return {"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": properties}}}


def test_tool_schema_keys_travel_as_json_makes_them() -> None:
    """The SDK sends tools as JSON: 1 becomes "1"; a tuple key makes json.dumps fail, so it is refused."""
    with pytest.raises(TypeError, match=r"'tools\[0\]\.function\.parameters'.*key \(1, 2\) at "
                                        r"'tools\[0\]\.function\.parameters\.properties'.*must be strings"):
        _create(tools=[_tool({(1, 2): {"type": "string"}})])
    with pytest.raises(TypeError, match=r"'tools\[1\]\.function\.parameters'.*set"):
        _create(tools=[TOOL, _tool({"a": {"enum": {1, 2}}})])
    from mockllm.protocol.validate import check_tools

    sent = check_tools([_tool({1: {"type": "string"}, None: {}})])[0]["function"]["parameters"]
    assert sent == {"type": "object", "properties": {"1": {"type": "string"}, "null": {}}}
    client = MockLLM(persona="diligent")
    response = client.chat.completions.create(model="m", messages=[USER], tools=[_tool({7: {"type": "string"}})])
    assert response.choices[0].message.role == "assistant"


@pytest.mark.parametrize("where", ["tool", "response_format", "message_key", "metadata_free"])
def test_deep_nesting_in_a_request_is_a_value_error(where: str) -> None:
    deep: object = "x"
    for _ in range(100_000):
        deep = [deep]
    options = {
        "tool": {"tools": [_tool({"a": {"items": deep}})]},
        "response_format": {"response_format": {"type": "json_schema", "json_schema": {"name": "r", "schema": {"a": deep}}}},
        "message_key": {"messages": [{"role": "user", "content": "hi", "extra": deep}]},
        "metadata_free": {"prediction": {"type": "content", "content": deep}},
    }[where]
    with pytest.raises(ValueError, match=r"nested deeper than 64 levels"):
        _create(**options)


def test_message_keys_must_be_strings() -> None:
    with pytest.raises(TypeError, match=r"'messages\[0\]'.*str keys"):
        _create(messages=[{"role": "user", "content": "hi", 3: "x"}])


class _StringClock:
    def today(self) -> str:
        return "2025-03-14"


@pytest.mark.parametrize(("clock", "pattern"), [
    (_StringClock(), r"'clock'.*today\(\) returned str '2025-03-14'"),
    ("2025-03-14", r"'clock'.*mockllm\.world\.Clock"),
    (42, r"'clock'"),
])
def test_a_bad_clock_is_refused_at_construction(clock: object, pattern: str) -> None:
    with pytest.raises(TypeError, match=pattern):
        MockLLM(clock=clock)
    with pytest.raises(TypeError, match=pattern):
        MockLLM.from_script(["ok"], clock=clock)


def test_a_clock_sets_the_created_day() -> None:
    import datetime

    from mockllm.world import Clock

    response = MockLLM.from_script(["ok"], clock=Clock("2025-05-01")).chat.completions.create(
        model="m", messages=[USER])
    assert datetime.datetime.fromtimestamp(response.created, datetime.timezone.utc).isoformat() == (
        "2025-05-01T00:00:00+00:00")
