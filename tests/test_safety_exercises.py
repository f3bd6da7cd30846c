"""Lesson 09's exercises: the check passes the references and other correct solutions (the wrong
solutions it refuses are in tests/wrong_solutions/lesson09.py)."""
from __future__ import annotations

import re

from solutions.course.check import check
from solutions.course.exercises import exercises
from solutions.safety import approval, injection


def test_the_references_pass_every_case(capsys) -> None:
    def approval_decision(action, action_input, tools, policy):
        return approval.approval_decision(action, action_input, tools, policy)

    def neutralise(text):
        return injection.neutralise(text)
    assert check(approval_decision) is approval_decision and check(neutralise) is neutralise
    out = capsys.readouterr().out
    for name in ("approval_decision", "neutralise"):
        count = len(exercises()[name].cases)
        assert f"✓ {name}: {count}/{count} cases pass" in out


def test_other_correct_solutions_pass(capsys) -> None:
    def approval_decision(action, action_input, tools, policy):
        name = action.strip().lower()
        if not any(tool.name.lower() == name and tool.dangerous for tool in tools):
            return "run"
        if isinstance(policy, str):
            decision = policy
        else:
            try:
                decision = policy(approval.ToolCall(action, action_input))
            except Exception:
                decision = "deny"
        return {"approve": "run", "ask": "ask"}.get(decision, "deny")

    def neutralise(text):
        out, start = "", 0
        for match in [*injection.SENTENCE_END.finditer(text), None]:
            end = match.end() if match else len(text)
            piece, start = text[start:end], end
            if injection.has_instruction(piece):
                spaces = re.match(r"\s*", piece).group()
                piece = spaces + injection.FLAG + ("\n" if piece.endswith("\n") else "")
            out += piece
        return out
    assert check(approval_decision) is approval_decision and check(neutralise) is neutralise
    capsys.readouterr()
