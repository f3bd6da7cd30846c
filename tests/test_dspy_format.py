"""DSPy's prompts (ChatAdapter, JSONAdapter, ReAct) read and answered in the layout DSPy parses.

The prompts in tests/data/dspy_*.json are the requests DSPy 3.4.1 sent (recorded from
`dspy.LM.history`; dspy_typed_fields.json from `Adapter.format`). No dspy is needed here: each
reply is parsed as DSPy's adapters parse it (a `[[ ## name ## ]]` header opens a section;
JSONAdapter reads one JSON object) and checked against the fields the prompt asks for.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from openai.types.chat import ChatCompletion as SDKCompletion
from timing import best_seconds

from mockllm import MockLLM
from mockllm.reading.dspy_format import COMPLETED, FINISH, REACT_FIELDS, course_request, read_dspy

DATA = Path(__file__).parent / "data"
HEADER = re.compile(r"\[\[ ## (\w+) ## \]\]")
QUESTION = "What is (17 + 5) * 3?"
EXPRESSION = {"expression": "(17 + 5) * 3"}


def _calls(name: str) -> list[dict]:
    """The recorded requests of one DSPy run."""
    return json.loads((DATA / f"dspy_{name}.json").read_text(encoding="utf-8"))["calls"]


def _typed(adapter: str) -> list[dict]:
    """The messages of the typed-fields prompt (reasoning, int, float, bool, Literal, list)."""
    return json.loads((DATA / "dspy_typed_fields.json").read_text(encoding="utf-8"))[adapter]


def _reply(messages: list[dict], **params: object) -> SDKCompletion:
    """The mock's answer (no quirks), validated as the SDK's own type (`x_mock` an extra)."""
    response = MockLLM(persona=None).chat.completions.create(model="mock-react", messages=messages,
                                                             **params)
    return SDKCompletion.model_validate(response.model_dump())


def _chat_fields(content: str) -> dict[str, str]:
    """The sections of a reply as ChatAdapter.parse splits them (the first of each name kept)."""
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in content.splitlines():
        match = HEADER.match(line.strip())
        if match:
            rest = line.strip()[match.end():].strip()
            sections.append((match.group(1), [rest] if rest else []))
        else:
            sections[-1][1].append(line)
    fields: dict[str, str] = {}
    for name, lines in sections:
        if name is not None and name not in fields:
            fields[name] = "\n".join(lines).strip()
    return fields


def _parsed(content: str, adapter: str) -> dict[str, object]:
    """The output fields a reply gives, as the adapter reads them (values JSON-decoded when they
    are JSON, as DSPy's parse_value tries first)."""
    if adapter == "json":
        value = json.loads(content)
        assert isinstance(value, dict), content
        return value
    assert content.rstrip().endswith(COMPLETED), content
    fields = _chat_fields(content)
    fields.pop("completed")
    out: dict[str, object] = {}
    for name, text in fields.items():
        try:
            out[name] = json.loads(text)
        except ValueError:
            out[name] = text
    return out


def _asked(messages: list[dict]) -> list[str]:
    """The output field names the system message lists, in order."""
    system = messages[0]["content"]
    listed = system[system.index("Your output fields are:"):system.index("All interactions")]
    return re.findall(r"^\d+\. `(\w+)`", listed, re.M)


@pytest.mark.parametrize("adapter", ["chat", "json"])
def test_predict_answers_the_int_field_with_the_result(adapter: str) -> None:
    (call,) = _calls(f"{adapter}_predict")
    response = _reply(call["messages"])
    fields = _parsed(response.choices[0].message.content, adapter)
    assert list(fields) == _asked(call["messages"]) == ["answer"]
    assert fields["answer"] == 66
    assert response.model_extra["x_mock"]["prompt_format"] == f"dspy-{adapter}"


@pytest.mark.parametrize("adapter", ["chat", "json"])
def test_react_calls_the_calculator_then_finish_then_extracts_the_answer(adapter: str) -> None:
    first, second, extract = _calls(f"{adapter}_react")
    step = _parsed(_reply(first["messages"]).choices[0].message.content, adapter)
    assert list(step) == _asked(first["messages"]) == list(REACT_FIELDS)
    assert (step["next_tool_name"], step["next_tool_args"]) == ("calculator", EXPRESSION)
    assert step["next_thought"]
    done = _parsed(_reply(second["messages"]).choices[0].message.content, adapter)
    assert (done["next_tool_name"], done["next_tool_args"]) == (FINISH, {})
    answer = _parsed(_reply(extract["messages"]).choices[0].message.content, adapter)
    assert list(answer) == _asked(extract["messages"]) == ["reasoning", "answer"]
    assert answer["answer"] == 66 and "66" in answer["reasoning"]


@pytest.mark.parametrize("adapter", ["chat", "json"])
def test_every_output_type_gets_a_value_of_its_type(adapter: str) -> None:
    messages = _typed(adapter)
    fields = _parsed(_reply(messages).choices[0].message.content, adapter)
    assert list(fields) == _asked(messages)
    assert fields["answer"] == 66 and "66" in fields["reasoning"]
    assert isinstance(fields["confidence"], float) and 0 <= fields["confidence"] <= 1
    assert fields["is_even"] in ((True, False) if adapter == "json" else ("True", "False"))
    assert fields["size"] in ("small", "large")
    assert isinstance(fields["steps"], list) and all(isinstance(s, str) for s in fields["steps"])


def test_the_react_prompt_is_read_as_a_tool_calling_request() -> None:
    _, second, extract = _calls("chat_react")
    prompt = read_dspy(second["messages"])
    assert prompt is not None and prompt.adapter == "chat" and prompt.is_react_step
    assert prompt.question == QUESTION
    assert [t["function"]["name"] for t in prompt.tools] == ["calculator"]
    parameters = prompt.tools[0]["function"]["parameters"]
    assert parameters["properties"] == {"expression": {"type": "string"}}
    assert [(s.tool_name, s.tool_args, s.observation) for s in prompt.steps] == [
        ("calculator", EXPRESSION, "66")]
    messages, tools = course_request(prompt)
    assert [m["role"] for m in messages] == ["user", "assistant", "tool"]
    assert messages[2]["content"] == "66" and tools == list(prompt.tools)
    # The extraction's objective lists no tool: the ones its trajectory called stand in.
    late = read_dspy(extract["messages"])
    assert not late.is_react_step and [s.tool_name for s in late.steps] == ["calculator", FINISH]
    assert [t["function"]["name"] for t in course_request(late)[1]] == ["calculator"]


def test_json_adapter_reply_fits_dspy_structured_outputs_schema() -> None:
    import jsonschema

    data = json.loads((DATA / "dspy_json_predict.json").read_text(encoding="utf-8"))
    response_format = data["structured_outputs"]  # what JSONAdapter sends a schema-taking model
    response = _reply(data["calls"][0]["messages"], response_format=response_format)
    value = json.loads(response.choices[0].message.content)
    jsonschema.validate(value, response_format["json_schema"]["schema"])
    assert value == {"answer": 66}
    assert any("DSPy" in note for note in response.model_extra["x_mock"]["adjusted"])


def test_json_adapter_reply_in_json_object_mode() -> None:
    (call,) = _calls("json_react")[:1]
    response = _reply(call["messages"], response_format={"type": "json_object"})
    step = json.loads(response.choices[0].message.content)
    assert (step["next_tool_name"], step["next_tool_args"]) == ("calculator", EXPRESSION)


@pytest.mark.parametrize("messages", [
    [{"role": "system", "content": "You are a helpful assistant."},
     {"role": "user", "content": QUESTION}],
    [{"role": "user", "content": "Your input fields are: none. [[ ## completed ## ]]"}],
    [{"role": "system",  # another adapter's layout (XML)
      "content": "Your input fields are:\n1. `q` (str):\nYour output fields are:\n1. `a` (str):\n"
                 "All interactions will be structured in the following way, with the appropriate "
                 "values filled in.\n\n<q>\n{q}\n</q>"}],
    [], "not a list",
])
def test_other_prompts_are_not_read_as_dspy(messages: object) -> None:
    assert read_dspy(messages) is None


def test_odd_dspy_prompts_are_read_leniently() -> None:
    (call,) = _calls("chat_predict")
    system = call["messages"][0]
    assert read_dspy([system]).inputs == ()  # no user message yet
    assert _parsed(_reply([system]).choices[0].message.content, "chat").keys() == {"answer"}
    _, second, _ = _calls("chat_react")
    broken = second["messages"][1]["content"].replace(json.dumps(EXPRESSION), '{"expression": ')
    prompt = read_dspy([second["messages"][0], {"role": "user", "content": broken}])
    assert prompt.steps[0].tool_args == {}  # arguments that do not parse: none


def _flooded(n: int) -> list[dict]:
    """The ReAct prompt with `n` characters of header-like lines and tool-like lines added."""
    first = _calls("chat_react")[0]["messages"]
    unit = "[[ ## thought_0 ## ]]\n(1) x, whose description is <desc> It takes arguments {\n"
    system = first[0]["content"] + "\n" + unit * (n // len(unit))
    return [{"role": "system", "content": system},
            {"role": "user", "content": first[1]["content"] + "\n" + unit * (n // len(unit))}]


def test_reading_a_dspy_prompt_takes_linear_time() -> None:
    small, big = _flooded(16_384), _flooded(262_144)
    t_small = best_seconds(lambda: read_dspy(small))
    t_big = best_seconds(lambda: read_dspy(big))
    assert t_big <= 32 * t_small + 0.010, (t_small, t_big)  # 16x the input: linear is 16x


@pytest.mark.parametrize("persona", ["diligent", "sloppy"])
def test_personas_answer_dspy_in_its_layout(persona: str) -> None:
    """The default persona acts as a capable model on DSPy's prompt; sloppy's chatter around the
    sections leaves them as ChatAdapter reads them."""
    client = MockLLM(persona=persona)
    first, _, extract = _calls("chat_react")
    step = client.chat.completions.create(model="mock-react", messages=first["messages"])
    fields = _parsed(step.choices[0].message.content, "chat")
    assert (fields["next_tool_name"], fields["next_tool_args"]) == ("calculator", EXPRESSION)
    (call,) = _calls("chat_predict")
    answer = client.chat.completions.create(model="mock-react", messages=call["messages"])
    assert _chat_fields(answer.choices[0].message.content)["answer"] == "66"
    if persona == "diligent":
        assert step.x_mock["quirks_fired"] == answer.x_mock["quirks_fired"] == []
