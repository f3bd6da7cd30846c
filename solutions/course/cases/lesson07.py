"""Cases for lesson 07 (Context and budget): `truncate_observation` and `run_within_budget`."""
from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise, returns

# ---------------------------------------------------------------- truncate_observation(text, limit)

_MARKER = re.compile(r"\n\.\.\. \[truncated ([\d,]+) of ([\d,]+) characters\]$")
_EXACT = ("keep text[:limit], then add '\\n... [truncated {cut:,} of {total:,} characters]' where "
          "cut = len(text) - limit and total = len(text)")
_LISTING = "34 orders from 2024-10-01 to 2024-10-31 (total 8487.18 CNY):\n" + "\n".join(
    f"A08{n:02d} | 2024-10-{n % 28 + 1:02d} | Books | {n * 3}.50 | shipped" for n in range(1, 35))


def _marker(text: str, limit: int) -> str:
    """What the reference returns for `text` cut at `limit` (the cases' expected values)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... [truncated {len(text) - limit:,} of {len(text):,} characters]"


def _truncates(text: str, limit: int | None, label: str, hint: str = _EXACT) -> Case:
    """A case: truncate_observation(text[, limit]) returns exactly what the marker rule says."""
    kwargs = {} if limit is None else {"limit": limit}
    expected = _marker(text, 500 if limit is None else limit)
    found = _MARKER.search(expected)
    says = (f"the first {len(expected) - len(found.group(0))} characters, then "
            f"{found.group(0)!r}" if found else "the text, unchanged")
    return Case((text,), kwargs, expected=expected, says=says, label=label, hint=hint)


def _miscounted(value: Any) -> bool:
    """True when the marker's numbers disagree with the text kept before it."""
    found = _MARKER.search(value) if isinstance(value, str) else None
    if not found:
        return False
    cut, total = (int(number.replace(",", "")) for number in found.groups())
    return len(value) - len(found.group(0)) + cut != total


def _no_separators(value: Any) -> bool:
    """True when a marker writes a number of 1,000 or more without thousands separators."""
    return isinstance(value, str) and bool(re.search(r"\[truncated \d{4,} of|of \d{4,} characters", value))


def _no_marker(value: Any) -> bool:
    """True when the value says nothing of a cut (the cases that fail this way expect one)."""
    return isinstance(value, str) and "[truncated" not in value


TRUNCATE_CASES = (
    _truncates("2025-03-14", 500, "truncate_observation('2025-03-14', 500)",
               "a text of at most `limit` characters comes back unchanged"),
    _truncates("x" * 500, 500, "truncate_observation('x' * 500, 500)",
               "exactly `limit` characters is not too long: cut only when len(text) > limit"),
    _truncates("x" * 501, 500, "truncate_observation('x' * 501, 500)"),
    _truncates("y" * 1734, None, "truncate_observation('y' * 1734)  # the default limit",
               "the default limit is 500: cut 1,234 of 1,734 characters"),
    _truncates(_LISTING, 200, "truncate_observation(<an orders listing of 34 lines>, 200)"),
    _truncates("z" * 12345, 45, "truncate_observation('z' * 12345, 45)",
               "write the numbers with thousands separators, as f'{n:,}' does: 12,300 of 12,345"),
    _truncates("天气晴朗" * 150, 500, "truncate_observation('天气晴朗' * 150, 500)",
               "count characters, len(text), not bytes: 600 characters, 100 cut"),
    _truncates("a\nb\nc\nd", 3, "truncate_observation('a\\nb\\nc\\nd', 3)",
               "keep the first `limit` characters as they are, line breaks included"),
    Case(("2025-03-14",), {"limit": -1}, raises=ValueError, match="limit",
         hint="a negative limit makes no sense: raise ValueError naming limit"),
)
TRUNCATE_CAUSES = (
    returns(str, "returns something that is not a str: return the text, cut or not"),
    Cause(_no_marker, "cuts the text without a marker: add '\\n... [truncated {cut:,} of "
          "{total:,} characters]' so the model (and you) can see that something is missing"),
    Cause(_miscounted, "the marker's numbers are wrong: cut is len(text) - limit, the characters "
          "left out, and total is len(text), the whole observation"),
    Cause(_no_separators, "write the numbers with thousands separators, f'{n:,}': 1,234 not 1234"),
)


# ---------------------------------------------------------------- run_within_budget(take_step, ...)

PROMPT, COMPLETION = 100, 10   # the tokens of every call of the cases' client
BUDGET = 250                   # most cases' budget: two calls spend 220, three spend 330


class FixedUsageClient:
    """A scripted client whose every call costs `prompt` + `completion` tokens, whatever it is sent."""

    def __init__(self, replies: list[str], prompt: int = PROMPT, completion: int = COMPLETION) -> None:
        self.replies, self.prompt, self.completion = list(replies), prompt, completion
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> SimpleNamespace:
        """The next reply (the last one again when they run out), with fixed usage."""
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        message = SimpleNamespace(role="assistant", content=reply)
        usage = SimpleNamespace(prompt_tokens=self.prompt, completion_tokens=self.completion,
                                total_tokens=self.prompt + self.completion)
        return SimpleNamespace(choices=[SimpleNamespace(index=0, message=message,
                                                        finish_reason="stop")], usage=usage)


