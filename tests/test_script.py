"""Scripted mode: replies replayed in order, from a list or a .json/.yaml file, never looping."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mockllm import MockLLM, ScriptExhaustedError
from timing import best_seconds

MESSAGES = [{"role": "user", "content": "Question: what is the weather in Paris?"}]
ACTION = 'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}'
SCRIPT = [
    ACTION,
    {"content": "Thought: I now know the final answer.\nFinal Answer: Sunny, 18°C."},
    {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
]


def _ask(client: MockLLM, **options: object) -> object:
    """Send the standard question to `client`."""
    return client.chat.completions.create(model="mock-react", messages=MESSAGES, **options)


def test_replies_come_in_order_with_their_step() -> None:
    client = MockLLM.from_script(SCRIPT)
    first, second, third = (_ask(client) for _ in range(3))
    assert first.choices[0].message.content == ACTION
    assert second.choices[0].message.content.endswith("Final Answer: Sunny, 18°C.")
    call = third.choices[0].message.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("get_weather", {"city": "Paris"})
    assert third.choices[0].message.content is None
    assert third.choices[0].finish_reason == "tool_calls"
    assert call.id.startswith("call_") and call.type == "function"
    for step, response in enumerate((first, second, third), start=1):
        assert response.x_mock["source"] == "script"
        assert response.x_mock["rule"] == f"script step {step}"
        assert response.x_mock["step"] == step


def test_running_out_raises_and_never_loops() -> None:
    client = MockLLM.from_script(["only reply"])
    _ask(client)
    for _ in range(2):
        with pytest.raises(ScriptExhaustedError,
                           match=r"script exhausted after 1 replies; add more replies or create a new client"):
            _ask(client)


def test_stop_and_max_tokens_apply_to_scripted_replies() -> None:
    fabricated = ACTION + "\nObservation: Sunny\nThought: done"
    response = _ask(MockLLM.from_script([fabricated]), stop=["Observation:"])
    assert response.choices[0].message.content == ACTION + "\n"
    assert response.x_mock["stop_applied"] == "Observation:"
    cut = _ask(MockLLM.from_script([fabricated]), max_tokens=4)  # Thou|ght|:| I
    assert cut.choices[0].message.content == "Thought: I"
    assert (cut.choices[0].finish_reason, cut.x_mock["truncated"]) == ("length", True)


def test_openai_shaped_tool_calls_and_string_arguments_are_kept() -> None:
    broken = '{"city": "Paris"'  # a script may show broken JSON on purpose
    client = MockLLM.from_script([{"content": "Let me check.", "tool_calls": [
        {"id": "call_fixed", "type": "function", "function": {"name": "get_weather", "arguments": broken}},
        {"name": "get_current_date"},
    ]}])
    message = _ask(client).choices[0].message
    assert message.content == "Let me check."
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls][0] == (
        "call_fixed", "get_weather", broken)
    assert message.tool_calls[1].function.arguments == "{}"


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".yml"])
def test_script_files(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"script{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps({"replies": SCRIPT}, ensure_ascii=False), encoding="utf-8")
    else:
        import yaml

        path.write_text(yaml.safe_dump(SCRIPT, allow_unicode=True), encoding="utf-8")
    for script in (path, str(path)):
        client = MockLLM.from_script(script)
        assert [_ask(client).choices[0].message.content for _ in range(2)][0] == ACTION
        assert _ask(client).choices[0].message.tool_calls[0].function.name == "get_weather"


def test_yaml_without_pyyaml_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "script.yaml"
    path.write_text("- hello\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(ModuleNotFoundError, match=r"PyYAML.*pip install pyyaml.*\.json"):
        MockLLM.from_script(path)


def test_a_path_needs_a_known_suffix() -> None:
    with pytest.raises(ValueError, match=r"\.json, \.yaml or \.yml.*pass a list"):
        MockLLM.from_script("Final Answer: 42")


def test_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        MockLLM.from_script(tmp_path / "nope.json")


BAD_ENTRIES = [
    ("number", 42, r"is a int"),
    ("none", None, r"is a NoneType"),
    ("empty-dict", {}, r"neither 'content' nor 'tool_calls'"),
    ("unknown-key", {"text": "hi"}, r"unknown key\(s\) text"),
    ("content-int", {"content": 3}, r"'content' that is not a str"),
    ("tool-calls-empty", {"tool_calls": []}, r"'tool_calls' that is not a non-empty list"),
    ("tool-call-no-name", {"tool_calls": [{"arguments": {}}]}, r"without a str 'name'"),
    ("tool-call-args-list", {"tool_calls": [{"name": "f", "arguments": [1]}]}, r"neither a dict nor a str"),
    ("tool-call-id-int", {"tool_calls": [{"name": "f", "id": 5}]}, r"'id' that is not a str"),
]


@pytest.mark.parametrize(("entry", "pattern"), [case[1:] for case in BAD_ENTRIES],
                         ids=[case[0] for case in BAD_ENTRIES])
def test_malformed_entries_name_the_index_and_the_shapes(entry: object, pattern: str) -> None:
    with pytest.raises(ValueError, match=rf"script entry 1 .*{pattern}.*accepted shapes: a str"):
        MockLLM.from_script(["fine", entry])


@pytest.mark.parametrize("script", [[], {"replies": []}])
def test_empty_script_is_refused(script: object) -> None:
    with pytest.raises(ValueError, match="at least one reply"):
        MockLLM.from_script(script)


def test_script_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match="list of replies"):
        MockLLM.from_script(42)


def test_same_request_at_different_steps_gets_different_ids() -> None:
    client = MockLLM.from_script(["a", "a"])
    assert _ask(client).id != _ask(client).id


BAD_FILES = [
    # (file name, bytes, what the message must say after the file's name)
    ("empty.json", b"", r"is empty"),
    ("blank.yaml", b"  \n\n", r"is empty"),
    ("comment.yaml", b"# no replies yet\n", r"holds no replies"),
    ("broken.json", b'["Final Answer: 1",', r"is not valid JSON: Expecting value \(line 1, column 20\)"),
    ("latin1.json", '["Café"]'.encode("latin-1"), r"is not valid UTF-8 \(byte 5 is 0xe9\)"),
    ("bad.yaml", b"- a\n - b: [\n", r"is not valid YAML: .*\(line 2, column 5\)"),
    ("tab.yaml", b"- a\n\t- b\n", r"is not valid YAML"),
    ("deep.json", b"[" * 100_000, r"nests too deeply"),
    ("deep.yaml", b"[" * 100_000, r"nests deeper than 64 levels"),
    ("deepish.json", b"[" * 70 + b"]" * 70, r"nests deeper than 64 levels"),
    ("number.json", b"42", r"holds a value of type int, not a list of replies"),
    ("none.json", b"[]", r"a script needs at least one reply"),
    ("entry.json", b'["ok", {"text": "hi"}]', r"script entry 1 .*unknown key\(s\) text"),
    ("date.yaml", b"- tool_calls:\n  - name: f\n    arguments: {day: 2025-03-14}\n", r"JSON cannot carry"),
]


@pytest.mark.parametrize(("name", "data", "pattern"), BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_a_bad_script_file_is_a_value_error_naming_the_file(tmp_path: Path, name: str, data: bytes,
                                                             pattern: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ValueError, match=rf"script file '{re.escape(str(path))}'.*{pattern}") as raised:
        MockLLM.from_script(path)
    assert re.search(r"accepted: a JSON or YAML list of replies|accepted shapes: a str|each reply is a str",
                     str(raised.value))


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_utf8_bom_is_accepted(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"bom{suffix}"
    path.write_bytes("\ufeff".encode() + json.dumps(["Final Answer: 北京"], ensure_ascii=False).encode())
    assert _ask(MockLLM.from_script(path)).choices[0].message.content == "Final Answer: 北京"


def test_reading_a_deep_yaml_file_is_fast(tmp_path: Path) -> None:
    """PyYAML spends seconds on deeply nested flow collections: the depth is checked first."""
    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    small.write_text("[" * 10_000)
    large.write_text("[" * 40_000)
    def refuse(path: object) -> None:
        with pytest.raises(ValueError):
            MockLLM.from_script(path)

    timings = [best_seconds(lambda: refuse(path), repeats=1) for path in (small, large)]
    assert timings[1] < 8 * timings[0] + 0.05
