"""Cases for lesson 13 (Tokens in practice): `fit_to_window`."""
from __future__ import annotations

import copy
from typing import Any

from solutions.course.exercises import Case, Cause, Exercise, returns
from solutions.window import PER_MESSAGE_TOKENS, REPLY_PRIMING_TOKENS, estimate_prompt_tokens

SENT: list[Any] = []
"""The current case's messages, a copy of them, the window and the reserve (set by its setup)."""


def _words(n: int, word: str = "word") -> str:
    """`n` words, one token each in the mock's tokenizer."""
    return " ".join([word] * n)


SYSTEM = {"role": "system", "content": "You are a careful agent. " + _words(200, "rule")}
QUESTION = {"role": "user", "content": "Question: Pull last quarter's orders and total them."}


def _step(number: int, reply: int, observation: int) -> list[dict]:
    """One step: the model's reply and the observation after it."""
    return [{"role": "assistant", "content": f"Thought: step {number}.\nAction: query_orders\n"
                                             f"Action Input: {{}} {_words(reply, 'why')}"},
            {"role": "user", "content": f"Observation: {_words(observation, f'row{number}')}"}]


STEPS = [_step(1, 10, 300), _step(2, 10, 400), _step(3, 10, 350), _step(4, 10, 50)]
HISTORY = [SYSTEM, QUESTION, *[m for step in STEPS for m in step]]


def _size(messages: list[dict]) -> int:
    """The prompt tokens of `messages` (the lesson's estimate)."""
    return estimate_prompt_tokens(messages)


def _part(step: list[dict]) -> int:
    """What one step adds to a prompt."""
    return _size(step) - REPLY_PRIMING_TOKENS


def _from(first: int, steps: list[list[dict]] = STEPS, opening: tuple = (SYSTEM, QUESTION)) -> list[dict]:
    """The opening, then the steps from number `first` (0-based) on."""
    return [*opening, *[m for step in steps[first:] for m in step]]


def _fitting(messages: list[dict], window: int, reserve: int, expected: list[dict], label: str,
             hint: str) -> Case:
    """A case: fit_to_window(messages, window, reserve) returns `expected`, and leaves `messages` alone."""
    def setup() -> tuple[tuple, dict]:
        sent = copy.deepcopy(messages)  # the caller's list: a fresh one, so no case changes another's
        SENT[:] = [sent, copy.deepcopy(messages), window, reserve, expected]
        return (sent, window, reserve), {}
    kept = len(expected)
    says = ("the messages, all of them" if kept == len(messages) else
            f"{kept} of the {len(messages)} messages: the opening and the newest steps, "
            f"{_size(expected)} tokens + {reserve} reserved <= {window}") + ", the list passed in unchanged"
    return Case(setup=setup, expect=lambda value: value == expected and SENT[0] == SENT[1], says=says,
                label=label, hint=hint)


FULL = _size(HISTORY)
_BREAKS = [{"role": "user", "content": "Your reply could not be parsed: " + _words(60, "fix")}]
WITH_CORRECTION = [SYSTEM, QUESTION, *STEPS[0], *STEPS[1], *_BREAKS, *STEPS[2], *STEPS[3]]
_CHINESE = [{"role": "system", "content": "你是一个细心的助手。" * 20}, QUESTION,
            {"role": "assistant", "content": "Thought: 查询订单。" + "好" * 100},
            {"role": "user", "content": "Observation: " + "订单" * 200},
            {"role": "assistant", "content": "Thought: 再查一次。"}, {"role": "user", "content": "Observation: 无"}]
_ENGLISH = [SYSTEM, QUESTION, *STEPS[3]]
FIT_CASES = (
    _fitting(HISTORY, FULL + 100, 100, HISTORY, "fit_to_window(<4 steps>, window=<the prompt + 100>, reserve=100)",
             "when the prompt and the reserve fit, send every message (a new list, the same messages)"),
    _fitting(HISTORY, FULL + 99, 100, _from(1), "fit_to_window(<4 steps>, window=<the prompt + 99>, reserve=100)",
             "one token over: leave out the oldest step (its reply and its observation), keep the rest"),
    _fitting(HISTORY, _size(_from(2)) + 256, 256, _from(2),
             "fit_to_window(<4 steps>, window=<steps 3 and 4 + 256 exactly>, reserve=256)",
             "the prompt may use the window up to the reserve exactly: fit when tokens + reserve <= window"),
    _fitting(HISTORY, FULL + 1, 512, _from(next(k for k in range(4) if _size(_from(k)) + 512 <= FULL + 1)),
             "fit_to_window(<4 steps>, window=<the prompt + 1>, reserve=512)",
             "the reserve is the room the reply needs: tokens + reserve must fit in the window"),
    _fitting(HISTORY, _size(_from(3)), 0, _from(3), "fit_to_window(<4 steps>, window=<opening + last step>, reserve=0)",
             "keep the system prompt, the question and the last step, whatever else must go"),
    _fitting(WITH_CORRECTION, _size(WITH_CORRECTION) - _part(STEPS[0]) - 1, 0,
             [SYSTEM, QUESTION, *STEPS[2], *STEPS[3]],
             "fit_to_window(<a step of a reply, an observation and a correction>, ...)",
             "a step is the assistant reply and every message after it up to the next reply: leave "
             "it out whole, never an observation without its reply"),
    _fitting(_ENGLISH, _size(_ENGLISH) + 10, 10, _ENGLISH,
             f"fit_to_window(<messages of {sum(len(m['content']) for m in _ENGLISH):,} characters and "
             f"{_size(_ENGLISH)} tokens>, window=<their tokens + 10>, reserve=10)",
             "count tokens (estimate_prompt_tokens), not characters: 'rule rule rule' is 3 tokens, 14 characters"),
    _fitting(_CHINESE, _size(_CHINESE), 0, _CHINESE, "fit_to_window(<Chinese messages that fit exactly>, ...)",
             "count tokens with estimate_prompt_tokens: one Chinese character is one token here"),
    _fitting([QUESTION, *STEPS[0], *STEPS[3]], _size([QUESTION, *STEPS[3]]), 0, [QUESTION, *STEPS[3]],
             "fit_to_window(<no system prompt: the question first>, ...)",
             "the opening is every message up to the first user message: here the question alone"),
    Case(setup=lambda: ((HISTORY, _size(_from(3)) - 1, 0), {}), raises=ValueError, match="window",
         label="fit_to_window(<4 steps>, window=<one token under opening + last step>, reserve=0)",
         hint="when even the opening and the last step do not fit, raise ValueError saying so "
              "(naming the window): do not loop, do not drop the system prompt"),
    Case(setup=lambda: ((HISTORY, 100_000, 100_000), {}), raises=ValueError, match="window",
         label="fit_to_window(<4 steps>, window=100000, reserve=100000)",
         hint="a reserve as large as the window leaves no room for any prompt: raise ValueError"),
    Case((HISTORY, 0, 0), raises=ValueError, match="window",
         hint="a window under 1 token is a mistake: raise ValueError naming window"),
)


