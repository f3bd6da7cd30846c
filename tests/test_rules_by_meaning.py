"""The prompt rules read by meaning: paraphrases in English and Chinese, held-out phrasings, near misses."""
from __future__ import annotations

import itertools

import pytest

from mockllm import MockLLM
from mockllm.reading.system_prompt import RULE_PHRASES, find_rules
from solutions.agent import run_agent
from solutions.prompt import PARTS, RULES, build_system_prompt, without
from solutions.tools import BASIC_TOOLS, world_tools
from timing import best_seconds

# The lexicon is built from these: at least ten phrasings per rule, in English and Chinese.
PARAPHRASES: dict[str, tuple[str, ...]] = {
    "one_action": (
        "Write only one Thought and one Action per reply.",
        "Call exactly one tool per turn.",
        "Only one Action at a time.",
        "Never write two Actions in the same reply.",
        "Do not chain several actions in one response.",
        "One tool call per response.",
        "Emit a single Action, then stop.",
        "Each message may contain just one tool call.",
        "每次只调用一个工具。",
        "一次只执行一个动作。",
        "每轮回复只能有一个 Action。",
        "不要在一条回复里写多个 Action。",
    ),
    "no_observation": (
        "Never write the Observation yourself: the program adds it.",
        "Do not invent the tool's output.",
        "Stop after Action Input and wait for the result.",
        "Never make up an Observation yourself.",
        "Wait for the tool to return before continuing.",
        "Don't fabricate observations.",
        "You must not generate the Observation line; the system provides it.",
        "Do not write anything after Action Input.",
        "The observation is supplied by the runtime, so never write it yourself.",
        "Do not imagine what the tool will answer; wait for its result.",
        "不要编造观察结果。",
        "不要自己写 Observation，系统会提供。",
        "不要捏造工具的返回结果。",
        "调用工具后请等待返回的结果。",
    ),
    "final_not_tool": (
        "Final Answer is not a tool: never write `Action: Final Answer`.",
        "Final Answer isn't an action.",
        "Never write `Action: Final Answer`.",
        "Do not use Final Answer as an Action.",
        "Don't call Final Answer as if it were a tool.",
        "The Final Answer is not one of the tools.",
        "Final Answer must never be used as a tool name.",
        "Never put Final Answer in the Action field.",
        "Final Answer 不是工具。",
        "不要把最终答案当作工具调用。",
        "不要写 Action: Final Answer。",
    ),
    "stop_when_enough": (
        "Stop when you have enough information to answer.",
        "As soon as you have enough information, give the Final Answer.",
        "Don't call more tools than you need.",
        "Do not call a tool again to double-check a result you already have.",
        "Once you know the answer, stop calling tools.",
        "When the information is sufficient, answer immediately.",
        "Write the Final Answer instead of calling more tools.",
        "Never repeat a tool call just to verify it.",
        "If you can answer, do so right away without further tool calls.",
        "信息足够时立即给出最终答案。",
        "有了足够的信息就停止调用工具。",
        "不要重复调用工具来再次确认。",
    ),
    "live_data": (
        "For live data (dates, weather, orders, calendar) you must call a tool; never guess.",
        "Always use a tool for current information such as the date or the weather.",
        "Do not answer questions about today's date from memory.",
        "Don't make up live values: look them up with a tool.",
        "Never rely on your own knowledge for real-time data.",
        "Look up live data with the tools instead of guessing.",
        "You must use a tool to find the weather.",
        "Never guess dates or weather.",
        "Use tools for live data.",
        "对于实时数据必须调用工具。",
        "不要猜测日期或天气。",
        "今天的日期要通过工具查询。",
    ),
}

# Sentences with a rule's words that do not state it: none may be read as that rule.
NEAR_MISSES: dict[str, tuple[str, ...]] = {
    "one_action": (
        "Use as many actions as you like.",
        "You can call several tools in one reply.",
        "Repeat Thought / Action / Action Input as many times as needed.",
        "Action: the tool to use, one of [calculator, get_weather].",
        "You have one tool: the calculator.",
        "可以在一条回复里调用多个工具。",
    ),
    "no_observation": (
        "Write the observation yourself.",
        "Do write the Observation after each Action.",
        "Never forget to write the Observation.",
        "You don't need to wait for the result.",
        "Do not wait for the tool's result; write it down right away.",
        "Do not write the Final Answer until you have the result.",
        "The program runs the tool and sends you the result as: Observation: the result.",
        "Then stop.",
        "请自己写 Observation。",
        "不必等待工具的结果。",
    ),
    "final_not_tool": (
        "Final Answer is the last line you write.",
        "Use Final Answer as your Action when you are done.",
        "Do not write the Final Answer before calling a tool.",
        "When you know the answer, write: Final Answer: the answer.",
        "Final Answer 是最后一行。",
    ),
    "stop_when_enough": (
        "Never stop early, even when you think you have enough information.",
        "Keep calling tools even if you have enough information.",
        "Call more tools when you are unsure.",
        "When you know the answer, write: Final Answer: the answer.",
        "Use as many tools as you need.",
        "Don't stop calling tools until the task is done.",
        "信息不够时继续调用工具。",
    ),
    "live_data": (
        "Feel free to guess the date.",
        "You may answer from memory.",
        "The tools give live data.",
        "You can call a tool when you like.",
        "可以凭记忆回答日期。",
        "Guess the weather if no tool is available.",
    ),
}

