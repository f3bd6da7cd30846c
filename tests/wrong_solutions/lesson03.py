"""Wrong solutions of lesson 03's exercises (parse_action_input, parse_step), as learners write them.

They use the lesson's helpers as the learner's notebook has them. The `parse_step` ones follow the
exercise's six steps (`_decide` below), each with one step done wrong, inside the safe entry point
the exercise asks for (`_guarded`), unless that entry point is the mistake.
"""
from __future__ import annotations

import json
import re

from solutions.parsing import (_FULL_WIDTH, Step, _action_step, _clean, _field_line, _fields, _input_text,
                               _json_object, _load, _missing, _strip_fences, _strip_marks, format_error,
                               parse_action_input)
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("03")


# ---------------------------------------------------------------- parse_action_input

def _bare(body, empty=("", "none", "null", "n/a")):
    """A value without braces: a list refused, no arguments for one of `empty`, else {'input': value}."""
    if body.lstrip().startswith("["):
        return {}, "the Action Input must be a JSON object, not a list"
    value = _strip_marks(next((line for line in body.split("\n") if line.strip()), ""))
    return ({}, None) if value.lower() in empty else ({"input": value}, None)


def _ascii(text):
    """The lesson's normalising: code fences dropped, full-width characters made ASCII."""
    return _strip_fences(text).translate(_FULL_WIDTH)


def _read(text, load=_json_object, normalise=_ascii, bare=_bare):
    """parse_action_input as the lesson builds it, around the learner's `load` (the text from a `{`)."""
    if text is None:
        return {}, None
    body = normalise(text)
    return load(body) if "{" in body else bare(body)


@CATALOGUE.wrong("parse_action_input", fault="json.loads on the whole text, chatter and all",
                 says="cut from the first '{' to the last '}'")
def loads_the_whole_text(text):
    if text is None or not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return {}, f"the Action Input is not valid JSON ({exc})"
    return (value, None) if isinstance(value, dict) else ({}, "the Action Input must be a JSON object")


@CATALOGUE.wrong("parse_action_input", fault="returns None when the input cannot be read",
                 says="returned None")
def none_on_error(text):
    def load(body):
        arguments, problem = _json_object(body)
        return None if problem else (arguments, None)
    return _read(text, load)


@CATALOGUE.wrong("parse_action_input", fault="lets json.JSONDecodeError escape on broken JSON",
                 says="never an exception")
def raises_on_broken_json(text):
    def load(body):
        start, end = body.index("{"), body.rfind("}")
        candidate = body[start:end + 1] if end > start else body[start:] + "}"
        for attempt in (candidate, candidate.replace("'", '"'), re.sub(r",\s*}", "}", candidate)):
            try:
                return json.loads(attempt), None
            except json.JSONDecodeError:
                continue
        return json.loads(candidate), None  # "it cannot fail by now"
    return _read(text, load)


@CATALOGUE.wrong("parse_action_input", fault="a missing Action Input (None) reported as an error",
                 says="None means the reply had no Action Input line")
def none_is_an_error(text):
    if text is None:
        return {}, "the reply has no 'Action Input:' line"
    return parse_action_input(text)


def _load_to(end):
    """The learner's cut: from the first '{' to the '}' that `end(body, start)` finds, loaded with _load."""
    def load(body):
        start = body.index("{")
        stop = end(body, start)
        for candidate in ((body[start:stop + 1],) if stop > start else ()) + (body[start:] + "}",):
            value = _load(candidate)
            if isinstance(value, dict):
                return value, None
        return {}, 'the Action Input is not a valid JSON object; write it like {"name": "value"}'
    return load


@CATALOGUE.wrong("parse_action_input",
                 fault="stops the object at the first '}', so a nested one is cut short",
                 says="objects can nest")
def first_closing_brace(text):
    return _read(text, _load_to(lambda body, start: body.find("}", start)))


@CATALOGUE.wrong("parse_action_input", fault="only the last '}' ends the object, never the matching one",
                 says="'}' matching the first '{'")
def last_closing_brace_only(text):
    return _read(text, _load_to(lambda body, start: body.rfind("}")))


