"""Read a user message that holds a whole completion-style prompt, as some clients send it.

LangChain's classic ReAct template (`hub.pull("hwchase17/react")`) puts everything in ONE user
message, which grows at each step:

    Answer the following questions as best you can. You have access to the following tools:
    calculator: ...                                     <- instructions: tools, format, examples
    Question: What is (17 + 5) * 3?                     <- the question
    Thought: I should compute it.                       <- the scratchpad: earlier replies ...
    Action: calculator
    Action Input: (17 + 5) * 3
    Observation: 66                                     <- ... and their observations
    Thought:                                            <- open: the model continues from here

`read_layout` splits such a message into its instructions and the turns it holds, so the rest of
the reading treats them like a system prompt and separate messages. Part of reading a request
(see `mockllm.reading.conversation`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Layout", "read_layout"]

_FIELD = re.compile(r"(?im)^[ \t>#*_`-]*+(question|问题|thought|思考|action[ _]input|行动输入|action"
                    r"|行动|observation|观察|final[ _]answer|最终答案)[*_`]*+[ \t]*+[:：][*_`]*+[ \t]*+")
_PROMPT_WORDS = re.compile(r"(?i)\btools?\b|工具|\baction[ _]input\s*+[:：]")
_QUESTION, _OBSERVATION = ("question", "问题"), ("observation", "观察")


@dataclass(frozen=True)
class Layout:
    """A user message read as a prompt: `instructions` (the text before the question: tools,
    format, examples; '' if none), the `turns` it holds as (role, text) pairs (the question as a
    user turn, then each earlier reply and its observation), and its `opening`: the start of the
    next reply when the prompt ends in one for the model to complete ('Thought:'), else ''."""
    instructions: str
    turns: tuple[tuple[str, str], ...]
    opening: str


@lru_cache(maxsize=256)
def read_layout(text: str) -> Layout | None:
    """The layout of a user message, or None for an ordinary one (no question line with
    instructions before it or a scratchpad after it). Memoised: a growing prompt is resent."""
    fields = [(m.group(1).lower(), m.start(), m.end()) for m in _FIELD.finditer(text)]
    asked = [i for i, (name, _, _) in enumerate(fields) if name in _QUESTION]
    if not asked:
        return None
    first = asked[-1]  # the last question line: the ones before it belong to the instructions
    instructions = text[:fields[first][1]].strip()
    after = fields[first + 1:]
    if not after and not (instructions and _PROMPT_WORDS.search(instructions)):
        return None
    end = after[0][1] if after else len(text)
    turns = [("user", "Question: " + text[fields[first][2]:end].strip())]
    start = end
    for i, (name, at, body) in enumerate(after):
        if name not in _OBSERVATION:
            continue
        turns.append(("assistant", text[start:at].strip()))
        stop = after[i + 1][1] if i + 1 < len(after) else len(text)  # up to the next field line
        turns.append(("user", "Observation: " + text[body:stop].strip()))
        start = stop
    rest = text[start:].strip()
    last = _FIELD.fullmatch(rest + " ") if rest else None
    if last and last.group(1).lower() in ("thought", "思考"):
        return Layout(instructions, tuple(turns), text[start:].lstrip())  # the model goes on
    if rest:
        turns.append(("assistant", rest))
    return Layout(instructions, tuple(turns), "")
