"""Wrong solutions of lesson 07's exercises (truncate_observation, run_within_budget)."""
from __future__ import annotations

from solutions.context import MAX_OBSERVATION_CHARS
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("07")


def _marker(cut: int, total: int) -> str:
    """The lesson's marker, right."""
    return f"\n... [truncated {cut:,} of {total:,} characters]"


# ---------------------------------------------------------------- truncate_observation

@CATALOGUE.wrong("truncate_observation", fault="cuts the text and says nothing of the cut",
                 says="no '[truncated ...]' marker")
def no_marker(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    return text[:limit]


@CATALOGUE.wrong("truncate_observation", fault="a marker in its own words, not the lesson's",
                 says="no '[truncated ...]' marker")
def own_marker(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters]"


@CATALOGUE.wrong("truncate_observation", fault="the marker's cut is the limit, not the characters left out",
                 says="the marker's numbers do not add up")
def miscounted(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return text[:limit] + _marker(limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="off by one: keeps limit - 1 characters (a slice end taken as inclusive)",
                 says="the marker's numbers do not add up")
def keeps_one_less(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return text[:max(limit - 1, 0)] + _marker(len(text) - limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="numbers without thousands separators",
                 says="thousands separators")
def no_separators(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... [truncated {len(text) - limit} of {len(text)} characters]"


@CATALOGUE.wrong("truncate_observation", fault="off by one: cuts a text of exactly limit characters (< for <=)",
                 says="exactly `limit` characters is not too long")
def cuts_at_the_limit(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) < limit:
        return text
    return text[:limit] + _marker(len(text) - limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="counts UTF-8 bytes, not characters",
                 says="count characters, len(text), not bytes")
def counts_bytes(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    kept = data[:limit].decode("utf-8", errors="ignore")  # never half a character
    return kept + _marker(len(data) - limit, len(data))


@CATALOGUE.wrong("truncate_observation", fault="fits the marker inside the limit (keeps fewer characters)",
                 says="is not counted in `limit`")
def marker_inside_the_limit(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    room = max(limit - len(_marker(len(text), len(text))), 0)  # the whole result within limit
    return text[:room] + _marker(len(text) - room, len(text))


@CATALOGUE.wrong("truncate_observation", fault="ignores the limit argument: always the default 500",
                 says="compare len(text) with the `limit` argument")
def ignores_the_limit(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= MAX_OBSERVATION_CHARS:
        return text
    cut = len(text) - MAX_OBSERVATION_CHARS
    return text[:MAX_OBSERVATION_CHARS] + _marker(cut, len(text))


@CATALOGUE.wrong("truncate_observation", fault="moves the cut back to the last line break, to keep whole lines",
                 says="do not move the cut to a line break")
def whole_lines_only(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    end = text.rfind("\n", 0, limit + 1)  # never half a row of a listing
    kept = text[:end] if end > 0 else text[:limit]
    return kept + _marker(len(text) - len(kept), len(text))


@CATALOGUE.wrong("truncate_observation", fault="`not limit` taken as no limit: 0 keeps the whole text",
                 says="0 is a limit too")
def zero_is_no_limit(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if not limit or len(text) <= limit:
        return text
    return text[:limit] + _marker(len(text) - limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="a negative limit not refused (text[:-1] and a wrong marker)",
                 says="a negative limit makes no sense")
def negative_limit_allowed(text, limit=500):
    if len(text) <= limit:
        return text
    return text[:limit] + _marker(len(text) - limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="an assert for the negative limit (AssertionError, gone under -O)",
                 says="raises AssertionError where ValueError is expected")
def asserts_the_limit(text, limit=500):
    assert limit >= 0, "limit must be 0 or more"
    if len(text) <= limit:
        return text
    return text[:limit] + _marker(len(text) - limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="the marker on the same line as the kept text",
                 says="the marker must start on a line of its own")
def marker_on_the_same_line(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return text[:limit] + _marker(len(text) - limit, len(text)).lstrip("\n")


@CATALOGUE.wrong("truncate_observation", fault="no check that text is a str",
                 harmless="len() of a non-str raises TypeError anyway, and every observation the lesson "
                          "truncates is text (truncating_tools passes str(result))")
def no_type_check(text, limit=500):
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    if len(text) <= limit:
        return text
    return text[:limit] + _marker(len(text) - limit, len(text))


def _cut(text: str, limit: int) -> str:
    """The lesson's rule, right: a negative limit refused, a long text cut with its marker."""
    if limit < 0:
        raise ValueError(f"limit must be 0 or more, got {limit}")
    return text if len(text) <= limit else text[:limit] + _marker(len(text) - limit, len(text))


@CATALOGUE.wrong("truncate_observation", fault="strips the text first: a short one loses its spaces and last line break",
                 says="spaces or line breaks at an end were stripped")
def strips_the_text(text, limit=500):
    return _cut(text.strip(), limit)  # tools often end their output with a line break


@CATALOGUE.wrong("truncate_observation", fault="rstrips the kept part, so that the marker does not follow an empty line",
                 says="spaces or line breaks at an end were stripped")
def rstrips_the_kept_part(text, limit=500):
    cut = _cut(text, limit)
    return cut if cut == text else text[:limit].rstrip() + cut[limit:]


@CATALOGUE.wrong("truncate_observation", fault="does not cut when the marker is longer than what it would cut",
                 says="the text came back whole although it is longer than `limit`")
def not_worth_cutting(text, limit=500):
    cut = _cut(text, limit)
    return text if len(cut) >= len(text) else cut  # cutting would make it longer


@CATALOGUE.wrong("truncate_observation", fault="None read as no limit",
                 harmless="budgeted_agent switches truncation off for max_observation_chars=None before "
                          "truncate_observation is called (check_limits, then no truncating_tools), so "
                          "None never reaches it")
def none_is_no_limit(text, limit=500):
    return text if limit is None else _cut(text, limit)


# ---------------------------------------------------------------- run_within_budget

def _spent_all(meter, token_budget) -> bool:
    """The exercise's budget test, right."""
    return token_budget is not None and meter.total_tokens >= token_budget


def _loop(take_step, room, over_budget, answered=lambda step: step.final_answer is not None) -> tuple[list, str]:
    """The exercise's loop, but for how it tests the steps left (`room(steps)`), the budget
    (`over_budget(steps)`) and the answer (`answered(step)`), each written as the mistake writes it."""
    steps: list = []
    while room(steps):
        if over_budget(steps):
            return steps, "token_budget"
        steps.append(take_step())
        if answered(steps[-1]):
            return steps, "answered"
    return steps, "step_limit"


def _budget_test(test):
    """A wrong solution whose only mistake is its budget test, `test(meter, token_budget, steps)`."""
    def run_within_budget(take_step, meter, max_steps, token_budget):
        return _loop(take_step, lambda steps: len(steps) < max_steps,
                     lambda steps: token_budget is not None and test(meter, token_budget, steps))
    return run_within_budget


for _fault, _says, _test in [
        ("counts completion tokens only", "prompt tokens included",
         lambda meter, budget, steps: meter.completion_tokens >= budget),
        ("adds up this run's steps' tokens, not what the meter has spent", "not the tokens of this run's steps",
         lambda meter, budget, steps: sum(step.tokens for step in steps) >= budget),
        ("> for >=: a budget spent exactly allows one more call", "use >=, not >",
         lambda meter, budget, steps: meter.total_tokens > budget),
        ("stops early, guessing the next call costs as much as the last", "not a guess at the next call",
         lambda meter, budget, steps: meter.total_tokens + (meter.calls[-1].total_tokens if meter.calls else 0) >= budget),
        ("a budget per call (the last call's tokens), not per run", "the budget is for the whole run",
         lambda meter, budget, steps: bool(meter.calls) and meter.calls[-1].total_tokens >= budget)]:
    CATALOGUE.wrong("run_within_budget", fault=_fault, says=_says)(_budget_test(_test))


@CATALOGUE.wrong("run_within_budget", fault="the budget checked once, after the run",
                 says="the budget is checked too late")
def checked_after_the_run(take_step, meter, max_steps, token_budget):
    steps = []
    for _ in range(max_steps):
        steps.append(take_step())
        if steps[-1].final_answer is not None:
            break
    if token_budget is not None and meter.total_tokens >= token_budget:
        return steps, "token_budget"
    return steps, "answered" if steps[-1].final_answer is not None else "step_limit"


@CATALOGUE.wrong("run_within_budget", fault="the budget checked after each call instead of before it",
                 says="check the budget before the first call too")
def checked_after_each_call(take_step, meter, max_steps, token_budget):
    steps = []
    for _ in range(max_steps):
        step = take_step()
        steps.append(step)
        if step.final_answer is not None:
            return steps, "answered"
        if token_budget is not None and meter.total_tokens >= token_budget:
            return steps, "token_budget"
    return steps, "step_limit"


@CATALOGUE.wrong("run_within_budget", fault="the budget checked before the answer: an answer paid for is thrown away",
                 says="an answer already paid for")
def budget_beats_the_answer(take_step, meter, max_steps, token_budget):
    steps = []
    for _ in range(max_steps):
        if token_budget is not None and meter.total_tokens >= token_budget:
            return steps, "token_budget"
        steps.append(take_step())
        if token_budget is not None and meter.total_tokens >= token_budget:
            return steps, "token_budget"
        if steps[-1].final_answer is not None:
            return steps, "answered"
    return steps, "step_limit"


@CATALOGUE.wrong("run_within_budget", fault="the budget checked once, before the first call only",
                 says="the run went past the budget")
def checked_once_before(take_step, meter, max_steps, token_budget):
    if token_budget is not None and meter.total_tokens >= token_budget:
        return [], "token_budget"
    steps = []
    for _ in range(max_steps):
        steps.append(take_step())
        if steps[-1].final_answer is not None:
            return steps, "answered"
    return steps, "step_limit"


@CATALOGUE.wrong("run_within_budget", fault="off by one: max_steps + 1 steps (stops one call late)",
                 says="stop after max_steps steps")
def one_step_too_many(take_step, meter, max_steps, token_budget):
    return _loop(take_step, lambda steps: len(steps) <= max_steps, lambda steps: _spent_all(meter, token_budget))


@CATALOGUE.wrong("run_within_budget", fault="a format error not counted as a step (a private cap of 50)",
                 says="a step that ends in a format error is a step too")
def errors_not_counted(take_step, meter, max_steps, token_budget):
    steps, used = [], 0
    while used < max_steps and len(steps) < 50:
        if token_budget is not None and meter.total_tokens >= token_budget:
            return steps, "token_budget"
        step = take_step()
        steps.append(step)
        if step.final_answer is not None:
            return steps, "answered"
        if step.error is None:  # a reply that did not parse is retried, not counted
            used += 1
    return steps, "step_limit"


@CATALOGUE.wrong("run_within_budget", fault="retries a format error at once, outside max_steps and the budget",
                 says="retries included", slow=True)
def retries_escape(take_step, meter, max_steps, token_budget):
    steps = []
    for _ in range(max_steps):
        if token_budget is not None and meter.total_tokens >= token_budget:
            return steps, "token_budget"
        step = take_step()
        while step.error is not None:  # ask again until the reply parses
            steps.append(step)
            step = take_step()
        steps.append(step)
        if step.final_answer is not None:
            return steps, "answered"
    return steps, "step_limit"


@CATALOGUE.wrong("run_within_budget", fault="its own stop reason 'budget', which the trace does not know",
                 says="a stop reason the trace does not know")
def own_stop_reason(take_step, meter, max_steps, token_budget):
    steps, reason = _loop(take_step, lambda steps: len(steps) < max_steps, lambda steps: _spent_all(meter, token_budget))
    return steps, {"token_budget": "budget", "step_limit": "max_steps"}.get(reason, reason)


@CATALOGUE.wrong("run_within_budget", fault="`if token_budget and ...`: a budget of 0 taken as no budget",
                 harmless="budgeted_agent refuses a token_budget under 1 before the loop starts "
                          "(check_limits), so no cell of the course passes 0")
def zero_budget_is_none(take_step, meter, max_steps, token_budget):
    return _loop(take_step, lambda steps: len(steps) < max_steps,
                 lambda steps: bool(token_budget) and meter.total_tokens >= token_budget)


@CATALOGUE.wrong("run_within_budget", fault="`if step.final_answer:` tests the answer's truth, not None",
                 harmless="an empty Final Answer is a format error (parse_step returns an error, not ''), "
                          "so no step of the lesson has '' as its final answer")
def truthy_answer(take_step, meter, max_steps, token_budget):
    return _loop(take_step, lambda steps: len(steps) < max_steps, lambda steps: _spent_all(meter, token_budget),
                 answered=lambda step: bool(step.final_answer))


def _tests_after_the_step(*, limit_first: bool):
    """A loop that takes a step, then tests the step limit and the answer (in the order given)."""
    def run_within_budget(take_step, meter, max_steps, token_budget):
        steps = []
        while not _spent_all(meter, token_budget):
            steps.append(take_step())
            ended = {"step_limit": len(steps) >= max_steps, "answered": steps[-1].final_answer is not None}
            for reason in ("step_limit", "answered") if limit_first else ("answered", "step_limit"):
                if ended[reason]:
                    return steps, reason
        return steps, "token_budget"
    return run_within_budget


CATALOGUE.wrong("run_within_budget", fault="tests the step limit before the answer: an answer on the last step is a step limit",
                says="test for the final answer before the step limit")(_tests_after_the_step(limit_first=True))
CATALOGUE.wrong("run_within_budget", fault="tests the step limit after each step: max_steps=0 still takes one",
                says="max_steps=0 allows no step")(_tests_after_the_step(limit_first=False))


@CATALOGUE.wrong("run_within_budget", fault="counts the meter's calls as the run's steps",
                 says="max_steps counts this run's steps (len(steps)), not the meter's calls")
def meter_calls_as_steps(take_step, meter, max_steps, token_budget):
    return _loop(take_step, lambda steps: len(meter.calls) < max_steps,
                 lambda steps: _spent_all(meter, token_budget))


@CATALOGUE.wrong("run_within_budget", fault="reads the meter once, then adds each step's tokens to it",
                 harmless="each step makes one call through the meter, and step.tokens is that call's "
                          "usage, so the running sum is meter.total_tokens at every check")
def meter_read_once(take_step, meter, max_steps, token_budget):
    before = meter.total_tokens
    return _loop(take_step, lambda steps: len(steps) < max_steps, lambda steps: token_budget is not None
                 and before + sum(step.tokens for step in steps) >= token_budget)
