"""The audit log: every thought, action, observation and answer as JSON lines, written as it happens.

Built in lesson 09 (Safety limits). Each record is one line, flushed and synced to disk before
the run goes on, so a crash (even `kill -9`) loses nothing already done. `read_audit` turns a log
back into a Trace; a last line cut off by a crash is reported and the lines before it kept.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solutions.agent import Trace, TraceStep

KINDS = ("question", "thought", "action", "observation", "answer", "error", "approval", "stop")
"""What a record can be; every record but question and stop belongs to a step (1, 2, ...)."""


class AuditLog:
    """An append-only JSON-lines file of one or more runs. Built in lesson 09 (Safety limits)."""

    def __init__(self, path: str | os.PathLike) -> None:
        """Open (or create) the log at `path`, appending to what is there.

        A last line that a crash cut off is ended first, so that the new records start on a line
        of their own (the cut line stays, and `read_audit` reports it).
        """
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")
        except OSError as exc:  # a folder in its place, no permission, a read-only disk...
            raise OSError(f"cannot append to the audit log {self.path}: {exc.strerror or exc}; "
                          "give AuditLog the path of a file you can write") from exc
        if self._file.tell() > 0:
            with open(self.path, "rb") as file:
                file.seek(-1, os.SEEK_END)
                if file.read(1) != b"\n":
                    self._file.write("\n")

    def write(self, kind: str, step: int | None = None, **fields: Any) -> None:
        """Append one record and push it to disk before returning."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        record = {"kind": kind, **({} if step is None else {"step": step}), **fields}
        self._file.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file (records already written stay)."""
        self._file.close()

    def __enter__(self) -> "AuditLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class AuditReading:
    """What `read_audit` found: the trace of the last run in the log, and any damage."""

    trace: Trace
    problems: list[str] = field(default_factory=list)
    records: int = 0


def read_audit(path: str | os.PathLike) -> AuditReading:
    """Rebuild the trace of the last run in the log at `path`. Built in lesson 09 (Safety limits).

    A run without its stop record ends with stop_reason "interrupted". A line that is not JSON
    (or not UTF-8) is reported in `problems` and skipped: the last one is a write the crash cut
    off. A step's tokens are those logged with its observation (0 for the step that answers).
    """
    lines = Path(path).read_bytes().split(b"\n")  # json.loads reads UTF-8 bytes, refuses others
    cut_at_end = lines[-1] != b""
    lines = lines if cut_at_end else lines[:-1]
    records, problems = [], []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or record.get("kind") not in KINDS:
                raise ValueError(line)
        except ValueError:
            where = "the last line, cut off by a crash," if number == len(lines) else f"line {number}"
            shown = line[:60].decode("utf-8", errors="replace")
            problems.append(f"{where} is not a whole record and was skipped: {shown!r}")
            continue
        wrong = record_problem(record)
        if wrong:
            problems.append(f"line {number} was skipped: {wrong}")
            continue
        records.append(record)
    starts = [i for i, r in enumerate(records) if r["kind"] == "question"]
    run = records[starts[-1]:] if starts else records
    return AuditReading(_trace_of(run), problems, len(records))


_TYPES = {"text": (str,), "action": (str,), "action_input": (dict,), "reason": (str,), "step": (int,),
          "tokens": (int,)}
"""The type each field of a record must have when it is there (None is allowed but for step and tokens)."""


def record_problem(record: dict) -> str:
    """What is wrong with a parsed record's fields ('' when nothing is): a field of the wrong type,
    a step or a token count that is not a whole number >= 0 (a bool is not one)."""
    for name, kinds in _TYPES.items():
        if name not in record or (record[name] is None and name not in ("step", "tokens")):
            continue
        value = record[name]
        if isinstance(value, bool) or not isinstance(value, kinds) or (isinstance(value, int) and value < 0):
            return f"its {name} is {value!r:.40}, not {' or '.join(k.__name__ for k in kinds)}" + (
                " >= 0" if kinds == (int,) else "")
    return ""


def _trace_of(records: list[dict]) -> Trace:
    """The Trace that a run's records describe."""
    question, reason, steps = "", "interrupted", {}
    for record in records:
        kind = record["kind"]
        if kind == "question":
            question = record.get("text", "")
        elif kind == "stop":
            reason = record.get("reason", "interrupted")
        elif isinstance(record.get("step"), int):
            _fill(steps.setdefault(record["step"], TraceStep()), record)
    ordered = [steps[n] for n in sorted(steps)]
    answer = ordered[-1].final_answer if ordered and reason == "answered" else None
    return Trace(question, ordered, answer, reason)


def _fill(step: TraceStep, record: dict) -> None:
    """Copy one record's fields into `step`."""
    kind = record["kind"]
    if kind == "thought":
        step.thought = record.get("text")
    elif kind == "action":
        step.action, step.action_input = record.get("action"), record.get("action_input") or {}
    elif kind == "observation":
        step.observation, step.tokens = record.get("text"), record.get("tokens", 0)
    elif kind == "answer":
        step.final_answer = record.get("text")
    elif kind == "error":
        step.error = record.get("text")
