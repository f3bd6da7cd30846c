"""The mock reads the prompt wherever a client puts it, in the layouts agent frameworks use.

Two loops are written here the way the frameworks write them (no framework is imported):
- LangChain's classic completion-style agent: ONE user message holding the hwchase17/react
  template, its tools rendered as `name: description`, the question and a scratchpad that grows
  with `Action` / `Action Input` / `Observation` / `Thought:` at each step, `stop=["\\nObservation:"]`;
- llama-index's ReAct chat agent: its system header with `> Tool Name:` blocks, the question as a
  user message, each step an assistant message (the input as a Python dict's repr) and a user
  message `Observation: ...`, and `Answer:` as the final label.
Both run the course's world tools against the mock and must reach the right answer.
"""
from __future__ import annotations

import json
import re

import pytest

from mockllm import MockLLM
from mockllm.reading.conversation import read_conversation
from mockllm.reading.layout import read_layout
from mockllm.reading.system_prompt import read_tools_text
from solutions.tools import world_tools

from prompt_templates import HWCHASE17_REACT


LLAMA_HEADER = """You are designed to help with a variety of tasks, from answering questions to providing summaries to other types of analyses.

## Tools

You have access to a wide variety of tools. You are responsible for using the tools in any sequence you deem appropriate to complete the task at hand.
This may require breaking the task into subtasks and using different tools to complete each subtask.

You have access to the following tools:
{tool_desc}

## Output Format

Please answer in the same language as the question and use the following format:

```
Thought: The current language of the user is: (user's language). I need to use a tool to help me answer the question.
Action: tool name (one of {tool_names}) if using a tool.
Action Input: the input to the tool, in a JSON format representing the kwargs (e.g. {{"input": "hello world", "num_beams": 5}})
```

Please ALWAYS start with a Thought.

Please use a valid JSON format for the Action Input. Do NOT do this {{'input': 'hello world', 'num_beams': 5}}.

If this format is used, the tool will respond in the following format:

```
Observation: tool response
```

You should keep repeating the above format till you have enough information to answer the question without using any more tools. At that point, you MUST respond in one of the following two formats:

```
Thought: I can answer without using any more tools. I'll use the user's language to answer
Answer: [your answer here (In the same language as the user's question)]
```

```
Thought: I cannot answer the question with the provided tools.
Answer: [your answer here (In the same language as the user's question)]
```

## Current Conversation

Below is the current conversation consisting of interleaving human and assistant messages.
"""

TOOLS = world_tools()
QUESTIONS = [  # question, words the final answer holds, most model calls allowed
    ("What is (17 + 5) * 3?", ["66"], 3),
    ("What is today's date, and what date is it 50 days from now?", ["2025-05-03"], 4),
    ("What is the status of order A1002?", ["shipped"], 3),
    ("Will it rain in Shanghai tomorrow?", ["Yes", "2025-03-15"], 4),
    ("How many days until Christmas?", ["286 days"], 3),
]
_LANGCHAIN_ACTION = re.compile(r"Action\s*\d*\s*:[\s]*(.*?)[\s]*Action\s*\d*\s*Input\s*\d*\s*:[\s]*(.*)",
                               re.S)
_LLAMA_ACTION = re.compile(r"(?:\s*Thought: (.*?)|(.+))\n+Action: ([^\n\(\) ]+).*?\n+Action Input: .*?"
                           r"(\{.*\})", re.S)


def _run_tool(name: str, text: str) -> str:
    """Run a world tool on a text input, as a single-input LangChain tool gets it."""
    text = text.strip(" ").strip('"')
    try:
        args = json.loads(text)
    except ValueError:
        args = None
    if not isinstance(args, dict):
        params = list(TOOLS[name].parameters["properties"]) if name in TOOLS else []
        args = {params[0]: text} if params and text else {}
    return TOOLS.run(name, args)


def langchain_loop(question: str, persona: str | None = "diligent",
                   max_steps: int = 6) -> tuple[str | None, list[str]]:
    """LangChain's classic ReAct agent: (final answer, the replies), one growing user message."""
    tools = "\n".join(f"{tool.name}: {tool.description}" for tool in TOOLS)
    client, scratchpad, replies = MockLLM(persona=persona, seed=0), "", []
    for _ in range(max_steps):
        prompt = HWCHASE17_REACT.format(tools=tools, tool_names=", ".join(TOOLS.names()),
                                        input=question, agent_scratchpad=scratchpad)
        reply = client.chat.completions.create(
            model="mock-react", messages=[{"role": "user", "content": prompt}],
            stop=["\nObservation:"]).choices[0].message.content
        replies.append(reply)
        if "Final Answer:" in reply:
            return reply.split("Final Answer:")[-1].strip(), replies
        found = _LANGCHAIN_ACTION.search(reply)
        observation = _run_tool(found.group(1).strip(), found.group(2)) if found else \
            "Invalid Format: Missing 'Action:' after 'Thought:'"
        scratchpad += f"{reply}\nObservation: {observation}\nThought: "
    return None, replies