# Phrasings kept out of the lexicon's making: written before it. First reading: 27 of 30 (the
# misses: two of final_not_tool, one of live_data); the lexicon was then widened for them.
HELD_OUT: dict[str, tuple[str, ...]] = {
    "one_action": (
        "Only ever issue a single tool call in each of your messages.",
        "Respond with exactly one Action block, no more.",
        "You may use at most one tool per turn.",
        "Please do not put more than one Action in a response.",
        "每一轮回复中只能包含一个 Action。",
        "一条回复里最多调用一次工具。",
    ),
    "no_observation": (
        "The Observation comes from the tool, so never produce it on your own.",
        "Do not fabricate tool results under any circumstances.",
        "After writing Action Input, end your message and wait for the observation to be returned.",
        "You must not pretend to know what the tool returned.",
        "切勿自行生成 Observation，它由系统提供。",
        "写完 Action Input 后请停下，等待工具返回结果。",
    ),
    "final_not_tool": (
        "Don't treat Final Answer as an action; it is not one of the tools.",
        "Never use `Final Answer` as the value of the Action field.",
        "Final Answer must not appear as a tool name.",
        "Final Answer is a line of its own, not something you call.",
        "Final Answer 不是工具，不能写在 Action 里。",
        "不要把 Final Answer 当作动作来调用。",
    ),
    "stop_when_enough": (
        "Once the observations give you what you need, finish with the Final Answer right away.",
        "Don't keep calling tools after you already have the answer.",
        "Avoid unnecessary extra tool calls when the information is sufficient.",
        "If you already know enough to answer, stop using tools.",
        "一旦信息足够回答问题，就立即给出最终答案，不要再调用工具。",
        "已经有足够的信息时，停止调用工具。",
    ),
    "live_data": (
        "Never answer questions about the current date or weather from memory; use the tools.",
        "Anything that changes over time (today's date, weather, orders) must come from a tool call.",
        "Do not assume today's date: look it up with get_current_date.",
        "Always rely on the tools, not your own knowledge, for real-time information.",
        "涉及实时信息（日期、天气、订单）时，必须通过工具获取，不要凭记忆回答。",
        "不要猜测今天的日期或天气，要调用工具查询。",
    ),
}

# A second held-out set, written after the first was measured (27 of 30) and before the lexicon
# was changed again; the first set's misses then joined the phrasings the lexicon is built from.
HELD_OUT_2: dict[str, tuple[str, ...]] = {
    "one_action": (
        "Limit yourself to a single Action in every reply.",
        "Never list several tool calls at once.",
        "Perform one action, then hand control back.",
        "每次回复仅允许一个动作。",
        "请勿在同一回复中调用多个工具。",
    ),
    "no_observation": (
        "Never type out an Observation: line; that line is written for you.",
        "Do not predict what the tool will return.",
        "End your reply right after the Action Input and wait for the Observation.",
        "不要替工具写出结果。",
        "输出 Action Input 之后就停止，等待观察结果。",
    ),
    "final_not_tool": (
        "Final Answer is not an available tool, so never write it after Action:.",
        "Do not list Final Answer as an Action.",
        "There is no tool called Final Answer.",
        "最终答案不是一个工具。",
        "不要把 Final Answer 写在 Action 后面。",
    ),
    "stop_when_enough": (
        "Stop as soon as you can answer the question.",
        "Do not make additional tool calls once you know the answer.",
        "When you already have enough facts, give the final answer without more actions.",
        "信息已经足够时，不要继续调用工具。",
        "能回答时就立刻停下并回答。",
    ),
    "live_data": (
        "You must call the tools for anything live, like the weather or today's date.",
        "Do not guess the weather; check it with a tool.",
        "Never invent dates or order statuses.",
        "实时数据一定要用工具查。",
        "不要凭自己的知识回答天气问题。",
    ),
}

