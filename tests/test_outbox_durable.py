"""The outbox pattern: an email's key is recorded with it, in one transaction, before the send is
reported; a restart or a SIGKILL never sends the same email twice, and what makes two emails the
same is their normalised content (lesson 09's `send_email`)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from mockllm.world import Outbox
from mockllm.world.email import content_key, normalise
from solutions.safety import send_email_tool
from solutions.tools import ToolRegistry

ROOT = Path(__file__).parent.parent
EMAIL = {"to": "li.wei@example.com", "subject": "Order A1002", "body": "Your order A1002 has shipped."}

KILLED_SEND = r'''
import os, signal, sys
from mockllm.world import Outbox
from solutions.safety import send_email_tool
from solutions.tools import ToolRegistry

path, point = sys.argv[1], sys.argv[2]
die = lambda: os.kill(os.getpid(), signal.SIGKILL)
if point == "recorded":  # the email is recorded, the process dies before "Email sent" reaches anyone
    record = Outbox._record
    Outbox._record = lambda self, *args: (record(self, *args), die())
else:  # the process dies as the transaction commits: nothing is recorded, nothing reported
    open_ = Outbox._open
    def traced(self, create=False):
        conn = open_(self, create)
        conn.set_trace_callback(lambda sql: die() if sql == "COMMIT" and not create else None)
        return conn
    Outbox._open = traced
tools = ToolRegistry([send_email_tool(Outbox(path))])
print(tools.run("send_email", {"to": "li.wei@example.com", "subject": "Order A1002",
                               "body": "Your order A1002 has shipped."}))
'''


def killed_send(path: Path, point: str) -> None:
    """Send EMAIL through the tool in a process that SIGKILLs itself at `point`."""
    done = subprocess.run([sys.executable, "-c", KILLED_SEND, str(path), point], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert "Email sent" not in done.stdout  # the caller never heard that it was sent


@pytest.mark.parametrize("point, recorded", [("recorded", 1), ("commit", 0)])
def test_a_send_killed_by_sigkill_then_retried_after_a_restart_sends_once(tmp_path: Path, point, recorded):
    path = tmp_path / "outbox.db"
    killed_send(path, point)
    assert len(Outbox(path)) == recorded  # the transaction was whole or nothing
    tools = ToolRegistry([send_email_tool(Outbox(path))])  # the restarted agent retries, without a key
    retry = tools.run("send_email", {**EMAIL, "body": "Your order  A1002 has shipped.\u200b"})
    assert retry.startswith("Already sent" if recorded else "Email sent"), retry
    assert [normalise(m["body"]) for m in Outbox(path).messages] == [EMAIL["body"]]  # exactly one email


def test_a_restarted_outbox_refuses_every_recorded_key(tmp_path: Path):
    path = tmp_path / "outbox.db"
    first = Outbox(path)
    sent = first.send(**EMAIL)
    keyed = first.send(**EMAIL, idempotency_key="weekly-1")  # a caller's own key: another email
    again = Outbox(path)
    assert again.send(**EMAIL).startswith("Already sent") and again.send(**EMAIL, idempotency_key="weekly-1"
                                                                          ).startswith("Already sent")
    assert len(again) == 2 and len(first) == 2 and sent.startswith("Email sent") and keyed.startswith("Email sent")
    assert [m["idempotency_key"] for m in again.messages] == [content_key(**EMAIL), "weekly-1"]
    assert "in " + str(path) in repr(again)


def test_the_file_outbox_sends_what_the_memory_outbox_sends(tmp_path: Path):
    calls = [EMAIL, EMAIL, {**EMAIL, "body": "It has arrived."}, {**EMAIL, "to": "LI.WEI@example.com "}]
    memory, on_file = Outbox(), Outbox(tmp_path / "outbox.db")
    assert [memory.send(**c) for c in calls] == [on_file.send(**c) for c in calls]
    assert memory.messages == on_file.messages and len(memory) == 2


@pytest.mark.parametrize("body", ["Your order  A1002 has shipped.", "Your order A1002\u200b has shipped.",
                                  "\ufeffYour order A1002 has\u00a0shipped.\n", "Your order A1002 has\u2060 shipped.",
                                  "Your order Ａ1002 has shipped.", "Your\u200c order\u200d A1002 has shipped.",
                                  "Your order A1002\nhas shipped.  "])
@pytest.mark.parametrize("path", [None, "outbox.db"])
def test_spacing_and_invisible_characters_do_not_make_a_new_email(tmp_path: Path, body: str, path):
    box = Outbox(None if path is None else tmp_path / path)
    box.send(**EMAIL)
    assert box.send(" Li.Wei@EXAMPLE.com", EMAIL["subject"], body).startswith("Already sent")
    assert len(box) == 1 and box.send(**{**EMAIL, "body": "Your order A1003 has shipped."}).startswith("Email sent")
    assert box.send(**{**EMAIL, "subject": "order a1002"}).startswith("Email sent")  # a subject keeps its case


def test_normalise_and_the_key():
    assert normalise(" a\u200b  b\t\n c\u3000") == "a b c" and normalise("ﬁle Ａ") == "file A"
    assert content_key("A@B.c", "s", "b") == content_key("a@b.c", "s", "b") != content_key("a@b.c", "S", "b")
    assert len(content_key("a@b.c", "s", "b")) == 16
    assert content_key("a@b.c", "s b", "") != content_key("a@b.c", "s", "b")  # fields do not run together


@pytest.mark.parametrize("path", [None, "outbox.db"])
def test_a_callers_key_used_again_for_another_email_is_an_error(tmp_path: Path, path):
    box = Outbox(None if path is None else tmp_path / path)
    box.send(**EMAIL, idempotency_key="r-1")
    with pytest.raises(ValueError, match="idempotency key 'r-1' was already used for another email"):
        box.send(**{**EMAIL, "body": "Something else."}, idempotency_key="r-1")
    with pytest.raises(TypeError, match="idempotency_key"):
        box.send(**EMAIL, idempotency_key=" ")
    assert len(box) == 1


def sqlite_file(path: Path) -> Path:
    """Another program's SQLite database."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE emails (id INTEGER, note TEXT)")
    conn.close()
    return path


