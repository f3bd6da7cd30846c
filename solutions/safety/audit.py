"""The audit log: every thought, action, observation and answer as JSON lines, written as it happens.

Built in lesson 09 (Safety limits). Each record is one line, flushed and synced to disk before
the run goes on, so a crash (even `kill -9`) loses nothing already done. Each record carries a
sequence number `seq` and `prev`, the sha256 of the line before it: a line edited, deleted,
inserted or moved breaks the chain, and `read_audit` names the first broken link. A chain does
not stop someone who rewrites the whole file (every hash after a change recomputed, or the last
lines cut); keeping the last hash somewhere else does. `read_audit` turns a log back into a Trace;
a last line cut off by a crash is reported and the lines before it kept.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from solutions.agent import Trace, TraceStep

KINDS = ("question", "thought", "action", "observation", "answer", "error", "approval", "stop")
"""What a record can be; every record but question and stop belongs to a step (1, 2, ...)."""

GENESIS = "0" * 64
"""The `prev` of a log's first record: the hash of no line."""


class AuditLogError(OSError):
    """The audit log cannot be written, or was changed behind its back: the run must stop."""


def line_hash(line: bytes) -> str:
    """The sha256 (hex) of a log line's exact bytes, without its line break: the next record's `prev`."""
    return hashlib.sha256(line).hexdigest()


class AuditLog:
    """An append-only, hash-chained JSON-lines file of one or more runs. Built in lesson 09 (Safety limits).

    One AuditLog writes a file at a time. Before each record it checks that the file is still the
    one it opened and holds what it wrote; a file replaced, cut or written by someone else, or a
    write that fails (a full disk), raises AuditLogError naming the log, and every later record is
    refused: a run that cannot be recorded stops.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        """Open (or create) the log at `path`, appending to what is there, its chain continued.

        A last line that a crash cut off is ended first, so that the new records start on a line
        of their own (the cut line stays, and `read_audit` reports it).
        """
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "ab", buffering=0)  # unbuffered: a failed write keeps nothing back
            self._size = self._file.tell()
            self._seq, self._prev = _chain_end(self.path) if self._size else (0, GENESIS)
        except OSError as exc:  # a folder in its place, no permission, a read-only disk...
            raise OSError(f"cannot append to the audit log {self.path}: {exc.strerror or exc}; "
                          "give AuditLog the path of a file you can write") from exc
        self._broken: str | None = None
        if self._size and self._last_byte() != b"\n":
            self._append(b"\n")

    def write(self, kind: str, step: int | None = None, **fields: Any) -> None:
        """Append one record, chained to the one before, and push it to disk before returning."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if "seq" in fields or "prev" in fields:
            raise ValueError("seq and prev are the log's own fields: the log numbers and chains each record")
        record = {"seq": self._seq + 1, "kind": kind, **({} if step is None else {"step": step}),
                  **dict(sorted(fields.items())), "prev": self._prev}
        line = json.dumps(record, ensure_ascii=False).encode("utf-8", errors="backslashreplace")
        self._append(line + b"\n")
        self._seq, self._prev = record["seq"], line_hash(line)

    def _append(self, data: bytes) -> None:
        """Write `data` at the end of the file and sync it, or raise AuditLogError (and refuse from then on)."""
        if self._broken is None:
            self._broken = self._changed()
        if self._broken is None:
            try:
                view = memoryview(data)
                while view:  # a write may take only part of the bytes
                    view = view[self._file.write(view):]
                os.fsync(self._file.fileno())
                self._size += len(data)
                return
            except OSError as exc:  # a full disk, an I/O error...
                self._broken = (f"cannot write to the audit log {self.path}: {exc.strerror or exc}; "
                                "free some space or give AuditLog another file")
        raise AuditLogError(f"{self._broken}. The run stops here, so that nothing happens unrecorded")

    def _changed(self) -> str | None:
        """What someone else did to the file since this log wrote it, or None when it is as written."""
        try:
            on_disk, mine = os.stat(self.path), os.fstat(self._file.fileno())
        except OSError:
            return f"the audit log {self.path} was deleted or moved while the run was writing it"
        if (on_disk.st_ino, on_disk.st_dev) != (mine.st_ino, mine.st_dev):
            return f"the audit log {self.path} was replaced by another file while the run was writing it"
        if mine.st_size != self._size:
            return (f"the audit log {self.path} was changed by someone else: it holds {mine.st_size} bytes, "
                    f"this log wrote {self._size} (cut, or written by another program)")
        return None

    def _last_byte(self) -> bytes:
        """The last byte of the file."""
        with open(self.path, "rb") as file:
            file.seek(-1, os.SEEK_END)
            return file.read(1)

    def close(self) -> None:
        """Close the file (records already written stay)."""
        self._file.close()

    def __enter__(self) -> "AuditLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _chain_end(path: Path) -> tuple[int, str]:
    """The seq and line hash of the last chained record in the log at `path` ((0, GENESIS) if none)."""
    with open(path, "rb") as file:
        for line in _lines_last_first(file):
            record = _parsed(line)
            if record is not None and _chained(record):
                return record["seq"], line_hash(line)
    return 0, GENESIS