# A third held-out set, written after the second was measured and before the lexicon changed for
# the second set's misses. First reading: 20 of 25 (final_not_tool 4, stop_when_enough 2,
# live_data 4); the lexicon was then widened for its misses.
HELD_OUT_3: dict[str, tuple[str, ...]] = {
    "one_action": (
        "Each response should contain exactly one Action and its Action Input.",
        "Do not call multiple tools in a single message.",
        "Take one action per step and wait.",
        "一次回复只做一个动作。",
        "每个回复中只调用一次工具。",
    ),
    "no_observation": (
        "Do not write Observation lines; the environment fills them in.",
        "Never guess the result of a tool call.",
        "Don't continue past the Action Input: wait for the tool's response.",
        "不要自己编写工具的输出。",
        "禁止伪造 Observation。",
    ),
    "final_not_tool": (
        "Never call a tool named Final Answer.",
        "Final Answer is not an action and must not follow `Action:`.",
        "Do not write Final Answer on the Action line.",
        "最终答案不是动作，不要写 Action: Final Answer。",
        "Final Answer 并非工具。",
    ),
    "stop_when_enough": (
        "Stop calling tools as soon as the question can be answered.",
        "Never make a tool call you do not need once the answer is known.",
        "When you have sufficient information, stop and answer.",
        "得到足够的信息后立刻停止。",
        "不要在已经知道答案后继续调用工具。",
    ),
    "live_data": (
        "Always check live facts such as the date with a tool.",
        "Don't guess today's date.",
        "Never make up the weather; call get_weather.",
        "日期和天气必须调用工具获取。",
        "不要猜测订单状态。",
    ),
}

# The last held-out set, written after the third was measured and before the lexicon changed for
# the third set's misses, and never tuned against. First reading: 25 of 25.
HELD_OUT_4: dict[str, tuple[str, ...]] = {
    "one_action": (
        "Output a single Action per message.",
        "You are allowed only one tool call in each turn.",
        "Never include more than one Action block in your output.",
        "每条消息只包含一个 Action。",
        "不要一次调用多个工具。",
    ),
    "no_observation": (
        "Never fill in the Observation field yourself.",
        "Do not simulate the tool's response.",
        "Once you have written the Action Input, stop and wait for the result.",
        "不要自己生成观察结果。",
        "等待工具返回观察结果后再继续。",
    ),
    "final_not_tool": (
        "Final Answer is not a function you can call.",
        "Never use Final Answer as a tool.",
        "Do not put Final Answer after Action:.",
        "Final Answer 不是一个可以调用的工具。",
        "绝不要把最终答案作为工具。",
    ),
    "stop_when_enough": (
        "Once you have enough information, stop and write the Final Answer.",
        "Do not keep using tools after you have the answer.",
        "Avoid extra tool calls when you already know the answer.",
        "信息足够后就停止，不要再调用更多工具。",
        "已经能回答时，立即停止使用工具。",
    ),
    "live_data": (
        "Never guess live values such as dates or the weather.",
        "You must use the tools for current dates and weather.",
        "Do not answer from your own knowledge when the question is about live data.",
        "关于天气和日期，一定要调用工具，不要猜。",
        "不要编造实时数据。",
    ),
}


def test_paraphrases_are_recognised() -> None:
    """Every paraphrase is read as its rule."""
    missed = [(rule, text) for rule, texts in PARAPHRASES.items() for text in texts
              if rule not in find_rules(text)]
    assert missed == []


def test_ten_paraphrases_per_rule_in_both_languages() -> None:
    """Each rule has at least ten paraphrases, some in Chinese and some in English."""
    for texts in PARAPHRASES.values():
        chinese = [t for t in texts if any("\u4e00" <= ch <= "\u9fff" for ch in t)]
        assert len(texts) >= 10 and chinese and len(chinese) < len(texts)


def test_near_misses_are_not_the_rule() -> None:
    """A sentence with the rule's words that does not state it is not read as the rule."""
    wrong = [(rule, text) for rule, texts in NEAR_MISSES.items() for text in texts
             if rule in find_rules(text)]
    assert wrong == []


@pytest.mark.parametrize("held_out", [HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4],
                         ids=["first", "second", "third", "last"])
def test_held_out_phrasings_are_recognised(held_out: dict[str, tuple[str, ...]]) -> None:
    """Each held-out phrasing is read as its rule."""
    missed = [(rule, text) for rule, texts in held_out.items() for text in texts
              if rule not in find_rules(text)]
    assert missed == []


def test_each_phrase_of_rule_phrases_is_its_rule() -> None:
    """The plain phrasings the course uses are read as their rule and no other."""
    for rule, phrases in RULE_PHRASES.items():
        assert all(find_rules(phrase) == {rule} for phrase in phrases), rule


def test_the_course_prompt_is_read_as_it_is_built() -> None:
    """Every choice of the course's parts states exactly the rules it includes, no more."""
    for k in range(len(PARTS) + 1):
        for names in itertools.combinations(PARTS, k):
            text = build_system_prompt(BASIC_TOOLS, names)
            expected = {n for n in names if n in RULES or n in ("format", "example")}
            assert set(find_rules(text)) == expected, names


