"""The prompt rules read by meaning: paraphrases in English and Chinese, held-out phrasings, near misses."""
from __future__ import annotations

from mockllm.reading.system_prompt import find_rules

# Phrasings kept out of the lexicon's making: written before it, never tuned against.
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


def test_held_out_phrasings_are_recognised() -> None:
    """Each held-out phrasing is read as its rule."""
    missed = [(rule, text) for rule, texts in HELD_OUT.items() for text in texts
              if rule not in find_rules(text)]
    assert missed == []
