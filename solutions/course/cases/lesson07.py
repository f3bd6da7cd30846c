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


CUT: list[str] = []
"""The text the current truncate_observation case passes (set by its setup, read by the causes)."""


def _truncates(text: str, limit: int | None, label: str, hint: str = _EXACT) -> Case:
    """A case: truncate_observation(text[, limit]) returns exactly what the marker rule says."""
    kwargs = {} if limit is None else {"limit": limit}
    expected = _marker(text, 500 if limit is None else limit)
    found = _MARKER.search(expected)
    says = (f"the first {len(expected) - len(found.group(0))} characters, then "
            f"{found.group(0)!r}" if found else "the text, unchanged")

    def setup() -> tuple[tuple, dict]:
        CUT[:] = [text]
        return (text,), dict(kwargs)
    return Case(setup=setup, expected=expected, says=says, label=label, hint=hint)


def _counts_bytes(value: Any) -> bool:
    """True when the marker's total is the UTF-8 bytes of the case's text, not its characters."""
    found = _MARKER.search(value) if isinstance(value, str) and CUT else None
    if not found:
        return False
    total = int(found.group(2).replace(",", ""))
    return total == len(CUT[0].encode()) != len(CUT[0])


def _unchanged(value: Any) -> bool:
    """True when the case's text came back whole (the cases that fail this way expect a cut)."""
    return bool(CUT) and value == CUT[0]


def _stripped(value: Any) -> bool:
    """True when what the value keeps of the case's text is that part with white space stripped off."""
    if not (isinstance(value, str) and CUT):
        return False
    found = _MARKER.search(value)
    kept = value[:found.start()] if found else value
    whole = CUT[0][:len(CUT[0]) - int(found.group(1).replace(",", ""))] if found else CUT[0]
    return kept != whole and kept in (whole.strip(), whole.rstrip())


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


def _marker_off_its_line(value: Any) -> bool:
    """True when a marker is written without the line break before it."""
    return isinstance(value, str) and "[truncated" in value and "\n... [truncated" not in value


_WHOLE = ("keep the first `limit` characters whole, then the marker on a new line: the marker comes "
          "after them and is not counted in `limit`; " + _EXACT)