def test_a_wait_in_the_one_action_rule_is_not_the_no_observation_rule() -> None:
    """'One Action per reply, then wait for the Observation' is one_action alone; the same wait
    in a sentence of its own is no_observation."""
    assert find_rules(PARTS["one_action"]) == {"one_action"}
    assert find_rules(f"Only one Action. {PARTS['one_action']}") == {"one_action"}
    assert find_rules("Wait for the Observation.") == {"no_observation"}


WEATHER = "Will it rain in Beijing on 2025-03-15?"


def _first_step(system_prompt: str):
    """The first step of the course's agent, diligent persona, on the weather question."""
    trace = run_agent(WEATHER, MockLLM(persona="diligent", seed=0), world_tools(), 5,
                      system_prompt=system_prompt)
    return trace.steps[0]


@pytest.mark.parametrize("rule", ["Do not invent the tool's output.",
                                  "Stop after Action Input and wait for the result.",
                                  "Never make up an Observation yourself.",
                                  "不要编造观察结果。"])
def test_diligent_invents_no_observation_under_a_paraphrased_rule(rule: str) -> None:
    """With the course's prompt minus its own rule, diligent invents an Observation; with the
    rule in other words, it stops after its Action Input."""
    bare = build_system_prompt(world_tools(), without("no_observation"))
    invented = _first_step(bare)
    assert "fake_observation" in invented.explanation["quirks_fired"]
    made_up = invented.raw_reply.split("Observation:", 1)[1].split("\n", 1)[0].strip()
    assert made_up and made_up != invented.observation  # it made up what the tool did not say
    told = _first_step(f"{bare}\n\n{rule}")
    assert "Observation:" not in told.raw_reply and told.action == "get_weather"
    assert {"quirk": "fake_observation", "by": "no_observation"} in \
        told.explanation["quirks_suppressed"]


def test_an_unrecognised_rule_keeps_the_quirk() -> None:
    """A statement the reader does not take as the rule leaves the quirk on, as before."""
    bare = build_system_prompt(world_tools(), without("no_observation"))
    step = _first_step(f"{bare}\n\nThe program adds the Observation.")
    assert "fake_observation" in step.explanation["quirks_fired"]


TUTORIAL = """Answer the user's question as well as you can. You can use these tools:
{tools}

Respond in this format:

Thought: your reasoning about what to do
Action: the name of the tool, one of [{names}]
Action Input: a JSON object with the tool's arguments

Guidelines:
- Use one tool at a time.
- Do not invent the tool's output: stop after Action Input and wait for the result.
- Final Answer isn't an action; write it as `Final Answer: ...` on its own line.
- Once you know the answer, stop calling tools.
- Always use a tool for current information such as the date or the weather."""


def test_a_prompt_in_its_own_words_gets_a_clean_run() -> None:
    """A ReAct prompt worded as a tutorial would word it states every rule, and diligent runs clean."""
    tools = world_tools()
    prompt = TUTORIAL.format(tools="\n".join(f"- {t.name}: {t.description}" for t in tools),
                             names=", ".join(t.name for t in tools))
    assert find_rules(prompt) == set(RULES) | {"format"}
    trace = run_agent(WEATHER, MockLLM(persona="diligent", seed=0), tools, 5, system_prompt=prompt)
    assert trace.stop_reason == "answered"
    assert all(step.explanation["quirks_fired"] == [] for step in trace.steps)
    weather = trace.steps[0].observation.split(": ", 1)[1]  # the tool's words, after "Beijing <date>:"
    assert weather in trace.final_answer


HOSTILE = {
    "one long sentence of negations": "never do not ",
    "one long sentence of rule words": "do not write the observation until one action ",
    "Chinese rule words without a stop": "不要编造观察结果每次只调用一个工具",
    "repeated 'wait for the'": "wait for the ",
    "words and no sentence end": "final answer is not ",
    "apostrophes and hyphens": "don't-'s-",
    "line breaks in wrapped prose": "stop when\nyou have\n",
}


@pytest.mark.parametrize("unit", list(HOSTILE.values()), ids=list(HOSTILE))
def test_reading_rules_is_linear_in_the_prompt(unit: str) -> None:
    """Sixteen times the text costs at most 32 times the time (above a small floor)."""
    small, large = (PARTS["role"] + unit * (n // len(unit)) for n in (4_096, 65_536))
    find_rules(small)
    t_small = best_seconds(lambda: find_rules(small))
    t_large = best_seconds(lambda: find_rules(large))
    assert t_large <= 32 * t_small + 0.010, (t_small, t_large)
