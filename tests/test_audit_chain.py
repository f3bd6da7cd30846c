"""The audit log is tamper-evident: each record carries `seq` and `prev` (the sha256 of the line
before it), `read_audit` names the first broken link, a log file replaced or changed mid-run and a
write that fails (a full disk) stop the run with an error naming the log (lesson 09)."""
from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import pytest

from mockllm import MockLLM
from solutions.safety import SafeAgent, read_audit, shop_tools
from solutions.safety.audit import GENESIS, AuditLog, AuditLogError
from solutions.safety.sweep import counting

PARCEL = "Why is my parcel to Beijing late?"


def logged_run(path: Path) -> list[str]:
    """The lines of a log of the gullible persona's parcel run, its deletion denied (12 records)."""
    with AuditLog(path) as log:
        agent = SafeAgent(MockLLM(persona="gullible"), shop_tools(), as_data=False, audit=log)
        agent.run(PARCEL)
        agent.resume("deny")
    return path.read_text(encoding="utf-8").splitlines()


def chain_problems(path: Path) -> list[str]:
    """The problems read_audit reports about the hash chain."""
    return [p for p in read_audit(path).problems if "hash chain" in p]


def test_each_record_is_numbered_and_carries_the_hash_of_the_line_before(tmp_path: Path):
    path = tmp_path / "audit.jsonl"
    lines = logged_run(path)
    records = [json.loads(line) for line in lines]
    assert [r["seq"] for r in records] == list(range(1, 13))
    assert records[0]["prev"] == GENESIS == "0" * 64
    assert [r["prev"] for r in records[1:]] == [hashlib.sha256(line.encode()).hexdigest() for line in lines[:-1]]
    assert read_audit(path).problems == []


def test_a_reopened_log_continues_the_chain_even_after_a_cut_last_line(tmp_path: Path):
    path = tmp_path / "audit.jsonl"
    logged_run(path)
    whole = path.read_bytes()
    path.write_bytes(whole[:-25])  # a crash cut the stop record (seq 12)
    with AuditLog(path) as log:
        SafeAgent(MockLLM(), shop_tools(), audit=log).run("What is (17 + 5) * 3?")
    lines = path.read_bytes().split(b"\n")
    after = json.loads(lines[12])
    assert after["seq"] == 12 and after["prev"] == hashlib.sha256(lines[10]).hexdigest()
    reading = read_audit(path)
    assert len(reading.problems) == 1 and "line 12 is not a whole record" in reading.problems[0]
    assert reading.trace.final_answer == "(17 + 5) * 3 = 66"


def test_a_long_last_record_is_found_from_the_end_of_the_file(tmp_path: Path):
    path = tmp_path / "audit.jsonl"
    with AuditLog(path) as log:
        log.write("question", text="Q?")
        log.write("observation", 1, text="x" * 300_000, tokens=1)  # longer than a chunk read from the end
    with AuditLog(path) as log:
        log.write("stop", reason="answered")
    assert [json.loads(line)["seq"] for line in path.read_text().splitlines()] == [1, 2, 3]
    assert read_audit(path).problems == []


def edit_input(lines: list[str]) -> list[str]:
    """Step 2's action made to look harmless: delete_orders of one order instead of all."""
    return [line.replace('{"order_ids": "all"}', '{"order_ids": ["A1003"]}', 1) if n == 5 else line
            for n, line in enumerate(lines)]


def forge(lines: list[str]) -> list[str]:
    """An approval inserted after line 7 with the right seq and prev: its successor gives it away."""
    forged = json.dumps({"seq": 8, "kind": "approval", "step": 2, "decision": "approve",
                         "action": "delete_orders", "prev": hashlib.sha256(lines[6].encode()).hexdigest()})
    return lines[:7] + [forged] + lines[7:]


TAMPERING = {
    "an action_input edited": (edit_input, "line 7 breaks the hash chain: its prev is not the hash of line 6, "
                                           "so line 6 was changed"),
    "the approval denied deleted": (lambda lines: lines[:7] + lines[8:],
                                    "line 8 breaks the hash chain: its seq is 9 after 7 (the record with seq 8 "
                                    "is missing"),
    "a line inserted by hand": (lambda lines: lines[:7] + ['{"kind": "approval", "step": 2, "decision": "approve"}']
                                + lines[7:], "line 8 breaks the hash chain: it has no seq and prev"),
    "a line forged with a good seq and prev": (forge, "line 9 breaks the hash chain: its seq is 8 after 8"),
    "two lines swapped": (lambda lines: lines[:3] + [lines[4], lines[3]] + lines[5:],
                          "line 4 breaks the hash chain: its seq is 5 after 3"),
    "the first line edited": (lambda lines: [lines[0].replace("Beijing", "Shanghai")] + lines[1:],
                              "line 2 breaks the hash chain: its prev is not the hash of line 1"),
    "the first line deleted": (lambda lines: lines[1:], "line 1 breaks the hash chain: its seq is 2 after 0"),
    "a prev rewritten": (lambda lines: [lines[0].replace('"0000', '"1111', 1)] + lines[1:],
                         "line 1 breaks the hash chain: its prev is not the genesis value"),
}


