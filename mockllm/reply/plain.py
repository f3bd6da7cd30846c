"""Plain chat: a request that asks for no ReAct format and offers no tool is answered in prose.

A chat model answers "What is the capital of France?" with a sentence, not with `Thought:` and
`Final Answer:` fields; the mock does too when nothing in the request asks for the fields:

- no tool is offered (neither `tools=` nor a tool list in the prompt);
- the prompt is not a DSPy adapter's (its `[[ ## field ## ]]` layout is a format of its own);
- the prompt names none of the ReAct fields (`Thought:`, `Action:`, `Action Input:`,
  `Observation:`, `Final Answer:`, or their Chinese labels) and holds no format rule;
- no earlier reply of the model is written in the ReAct fields, no corrective message was sent,
  and the last message does not leave a `Thought:` to complete.

The reply is then the answer to the latest user message alone, as tool-call mode writes one, and
its explanation says `"prompt_format": "plain"`. Earlier tool calls and their results (a framework's last request,
sent without `tools=` so that the model answers) are read: the answer uses what the tools
returned. A persona's quirks that act on the ReAct fields or on tool calls have nothing to act on
and do not fire; those that write prose (the `tiny` persona's rambling, repeated or empty
replies) still do (see docs/mock.md).
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from mockllm.brain.context import Move
from mockllm.brain.policy import decide
from mockllm.reading.conversation import Conversation, ToolSpec, _read_question

__all__ = ["plain_chat", "plain_move", "latest_question", "names_fields"]

_FIELD = re.compile(r"\b(?:thought|action(?:[ _]input)?|observation|final[ _]answer)[ \t]*+[:：]"
                    r"|(?:思考|行动|观察|最终答案)[ \t]*+[:：]", re.I)
"""A ReAct field label, as a format section or an example writes it (`Thought:`, `思考：`)."""


@lru_cache(maxsize=64)
def names_fields(prompt: str) -> bool:
    """Whether the prompt names a ReAct field label, asking for the format (memoised: an agent
    resends its prompt at every step)."""
    return _FIELD.search(prompt) is not None


def plain_chat(conv: Conversation) -> bool:
    """Whether `conv` is a plain chat request: text mode, no tool, no ReAct format asked or used."""
    return (conv.mode == "text" and conv.dspy is None and not conv.tools
            and "format" not in conv.rules and not conv.opening and not conv.corrections and not names_fields(conv.system)
            and not any([names_fields(past.reply) for past in conv.steps]))


def called_tools(conv: Conversation) -> tuple[ToolSpec, ...]:
    """The tools the earlier turns called, each once, in order (their parameters from the call)."""
    called: dict[str, ToolSpec] = {}
    for past in conv.steps:
        if past.action and past.action not in called:
            called[past.action] = ToolSpec(past.action, "", tuple(past.action_input or {}))
    return tuple(called.values())


def latest_question(conv: Conversation) -> Conversation:
    """The conversation as a chat model reads it: a user message after the model's last prose
    reply is the question now (the reading keeps the first one, the task of an agent's run)."""
    last = conv.steps[-1] if conv.steps else None
    if last is None or last.action is not None or not last.observation:
        return conv
    question, language = _read_question(last.observation)
    return replace(conv, question=question, language=language, steps=conv.steps[:-1])


def plain_move(conv: Conversation, guesses: bool) -> Move:
    """The answer to a plain chat request (read by `latest_question`), from what the tools called
    earlier returned.

    No tool is offered now, so a move that would call one more is replaced by the answer the
    model gives without tools.
    """
    called = called_tools(conv)
    if called:
        move = decide(replace(conv, tools=called), guesses=guesses)
        if move.action is None:
            return move
    return decide(conv, guesses=guesses)