TRUNCATE_CASES = (
    _truncates("2025-03-14", 500, "truncate_observation('2025-03-14', 500)",
               "a text of at most `limit` characters comes back unchanged"),
    _truncates("x" * 500, 500, "truncate_observation('x' * 500, 500)",
               "exactly `limit` characters is not too long: cut only when len(text) > limit"),
    _truncates("x" * 501, 500, "truncate_observation('x' * 501, 500)", _WHOLE),
    _truncates("y" * 1734, None, "truncate_observation('y' * 1734)  # the default limit",
               "the default limit is 500: cut 1,234 of 1,734 characters"),
    _truncates("hello world", 5, "truncate_observation('hello world', 5)",
               "use the `limit` argument (here 5), not the default 500; " + _WHOLE),
    _truncates(_LISTING, 200, "truncate_observation(<an orders listing of 34 lines>, 200)",
               "keep exactly text[:limit], even in the middle of a line or a word: do not move the "
               "cut to a line break; " + _EXACT),
    _truncates("z" * 12345, 45, "truncate_observation('z' * 12345, 45)",
               "write the numbers with thousands separators, as f'{n:,}' does: 12,300 of 12,345"),
    _truncates("天气晴朗" * 150, 500, "truncate_observation('天气晴朗' * 150, 500)",
               "count characters, len(text), not bytes: 600 characters, 100 cut"),
    _truncates("a\nb\nc\nd", 3, "truncate_observation('a\\nb\\nc\\nd', 3)",
               "keep the first `limit` characters as they are, line breaks included"),
    _truncates("  id | status\n  A1004 | paid\n", 500, "truncate_observation('  id | status\\n  A1004 | paid\\n', 500)",
               "a text of at most `limit` characters comes back exactly as it is, its spaces and its "
               "last line break included: do not strip() it (nor the kept part of a long one)"),
    _truncates("a\nb\nc\nd", 4, "truncate_observation('a\\nb\\nc\\nd', 4)",
               "keep text[:limit] exactly, a line break at its end included ('a\\nb\\n'): do not "
               "rstrip() the kept part, or the marker's count no longer adds up"),
    _truncates("abc", 0, "truncate_observation('abc', 0)",
               "0 is a limit too: keep no characters and add the marker; test len(text) <= limit, "
               "not `not limit` (0 is falsy)"),
    Case(("2025-03-14",), {"limit": -1}, raises=ValueError, match="limit",
         hint="a negative limit makes no sense: raise ValueError naming limit"),
)
TRUNCATE_CAUSES = (
    returns(str, "returns something that is not a str: return the text, cut or not"),
    Cause(_stripped, "spaces or line breaks at an end were stripped: keep the text as it is "
          "(text[:limit], no strip() or rstrip()), so that what is kept is exactly what the tool said"),
    Cause(_unchanged, "the text came back whole although it is longer than `limit`: compare "
          "len(text) with the `limit` argument (not a fixed 500; and 0 is a limit too)"),
    Cause(_counts_bytes, "counts bytes: count characters, len(text), not bytes (text.encode()); "
          "a Chinese character is one character and three bytes"),
    Cause(_no_marker, "no '[truncated ...]' marker after the cut: add exactly '\\n... [truncated "
          "{cut:,} of {total:,} characters]' so the model (and you) can see that something is missing"),
    Cause(_marker_off_its_line, "the marker must start on a line of its own: '\\n... [truncated "
          "...', a line break before it"),
    Cause(_miscounted, "the marker's numbers do not add up with the text kept: keep text[:limit], "
          "exactly `limit` characters, then cut = len(text) - limit, the characters left out, and "
          "total = len(text), the whole observation"),
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
LIMITS: list[int | None] = []
"""The token budget of the current run_within_budget case (set by its setup, read by the causes)."""
PROSE = "I think today is a Friday, but I am not sure of the date."
"""A reply in no format: every step it ends is a format error, sent back to the model."""


def _budget_run(replies: list[str], max_steps: int, token_budget: int | None, prompt: int,
                spent_before: int = 0) -> Callable:
    """Setup: a take_step on a FixedUsageClient behind a UsageMeter, and the loop's limits.

    The meter first makes `spent_before` calls of its own, as a run that resumes has made them."""
    def setup() -> tuple[tuple, dict]:
        from solutions.agent import run_step
        from solutions.budget import UsageMeter
        from solutions.tools import BASIC_TOOLS

        meter = UsageMeter(FixedUsageClient([DATE_CALL] * spent_before + replies, prompt))
        messages = [{"role": "system", "content": "Answer with the tools."},
                    {"role": "user", "content": "Question: What is today's date?"}]
        for _ in range(spent_before):
            meter.chat.completions.create(model="mock-react", messages=messages)
        LIMITS[:] = [token_budget]
        return (lambda: run_step(meter, messages, BASIC_TOOLS), meter, max_steps, token_budget), {}
    return setup


def _ends(steps: int, reason: str) -> Callable[[Any], bool]:
    """The predicate: (a list of `steps` steps, `reason`) was returned."""
    def test(value: Any) -> bool:
        return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], list) \
            and len(value[0]) == steps and value[1] == reason
    return test