def llama_index_loop(question: str, max_steps: int = 6) -> tuple[str | None, list[str]]:
    """llama-index's ReAct chat agent: (final answer, the replies)."""
    blocks = "\n".join(f"> Tool Name: {tool.name}\nTool Description: {tool.description}\n"
                       f"Tool Args: {json.dumps(tool.parameters)}\n" for tool in TOOLS)
    messages = [{"role": "system", "content": LLAMA_HEADER.format(
        tool_desc=blocks, tool_names=", ".join(TOOLS.names()))}, {"role": "user", "content": question}]
    client, replies = MockLLM(persona=None, seed=0), []
    for _ in range(max_steps):
        reply = client.chat.completions.create(model="mock-react", messages=messages).choices[0].message.content
        replies.append(reply)
        if re.search(r"(?m)^Answer:", reply) and "Action:" not in reply:
            return reply.split("Answer:")[-1].strip(), replies
        found = _LLAMA_ACTION.search(reply)
        thought, action, args = (found.group(1) or found.group(2)).strip(), found.group(3), \
            json.loads(found.group(4))
        messages.append({"role": "assistant",
                         "content": f"Thought: {thought}\nAction: {action}\nAction Input: {args}"})
        messages.append({"role": "user", "content": f"Observation: {TOOLS.run(action, args)}"})
    return None, replies


@pytest.mark.parametrize("persona", ["diligent", None])
@pytest.mark.parametrize("question, words, most", QUESTIONS, ids=[q[0][:30] for q in QUESTIONS])
def test_langchain_completion_loop_reaches_the_answer(question: str, words: list, most: int,
                                                      persona: str | None) -> None:
    answer, replies = langchain_loop(question, persona)
    assert answer is not None, replies
    for word in words:
        assert word in answer, (answer, replies)
    assert len(replies) <= most + (persona is not None), replies  # diligent may check once more
    assert not any(reply.startswith("Thought:") for reply in replies)  # it continues the prompt


def test_langchain_replies_continue_the_prompt_and_write_plain_input() -> None:
    _, replies = langchain_loop("What is (17 + 5) * 3?", None)
    assert replies[0] == (" I should compute (17 + 5) * 3 with the calculator.\nAction: calculator\n"
                          "Action Input: (17 + 5) * 3")  # after 'Thought:', as a completion would
    assert replies[1] == "The calculator returned 66.\nFinal Answer: (17 + 5) * 3 = 66"  # 'Thought: '


@pytest.mark.parametrize("question, words, most", QUESTIONS, ids=[q[0][:30] for q in QUESTIONS])
def test_llama_index_chat_loop_reaches_the_answer(question: str, words: list, most: int) -> None:
    answer, replies = llama_index_loop(question)
    assert answer is not None, replies
    for word in words:
        assert word in answer, (answer, replies)
    assert len(replies) <= most and all(r.startswith("Thought:") for r in replies)
    assert all("Final Answer" not in r for r in replies)  # the label the header asks for


def test_a_whole_prompt_in_one_message_is_split_into_instructions_and_turns() -> None:
    text = HWCHASE17_REACT.format(tools="calculator: evaluates arithmetic", tool_names="calculator",
                                  input="What is 2 * 21?", agent_scratchpad=(
                                      " I compute it.\nAction: calculator\nAction Input: 2 * 21\n"
                                      "Observation: 42\nThought: "))
    layout = read_layout(text)
    assert layout.instructions.startswith("Answer the following") and layout.instructions.endswith("Begin!")
    assert layout.turns == (("user", "Question: What is 2 * 21?"),
                            ("assistant", "Thought: I compute it.\nAction: calculator\nAction Input: 2 * 21"),
                            ("user", "Observation: 42"))
    assert layout.opening == "Thought: "
    conv = read_conversation([{"role": "user", "content": text}])
    assert [t.name for t in conv.tools] == ["calculator"] and conv.question == "What is 2 * 21?"
    assert conv.steps[0].action == "calculator" and conv.steps[0].observation == "42"
    assert conv.step == 2 and conv.input_style == "plain" and "format" in conv.rules
    assert not conv.has_example  # the format section's 'Observation: the result...' is no example


@pytest.mark.parametrize("text", ["Question: What is 2 + 2?", "What is 2 + 2?",
                                  "Hi!\nThought: not a prompt"])
def test_an_ordinary_user_message_is_no_layout(text: str) -> None:
    assert read_layout(text) is None


def test_a_chinese_prompt_in_one_message_with_full_width_colons() -> None:
    prompt = ("你是一个助手。\n\n工具列表：\n- get_current_date：返回今天的日期。输入：{}\n"
              "- get_weather：查询城市某天的天气。输入：{\"city\": \"<城市>\", \"date\": \"<YYYY-MM-DD>\"}\n\n"
              "格式：\nThought: ...\nAction: ...\nAction Input: ...\n\n问题：北京明天天气怎么样？\n")
    client, scratchpad = MockLLM(persona=None, seed=0), ""
    for _ in range(4):
        reply = client.chat.completions.create(model="m", messages=[
            {"role": "user", "content": prompt + scratchpad + "Thought:"}]).choices[0].message.content
        if "Final Answer:" in reply:
            break
        name = re.search(r"Action: (\w+)", reply).group(1)
        args = json.loads(reply.split("Action Input:")[1])
        scratchpad += f"Thought:{reply}\nObservation: {TOOLS.run(name, args)}\n"
    assert "沙尘暴" in reply and "2025-03-15" in reply