@CATALOGUE.wrong("parse_action_input", fault="full-width characters left as they are", says="full-width")
def no_full_width(text):
    return _read(text, normalise=_strip_fences)


@CATALOGUE.wrong("parse_action_input", fault="only the full-width colon and comma replaced",
                 says="full-width too")
def only_colon_and_comma(text):
    return _read(text, normalise=lambda text: _strip_fences(text).replace("：", ":").replace("，", ","))


@CATALOGUE.wrong("parse_action_input", fault="only an empty text means no arguments: 'none' becomes an input",
                 says="'none' or 'null' mean no arguments")
def none_word_is_an_input(text):
    return _read(text, bare=lambda body: ({"input": _strip_marks(body)}, None) if body.strip()
                 else ({}, None))


@CATALOGUE.wrong("parse_action_input", fault="a JSON list accepted as the arguments", says="not a list")
def list_accepted(text):
    def bare(body):
        try:
            value = json.loads(body)
        except json.JSONDecodeError:
            return _bare(body)
        return ({"input": value}, None) if value is not None else ({}, None)
    return _read(text, bare=bare)


@CATALOGUE.wrong("parse_action_input", fault="a bare value dropped instead of becoming {'input': value}",
                 says="a bare value becomes {'input': value}")
def bare_value_dropped(text):
    return _read(text, bare=lambda body: ({}, "the Action Input must be a JSON object, not a list")
                 if body.startswith("[") else ({}, None))


@CATALOGUE.wrong("parse_action_input", fault="single quotes read with eval", says="it uses eval")
def single_quotes_with_eval(text):
    def load(body):
        start, end = body.index("{"), body.rfind("}")
        try:
            return json.loads(body[start:end + 1]), None
        except json.JSONDecodeError:
            return eval(body[start:end + 1], {"__builtins__": {}}), None  # noqa: S307 (the mistake)
    return _read(text, load)


# ---------------------------------------------------------------- parse_step

def _guarded(text, decide):
    """parse_step as the exercise asks: not text is an error, and nothing `decide` raises escapes."""
    if not isinstance(text, str):
        return Step(error=format_error(f"the reply is not text (got {type(text).__name__})"))
    try:
        return decide(text)
    except Exception as exc:
        return Step(error=format_error(f"unexpected {type(exc).__name__}"), raw=text)


def _first_decisive(fields):
    """Step 2: the index of the first action or final answer, or None."""
    return next((i for i, (kind, _) in enumerate(fields) if kind in ("action", "final_answer")), None)


def _last_thought(fields, index):
    """Step 3: the last thought before field `index`, cleaned (None if there is none)."""
    before = fields[:index] if index is not None else fields
    return next((_clean(value) for kind, value in reversed(before) if kind == "thought"), None) or None


def _no_decision(thought, text, fields, cut):
    """Step 4: no decisive field, an error step saying what is missing."""
    return Step(thought=thought, error=format_error(_missing(text, fields, cut)), raw=text)


def _final(thought, value, text):
    """Step 5: the final answer, or an error when it is empty."""
    answer = _clean(value)
    if not answer:
        return Step(thought=thought, error=format_error("the 'Final Answer:' line is empty"), raw=text)
    return Step(thought=thought, final_answer=answer, raw=text)


def _action(thought, fields, index, text):
    """Step 6: the action and its input."""
    return _action_step(thought, fields[index][1], _input_text(fields, index), text)


def _decide(text, *, split=_fields, pick=_first_decisive, thought=_last_thought, none=_no_decision,
            final=_final, action=_action):
    """The exercise's `_parse`, step by step: each wrong solution replaces the step it gets wrong."""
    fields, cut = split(text)
    decisive = pick(fields)
    kept = thought(fields, decisive)
    if decisive is None:
        return none(kept, text, fields, cut)
    kind, value = fields[decisive]
    return final(kept, value, text) if kind == "final_answer" else action(kept, fields, decisive, text)


def _input_by_key(thought, fields, index, text):
    """The learner's step 6: the Action Input looked up in a dict of the fields after the action."""
    after = dict(fields[index + 1:])
    return _action_step(thought, fields[index][1], after["action_input"], text)


@CATALOGUE.wrong("parse_step", fault="raises KeyError when an Action has no Action Input line",
                 says="an Action without an Action Input")
