"""Wrong solutions of lesson 13's exercise (fit_to_window)."""
from __future__ import annotations

from solutions.window import estimate_prompt_tokens
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("13")


def _checked(window, reserve) -> None:
    """The argument checks every wrong solution below gets right."""
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"window must be an int of at least 1, got {window!r}")
    if isinstance(reserve, bool) or not isinstance(reserve, int) or reserve < 0:
        raise ValueError(f"reserve must be an int of 0 or more, got {reserve!r}")


def _split(messages):
    """(opening, steps): every message up to the first user message, and the steps after it."""
    question = next(i for i, m in enumerate(messages) if m.get("role") == "user")
    rest = messages[question + 1:]
    starts = [i for i, m in enumerate(rest) if m.get("role") == "assistant"]
    steps = [rest[a:b] for a, b in zip([0, *starts], [*starts, len(rest)]) if a < b]
    return list(messages[:question + 1]), steps


def _join(opening, steps):
    return opening + [m for step in steps for m in step]


def _too_big(window, reserve, total):
    raise ValueError(f"cannot fit {total} tokens and {reserve} reserved in the window of {window}")


@CATALOGUE.wrong("fit_to_window", fault="drops the oldest messages from the start, system prompt first",
                 says="the system prompt was left out")
def drops_the_system_prompt(messages, window, reserve=0):
    _checked(window, reserve)
    kept = list(messages)
    while kept and estimate_prompt_tokens(kept) + reserve > window:
        kept.pop(0)
    if not kept:
        _too_big(window, reserve, estimate_prompt_tokens(messages))
    return kept


@CATALOGUE.wrong("fit_to_window", fault="drops the newest steps, the latest observation first",
                 says="the newest message was left out")
def drops_the_newest(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    while steps and estimate_prompt_tokens(_join(opening, steps)) + reserve > window:
        steps.pop()
    if estimate_prompt_tokens(_join(opening, steps)) + reserve > window:
        _too_big(window, reserve, estimate_prompt_tokens(opening))
    return _join(opening, steps)


@CATALOGUE.wrong("fit_to_window", fault="counts characters (len(content)) instead of tokens",
                 says="count tokens (estimate_prompt_tokens), not")
def counts_characters(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)

    def size(kept):
        return sum(len(m.get("content") or "") for m in kept)
    while len(steps) > 1 and size(_join(opening, steps)) + reserve > window:
        steps.pop(0)
    if size(_join(opening, steps)) + reserve > window:
        _too_big(window, reserve, size(_join(opening, steps)))
    return _join(opening, steps)


@CATALOGUE.wrong("fit_to_window", fault="forgets the reserve: fits the prompt alone in the window",
                 says="the reserve was not kept")
def forgets_the_reserve(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    while len(steps) > 1 and estimate_prompt_tokens(_join(opening, steps)) > window:
        steps.pop(0)
    if estimate_prompt_tokens(_join(opening, steps)) > window:
        _too_big(window, reserve, estimate_prompt_tokens(_join(opening, steps)))
    return _join(opening, steps)


@CATALOGUE.wrong("fit_to_window", fault="off by one: fits only when tokens + reserve < window",
                 says="one step too many was left out")
def off_by_one(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    while len(steps) > 1 and estimate_prompt_tokens(_join(opening, steps)) + reserve >= window:
        steps.pop(0)
    if estimate_prompt_tokens(_join(opening, steps)) + reserve >= window:
        _too_big(window, reserve, estimate_prompt_tokens(_join(opening, steps)))
    return _join(opening, steps)


@CATALOGUE.wrong("fit_to_window", fault="deletes the old steps from the caller's list (del messages[i])",
                 says="the messages passed in were changed")
def mutates_the_history(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    while len(steps) > 1 and estimate_prompt_tokens(messages) + reserve > window:
        del messages[len(opening):len(opening) + len(steps.pop(0))]
    if estimate_prompt_tokens(messages) + reserve > window:
        _too_big(window, reserve, estimate_prompt_tokens(messages))
    return messages


@CATALOGUE.wrong("fit_to_window", fault="drops one message at a time, leaving an observation without its reply",
                 says="a step was cut in two")
def cuts_a_step_in_two(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    rest = [m for step in steps for m in step]
    while len(rest) > 1 and estimate_prompt_tokens(opening + rest) + reserve > window:
        rest.pop(0)
    if estimate_prompt_tokens(opening + rest) + reserve > window:
        _too_big(window, reserve, estimate_prompt_tokens(opening + rest))
    return opening + rest


@CATALOGUE.wrong("fit_to_window", fault="loops forever when even the opening and the last step do not fit",
                 says="still running after", slow=True)
def loops_when_nothing_fits(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    first = 0
    while estimate_prompt_tokens(_join(opening, steps[first:])) + reserve > window:
        first = min(first + 1, len(steps) - 1)  # stuck at the last step, for ever
    return _join(opening, steps[first:])


@CATALOGUE.wrong("fit_to_window", fault="runs out of steps and fails with an IndexError when nothing fits",
                 says="raises IndexError where ValueError is expected")
def index_error_when_nothing_fits(messages, window, reserve=0):
    _checked(window, reserve)
    opening, steps = _split(messages)
    while estimate_prompt_tokens(_join(opening, steps)) + reserve > window:
        steps.pop(0)
        steps[0]  # the last step has gone: IndexError
    return _join(opening, steps)


@CATALOGUE.wrong("fit_to_window", fault="keeps the system prompt but drops the question with the old steps",
                 says="the question was left out")
def drops_the_question(messages, window, reserve=0):
    _checked(window, reserve)
    kept = list(messages)
    head = 1 if kept and kept[0].get("role") == "system" else 0
    while len(kept) > head + 2 and estimate_prompt_tokens(kept) + reserve > window:
        kept.pop(head)
    if estimate_prompt_tokens(kept) + reserve > window:
        _too_big(window, reserve, estimate_prompt_tokens(kept))
    return kept