def _budget_case(calls_before_final: int, max_steps: int, token_budget: int | None,
                 steps: int, reason: str, hint: str, *, spent_before: int = 0,
                 replies: list[str] | None = None) -> Case:
    """A case: run_within_budget on the fixed-usage script ends after `steps` steps with `reason`.

    The script is `calls_before_final` date calls, then a final answer (or `replies`). Without a
    budget, calls cost 1 + COMPLETION tokens, so that no mistake in such a case looks like
    spending past BUDGET (see BUDGET_CAUSES)."""
    prompt = PROMPT if token_budget is not None else 1
    script = [DATE_CALL] * calls_before_final + [FINAL] if replies is None else replies
    shown = (f"{calls_before_final} date calls, then a final answer" if replies is None
             else "replies in no format, again and again")
    before = f", {spent_before * (prompt + COMPLETION)} tokens spent before the run" if spent_before else ""
    return Case(setup=_budget_run(script, max_steps, token_budget, prompt, spent_before),
                label=f"run_within_budget(<{shown}; {prompt} + {COMPLETION} tokens a call>, "
                      f"meter{before}, max_steps={max_steps}, token_budget={token_budget})",
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
    """True when, in a case with a budget, a call was made although the steps before it had
    spent BUDGET or more."""
    return LIMITS[-1:] != [None] and any(total >= BUDGET for total in _spent(value)[:-1])


_BEFORE = ("check before each call: if token_budget is not None and meter.total_tokens >= "
           "token_budget, return (steps, 'token_budget')")
BUDGET_CASES = (
    _budget_case(2, 8, None, 3, "answered", "without a budget, stop at the final answer"),
    _budget_case(5, 3, None, 3, "step_limit", "stop after max_steps steps: (steps, 'step_limit')"),
    _budget_case(5, 8, BUDGET, 3, "token_budget",
                 "two calls spend 220 tokens (under 250), so a third is made (330): stop before the "
                 "fourth; compare what has been spent, not a guess at the next call, and count prompt "
                 "tokens too (meter.total_tokens)"),
    _budget_case(5, 8, 220, 2, "token_budget",
                 "after two calls 220 tokens are spent, all of the budget: stop (use >=, not >)"),
    _budget_case(5, 8, 1, 1, "token_budget",
                 "nothing is spent before the first call, so it is made; stop before the second"),
    _budget_case(2, 8, BUDGET, 3, "answered",
                 "the third call answers: an answer already paid for ends the run as 'answered'"),
    _budget_case(5, 2, BUDGET, 2, "step_limit",
                 "max_steps still counts under a budget: two steps spend 220, under 250"),
    _budget_case(5, 2, 10_000, 2, "step_limit", "a budget never reached leaves max_steps in charge"),
    _budget_case(5, 8, BUDGET, 0, "token_budget",
                 "the meter had spent 330 tokens before this run (a run that resumes, as lesson 09's "
                 "does): check the budget before the first call too, against everything the meter "
                 "has spent (meter.total_tokens, not the tokens of this run's steps), and make no call",
                 spent_before=3),
    _budget_case(5, 2, 220, 2, "step_limit",
                 "the two steps of max_steps are taken (220 tokens, the whole budget) and no call is "
                 "left: that is 'step_limit'; the budget is checked before a call, not after one"),
    _budget_case(2, 3, None, 3, "answered",
                 "the third step, the last one max_steps allows, answered: that is 'answered', and "
                 "budgeted_agent keeps its answer; test for the final answer before the step limit"),
    _budget_case(5, 0, None, 0, "step_limit",
                 "max_steps=0 allows no step (a run that resumes with no steps left: lesson 09 "
                 "passes max_steps - len(steps)): test the limit before each call, not after one"),
    _budget_case(5, 3, None, 3, "step_limit",
                 "max_steps counts this run's steps (len(steps)), not the meter's calls: the meter "
                 "also holds the calls made before this run (a run that resumes)", spent_before=3),
    _budget_case(0, 3, None, 3, "step_limit",
                 "a step that ends in a format error is a step too: count every take_step() toward "
                 "max_steps, retries included", replies=[PROSE]),
    _budget_case(0, 8, BUDGET, 3, "token_budget",
                 "a reply that had to be retried cost tokens like any other: check the budget before "
                 "every call, retries included", replies=[PROSE]),
)
REASONS = ("answered", "step_limit", "token_budget")
BUDGET_CAUSES = (
    Cause(lambda v: not (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], list)),
          "returns something that is not a pair: return (steps, stop_reason), steps a list"),
    Cause(lambda v: v[1] not in REASONS,
          "a stop reason the trace does not know: return 'answered', 'step_limit' or "
          "'token_budget' (budgeted_agent puts it in the trace's stop_reason)"),
    Cause(lambda v: _called_after_budget(v) and v[1] == "token_budget",
          "the budget is checked too late: a call was made after the tokens spent had reached "
          f"token_budget, so the run paid for it; {_BEFORE}, not after the run"),
    Cause(_called_after_budget,
          "the run went past the budget: the budget is for the whole run, every token of every "
          "call, prompt tokens included: meter.total_tokens (not meter.completion_tokens, not the "
          f"last call's); {_BEFORE}"),
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