DATE_CALL = "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}"
FINAL = "Thought: I now know the final answer.\nFinal Answer: 2025-03-14"


def _budget_run(calls_before_final: int, max_steps: int, token_budget: int | None,
                prompt: int) -> Callable:
    """Setup: a take_step on a FixedUsageClient behind a UsageMeter, and the loop's limits."""
    def setup() -> tuple[tuple, dict]:
        from solutions.agent import run_step
        from solutions.budget import UsageMeter
        from solutions.tools import BASIC_TOOLS

        meter = UsageMeter(FixedUsageClient([DATE_CALL] * calls_before_final + [FINAL], prompt))
        messages = [{"role": "system", "content": "Answer with the tools."},
                    {"role": "user", "content": "Question: What is today's date?"}]
        return (lambda: run_step(meter, messages, BASIC_TOOLS), meter, max_steps, token_budget), {}
    return setup


def _ends(steps: int, reason: str) -> Callable[[Any], bool]:
    """The predicate: (a list of `steps` steps, `reason`) was returned."""
    def test(value: Any) -> bool:
        return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], list) \
            and len(value[0]) == steps and value[1] == reason
    return test


def _budget_case(calls_before_final: int, max_steps: int, token_budget: int | None,
                 steps: int, reason: str, hint: str) -> Case:
    """A case: run_within_budget on the fixed-usage script ends after `steps` steps with `reason`.

    Without a budget, calls cost 1 + COMPLETION tokens, so that no mistake in such a case looks
    like spending past BUDGET (see BUDGET_CAUSES)."""
    prompt = PROMPT if token_budget is not None else 1
    return Case(setup=_budget_run(calls_before_final, max_steps, token_budget, prompt),
                label=f"run_within_budget(<{calls_before_final} date calls, then a final answer; "
                      f"{prompt} + {COMPLETION} tokens a call>, meter, max_steps={max_steps}, "
                      f"token_budget={token_budget})",
                expect=_ends(steps, reason), says=f"{steps} steps, stop reason {reason!r}", hint=hint)


def _spent(value: Any) -> list[int]:
    """The running total of tokens after each returned step."""
    steps = value[0] if isinstance(value, tuple) and value and isinstance(value[0], list) else []
    totals, spent = [], 0
    for step in steps:
        spent += getattr(step, "tokens", 0) or 0
        totals.append(spent)
    return totals


def _called_after_budget(value: Any) -> bool:
    """True when a call was made although the steps before it had spent BUDGET or more."""
    return any(total >= BUDGET for total in _spent(value)[:-1])


_BEFORE = ("check before each call: if token_budget is not None and meter.total_tokens >= "
           "token_budget, return (steps, 'token_budget')")
BUDGET_CASES = (
    _budget_case(2, 8, None, 3, "answered", "without a budget, stop at the final answer"),
    _budget_case(5, 3, None, 3, "step_limit", "stop after max_steps steps: (steps, 'step_limit')"),
    _budget_case(5, 8, BUDGET, 3, "token_budget",
                 "two calls spend 220 tokens (under 250), a third 330: stop before the fourth; "
                 "count prompt tokens too (meter.total_tokens)"),
    _budget_case(5, 8, 220, 2, "token_budget",
                 "after two calls 220 tokens are spent, all of the budget: stop (use >=, not >)"),
    _budget_case(5, 8, 1, 1, "token_budget",
                 "nothing is spent before the first call, so it is made; stop before the second"),
    _budget_case(2, 8, BUDGET, 3, "answered",
                 "the third call answers: an answer already paid for ends the run as 'answered'"),
    _budget_case(5, 2, BUDGET, 2, "step_limit",
                 "max_steps still counts under a budget: two steps spend 220, under 250"),
    _budget_case(5, 2, 10_000, 2, "step_limit", "a budget never reached leaves max_steps in charge"),
)
BUDGET_CAUSES = (
    Cause(lambda v: not (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], list)),
          "returns something that is not a pair: return (steps, stop_reason), steps a list"),
    Cause(lambda v: _called_after_budget(v) and v[1] == "token_budget",
          "the budget is checked too late: a call was made after the tokens spent had reached "
          f"token_budget, so the run paid for it; {_BEFORE}, not after the run"),
    Cause(_called_after_budget,
          "the run went past the budget: count every token of a call, prompt tokens included "
          f"(meter.total_tokens, not meter.completion_tokens); {_BEFORE}"),
)


def _show_run(value: Any) -> str:
    """(steps, reason) shown short."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], list):
        return f"({len(value[0])} steps, {value[1]!r})"
    return repr(value)


EXERCISES = [
    Exercise(name="truncate_observation", lesson="07", reference="solutions.context:truncate_observation",
             cases=TRUNCATE_CASES, causes=TRUNCATE_CAUSES),
    Exercise(name="run_within_budget", lesson="07", reference="solutions.budget:run_within_budget",
             cases=BUDGET_CASES, show=_show_run, causes=BUDGET_CAUSES),
]