def keyerror_on_missing_input(text):
    if not isinstance(text, str):
        return Step(error=format_error(f"the reply is not text (got {type(text).__name__})"))
    return _decide(text, action=_input_by_key)  # no try/except: the KeyError escapes


@CATALOGUE.wrong("parse_step",
                 fault="an Action without an Action Input line made an error (its KeyError caught)",
                 says="an Action without an Action Input")
def missing_input_is_an_error(text):
    return _guarded(text, lambda text: _decide(text, action=_input_by_key))


@CATALOGUE.wrong("parse_step", fault="an empty Final Answer returned as the answer ''",
                 says="an empty 'Final Answer:'")
def empty_final_answer(text):
    def final(thought, value, text):
        return Step(thought=thought, final_answer=_clean(value), raw=text)
    return _guarded(text, lambda text: _decide(text, final=final))


@CATALOGUE.wrong("parse_step", fault="the last Action wins (a loop that keeps overwriting)",
                 says="the first Action or Final Answer decides")
def last_action_wins(text):
    def pick(fields):
        decisive = None
        for index, (kind, _) in enumerate(fields):
            if kind == "action" or (kind == "final_answer" and decisive is None):
                decisive = index
        return decisive
    return _guarded(text, lambda text: _decide(text, pick=pick))


@CATALOGUE.wrong("parse_step", fault="a Final Answer anywhere wins over an Action before it",
                 says="take the action, the answer cannot be known yet")
def final_answer_first(text):
    def pick(fields):
        kinds = [kind for kind, _ in fields]
        for wanted in ("final_answer", "action"):
            if wanted in kinds:
                return kinds.index(wanted)
        return None
    return _guarded(text, lambda text: _decide(text, pick=pick))


def _walk(text, field_of, cut):
    """The learner's own field walk: `field_of(line)` finds a field, other lines continue the last
    one; at an Observation it stops (`cut`) or skips just that line."""
    fields = []
    for line in text.replace("\r\n", "\n").split("\n"):
        found = field_of(line)
        if found and found[0] == "observation":
            if cut:
                return fields, True
        elif found:
            fields.append(found)
        elif fields:
            fields[-1] = (fields[-1][0], fields[-1][1] + "\n" + line)
    return fields, False


def _skip_observations(text):
    """The lesson's field lines, an Observation line skipped and the lines after it kept."""
    return _walk(text, _field_line, cut=False)


@CATALOGUE.wrong("parse_step", fault="skips the made-up Observation line but keeps what follows it",
                 says="cut everything from a made-up 'Observation:' on")
def keeps_text_after_observation(text):
    return _guarded(text, lambda text: _decide(text, split=_skip_observations))


@CATALOGUE.wrong("parse_step",
                 fault="the cut from _fields dropped: the error does not say the Observation was ignored",
                 says="pass it to _missing")
def cut_not_passed_on(text):
    def none(thought, text, fields, cut):
        return Step(thought=thought, error=format_error(_missing(text, fields, False)), raw=text)
    return _guarded(text, lambda text: _decide(text, none=none))


@CATALOGUE.wrong("parse_step",
                 fault="the Action line read directly, so `Action: Final Answer` becomes a tool",
                 says="Final Answer is not a tool")
def final_answer_as_a_tool(text):
    def action(thought, fields, index, text):
        name = _strip_marks(fields[index][1].split("\n")[0])
        if not name:
            return Step(thought=thought, error=format_error("the 'Action:' line names no tool"), raw=text)
        arguments, problem = parse_action_input(_input_text(fields, index))
        if problem:
            return Step(thought=thought, error=format_error(problem), raw=text)
        return Step(thought=thought, action=name, action_input=arguments, raw=text)
    return _guarded(text, lambda text: _decide(text, action=action))


@CATALOGUE.wrong("parse_step", fault="the Action Input read with json.loads instead of parse_action_input",
                 says="parse_action_input")
def json_loads_the_input(text):
    def action(thought, fields, index, text):
        given = _input_text(fields, index)
        arguments = json.loads(given) if given and given.strip() else {}
        return Step(thought=thought, action=_strip_marks(fields[index][1]), action_input=arguments, raw=text)
    return _guarded(text, lambda text: _decide(text, action=action))


