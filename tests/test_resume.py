"""Resumable staged runs (lesson 18): checkpoints in lesson 08's store survive a process killed
with SIGKILL between stages and during a write; a resumed run starts at the first stage without a
checkpoint that holds; a task's caps count the calls of all its runs."""
from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from mockllm import MockLLM
from solutions.planning.plan_execute import capped_orders
from solutions.planning.report import report_stages
from solutions.planning.resume import (STOP_REASONS, CrashAfter, SimulatedCrash, TaskBudget,
                                       load_checkpoints, resume_stages)
from solutions.planning.saved import (CHECKPOINT_SCHEMA, inputs_digest, open_checkpoints,
                                      save_checkpoint, saved_stages, spent)
from solutions.planning.stages import run_stages
from solutions.tools import world_tools

ROOT = Path(__file__).parent.parent
TASK = "weekly-report-2025-03-14"
STAGE_NAMES = ["period", "orders", "totals", "report"]
READ_SECONDS = 120  # a generous limit on waiting for the child's line, never a fixed wait


def forgetful() -> MockLLM:
    return MockLLM(persona="forgetful", seed=0)


@pytest.fixture(scope="module")
def full():
    """The uninterrupted staged run, through lesson 11's run_stages."""
    return run_stages(report_stages(), forgetful(), world_tools())


def stored(path: Path) -> tuple[list[str], tuple[int, int]]:
    """The stages saved for TASK and what TASK spent, read through a fresh connection."""
    with closing(open_checkpoints(path).conn) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        return saved_stages(conn, TASK), spent(conn, TASK)


# ---------------------------------------------------------------- a real process, killed

CHILD = r'''
import os, signal, sys
from types import SimpleNamespace
from mockllm import MockLLM
import solutions.planning.resume as resume
from solutions.planning.report import report_stages
from solutions.tools import world_tools

path, how, number = sys.argv[1], sys.argv[2], int(sys.argv[3])
die = lambda: os.kill(os.getpid(), signal.SIGKILL)
model = MockLLM(persona="forgetful", seed=0)
client = model
if how == "call":  # block at model call `number`, after saying so: the parent kills us there
    made = [0]
    def create(**request):
        made[0] += 1
        if made[0] == number:
            print("waiting at call", number, flush=True)
            sys.stdin.read()  # blocks until the parent's SIGKILL
        return model.chat.completions.create(**request)
    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
else:  # die as the `number`-th checkpoint's transaction commits: SQLite calls the trace first
    opened = resume.open_checkpoints
    def traced(store_path):
        result = opened(store_path)
        saves = [0]
        def trace(sql):
            if sql.startswith("INSERT INTO checkpoints"):
                saves[0] += 1
            elif sql == "COMMIT" and saves[0] == number:
                die()
        result.conn.set_trace_callback(trace)
        return result
    resume.open_checkpoints = traced
run = resume.resume_stages(report_stages(), client, world_tools(), path, "weekly-report-2025-03-14")
print("finished:", run.stop_reason, flush=True)
'''


def killed_between_stages(path: Path, call: int) -> None:
    """Run the task in a child that blocks at model call `call`, and SIGKILL it once it says so."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), "call", str(call)], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        ready, _, _ = select.select([child.stdout], [], [], READ_SECONDS)
        line = child.stdout.readline() if ready else ""
        assert line == f"waiting at call {call}\n", (line, child.stderr.read() if child.poll() is not None else "")
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=READ_SECONDS) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for stream in (child.stdin, child.stdout, child.stderr):
            stream.close()


def killed_during_a_save(path: Path, save: int) -> None:
    """Run the task in a child that SIGKILLs itself as its `save`-th checkpoint commits."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), "save", str(save)], cwd=ROOT,
                          capture_output=True, text=True, timeout=READ_SECONDS)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert "finished" not in done.stdout