def _mutated(value: Any) -> bool:
    """True when the messages passed in were changed by the call."""
    return len(SENT) == 5 and SENT[0] != SENT[1]


def _lost_system(value: Any) -> bool:
    """True when a system prompt passed in is missing from the result."""
    return (len(SENT) == 5 and isinstance(value, list) and SENT[1][0].get("role") == "system"
            and SENT[1][0] not in value)


def _lost_question(value: Any) -> bool:
    """True when the question is missing from the result."""
    return isinstance(value, list) and bool(value) and QUESTION not in value


def _lost_last(value: Any) -> bool:
    """True when the newest message is missing from the result."""
    return len(SENT) == 5 and isinstance(value, list) and bool(value) and value[-1] != SENT[1][-1]


def _orphan(value: Any) -> bool:
    """True when the first message after the opening is not a reply: a step was cut in two."""
    if not (isinstance(value, list) and value and all(isinstance(m, dict) for m in value)):
        return False
    users = [i for i, m in enumerate(value) if m.get("role") == "user"]
    return bool(users) and users[0] + 1 < len(value) and value[users[0] + 1].get("role") != "assistant"


def _over(value: Any) -> bool:
    """True when the result and the reserve do not fit in the window."""
    if not (len(SENT) == 5 and isinstance(value, list) and all(isinstance(m, dict) for m in value)):
        return False
    return _size(value) + SENT[3] > SENT[2]


def _over_without_reserve(value: Any) -> bool:
    """True when the result fits the window only if the reserve is forgotten."""
    return _over(value) and _size(value) <= SENT[2]


def _one_step_too_many(value: Any) -> bool:
    """True when the result is the expected one without its oldest step, which fitted exactly."""
    if len(SENT) != 5 or not isinstance(value, list):
        return False
    expected, window, reserve = SENT[4], SENT[2], SENT[3]
    opening = next(i for i, m in enumerate(expected) if m.get("role") == "user") + 1
    later = [i for i, m in enumerate(expected) if i > opening and m.get("role") == "assistant"]
    return bool(later) and value == expected[:opening] + expected[later[0]:] \
        and _size(expected) + reserve == window


def _too_much(value: Any) -> bool:
    """True when the result fits but holds fewer steps than fit."""
    if len(SENT) != 5 or not isinstance(value, list) or _over(value):
        return False
    return len(value) < len(SENT[4]) and all(message in SENT[1] for message in value)


FIT_CAUSES = (
    returns(list, "returns something that is not a list: return the list of messages to send"),
    Cause(_mutated, "the messages passed in were changed: build a new list (the history, "
                    "trace.messages, must stay whole)"),
    Cause(_lost_system, "the system prompt was left out: it holds the rules and the tools, keep "
                        "the opening (every message up to the first user message)"),
    Cause(_lost_question, "the question was left out: keep the opening, system prompt and question"),
    Cause(_lost_last, "the newest message was left out: drop the oldest steps first, and always "
                      "keep the last step"),
    Cause(_orphan, "a step was cut in two: an observation is sent without the reply it answers; "
                   "leave out a whole step (the reply and every message after it up to the next reply)"),
    Cause(_over_without_reserve, "the reserve was not kept: the prompt's tokens plus the reserve "
                                 "must fit in the window"),
    Cause(_over, "the result does not fit: count with estimate_prompt_tokens (tokens, not "
                 "characters) and keep dropping until tokens + reserve <= window"),
    Cause(_one_step_too_many, "one step too many was left out: tokens + reserve equal to the "
                              "window fits, so fit when tokens + reserve <= window"),
    Cause(_too_much, "more was left out than needed: count tokens (estimate_prompt_tokens), not "
                     "characters, and stop as soon as tokens + reserve <= window"),
    Cause(lambda error: not isinstance(error, ValueError), "when nothing fits, raise ValueError "
          "naming the window, not another error", raised=True),
)
EXERCISES = [
    Exercise(name="fit_to_window", lesson="13", reference="solutions.window:fit_to_window",
             cases=FIT_CASES, causes=FIT_CAUSES,
             show=lambda value: (f"<{len(value)} messages, {_size(value)} tokens>"
                                 if isinstance(value, list) and all(isinstance(m, dict) for m in value)
                                 else repr(value)[:200])),
]