@pytest.mark.parametrize("make, says", [
    (lambda p: p.write_bytes(b"\x00\xff garbage " * 500), "is not an outbox (not a SQLite file"),
    (lambda p: p.write_text("to,subject\nli.wei@example.com,Hi\n" * 100), "is not an outbox (not a SQLite file"),
    (sqlite_file, "is a SQLite file but not an outbox (tables: emails)"),
    (lambda p: p.mkdir(), "cannot use the outbox file"),
])
def test_a_foreign_or_damaged_file_is_a_clear_error_naming_it(tmp_path: Path, make, says):
    path = tmp_path / "outbox.db"
    make(path)
    with pytest.raises((ValueError, OSError), match="outbox") as raised:
        Outbox(path)
    assert str(path) in str(raised.value) and says in str(raised.value)
    assert not isinstance(raised.value, sqlite3.Error)


def test_a_damaged_outbox_file_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "outbox.db"
    Outbox(path).send(**EMAIL)
    whole = path.read_bytes()
    path.write_bytes(whole[:100] + b"\xff" * (len(whole) - 100))
    with pytest.raises(ValueError, match=f"{path} is not an outbox"):
        Outbox(path).send(**EMAIL)


def test_an_outbox_file_gone_or_read_only_mid_run_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "outbox.db"
    box = Outbox(path)
    path.unlink()
    with pytest.raises(OSError, match=f"the outbox file {path} is gone") as raised:
        box.send(**EMAIL)
    assert not isinstance(raised.value, sqlite3.Error) and not path.exists()
    if os.geteuid() == 0:
        pytest.skip("root may write a read-only file")
    box = Outbox(path)
    path.chmod(0o444)
    with pytest.raises(OSError, match=f"cannot use the outbox file {path}: attempt to write a readonly database"):
        box.send(**EMAIL)


SENDER = r'''
import sys
from mockllm.world import Outbox
box = Outbox(sys.argv[1])
for n in range(20):
    box.send("li.wei@example.com", f"Reminder {n}", "Your order has shipped.")
'''


def test_four_processes_sending_the_same_emails_at_once_send_each_once(tmp_path: Path):
    path = tmp_path / "outbox.db"
    Outbox(path)
    senders = [subprocess.Popen([sys.executable, "-c", SENDER, str(path)], cwd=ROOT, stderr=subprocess.PIPE)
               for _ in range(4)]
    errors = [p.communicate(timeout=60)[1] for p in senders]
    assert [p.returncode for p in senders] == [0] * 4, errors
    assert sorted(m["subject"] for m in Outbox(path).messages) == sorted(f"Reminder {n}" for n in range(20))