@pytest.mark.parametrize("call, saved", [(1, 0), (3, 1), (5, 2), (19, 3)])
def test_a_run_killed_between_stages_resumes_at_the_next_stage(tmp_path: Path, full, call, saved):
    path = tmp_path / "memory.sqlite"
    killed_between_stages(path, call)  # call 5 is the first call of the totals, 19 the report's
    stages, (calls, _) = stored(path)
    assert stages == STAGE_NAMES[:saved] and calls == call  # the call it was killed in counts
    resumed = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    assert resumed.loaded == STAGE_NAMES[:saved] and resumed.stop_reason == "answered"
    assert resumed.checkpoints == full.checkpoints
    assert resumed.steps == sum(r.steps for r in full.results[saved:])  # the saved stages not run again
    assert stored(path) == (STAGE_NAMES, (call + resumed.steps, stored(path)[1][1]))


@pytest.mark.parametrize("save", [1, 2, 3, 4])
def test_a_run_killed_as_a_checkpoint_commits_keeps_the_earlier_ones_and_resumes_at_it(tmp_path: Path, full, save):
    path = tmp_path / "memory.sqlite"
    killed_during_a_save(path, save)
    stages, (calls, tokens) = stored(path)  # the file opens sound: WAL keeps what was committed
    assert stages == STAGE_NAMES[:save - 1]
    assert calls == sum(r.steps for r in full.results[:save]) and tokens > 0
    resumed = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    assert resumed.loaded == STAGE_NAMES[:save - 1] and resumed.checkpoints == full.checkpoints
    assert [r.name for r in resumed.results] == STAGE_NAMES[save - 1:]


# ---------------------------------------------------------------- resuming in process

def test_a_simulated_crash_then_a_resume_makes_the_uninterrupted_report(tmp_path: Path, full):
    path = tmp_path / "memory.sqlite"
    with pytest.raises(SimulatedCrash, match="killed at model call 13"):
        resume_stages(report_stages(), CrashAfter(forgetful(), 12), world_tools(), path, TASK)
    assert stored(path)[0] == ["period", "orders"]
    resumed = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    assert (resumed.steps, resumed.checkpoints) == (15, full.checkpoints)
    assert full.total_tokens - resumed.total_tokens == sum(
        t.total_tokens for r in full.results[:2] for t in r.traces)  # what the saved stages cost
    assert resume_stages(report_stages(), forgetful(), world_tools(), path, TASK).steps == 0


def test_a_checkpoint_that_does_not_hold_is_not_saved_and_the_good_one_stays(tmp_path: Path, full):
    path = tmp_path / "memory.sqlite"
    resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("DELETE FROM checkpoints WHERE stage = 'period'")  # the run starts again
    stopped = resume_stages(report_stages(), forgetful(), capped_orders(world_tools()), path, TASK)
    assert (stopped.failed, stopped.stop_reason) == ("orders", "checkpoint_failed")
    with closing(sqlite3.connect(path)) as conn:
        value = conn.execute("SELECT value FROM checkpoints WHERE stage = 'orders'").fetchone()[0]
    assert json.loads(value) == full.checkpoints["orders"]  # the refused list did not replace it


def test_a_store_shared_by_two_tasks_keeps_them_apart(tmp_path: Path, full):
    path = tmp_path / "memory.sqlite"
    resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    other = resume_stages(report_stages(), forgetful(), world_tools(), path, "another task")
    assert other.loaded == [] and other.steps == full.steps
    with closing(open_checkpoints(path).conn) as conn:
        assert spent(conn, TASK)[0] == spent(conn, "another task")[0] == full.steps


def test_a_checkpoint_saved_for_other_inputs_is_run_again(tmp_path: Path, full):
    path = tmp_path / "memory.sqlite"
    resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    period = {"today": "2025-07-01", "start": "2025-04-01", "end": "2025-06-30"}
    with closing(open_checkpoints(path).conn) as conn:  # the period of another day, saved alone
        save_checkpoint(conn, TASK, "period", inputs_digest("period", {}), period)
        checkpoints, note = load_checkpoints(conn, report_stages(), TASK)
    assert checkpoints == {"period": period} and note == "orders: saved for other inputs"


