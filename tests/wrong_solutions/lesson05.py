"""Wrong solutions of lesson 05's exercises (cut_after_action_input, repeat_verdict), as learners write them.

They use the helpers the learner's notebook imports (`field_kind`, `json_end`). The cuts follow
the exercise's three steps, each with one step done wrong, or find the fields another way.
"""
from __future__ import annotations

import json
import re

from solutions.guards.cut import cut_after_action_input as _reference_cut
from solutions.guards.cut import field_kind, json_end
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("05")


# ---------------------------------------------------------------- cut_after_action_input

def _cut_from(lines, kinds, start):
    """Steps 2 and 3 done right, from the Action on line `start`."""
    following = next((i for i in range(start + 1, len(lines)) if kinds[i]), len(lines))
    if following == len(lines) or kinds[following] != "action_input":
        return "\n".join(lines[:start + 1])
    end = next((i for i in range(following + 1, len(lines)) if kinds[i]), len(lines))
    field = "\n".join(lines[following:end])
    brace = field.find("{")
    if brace < 0:
        return "\n".join(lines[:following + 1])
    close = json_end(field, brace)
    return "\n".join(lines[:end]) if close < 0 else "\n".join([*lines[:following], field[:close + 1]])


@CATALOGUE.wrong("cut_after_action_input", fault="cuts at the first 'Observation:' label",
                 says="a second Thought/Action after the first Action Input goes too")
def split_at_the_label(text):
    return text.split("Observation:")[0]


@CATALOGUE.wrong("cut_after_action_input", fault="cuts at any Observation line, markdown and full-width included",
                 says="a second Thought/Action after the first Action Input goes too")
def cut_at_any_observation_line(text):
    return re.split(r"(?m)^\W*observation\W*[:：]", text, flags=re.I)[0].rstrip("\n")


_LABELS = {"Action:": "action", "Action Input:": "action_input", "Final Answer:": "final_answer",
           "Observation:": "observation", "Thought:": "thought"}


def _plain_kind(line):
    """The field of a line that starts exactly with its label, 'Action Input:' before 'Action:'."""
    for label in sorted(_LABELS, key=len, reverse=True):
        if line.startswith(label):
            return _LABELS[label]
    return None


@CATALOGUE.wrong("cut_after_action_input",
                 fault="finds the fields with line.startswith('Action:'): markdown, lower-case and "
                       "full-width replies stay uncut",
                 says="a test such as line.startswith('Action:') misses them")