TOOL_LISTS = [  # a tool list as prompts write it, the names and parameters read from it
    ("Tools:\n- get_weather: the weather. Input: {\"city\": \"x\"}\n- calculator: arithmetic",
     [("get_weather", ("city",)), ("calculator", ())]),
    ("You have access to the following tools:\n\nget_weather: the weather for a city\n"
     "calculator: evaluates arithmetic\n\nUse the following format:",
     [("get_weather", ()), ("calculator", ())]),
    ("Tools:\nget_weather(city: str, date: str) - the weather\ncalculator(expression: str) -> str - math",
     [("get_weather", ("city", "date")), ("calculator", ("expression",))]),
    ("Tools:\ncalculator: calculator(expression: str) -> str - Evaluates an expression.",
     [("calculator", ("expression",))]),
    ("Tools:\nSearch[query]: searches the documents\nCalculator[expression] - arithmetic",
     [("Search", ("query",)), ("Calculator", ("expression",))]),
    ("Available tools:\n1. get_weather: the weather\n2) calculator: math\n3、search_docs：搜索文档",
     [("get_weather", ()), ("calculator", ()), ("search_docs", ())]),
    ("## Tools\n> Tool Name: calculator\nTool Description: calculator(expression: str) -> str\n"
     "Evaluates an expression.\nTool Args: {\"properties\": {\"expression\": {\"title\": \"Expression\", "
     "\"type\": \"string\"}}, \"required\": [\"expression\"], \"type\": \"object\"}\n",
     [("calculator", ("expression",))]),
    ('You can call these functions:\n[{"type": "function", "function": {"name": "get_weather", '
     '"description": "the weather", "parameters": {"type": "object", "properties": {"city": '
     '{"type": "string"}, "date": {"type": "string"}}}}}]',
     [("get_weather", ("city", "date"))]),
    ("Tools:\n- get_weather: Get the weather.\n    Takes inputs: {'location': {'type': 'string', "
     "'description': 'a city'}}\n    Returns an output of type: string",
     [("get_weather", ("location",))]),
    ("Action: the action to take, should be one of [get_weather, calculator]",
     [("get_weather", ()), ("calculator", ())]),
]


@pytest.mark.parametrize("text, expected", TOOL_LISTS, ids=[str(i) for i in range(len(TOOL_LISTS))])
def test_tool_lists_in_the_usual_shapes(text: str, expected: list) -> None:
    assert [(t.name, t.parameters) for t in read_tools_text(text)] == expected


def test_llama_index_style_prompt_is_read_from_the_system_message() -> None:
    conv = read_conversation([{"role": "system", "content": LLAMA_HEADER.format(
        tool_desc="> Tool Name: calculator\nTool Description: math\nTool Args: {}\n",
        tool_names="calculator")}, {"role": "user", "content": "What is 2 + 2?"}])
    assert [t.name for t in conv.tools] == ["calculator"] and conv.final_marker == "Answer"
    assert conv.input_style == "json" and "format" in conv.rules and conv.opening == ""


def test_smolagents_text_tool_calls_and_final_answer_tool() -> None:
    tools = [{"type": "function", "function": {"name": name, "description": text, "parameters": {
        "type": "object", "properties": {arg: {"type": "string"}}}}}
        for name, text, arg in (("calculator", "evaluates arithmetic", "expression"),
                                ("final_answer", "Provides a final answer to the given problem.", "answer"))]
    listed = str([{"id": "call_1", "type": "function",
                   "function": {"name": "calculator", "arguments": {"expression": "(17 + 5) * 3"}}}])
    messages = [{"role": "system", "content": "You are an expert assistant who can solve any task using tool calls."},
                {"role": "user", "content": [{"type": "text", "text": "New task:\nWhat is (17 + 5) * 3?"}]},
                {"role": "assistant", "content": [{"type": "text", "text": "Calling tools:\n" + listed}]},
                {"role": "user", "content": [{"type": "text", "text": "Observation:\n66"}]}]
    conv = read_conversation(messages, tools)
    assert conv.question == "What is (17 + 5) * 3?"
    assert [(s.action, s.action_input, s.observation) for s in conv.steps] == [
        ("calculator", {"expression": "(17 + 5) * 3"}, "66")]
    response = MockLLM(persona=None).chat.completions.create(
        model="m", messages=messages, tools=tools, tool_choice="required")
    call = response.choices[0].message.tool_calls[0]
    assert call.function.name == "final_answer"
    assert json.loads(call.function.arguments) == {"answer": "(17 + 5) * 3 = 66"}