def test_the_schema_and_the_digest_are_in_the_row(tmp_path: Path):
    with closing(open_checkpoints(tmp_path / "memory.sqlite").conn) as conn:
        save_checkpoint(conn, "t", "one", inputs_digest("one", {}), {"x": "上海"})
        save_checkpoint(conn, "t", "one", inputs_digest("one", {}), {"x": "Beijing"})  # replaces it
    with closing(sqlite3.connect(tmp_path / "memory.sqlite")) as other:  # another session sees it
        rows = other.execute("SELECT task, stage, schema, inputs, value FROM checkpoints").fetchall()
    assert rows == [("t", "one", CHECKPOINT_SCHEMA, inputs_digest("one", {}), '{"x": "Beijing"}')]
    assert inputs_digest("one", {"a": 1, "b": 2}) == inputs_digest("one", {"b": 2, "a": 1})
    assert len({inputs_digest("one", {}), inputs_digest("two", {}), inputs_digest("one", {"a": 1})}) == 3


@pytest.mark.parametrize("value", [("a", "b"), {1: "x"}, {"n": float("nan")}, {"when": object()}, {3, 4}])
def test_a_checkpoint_that_json_would_not_give_back_the_same_is_refused(tmp_path: Path, value):
    with closing(open_checkpoints(tmp_path / "memory.sqlite").conn) as conn:
        with pytest.raises(TypeError, match="the checkpoint of stage 'one' cannot be saved as JSON"):
            save_checkpoint(conn, "t", "one", inputs_digest("one", {}), value)
        assert saved_stages(conn, "t") == []


def test_a_damaged_store_is_kept_aside_and_the_task_starts_over(tmp_path: Path, full):
    path = tmp_path / "memory.sqlite"
    path.write_bytes(b"\x00\xff not a database " * 400)
    run = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    assert "kept as memory.damaged-1.sqlite" in run.message and run.checkpoints == full.checkpoints
    assert (tmp_path / "memory.damaged-1.sqlite").read_bytes().startswith(b"\x00\xff not a database")


def test_a_locked_store_is_left_untouched_and_the_message_says_nothing_is_saved(tmp_path: Path, full,
                                                                                   monkeypatch):
    import solutions.planning.saved as saved
    from solutions.memory.recovery import open_store

    path = tmp_path / "memory.sqlite"
    resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    monkeypatch.setattr(saved, "open_store", lambda p: open_store(p, busy_timeout_ms=10))  # no 5 s wait
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        run = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK)
    finally:
        holder.close()
    assert "NOT saved" in run.message and run.loaded == [] and run.checkpoints == full.checkpoints
    assert stored(path)[0] == STAGE_NAMES  # the file was left as it was


def test_the_store_is_not_left_locked_after_a_run_or_a_crash(tmp_path: Path):
    path = tmp_path / "memory.sqlite"
    with pytest.raises(SimulatedCrash):
        resume_stages(report_stages(), CrashAfter(forgetful(), 6), world_tools(), path, TASK)
    with closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # raises 'database is locked' if a write was left open
        other.execute("ROLLBACK")


# ---------------------------------------------------------------- caps over every run

def test_restarting_a_task_that_always_crashes_cannot_escape_max_calls(tmp_path: Path):
    path, runs = tmp_path / "memory.sqlite", []
    for _ in range(10):
        try:
            runs.append(resume_stages(report_stages(), CrashAfter(forgetful(), 9), world_tools(), path,
                                      TASK, max_calls=40).stop_reason)
            break
        except SimulatedCrash:
            runs.append("crashed")
    assert runs == ["crashed", "crashed", "call_limit"] and stored(path)[1][0] == 20