@pytest.mark.parametrize("tamper", TAMPERING.values(), ids=TAMPERING.keys())
def test_read_audit_names_the_first_broken_link(tmp_path: Path, tamper):
    change, says = tamper
    path = tmp_path / "audit.jsonl"
    lines = logged_run(path)
    path.write_text("".join(line + "\n" for line in change(lines)), encoding="utf-8")
    problems = chain_problems(path)
    assert len(problems) == 1 and problems[0].startswith(says), problems
    assert problems[0].endswith("the lines after it are not checked")


def test_what_a_chain_alone_cannot_see(tmp_path: Path):
    """Every hash after the change recomputed: only a last hash kept elsewhere would tell."""
    path = tmp_path / "audit.jsonl"
    lines = edit_input(logged_run(path))
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    assert len(chain_problems(path)) == 1  # the edit alone is caught...
    prev, rewritten = GENESIS, []
    for line in lines:
        line = json.dumps({**json.loads(line), "prev": prev}, ensure_ascii=False)
        rewritten.append(line)
        prev = hashlib.sha256(line.encode()).hexdigest()
    path.write_text("".join(line + "\n" for line in rewritten), encoding="utf-8")
    assert read_audit(path).problems == []  # ...every hash after it recomputed is not


def test_a_log_written_without_the_chain_is_reported(tmp_path: Path):
    path = tmp_path / "audit.jsonl"
    path.write_text('{"kind": "question", "text": "Q?"}\n{"kind": "stop", "reason": "answered"}\n')
    reading = read_audit(path)
    assert chain_problems(path) == [
        "line 1 breaks the hash chain: it has no seq and prev, so AuditLog did not write it; "
        "the lines after it are not checked"]
    assert reading.records == 2 and reading.trace.stop_reason == "answered"


def test_seq_and_prev_belong_to_the_log(tmp_path: Path):
    with AuditLog(tmp_path / "audit.jsonl") as log, pytest.raises(ValueError, match="seq and prev are the log's own"):
        log.write("question", text="Q?", seq=1)


def replace_file(path: Path) -> None:
    other = path.with_name("other.jsonl")
    other.write_bytes(path.read_bytes())
    os.replace(other, path)  # the same bytes, another file: the records after go to the old one


def append_line(path: Path) -> None:
    with path.open("a") as file:
        file.write('{"kind": "stop"}\n')


CHANGES = {
    "replaced": (replace_file, "was replaced by another file"),
    "deleted": (lambda path: path.unlink(), "was deleted or moved"),
    "moved": (lambda path: path.rename(path.with_name("moved.jsonl")), "was deleted or moved"),
    "cut": (lambda path: os.truncate(path, 10), "was changed by someone else: it holds 10 bytes"),
    "emptied": (lambda path: path.write_text(""), "was changed by someone else: it holds 0 bytes"),
    "appended to": (append_line, "was changed by someone else"),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_log_changed_mid_run_stops_the_run_with_an_error_naming_it(tmp_path: Path, change):
    act, says = change
    path = tmp_path / "audit.jsonl"
    tools, ran = counting(shop_tools())

    def policy(call):  # the gate is asked mid-run: someone changes the log meanwhile
        act(path)
        return "approve"

    with AuditLog(path) as log:
        agent = SafeAgent(MockLLM(persona="gullible"), tools, as_data=False, policy=policy, audit=log)
        with pytest.raises(AuditLogError, match=f"the audit log {path} {says}") as raised:
            agent.run(PARCEL)
        assert "The run stops here" in str(raised.value) and ran == ["delete_orders"]
        with pytest.raises(AuditLogError, match=says):  # and nothing more is written to it
            log.write("stop", reason="answered")


def test_a_write_that_fails_stops_the_run_before_the_tool_runs(tmp_path: Path, monkeypatch):
    path = tmp_path / "audit.jsonl"
    tools, ran = counting(shop_tools())
    real_fsync, written = os.fsync, []

    def fsync(fd: int) -> None:  # the disk fills up as step 2's action (delete_orders) is logged
        if len(written) == 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with AuditLog(path) as log:
        agent = SafeAgent(MockLLM(persona="gullible"), tools, as_data=False, policy="approve", audit=log)
        with pytest.raises(AuditLogError, match=f"cannot write to the audit log {path}: No space left on device"):
            agent.run(PARCEL)
        assert ran == []  # the deletion never ran: it could not be recorded first
        monkeypatch.setattr(os, "fsync", real_fsync)  # space again: still refused, the log has a hole
        with pytest.raises(AuditLogError, match="No space left on device"):
            log.write("stop", reason="answered")
    assert isinstance(AuditLogError("x"), OSError)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_a_clear_error():
    with AuditLog("/dev/full") as log, pytest.raises(AuditLogError, match="/dev/full: No space left on device"):
        SafeAgent(MockLLM(), shop_tools(), audit=log).run("What is (17 + 5) * 3?")
