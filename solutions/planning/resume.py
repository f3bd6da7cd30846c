"""Resumable staged runs: load the checkpoints that still hold, run the stages from the first
that does not, save each new checkpoint once it holds.

Built in lesson 18 (Resumable tasks), on lesson 11's stages and lesson 08's store
(`solutions.planning.saved`). A task's model calls and tokens are counted in the store as they are
spent, so its caps hold over all its runs: restarting a task does not give it a new budget.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from solutions.budget import check_limits, usage_of
from solutions.planning.plan_execute import MAX_CALLS
from solutions.planning.saved import (CHECKPOINT_SCHEMA, add_spent, inputs_digest,
                                      open_checkpoints, save_checkpoint, spent)
from solutions.planning.stages import Stage, StagedRun, run_stage, stage_questions
from solutions.tools import ToolRegistry

STOP_REASONS = ("answered", "checkpoint_failed", "call_limit", "token_budget")
"""Why a resumed run ended: every checkpoint held; one did not (`failed` names its stage); the
next stage's calls would not fit in what is left of max_calls; token_budget tokens were spent."""


def load_checkpoints(conn: sqlite3.Connection, stages: list[Stage], task_id: str) -> tuple[dict, str]:
    """The saved checkpoints of `task_id` that hold, in stage order up to the first that does not, and why loading stopped."""
    checkpoints: dict = {}
    for stage in stages:
        row = conn.execute("SELECT schema, inputs, value FROM checkpoints WHERE task = ? AND stage = ?",
                           (task_id, stage.name)).fetchone()
        if row is None:
            return checkpoints, f"{stage.name}: no checkpoint saved"
        schema, digest, text = row
        if schema != CHECKPOINT_SCHEMA:
            return checkpoints, f"{stage.name}: saved with schema {schema}, not {CHECKPOINT_SCHEMA}"
        if digest != inputs_digest(stage.name, checkpoints):
            return checkpoints, f"{stage.name}: saved for other inputs"
        try:
            value = json.loads(text)
            problems = stage.validate(value, checkpoints)
        except Exception as error:  # a value that is not JSON, or one its validator cannot read
            problems = [f"unreadable ({type(error).__name__}: {error})"]
        if problems:
            return checkpoints, f"{stage.name}: {problems[0]}"
        checkpoints[stage.name] = value
    return checkpoints, "every stage has a checkpoint that holds"


@dataclass
class ResumedRun(StagedRun):
    """A staged run that resumed: `results` holds only the stages run this time."""

    loaded: list[str] = field(default_factory=list)  # the stages whose checkpoint came from the store
    note: str = ""       # why loading stopped where it did
    message: str = ""    # what opening the store said (a new, damaged or locked file)
    limit: str | None = None   # "call_limit" or "token_budget" when a cap stopped the run

    @property
    def stop_reason(self) -> str:
        """One of STOP_REASONS."""
        return self.limit or super().stop_reason


class TaskBudget:
    """A client that counts every model call of `task_id`, and its tokens, in the store, over all
    the task's runs, and says when the next stage would break the task's caps."""

    def __init__(self, client: Any, conn: sqlite3.Connection, task_id: str,
                 max_calls: int = MAX_CALLS, token_budget: int | None = None) -> None:
        """Wrap `client`; `token_budget` None leaves the tokens unbounded."""
        if isinstance(max_calls, bool) or not isinstance(max_calls, int) or max_calls < 1:
            raise ValueError(f"max_calls must be a whole number >= 1, got {max_calls!r}")
        check_limits(token_budget=token_budget)
        self.client, self.conn, self.task_id = client, conn, task_id
        self.max_calls, self.token_budget = max_calls, token_budget
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        """Count the call before making it (a call started is spent, even if no answer comes back),
        then its tokens."""
        add_spent(self.conn, self.task_id, calls=1)
        response = self.client.chat.completions.create(**request)
        if not request.get("stream"):
            add_spent(self.conn, self.task_id, tokens=usage_of(response).total_tokens)
        return response

    def refuses(self, stage: Stage, checkpoints: dict) -> str | None:
        """'call_limit' when the stage's most calls (questions x max_steps) do not fit in what is
        left, 'token_budget' once the tokens are spent, else None."""
        calls, tokens = spent(self.conn, self.task_id)
        questions, _ = stage_questions(stage, checkpoints)
        if calls + len(questions) * stage.max_steps > self.max_calls:
            return "call_limit"
        if self.token_budget is not None and tokens >= self.token_budget:
            return "token_budget"
        return None


def resume_stages(stages: list[Stage], client: Any, tools: ToolRegistry, path: str | Path,
                  task_id: str, *, max_calls: int = MAX_CALLS,
                  token_budget: int | None = None) -> ResumedRun:
    """Resume `task_id` from the store at `path`: load the checkpoints that hold, run the stages
    from the first that does not, save each checkpoint once it holds; stop at a cap."""
    if not isinstance(stages, (list, tuple)) or not all(isinstance(s, Stage) for s in stages):
        raise TypeError(f"stages must be a list of Stage, got {type(stages).__name__}")
    if not isinstance(task_id, str) or not task_id.strip():
        raise ValueError(f"task_id must be a non-empty str naming the task, got {task_id!r}")
    opened = open_checkpoints(path)  # a missing, damaged or locked file: a fresh store and a message
    with closing(opened.conn) as conn:
        budget = TaskBudget(client, conn, task_id, max_calls, token_budget)
        checkpoints, note = load_checkpoints(conn, stages, task_id)
        run = ResumedRun([], dict(checkpoints), loaded=list(checkpoints), note=note,
                         message=opened.message)
        for stage in stages[len(checkpoints):]:
            run.limit = budget.refuses(stage, run.checkpoints)
            if run.limit is not None:
                return run
            result = run_stage(stage, budget, tools, run.checkpoints)
            run.results.append(result)
            if not result.ok:
                run.failed = stage.name
                return run
            save_checkpoint(conn, task_id, stage.name, inputs_digest(stage.name, run.checkpoints),
                            result.checkpoint)  # only once it holds
            run.checkpoints[stage.name] = result.checkpoint
    return run


class SimulatedCrash(RuntimeError):
    """What CrashAfter raises: the run 'dies' at that call."""


class CrashAfter:
    """A client that passes `calls` model calls on to `client`, then raises SimulatedCrash at
    every later one, as if the process had been killed there."""

    def __init__(self, client: Any, calls: int) -> None:
        """Wrap `client`; the call after the first `calls` ones crashes."""
        self.client, self.calls, self.made = client, calls, 0
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: Any) -> Any:
        """Pass the call on, or crash once `calls` calls were made."""
        if self.made >= self.calls:
            raise SimulatedCrash(f"the run was killed at model call {self.made + 1}")
        self.made += 1
        return self.client.chat.completions.create(**request)