@pytest.mark.parametrize("max_calls", [1, 5, 6, 7, 8, 12, 27, 28, 29, 100])
def test_a_task_never_spends_more_than_max_calls(tmp_path: Path, full, max_calls):
    path = tmp_path / "memory.sqlite"
    run = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK, max_calls=max_calls)
    calls = stored(path)[1][0]
    assert calls <= max_calls and run.stop_reason in STOP_REASONS
    # a stage starts only when its most calls fit: the totals' 4 x 6 after the 2 + 2 calls before it
    assert (run.stop_reason == "answered") == (max_calls >= 2 + 2 + 24)
    again = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK, max_calls=max_calls)
    assert stored(path)[1][0] <= max_calls and again.stop_reason == run.stop_reason


def test_the_token_budget_counts_the_tokens_of_earlier_runs(tmp_path: Path, full):
    path = tmp_path / "memory.sqlite"
    with pytest.raises(SimulatedCrash):
        resume_stages(report_stages(), CrashAfter(forgetful(), 12), world_tools(), path, TASK)
    tokens = stored(path)[1][1]
    run = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK, token_budget=tokens)
    assert run.stop_reason == "token_budget" and run.results == [] and run.loaded == ["period", "orders"]
    more = resume_stages(report_stages(), forgetful(), world_tools(), path, TASK, token_budget=tokens + 1)
    assert more.stop_reason == "token_budget" and [r.name for r in more.results] == ["totals"]
    assert resume_stages(report_stages(), forgetful(), world_tools(), path, TASK,
                         token_budget=10 ** 6).stop_reason == "answered"


def test_a_call_that_crashes_is_counted_before_it_is_made(tmp_path: Path):
    with closing(open_checkpoints(tmp_path / "memory.sqlite").conn) as conn:
        budget = TaskBudget(CrashAfter(forgetful(), 0), conn, TASK)
        with pytest.raises(SimulatedCrash):
            budget.chat.completions.create(model="mock-react", messages=[{"role": "user", "content": "Hi"}])
        assert spent(conn, TASK) == (1, 0)


@pytest.mark.parametrize("bad, says", [({"task_id": ""}, "task_id must be a non-empty str"),
                                       ({"task_id": None}, "task_id must be a non-empty str"),
                                       ({"max_calls": 0}, "max_calls must be a whole number >= 1"),
                                       ({"max_calls": True}, "max_calls must be a whole number >= 1"),
                                       ({"token_budget": -5}, "token_budget"),
                                       ({"stages": iter(report_stages())}, "stages must be a list of Stage"),
                                       ({"stages": ["period"]}, "stages must be a list of Stage")])
def test_bad_arguments_are_clear_errors(tmp_path: Path, bad, says):
    if "stages" in bad:
        with pytest.raises(TypeError, match=says):
            resume_stages(bad["stages"], forgetful(), world_tools(), tmp_path / "m.sqlite", TASK)
        return
    arguments = {"task_id": TASK, **bad}
    task_id = arguments.pop("task_id")
    with pytest.raises((ValueError, TypeError), match=says):
        resume_stages(report_stages(), forgetful(), world_tools(), tmp_path / "m.sqlite", task_id, **arguments)


def test_resuming_is_deterministic_across_processes(tmp_path: Path):
    script = ("import sys, json; from mockllm import MockLLM; from solutions.planning.report import report_stages; "
              "from solutions.planning.resume import resume_stages, CrashAfter, SimulatedCrash; "
              "from solutions.tools import world_tools\n"
              "try:\n resume_stages(report_stages(), CrashAfter(MockLLM(persona='forgetful', seed=0), 7), world_tools(), sys.argv[1], 't')\n"
              "except SimulatedCrash: pass\n"
              "r = resume_stages(report_stages(), MockLLM(persona='forgetful', seed=0), world_tools(), sys.argv[1], 't')\n"
              "print(json.dumps([r.loaded, r.note, r.steps, r.total_tokens, r.checkpoints], sort_keys=True))")
    outputs = [subprocess.run([sys.executable, "-c", script, str(tmp_path / f"{seed}.sqlite")], cwd=ROOT,
                              capture_output=True, text=True, timeout=READ_SECONDS,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1")]
    assert outputs[0] == outputs[1] and json.loads(outputs[0])[0] == ["period", "orders"]