@CATALOGUE.wrong("parse_step", fault="returns None for a reply with no Action and no Final Answer",
                 says="returned None")
def none_without_a_decision(text):
    def none(thought, text, fields, cut):
        return None  # nothing to do
    return _guarded(text, lambda text: _decide(text, none=none))


_OWN_FIELD = re.compile(r"^[\s*#>-]*(thought|action input|action|final answer|observation)[\s*]*:\s*(.*)$",
                        re.IGNORECASE)


def _ascii_fields(text):
    """The learner's own field pattern: a name, then ':' (the ASCII colon only)."""
    def field_of(line):
        match = _OWN_FIELD.match(line)
        return (match[1].lower().replace(" ", "_"), match[2]) if match else None
    return _walk(text, field_of, cut=True)


@CATALOGUE.wrong("parse_step", fault="its own field pattern, with ':' only, ignores full-width colons",
                 says="full-width")
def ascii_colons_only(text):
    return _guarded(text, lambda text: _decide(text, split=_ascii_fields))


@CATALOGUE.wrong("parse_step",
                 fault="the whole reply made ASCII first, so the answer is not what the model wrote",
                 says="as written")
def full_width_replaced_everywhere(text):
    return _guarded(text, lambda text: _decide(text.translate(_FULL_WIDTH)))  # "：" -> ":" once, for all


@CATALOGUE.wrong("parse_step", fault="a Final Answer cut at its first line", says="several lines")
def final_answer_first_line(text):
    def final(thought, value, text):
        return _final(thought, value.split("\n")[0], text)
    return _guarded(text, lambda text: _decide(text, final=final))


@CATALOGUE.wrong("parse_step", fault="an error message of its own, without the format to copy",
                 says="format_error")
def error_without_the_format(text):
    def none(thought, text, fields, cut):
        return Step(thought=thought, error="Error: invalid format", raw=text)
    return _guarded(text, lambda text: _decide(text, none=none))


@CATALOGUE.wrong("parse_step", fault="no isinstance check: a reply that is not text raises",
                 says="must never raise")
def not_text_raises(text):
    return _decide(text)  # no isinstance check, no try/except


@CATALOGUE.wrong("parse_step", fault="without the try/except safety net around a correct _parse",
                 harmless="the lesson's _parse never raises on text (tests/test_fuzz_parsers.py), so the "
                          "net catches nothing in this lesson; it is there for a _parse of your own")
def no_safety_net(text):
    if not isinstance(text, str):
        return Step(error=format_error(f"the reply is not text (got {type(text).__name__})"))
    return _decide(text)


@CATALOGUE.wrong("parse_step", fault="the first Thought kept instead of the last one before the decision",
                 harmless="the loop never reads the thought; the trace shows it, and every Thought before "
                          "the decision is the model's own reasoning")
def first_thought(text):
    def thought(fields, index):
        before = fields[:index] if index is not None else fields
        return next((_clean(value) for kind, value in before if kind == "thought"), None) or None
    return _guarded(text, lambda text: _decide(text, thought=thought))


@CATALOGUE.wrong("parse_step", fault="an Action anywhere wins over a Final Answer before it",
                 says="here the Final Answer comes first")
def action_first(text):
    def pick(fields):
        kinds = [kind for kind, _ in fields]
        for wanted in ("action", "final_answer"):  # "a tool call is the real work"
            if wanted in kinds:
                return kinds.index(wanted)
        return None
    return _guarded(text, lambda text: _decide(text, pick=pick))


@CATALOGUE.wrong("parse_step", fault="the last Thought of the whole reply kept, even one after the decision",
                 says="a Thought written after the Action is run-on")
def last_thought_anywhere(text):
    def thought(fields, index):
        return next((_clean(value) for kind, value in reversed(fields) if kind == "thought"), None) or None
    return _guarded(text, lambda text: _decide(text, thought=thought))


@CATALOGUE.wrong("parse_step", fault="an empty Thought kept as '' instead of None",
                 says="an empty Thought is no thought")
