"""Cases for lesson 11 (Long tasks): `validate_orders` and `run_stages`."""
from __future__ import annotations

import copy
import re
from types import SimpleNamespace
from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise, returns

# ---------------------------------------------------------------- validate_orders(rows, start, end)

START, END = "2024-10-01", "2024-12-31"


def _row(oid: str, date: str, line: str = "Books", amount: Any = "10.50") -> dict:
    """An order row as order_rows reads it from a listing."""
    return {"id": oid, "date": date, "line": line, "amount": amount, "status": "shipped"}


GOOD = [_row("A0801", "2024-10-03"), _row("A0802", "2024-11-15", "Toys"),
        _row("A0803", "2024-12-29", "Home")]
EDGES = [_row("A0801", "2024-10-01"), _row("A0803", "2024-12-31", "Home")]


def _problems(*mentions: str) -> Callable[[Any], bool]:
    """The predicate: a non-empty list of strings, naming each of `mentions` somewhere."""
    def test(value: Any) -> bool:
        return isinstance(value, list) and bool(value) and all(isinstance(p, str) for p in value) \
            and all(any(m in p for p in value) for m in mentions)
    return test


def _given(rows: Any, as_generator: bool = False) -> Callable[[], tuple[tuple, dict]]:
    """Setup: a fresh copy of `rows` for each case, so that a validator that changes its input
    changes only its own case's rows (with `as_generator`, handed over as a generator of them)."""
    def setup() -> tuple[tuple, dict]:
        fresh = copy.deepcopy(rows)
        return ((row for row in fresh) if as_generator else fresh, START, END), {}
    return setup


def _holds(rows: list[dict], label: str, hint: str) -> Case:
    """A case: the checkpoint holds, no problems."""
    return Case(setup=_given(rows), expected=[], label=label, hint=hint)


def _refused(rows: Any, label: str, mentions: tuple[str, ...], hint: str, as_generator: bool = False) -> Case:
    """A case: the checkpoint does not hold, and the problems name what is wrong."""
    named = f", naming {', '.join(mentions)}" if mentions else ""
    return Case(setup=_given(rows, as_generator), expect=_problems(*mentions), label=label,
                says=f"a non-empty list of problems{named}", hint=hint)


def _left_alone(label: str, hint: str) -> Case:
    """A case: good rows out of date order hold, and the list and its rows are as they were given."""
    given: dict[str, Any] = {}

    def setup() -> tuple[tuple, dict]:
        given["rows"] = [dict(row) for row in reversed(GOOD)]
        given["copy"] = copy.deepcopy(given["rows"])
        return (given["rows"], START, END), {}
    return Case(setup=setup, expect=lambda value: value == [] and given["rows"] == given["copy"],
                label=label, says="[], and the rows left as they were given", hint=hint)