def _lines_last_first(file: BinaryIO, chunk: int = 1 << 16) -> Iterator[bytes]:
    """The lines of a binary file, the last first (after the last line break: b"" or a cut line), read from the end."""
    end = file.seek(0, os.SEEK_END)
    pieces: list[bytes] = []  # the line being gathered, its last piece first
    while end > 0:
        start = max(0, end - chunk)
        file.seek(start)
        parts = file.read(end - start).split(b"\n")
        end = start
        for part in reversed(parts[1:]):  # each ends a line: the one gathered so far
            yield b"".join(reversed([*pieces, part]))
            pieces = []
        pieces.append(parts[0])
    yield b"".join(reversed(pieces))


def _parsed(line: bytes) -> dict | None:
    """The record a line holds, or None when it is not a whole record (not JSON, not UTF-8, no kind)."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and record.get("kind") in KINDS else None


def _chained(record: dict) -> bool:
    """True when a record has the log's seq (a whole number) and prev (a text)."""
    seq = record.get("seq")
    return isinstance(seq, int) and not isinstance(seq, bool) and isinstance(record.get("prev"), str)


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
    off. The hash chain is checked: the first record whose seq or prev does not follow the record
    before it (a line edited, deleted, inserted or moved) is reported with its line number; the
    lines after it are read, not checked. A step's tokens are those logged with its observation
    (0 for the step that answers).
    """
    lines = Path(path).read_bytes().split(b"\n")  # json.loads reads UTF-8 bytes, refuses others
    cut_at_end = lines[-1] != b""
    lines = lines if cut_at_end else lines[:-1]
    records, problems = [], []
    chain: tuple[int, str, int] | None = (0, GENESIS, 0)  # seq, hash and line number of the last link
    for number, line in enumerate(lines, 1):
        record = _parsed(line)
        if record is None:
            where = "the last line, cut off by a crash," if number == len(lines) else f"line {number}"
            shown = line[:60].decode("utf-8", errors="replace")
            problems.append(f"{where} is not a whole record and was skipped: {shown!r}")
            continue
        if chain is not None:
            broken = chain_problem(record, number, chain)
            problems.extend([f"{broken}; the lines after it are not checked"] if broken else [])
            chain = None if broken else (record["seq"], line_hash(line), number)
        wrong = record_problem(record)
        if wrong:
            problems.append(f"line {number} was skipped: {wrong}")
            continue
        records.append(record)
    starts = [i for i, r in enumerate(records) if r["kind"] == "question"]
    run = records[starts[-1]:] if starts else records
    return AuditReading(_trace_of(run), problems, len(records))


def chain_problem(record: dict, number: int, last: tuple[int, str, int]) -> str:
    """What breaks the hash chain at line `number` ('' when nothing does), given the seq, line hash
    and line number of the last record of the chain ((0, GENESIS, 0) before the first)."""
    seq, digest, before = last
    if not _chained(record):
        return f"line {number} breaks the hash chain: it has no seq and prev, so AuditLog did not write it"
    if record["seq"] != seq + 1:
        why = (f"the record with seq {seq + 1} is missing before it: deleted, or moved" if record["seq"] > seq + 1
               else "a record repeated, or lines moved")
        return f"line {number} breaks the hash chain: its seq is {record['seq']} after {seq} ({why})"
    if record["prev"] != digest:
        if not before:
            return f"line {number} breaks the hash chain: its prev is not the genesis value (line {number} was edited)"
        return (f"line {number} breaks the hash chain: its prev is not the hash of line {before}, "
                f"so line {before} was changed after it was written (or line {number} was)")
    return ""


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