def empty_thought_kept(text):
    def thought(fields, index):
        before = fields[:index] if index is not None else fields
        return next((_clean(value) for kind, value in reversed(before) if kind == "thought"), None)
    return _guarded(text, lambda text: _decide(text, thought=thought))


@CATALOGUE.wrong("parse_step", fault="the Final Answer stripped of spaces only, not cleaned with _clean",
                 says="clean the answer with _clean")
def answer_not_cleaned(text):
    def final(thought, value, text):
        answer = value.strip()
        if not answer:
            return Step(thought=thought, error=format_error("the 'Final Answer:' line is empty"), raw=text)
        return Step(thought=thought, final_answer=answer, raw=text)
    return _guarded(text, lambda text: _decide(text, final=final))


@CATALOGUE.wrong("parse_step", fault="the final and error steps built without raw=text",
                 says="raw=text")
def raw_left_out(text):
    def final(thought, value, text):
        answer = _clean(value)
        if not answer:
            return Step(thought=thought, error=format_error("the 'Final Answer:' line is empty"))
        return Step(thought=thought, final_answer=answer)

    def none(thought, text, fields, cut):
        return Step(thought=thought, error=format_error(_missing(text, fields, cut)))
    return _guarded(text, lambda text: _decide(text, final=final, none=none))


@CATALOGUE.wrong("parse_step", fault="the Action Input looked up anywhere after the Action, so a "
                 "later step's input is taken", says="a later step's Action Input is never this action's")
def next_input_anywhere(text):
    def action(thought, fields, index, text):
        given = next((value for kind, value in fields[index + 1:] if kind == "action_input"), None)
        return _action_step(thought, fields[index][1], given, text)
    return _guarded(text, lambda text: _decide(text, action=action))


@CATALOGUE.wrong("parse_step", fault="a reply that is not text turned into text with str() and parsed",
                 harmless="str() of None, a number or a list starts with no field line, so the step is "
                          "an error all the same, and nothing raises")
def str_of_anything(text):
    try:
        return _decide(str(text))
    except Exception as exc:
        return Step(error=format_error(f"unexpected {type(exc).__name__}"), raw=str(text))


@CATALOGUE.wrong("parse_action_input", fault="reads only the first line of the input, so a JSON "
                 "object over several lines loses its fields", says="not its first line")
def first_line_only(text):
    return _read(text, normalise=lambda text: _ascii(text).strip().split("\n")[0])


@CATALOGUE.wrong("parse_action_input", fault="a bare value takes every line after it, chatter included",
                 says="the lines after it are chatter")
def bare_value_with_chatter(text):
    return _read(text, bare=lambda body: _bare(body.replace("\n", " ")))


@CATALOGUE.wrong("parse_action_input", fault="compares a bare value with _EMPTY_INPUTS as written, "
                 "so 'None' becomes an input", says="in lower case")
def empty_words_case_sensitive(text):
    def bare(body):
        if body.lstrip().startswith("["):
            return {}, "the Action Input must be a JSON object, not a list"
        value = _strip_marks(next((line for line in body.split("\n") if line.strip()), ""))
        return ({}, None) if value in {"", "none", "null", "n/a"} else ({"input": value}, None)
    return _read(text, bare=bare)


@CATALOGUE.wrong("parse_action_input", fault="a bare value only stripped of spaces, so its quotes stay",
                 says="with _strip_marks")
def quotes_kept(text):
    def bare(body):
        if body.lstrip().startswith("["):
            return {}, "the Action Input must be a JSON object, not a list"
        value = next((line for line in body.split("\n") if line.strip()), "").strip()
        return ({}, None) if value.lower() in {"", "none", "null", "n/a"} else ({"input": value}, None)
    return _read(text, bare=bare)


@CATALOGUE.wrong("parse_action_input", fault="reads a bare value with json.loads first, so '42' "
                 "becomes the int 42", says="a bare value stays text")
def bare_value_as_json(text):
    def bare(body):
        first = next((line for line in body.split("\n") if line.strip()), "")
        try:
            value = json.loads(first)  # "Beijing" in quotes, true, 42 ...
        except ValueError:
            return _bare(body)
        if isinstance(value, (str, list)) or value is None:
            return _bare(body)
        return {"input": value}, None
    return _read(text, bare=bare)