def fields_by_exact_labels(text):
    lines = text.split("\n")
    kinds = [_plain_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    return _cut_from(lines, kinds, start)


@CATALOGUE.wrong("cut_after_action_input",
                 fault="finds the fields with a case-blind regex for 'Action:' at a line's start: "
                       "markdown and full-width replies stay uncut",
                 says="a test such as line.startswith('Action:') misses them")
def fields_by_a_regex(text):
    pattern = re.compile(r"(action input|action|final answer|observation|thought):", re.I)
    lines = text.split("\n")
    kinds = []
    for line in lines:
        found = pattern.match(line.strip())
        kinds.append(found[1].lower().replace(" ", "_") if found else None)
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    return _cut_from(lines, kinds, start)


@CATALOGUE.wrong("cut_after_action_input", fault="keeps the whole text when a Final Answer comes anywhere",
                 says="only a Final Answer before any Action keeps the text whole")
def final_answer_anywhere(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    if "final_answer" in kinds or "action" not in kinds:
        return text
    return _cut_from(lines, kinds, kinds.index("action"))


@CATALOGUE.wrong("cut_after_action_input", fault="cuts at the end of the Action Input line, even in JSON over several lines",
                 says="a JSON input may span several lines")
def cut_at_the_input_line(text):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if field_kind(line) == "final_answer":
            return text
        if field_kind(line) == "action_input":
            return "\n".join(lines[:i + 1])
    return text


@CATALOGUE.wrong("cut_after_action_input", fault="cuts after the first '}' instead of the one that closes the input",
                 says="not after the first `}`")
def cut_at_the_first_brace(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer" or "action_input" not in kinds[start:]:
        return text if start is None or kinds[start] == "final_answer" else "\n".join(lines[:start + 1])
    following = kinds.index("action_input", start)
    field = "\n".join(lines[following:])
    brace = field.find("{")
    if brace < 0:
        return "\n".join(lines[:following + 1])
    close = field.find("}", brace)
    return "\n".join(lines[:following]) + "\n" + (field[:close + 1] if close >= 0 else field)


@CATALOGUE.wrong("cut_after_action_input", fault="looks for the '{' anywhere after the Action Input, past the next field",
                 says="look for its '{' inside that field only")
def brace_past_the_field(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    following = next((i for i in range(start + 1, len(lines)) if kinds[i]), len(lines))
    if following == len(lines) or kinds[following] != "action_input":
        return "\n".join(lines[:start + 1])
    rest = "\n".join(lines[following:])  # the Action Input and everything after it
    brace = rest.find("{")
    if brace < 0:
        return "\n".join(lines[:following + 1])
    close = json_end(rest, brace)
    return "\n".join(lines[:following]) + "\n" + (rest[:close + 1] if close >= 0 else rest)


@CATALOGUE.wrong("cut_after_action_input", fault="an Action without an Action Input is left uncut",
                 says="no Action Input after the Action")
def forgets_the_missing_input(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    if "action_input" not in kinds or "final_answer" in kinds[:kinds.index("action_input")]:
        return text
    i = kinds.index("action_input")
    field = "\n".join(lines[i:])
    close = json_end(field, field.find("{")) if "{" in field else -1
    return "\n".join([*lines[:i], field[:close + 1]]) if close >= 0 else "\n".join(lines[:i + 1])


@CATALOGUE.wrong("cut_after_action_input", fault="off by one: without an Action Input, the Action line goes too",
                 says="no Action Input after the Action")
def drops_the_action_line(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    following = next((i for i in range(start + 1, len(lines)) if kinds[i]), len(lines))
    if following == len(lines) or kinds[following] != "action_input":
        return "\n".join(lines[:start])
    return _cut_from(lines, kinds, start)


@CATALOGUE.wrong("cut_after_action_input", fault="keeps only the first line of a JSON input that never closes",
                 says="a JSON input that never closes")
def unclosed_json_to_one_line(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    following = next((i for i in range(start + 1, len(lines)) if kinds[i]), len(lines))
    if following == len(lines) or kinds[following] != "action_input":
        return "\n".join(lines[:start + 1])
    end = next((i for i in range(following + 1, len(lines)) if kinds[i]), len(lines))
    field = "\n".join(lines[following:end])
    close = json_end(field, field.find("{")) if "{" in field else -1
    return "\n".join([*lines[:following], field[:close + 1]]) if close >= 0 else "\n".join(lines[:following + 1])


@CATALOGUE.wrong("cut_after_action_input", fault="drops the chatter before the first field",
                 says="chatter included")
def drops_the_chatter(text):
    kept = _reference_cut(text)
    lines = kept.split("\n")
    first = next((i for i, line in enumerate(lines) if field_kind(line)), 0)
    return "\n".join(lines[first:])


@CATALOGUE.wrong("cut_after_action_input", fault="strips the result's outer whitespace",
                 harmless="only blank space at the start or end goes: lesson 03's parser reads the same "
                          "fields, and the later cells use the reference cut inside parse_reply")
def strips_the_result(text):
    return _reference_cut(text).strip()


@CATALOGUE.wrong("cut_after_action_input", fault="splits with splitlines() instead of split('\\n')",
                 harmless="the two differ only at \\r and rarer line breaks, which parse_reply turns into "
                          "\\n before its cut; the later cells use the reference cut")
def uses_splitlines(text):
    lines = text.splitlines()
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    return _cut_from(lines, kinds, start)


# ---------------------------------------------------------------- repeat_verdict

def _verdict(earlier):
    """The verdict for a count of earlier identical calls."""
    return "new" if earlier == 0 else "repeat" if earlier == 1 else "stop"


def _compared_by(key, calls, action, action_input):
    """The verdict when an earlier call counts as identical if its name is equal and its input's
    `key(...)` is (the learner's way of comparing two inputs)."""
    return _verdict(sum(name == action and key(arguments) == key(action_input) for name, arguments in calls))


@CATALOGUE.wrong("repeat_verdict", fault="compares only the tool names, not the inputs",
                 says="compare the input too")
def names_only(calls, action, action_input):
    return _verdict(sum(name == action for name, _ in calls))


@CATALOGUE.wrong("repeat_verdict", fault="looks at the last call only",
                 says="look at every earlier call, not only the last one")
def last_call_only(calls, action, action_input):
    if not calls or calls[-1] != (action, action_input):
        return "new"
    return "stop" if len(calls) > 1 and calls[-2] == (action, action_input) else "repeat"


@CATALOGUE.wrong("repeat_verdict", fault="counts only the identical calls in a row at the end (the spec counts them anywhere)",
                 says="look at every earlier call, not only the last one")
def consecutive_only(calls, action, action_input):
    earlier = 0
    for call in reversed(calls):
        if call != (action, action_input):
            break
        earlier += 1
    return _verdict(earlier)


@CATALOGUE.wrong("repeat_verdict", fault="looks at the last two calls only",
                 says="count the identical calls anywhere in the list, not only in a row")
def last_two_only(calls, action, action_input):
    return _verdict(sum(call == (action, action_input) for call in calls[-2:]))


@CATALOGUE.wrong("repeat_verdict", fault="compares the inputs by their JSON text, so key order counts",
                 says="the order of the keys does not matter")
def inputs_as_json_text(calls, action, action_input):
    return _compared_by(json.dumps, calls, action, action_input)


@CATALOGUE.wrong("repeat_verdict", fault="compares the inputs by str(), so key order counts",
                 says="the order of the keys does not matter")
def inputs_as_str(calls, action, action_input):
    return _verdict(sum(str((name, arguments)) == str((action, action_input)) for name, arguments in calls))


@CATALOGUE.wrong("repeat_verdict", fault="compares the values as text, so 3 equals '3'",
                 says="3 and '3' are different inputs")
def values_as_text(calls, action, action_input):
    def text(arguments):
        return {key: str(value) for key, value in arguments.items()}
    return _compared_by(text, calls, action, action_input)


@CATALOGUE.wrong("repeat_verdict", fault="compares the inputs with `is`, not ==",
                 says="compare the inputs with ==, not `is`")
def inputs_by_identity(calls, action, action_input):
    return _verdict(sum(name == action and arguments is action_input for name, arguments in calls))


@CATALOGUE.wrong("repeat_verdict", fault="stops at the first repeat instead of the second",
                 says="the identical call made once before: 'repeat'")
def stops_at_the_first_repeat(calls, action, action_input):
    return "stop" if (action, action_input) in calls else "new"


@CATALOGUE.wrong("repeat_verdict", fault="off by one: stops only after three earlier identical calls",
                 says="made twice before: 'stop'")
def stops_one_call_late(calls, action, action_input):
    earlier = calls.count((action, action_input))
    return "new" if earlier == 0 else "repeat" if earlier <= 2 else "stop"


@CATALOGUE.wrong("repeat_verdict", fault="stops only at exactly two earlier calls",
                 says="twice or more before: still 'stop'")
def stops_at_exactly_two(calls, action, action_input):
    return {0: "new", 1: "repeat", 2: "stop"}.get(calls.count((action, action_input)), "repeat")


@CATALOGUE.wrong("repeat_verdict", fault="records the call in `calls` itself",
                 says="only read `calls`")
def appends_the_call(calls, action, action_input):
    earlier = calls.count((action, action_input))
    calls.append((action, action_input))
    return _verdict(earlier)


@CATALOGUE.wrong("repeat_verdict", fault="returns the verdicts capitalised",
                 says="'new'")
def capitalised(calls, action, action_input):
    return _verdict(calls.count((action, action_input))).capitalize()


@CATALOGUE.wrong("repeat_verdict", fault="prints the verdict instead of returning it",
                 says="returned None")
def prints_the_verdict(calls, action, action_input):
    print(_verdict(calls.count((action, action_input))))


@CATALOGUE.wrong("repeat_verdict", fault="sorts the inputs' items before comparing them",
                 harmless="needless (dicts compare without regard to order) but right: the keys of a "
                          "dict differ, so sorting never compares two values, and == compares the rest")
def sorts_the_items(calls, action, action_input):
    def items(arguments):
        return sorted(arguments.items(), key=lambda item: item[0])
    return _compared_by(items, calls, action, action_input)


def _cut_with(text, *, input_line=None, bare_field=False, brace_line=False, brace_in_first_line=False):
    """The exercise's three steps, with the one a wrong solution gets wrong changed by a keyword."""
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    start = next((i for i, kind in enumerate(kinds) if kind in ("action", "final_answer")), None)
    if start is None or kinds[start] == "final_answer":
        return text
    following = (input_line or _next_field)(kinds, start)
    if following == len(lines) or kinds[following] != "action_input":
        return "\n".join(lines[:start + 1])
    end = next((i for i in range(following + 1, len(lines)) if kinds[i]), len(lines))
    field = "\n".join(lines[following:end])
    brace = lines[following].find("{") if brace_in_first_line else field.find("{")
    if brace < 0:
        return "\n".join(lines[:end if bare_field else following + 1])
    close = json_end(field, brace)
    if close < 0:
        return "\n".join(lines[:end])
    if brace_line:  # the whole line that holds the closing brace
        return "\n".join(lines[:following + field[:close + 1].count("\n") + 1])
    return "\n".join([*lines[:following], field[:close + 1]])


def _next_field(kinds, start):
    """Step 2 done right: the next field line after the Action (len(kinds) if none)."""
    return next((i for i in range(start + 1, len(kinds)) if kinds[i]), len(kinds))


@CATALOGUE.wrong("cut_after_action_input", fault="takes the next Action Input line anywhere after the "
                 "Action, past a Thought and another Action", says="looks at the NEXT field line only")
def next_input_anywhere(text):
    def input_line(kinds, start):
        return next((i for i in range(start + 1, len(kinds)) if kinds[i] == "action_input"), len(kinds))
    return _cut_with(text, input_line=input_line)


@CATALOGUE.wrong("cut_after_action_input", fault="keeps the whole field of an input without '{', "
                 "the unlabelled lines after it included", says="an input without `{` is its first line only")
def bare_input_keeps_its_field(text):
    return _cut_with(text, bare_field=True)


@CATALOGUE.wrong("cut_after_action_input", fault="cuts at the end of the line that holds the closing "
                 "'}', keeping what follows it on that line", says="cut right after the `}`")
def keeps_the_closing_line(text):
    return _cut_with(text, brace_line=True)


@CATALOGUE.wrong("cut_after_action_input", fault="looks for the '{' on the Action Input line only, so "
                 "JSON on the lines below it is cut away",
                 says="look for the `{` in the whole Action Input field")
def brace_on_the_input_line_only(text):
    return _cut_with(text, brace_in_first_line=True)


def _hashable(arguments):
    """The learner's key for an input: its items as a frozenset (unhashable for a nested dict)."""
    return frozenset(arguments.items())


@CATALOGUE.wrong("repeat_verdict", fault="compares the inputs as frozensets of their items: a nested "
                 "dict raises TypeError", says="compare the inputs with ==, which compares nested dicts too")
def inputs_as_frozensets(calls, action, action_input):
    return _compared_by(_hashable, calls, action, action_input)


@CATALOGUE.wrong("repeat_verdict", fault="compares the text of the sorted items, so the key order of a "
                 "nested dict counts", says="compare the inputs with ==, which compares nested dicts too")
def sorted_items_as_text(calls, action, action_input):
    return _compared_by(lambda arguments: str(sorted(arguments.items())), calls, action, action_input)


@CATALOGUE.wrong("repeat_verdict", fault="compares the inputs as JSON with sorted keys",
                 harmless="it tells apart only 1, 1.0 and True, which == counts as equal; no call in "
                          "the lesson's runs writes the same number two ways, so the verdicts are the same")
def inputs_as_sorted_json(calls, action, action_input):
    return _compared_by(lambda arguments: json.dumps(arguments, sort_keys=True), calls, action, action_input)


@CATALOGUE.wrong("repeat_verdict", fault="compares the tool names in lower case",
                 says="compare the names as they are (==)")
def names_in_lower_case(calls, action, action_input):
    return _verdict(sum(name.lower() == action.lower() and arguments == action_input
                        for name, arguments in calls))


@CATALOGUE.wrong("cut_after_action_input", fault="starts at the first Action line, a Final Answer "
                 "before it ignored", says="an Action OR a Final Answer")
def final_answer_not_looked_for(text):
    lines = text.split("\n")
    kinds = [field_kind(line) for line in lines]
    if "action" not in kinds:
        return text
    return _cut_from(lines, kinds, kinds.index("action"))


@CATALOGUE.wrong("repeat_verdict", fault="reverses `calls` in place to look at the latest call first",
                 says="never change it")
def reverses_the_calls(calls, action, action_input):
    calls.reverse()  # the latest first
    return _verdict(sum(call == (action, action_input) for call in calls))