ORDERS_CASES = (
    _holds(GOOD, "validate_orders(<3 good orders>, start, end)",
           "a checkpoint that holds has no problems: return [] (order_rows reads every field as text: "
           "the amount '10.50' is a number written as text, the date a day)"),
    _holds(EDGES, "validate_orders(<orders dated on the first and the last day>, start, end)",
           "start and end are inclusive: an order dated start or end is in range"),
    _left_alone("validate_orders(<the 3 good orders, latest first>, start, end)",
                "a validator only reads: it changed the list or its rows (sorted them, converted "
                "a date in place); the next stage uses these rows as they are, so work on a copy "
                "(sorted(rows), a new variable) and leave the caller's list alone"),
    _refused(GOOD + [_row("A0804", "2025-01-02")], "validate_orders(<+ an order dated 2025-01-02>)",
             ("A0804",), "check every order, not only the first: each date must be in "
             "start <= row['date'] <= end (a type check alone is not a validation: this list has "
             "the right type and a wrong order in it)"),
    _refused([_row("A0799", "2024-09-30")] + GOOD, "validate_orders(<+ an order dated 2024-09-30>)",
             ("A0799",), "an order dated the day before start is out of range too"),
    _refused(GOOD + [_row("A0802", "2024-11-15", "Toys")],
             "validate_orders(<A0802 listed twice>)", ("A0802",),
             "ids must be unique: keep a set of the ids seen and report one seen before (a "
             "repeat need not be next to the first)"),
    _refused(GOOD + [{"id": "A0804", "date": "2024-11-02", "amount": "5.00", "status": "shipped"}],
             "validate_orders(<+ an order without a 'line'>)", ("A0804",),
             "every order needs id, date, line and amount: report a row that lacks one (the totals "
             "stage groups by line and adds the amounts), whichever key it lacks"),
    _refused(GOOD + [{"id": "A0805", "line": "Toys", "amount": "5.00", "status": "shipped"}],
             "validate_orders(<+ an order without a 'date'>)", ("A0805",),
             "a row without a key is a problem to report, not a KeyError: check id, date, line and "
             "amount are all there before reading them"),
    _refused(GOOD + [_row("A0806", "2024-11-31")], "validate_orders(<+ an order dated 2024-11-31>)",
             ("A0806",), "a date must be a day the calendar has, written YYYY-MM-DD: November has 30 "
             "days, yet '2024-11-31' sorts between start and end as a string; read it with "
             "datetime.date.fromisoformat (a ValueError is a problem to report)"),
    _refused(GOOD + [_row("A0807", "2024-11-03", amount=True)],
             "validate_orders(<+ an order whose amount is True>)", ("A0807",),
             "an amount must be a number: True is a bool (isinstance(True, int) holds and "
             "float(True) is 1.0, but it is no money amount): refuse bools and text that is not "
             "a number"),
    _refused(GOOD + [_row("A0809", "2024-11-05", amount="NaN")],
             "validate_orders(<+ an order whose amount is 'NaN'>)", ("A0809",),
             "'NaN' is 'not a number' by name: float() reads it (and 'inf'), but no money amount is NaN "
             "or infinite, and the totals would be NaN: refuse what is not finite (math.isfinite)"),
    _refused(GOOD + [_row("A0810", "2024-11-06", amount=None)],
             "validate_orders(<+ an order whose amount is None>)", ("A0810",),
             "an amount of None is a problem to report, not an exception: float(None) raises TypeError, "
             "not ValueError; catch both, or test the type first"),
    _refused(GOOD + [_row("A0804", "2025-01-02"), _row("A0801", "2024-10-03")],
             "validate_orders(<+ A0804 dated 2025-01-02, + A0801 again>)", ("A0804", "A0801"),
             "report every problem, not only the first: the stage's message lists them all"),
    _refused([], "validate_orders([], start, end)", (),
             "an empty order list is a problem: the quarter had orders, the stage found none"),
    _refused(["A0801", "A0802"], "validate_orders(['A0801', 'A0802'], start, end)", (),
             "every row must be a dict with id, date, line and amount: report a row that is not, "
             "without crashing on it"),
    _refused("A0801 | 2024-10-01 | Books | 10.50 | shipped", "validate_orders(<a str>, ...)", (),
             "a checkpoint that is not a list is a problem, reported, not an exception"),
    _refused(GOOD, "validate_orders(<the 3 good orders, as a generator>, start, end)", (),
             "the checkpoint must be a list: a generator is not one (test isinstance(rows, list)); "
             "checking a generator uses it up, and the next stage would find no orders in it",
             as_generator=True),
)
ORDERS_CAUSES = (
    returns(list, "returns something that is not a list: return the problems found, a list of "
            "strings, [] when the order list holds"),
    Cause(lambda exc: isinstance(exc, KeyError), "a row without one of the keys raised KeyError: "
          "check that each row has id, date, line and amount, and report one that does not",
          raised=True),
)


# ---------------------------------------------------------------- run_stages(stages, client, tools)

def _number(text: Any) -> str:
    """The last number in an answer ('2 + 2 = 4' -> '4')."""
    found = re.findall(r"-?\d+", str(text or ""))
    if not found:
        raise ValueError(f"no number in {text!r}")
    return found[-1]


