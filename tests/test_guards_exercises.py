"""The classic wrong solutions of lesson 05's exercises: `check` refuses each, with its reason."""
from __future__ import annotations

import json
import re

import pytest

from solutions.course.check import check
from solutions.guards.cut import cut_after_action_input, field_kind, json_end
from solutions.guards.repeat import repeat_verdict


def _refused(fn, reference, capsys: pytest.CaptureFixture) -> str:
    """Check `fn`; assert that the reference comes back; return the report."""
    assert check(fn) is reference
    out = capsys.readouterr().out
    assert out.startswith(f"✗ {fn.__name__}: ")
    return out


# ---------------------------------------------------------------- cut_after_action_input

def _reference(name: str):
    """The reference function of an exercise."""
    from solutions.course.exercises import exercises
    return exercises()[name].load_reference()


@pytest.mark.parametrize("name", ["split", "regex"])
def test_cutting_at_the_observation_label_is_refused(name: str, capsys) -> None:
    def cut_after_action_input(text):
        if name == "split":
            return text.split("Observation:")[0]
        return re.split(r"(?m)^\W*observation\W*[:：]", text, flags=re.I)[0]
    out = _refused(cut_after_action_input, _reference("cut_after_action_input"), capsys)
    assert "a second Thought/Action after the first Action Input goes too" in out


def test_cutting_at_the_end_of_the_input_line_is_refused(capsys) -> None:
    def cut_after_action_input(text):
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if field_kind(line) == "final_answer":
                return text
            if field_kind(line) == "action_input":
                return "\n".join(lines[:i + 1])
        return text
    out = _refused(cut_after_action_input, _reference("cut_after_action_input"), capsys)
    assert "a JSON input may span several lines" in out


def test_cutting_at_the_first_brace_is_refused(capsys) -> None:
    def cut_after_action_input(text):
        start = text.find("Action Input:")
        if start < 0 or "Final Answer:" in text[:start]:
            return text
        close = text.find("}", start)
        return text[:close + 1] if close >= 0 else text.split("\nObservation")[0]
    out = _refused(cut_after_action_input, _reference("cut_after_action_input"), capsys)
    assert "not after the first `}`" in out


def test_a_cut_that_forgets_an_action_without_input_is_refused(capsys) -> None:
    def cut_after_action_input(text):
        lines = text.split("\n")
        kinds = [field_kind(line) for line in lines]
        if "action_input" not in kinds or "final_answer" in kinds[:kinds.index("action_input")]:
            return text
        i = kinds.index("action_input")
        field = "\n".join(lines[i:])
        close = json_end(field, field.find("{")) if "{" in field else -1
        return "\n".join([*lines[:i], field[:close + 1]]) if close >= 0 else "\n".join(lines[:i + 1])
    out = _refused(cut_after_action_input, _reference("cut_after_action_input"), capsys)
    assert "no Action Input after the Action" in out


def test_a_cut_that_drops_the_chatter_is_refused(capsys) -> None:
    def cut_after_action_input(text):
        kept = _reference("cut_after_action_input")(text)
        lines = kept.split("\n")
        first = next((i for i, line in enumerate(lines) if field_kind(line)), 0)
        return "\n".join(lines[first:])
    out = _refused(cut_after_action_input, _reference("cut_after_action_input"), capsys)
    assert "chatter included" in out


# ---------------------------------------------------------------- repeat_verdict

@pytest.mark.parametrize("mistake, says", [
    ("names only", "compare the input too"),
    ("last call only", "look at every earlier call, not only the last one"),
    ("text of the input", "the order of the keys does not matter"),
    ("stop at the first repeat", "the identical call made once before: 'repeat'"),
    ("stop only at exactly two", "twice or more before: still 'stop'"),
    ("values as text", "3 and '3' are different inputs"),
])
def test_classic_repeat_guards_are_refused(mistake: str, says: str, capsys) -> None:
    def repeat_verdict(calls, action, action_input):
        if mistake == "names only":
            earlier = sum(name == action for name, _ in calls)
        elif mistake == "last call only":
            earlier = int(bool(calls) and calls[-1] == (action, action_input))
            earlier += int(len(calls) > 1 and calls[-2] == (action, action_input) and earlier == 1)
        elif mistake == "text of the input":
            earlier = sum(name == action and json.dumps(args) == json.dumps(action_input) for name, args in calls)
        elif mistake == "values as text":
            def text(args):
                return {key: str(value) for key, value in args.items()}
            earlier = sum(name == action and text(args) == text(action_input) for name, args in calls)
        else:
            earlier = sum(name == action and args == action_input for name, args in calls)
        if mistake == "stop at the first repeat":
            return "new" if earlier == 0 else "stop"
        if mistake == "stop only at exactly two":
            return {0: "new", 1: "repeat", 2: "stop"}.get(earlier, "repeat")
        return "new" if earlier == 0 else "repeat" if earlier == 1 else "stop"
    out = _refused(repeat_verdict, _reference("repeat_verdict"), capsys)
    assert says in out


def test_a_guard_that_returns_nothing_is_told_so(capsys) -> None:
    def repeat_verdict(calls, action, action_input):
        print("checking", action)
    out = _refused(repeat_verdict, _reference("repeat_verdict"), capsys)
    assert "cases fail for one reason: returned None" in out