class _Counting:
    """A client that counts the model calls made through it, passing each on to the mock."""

    def __init__(self, client: Any) -> None:
        self.calls = 0
        self._client = client
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, **request: Any) -> Any:
        self.calls += 1
        return self._client.chat.completions.create(**request)


STAGE_QUESTIONS = "one: 2 + 2, two: one * 10, three: two + one"
STAGES_GIVEN: list[Any] = [[], []]
"""The stages list the current run_stages case passes, and a copy taken before the call."""


def _stages(holds: tuple[bool | None, ...], client: dict) -> Callable[[], tuple[tuple, dict]]:
    """Setup: up to three arithmetic stages, each using checkpoints before it, holding as `holds` says
    (None: the stage asks a question whose answer holds no number, so its checkpoint cannot be read)."""
    def setup() -> tuple[tuple, dict]:
        from mockllm import MockLLM
        from solutions.planning.stages import Stage
        from solutions.tools import world_tools

        def stage(name: str, question: Callable[[dict], str], expected: str, ok: bool) -> Stage:
            return Stage(name, lambda c: [question(c)], lambda traces, c: _number(
                traces[0].final_answer), lambda value, c: [] if ok and value == expected else [
                f"{name}: expected {expected}, got {value}" if ok else f"{name} does not hold"],
                max_steps=3)
        every = [("one", lambda c: "What is 2 + 2?", "4"),
                 ("two", lambda c: f"What is {c['one']} * 10?", "40"),
                 ("three", lambda c: f"What is {c['two']} + {c['one']}?", "44")]
        unreadable = (every[1][0], lambda c: "What is the capital of France?", "")
        stages = [stage(*(unreadable if ok is None else spec), bool(ok)) for spec, ok in zip(every, holds)]
        client["counting"] = _Counting(MockLLM(persona="diligent", seed=0))
        STAGES_GIVEN[:] = [stages, list(stages)]
        return (stages, client["counting"], world_tools()), {}
    return setup


def _ran(names: list[str], checkpoints: dict, failed: str | None, client: dict) -> Callable[[Any], bool]:
    """The predicate: a StagedRun whose results, checkpoints and failed stage are these, and whose
    results hold every model call that was made."""
    def test(value: Any) -> bool:
        results = getattr(value, "results", None)
        return isinstance(results, list) and [getattr(r, "name", None) for r in results] == names \
            and getattr(value, "checkpoints", None) == checkpoints \
            and getattr(value, "failed", "?") == failed \
            and sum(len(t.steps) for r in results for t in r.traces) == client["counting"].calls \
            and STAGES_GIVEN[0] == STAGES_GIVEN[1]
    return test


_HOW = {True: "holds", False: "fails", None: "cannot be read"}


def _stages_case(holds: tuple[bool | None, ...], names: list[str], checkpoints: dict,
                 failed: str | None, hint: str) -> Case:
    """A case: run_stages on the three stages ran `names` and kept `checkpoints`."""
    label = "run_stages(<" + (", ".join(
        f"{n} {_HOW[h]}" for n, h in zip(("one", "two", "three"), holds))
        or "no stages") + f">)  # {STAGE_QUESTIONS}"
    client: dict[str, Any] = {}
    return Case(setup=_stages(holds, client), label=label,
                expect=_ran(names, checkpoints, failed, client),
                says=f"results of {names}, checkpoints {checkpoints}, failed={failed!r}, every "
                     "model call in the results", hint=hint)


ALL = {"one": "4", "two": "40", "three": "44"}
STAGES_CASES = (
    _stages_case((True, True, True), ["one", "two", "three"], ALL, None,
                 "run each stage with run_stage(stage, client, tools, run.checkpoints), and keep "
                 "its checkpoint under the stage's name before the next stage asks for it"),
    _stages_case((False,), ["one"], {}, "one",
                 "the stage's checkpoint does not hold (run_stage validated it: result.ok is False): "
                 "record its result once in run.results, set run.failed to the stage's name and "
                 "return; no retry (each model call must show in run.results), and its checkpoint "
                 "is not kept"),
    _stages_case((True, False, True), ["one", "two"], {"one": "4"}, "two",
                 "stop at the first checkpoint that does not hold: set run.failed to its stage's "
                 "name and return, without keeping its checkpoint or running the stages after it"),
    _stages_case((False, True, True), ["one"], {}, "one",
                 "a failed first stage stops the run at once: nothing after it is worth running"),
    _stages_case((True, True, False), ["one", "two", "three"], {"one": "4", "two": "40"}, "three",
                 "the last stage's failure counts too: record its result, set failed"),
    _stages_case((), [], {}, None, "no stages: an empty StagedRun, nothing failed"),
    _stages_case((True,), ["one"], {"one": "4"}, None,
                 "one stage that holds: its checkpoint is kept, failed stays None"),
    _stages_case((True, True), ["one", "two"], {"one": "4", "two": "40"}, None,
                 "the second stage reads the first one's checkpoint: hand run.checkpoints on"),
    _stages_case((True, False), ["one", "two"], {"one": "4"}, "two",
                 "a failed checkpoint is not kept: only the stages that held are in checkpoints"),
    _stages_case((True, None, True), ["one", "two"], {"one": "4"}, "two",
                 "the second stage's answer holds no number, so its checkpoint cannot be read: "
                 "run_stage turns that into a problem (a stage that failed), where reading it yourself "
                 "raises; run each stage with run_stage(stage, client, tools, run.checkpoints)"),
)
NOT_KEPT = ("a stage asked for an earlier stage's checkpoint that was not kept (KeyError): keep each "
            "checkpoint in run.checkpoints under the stage's name, and hand all of run.checkpoints to "
            "run_stage (a stage may read any earlier checkpoint, not only the last)")
STAGES_CAUSES = (
    Cause(lambda v: not hasattr(v, "results"), "returns something that is not a StagedRun: "
          "return the run, StagedRun(results, checkpoints, failed)"),
    Cause(lambda v: STAGES_GIVEN[0] != STAGES_GIVEN[1], "the list of stages was changed (stages.pop(0) "
          "empties it): a second run with the same list would run nothing and report success; read "
          "the stages with a for loop and leave the list as it was given"),
    Cause(lambda v: len({getattr(r, "name", None) for r in v.results}) < len(v.results),
          "a stage's result is in run.results twice: run each stage once (no retry), and start "
          "every call with a new StagedRun([]), not one kept from an earlier call (a default "
          "argument or a global)"),
    Cause(lambda v: getattr(v, "failed", None) is not None and len(getattr(v, "results", [])) == 3
          and [getattr(r, "ok", True) for r in v.results][:2] != [True, True],
          "the run went on after a failed checkpoint: a later stage would build on a wrong "
          "result; return as soon as a stage's result is not ok"),
    Cause(lambda e: isinstance(e, KeyError), NOT_KEPT, raised=True),
    Cause(lambda v: any(problem.startswith("could not build the questions (KeyError")
                        for r in v.results for problem in r.problems), NOT_KEPT),
)


def _show_run(value: Any) -> str:
    """A StagedRun shown short."""
    if not hasattr(value, "results"):
        return repr(value)
    return (f"StagedRun(results={[getattr(r, 'name', '?') for r in value.results]}, "
            f"checkpoints={getattr(value, 'checkpoints', '?')}, failed={getattr(value, 'failed', '?')!r})")


EXERCISES = [
    Exercise(name="validate_orders", lesson="11", reference="solutions.planning.checkpoints:validate_orders",
             cases=ORDERS_CASES, causes=ORDERS_CAUSES),
    Exercise(name="run_stages", lesson="11", reference="solutions.planning.stages:run_stages",
             cases=STAGES_CASES, show=_show_run, causes=STAGES_CAUSES),
]
