"""Cases for lesson 03 (Parsing the reply): the Action Input, and the failure catalogue."""
from __future__ import annotations

from typing import Any, Callable

from solutions.course.exercises import Case, Cause, Exercise, has_attributes

CALC = {"expression": "(17 + 5) * 3"}
WEATHER = {"city": "Beijing", "date": "2025-03-15"}
_ACTION = 'Thought: I should compute this.\nAction: calculator\nAction Input: {"expression": "(17 + 5) * 3"}'


def _fields(**wanted: Any) -> tuple[Callable[[Any], bool], str]:
    """Predicate and description: the step's attributes equal `wanted`."""
    def test(step: Any) -> bool:
        return all(getattr(step, name) == value for name, value in wanted.items())
    return test, "a Step with " + ", ".join(f"{k}={v!r}" for k, v in wanted.items())


def show_step(step: Any) -> str:
    """A Step without its `raw` text (the input is shown already)."""
    names = ("thought", "action", "action_input", "final_answer", "error")
    if not all(hasattr(step, name) for name in names):
        return repr(step)
    return "Step(" + ", ".join(f"{n}={getattr(step, n)!r}" for n in names) + ")"


def _is_error(step: Any) -> bool:
    """The step is a format error with a corrective message and nothing else."""
    return (isinstance(step.error, str) and "could not parse" in step.error.lower()
            and step.action is None and step.final_answer is None)


def _case(text: str, hint: str, **wanted: Any) -> Case:
    """A case: parse_step(text) must give a step with the `wanted` attributes."""
    test, says = _fields(**wanted)
    return Case(args=(text,), expect=test, says=says, hint=hint)


def _error_case(text: str, hint: str) -> Case:
    """A case: parse_step(text) must report a format error."""
    return Case(args=(text,), expect=_is_error, hint=hint,
                says="a Step with error='... could not parse ...' (how to fix), no action, no answer")


def _is_not_text_error(step: Any) -> bool:
    """The step is an error (a non-empty message), with no action and no answer."""
    return (isinstance(step.error, str) and bool(step.error.strip())
            and step.action is None and step.final_answer is None)


def _not_text_case(value: Any) -> Case:
    """A case: parse_step(value) on something that is not text must give an error step."""
    return Case(args=(value,), expect=_is_not_text_error,
                says="a Step with an error (the reply is not text), no action, no answer",
                hint="check isinstance(text, str) first: a reply that is not text becomes a Step "
                     "with an error, never an exception")


WITHOUT_INPUT = "an Action without an Action Input is still an action (the registry names a missing argument)"
REAL_NO_INPUT = "Thought: I should compute this with the calculator.\nAction: calculator\n"
REAL_MADE_UP_OBSERVATION = ("Think: 3 * 17\nObservation: 37\nFinal Answer: 17 * 17 = 312\n\n"
                            "The answer is: 17 * 17 = 312")
REAL_EMPTY_ACTION = ("You have 3 more actions left.\n\nThought: I'm going to add 3 more items to the "
                     "order A1002.\nAction: \nFinal Answer: 3 + 3 = 6\n\nYou will receive:")

PARSE_CASES = (
    _case("Thought: I need today's date first.\nAction: get_current_date\nAction Input: {}",
          "read each field after its name; Action Input is JSON",
          thought="I need today's date first.", action="get_current_date", action_input={},
          final_answer=None, error=None),
    _case("Thought: I now know the final answer.\nFinal Answer: Today is 2025-03-14.",
          "a reply with 'Final Answer:' ends the run: keep the text after it",
          final_answer="Today is 2025-03-14.", action=None, error=None),
    _case("Sure! Let me work this out.\n\n" + _ACTION,
          "ignore chatter before the first field; search for fields, do not demand them at the start",
          action="calculator", action_input=CALC, error=None),
    _case(_ACTION + "\nI hope this helps!",
          "stop the JSON at its last '}': text after it is chatter", action="calculator",
          action_input=CALC, error=None),
    _case('Thought： I should compute this.\nAction： calculator\nAction Input： {"expression": '
          '"(17 + 5) * 3"}', "normalise full-width punctuation ('：' -> ':') before matching",
          action="calculator", action_input=CALC, error=None),
    _case('Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Beijing"，'
          '"date": "2025-03-15"}', "normalise the full-width comma '，' to ','",
          action="get_weather", action_input=WEATHER, error=None),
    _case('Thought: I should compute this.\nAction: calculator\nAction Input: {"expression": '
          '"（17 + 5） * 3"}', "normalise full-width parentheses '（）' to '()'",
          action="calculator", action_input={"expression": "(17 + 5) * 3"}, error=None),
    _case('Thought: I need the weather.\nAction: get_weather\nAction Input: {“city”: “Beijing”, '
          '“date”: “2025-03-15”}', "turn curly quotes “ ” into straight quotes before json.loads",
          action="get_weather", action_input=WEATHER, error=None),
    _case("**Thought:** I need today's date first.\n**Action:** get_current_date\n"
          "**Action Input:** {}", "strip markdown (** and `) around field names and values",
          action="get_current_date", action_input={}, error=None),
    _case('Thought: I should compute this.\nAction: calculator\nAction Input:\n```json\n'
          '{"expression": "(17 + 5) * 3"}\n```', "take the text from the first '{' to the last '}'",
          action="calculator", action_input=CALC, error=None),
    _case('Thought: I should compute this.\nAction: calculator\nAction Input: {"expression": '
          '"(17 + 5) * 3"} (this multiplies the sum by three)',
          "take the text from the first '{' to the last '}' before json.loads",
          action="calculator", action_input=CALC, error=None),
    _case("Thought: I should compute this.\nAction: calculator\nAction Input: {'expression': "
          "'(17 + 5) * 3'}", "when json.loads fails, try again with single quotes made double",
          action="calculator", action_input=CALC, error=None),
    _case('Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Beijing", '
          '"date": "2025-03-15",}', "remove a trailing comma before '}' and try again",
          action="get_weather", action_input=WEATHER, error=None),
    _case("Thought: I need the date.\nAction: get_current_date\nAction Input: {}\n"
          "Final Answer: Today is 2025-03-14.",
          "an Action and a Final Answer together: take the action, the answer cannot be known yet",
          action="get_current_date", final_answer=None, error=None),
    _case("Thought: I need the date.\nAction: get_current_date\nAction Input: {}\nObservation: "
          "2025-03-14\nThought: I now know the final answer.\nFinal Answer: It is 2025-03-14.",
          "cut everything from a made-up 'Observation:' on: only the program writes observations",
          action="get_current_date", action_input={}, final_answer=None, error=None),
    Case(args=("Thought: I know the answer.\nAction: Final Answer\nAction Input: The result is 66.",),
         expect=lambda s: s.action is None and s.error is None and "66" in (s.final_answer or ""),
         says="a final answer containing '66' (Final Answer is not a tool), no action",
         hint="treat 'Action: Final Answer' as a final answer whose text is the Action Input"),
    _case("Thought: 我知道答案了。\n最终答案：今天是2025年3月14日。",
          "accept the Chinese final marker '最终答案：' as 'Final Answer:'",
          final_answer="今天是2025年3月14日。", action=None, error=None),
    _case("Final Answer: 66\nThought: Let me check.\nAction: calculator",
          "the first Action or Final Answer decides, whichever it is: here the Final Answer comes "
          "first, and the Action after it is run-on", final_answer="66", action=None, error=None),
    _case("Thought: I need the date.\nAction: get_current_date\nAction Input: {}\nThought: Then I "
          "will answer.", "the thought kept is the last one before the decisive field: a Thought "
          "written after the Action is run-on", thought="I need the date.",
          action="get_current_date", error=None),
    _case("Thought:\nAction: get_current_date\nAction Input: {}",
          "an empty Thought is no thought: thought=None (`_clean(value) or None`)", thought=None,
          action="get_current_date", error=None),
    _case("Thought: I need the date.\nAction: get_current_date\nAction Input: {}\nThought: Then the "
          "sum.\nAction: calculator\nAction Input: {\"expression\": \"1 + 1\"}",
          "the first Action or Final Answer decides: a second Action was planned on a result the "
          "model has not seen yet", action="get_current_date", action_input={}, error=None),
    Case(args=(REAL_NO_INPUT,), expect=_fields(action="calculator", action_input={}, error=None)[0],
         says=f"a Step with action='calculator', action_input={{}}, error=None: {WITHOUT_INPUT}",
         hint=f"{WITHOUT_INPUT}: _input_text gives None and parse_action_input(None) gives ({{}}, None); "
              "never look the input up with fields['action_input']"),
    Case(args=("Thought: I need the date.\nAction: get_current_date\nThought: Then the sum.\n"
               "Action: calculator\nAction Input: {\"expression\": \"1 + 1\"}",),
         expect=_fields(action="get_current_date", action_input={}, error=None)[0],
         says="a Step with action='get_current_date', action_input={}: the Action Input below "
              "belongs to the second Action",
         hint="take the input with _input_text(fields, index): it stops at the next Action or "
              "Final Answer, so a later step's Action Input is never this action's"),
    Case(args=("Thought: I need today's date.\nAction: get_current_date",),
         expect=_fields(action="get_current_date", action_input={}, error=None)[0],
         says=f"a Step with action='get_current_date', action_input={{}}, error=None: {WITHOUT_INPUT}",
         hint=f"{WITHOUT_INPUT}: pass _input_text(fields, index), None here, on to _action_step"),
    Case(args=("Thought: I now know the final answer.\nFinal Answer:",), expect=_is_error,
         says="an error step, no answer: an empty 'Final Answer:' is not an answer",
         hint="an empty 'Final Answer:' is a format error: return Step(thought=..., "
              "error=format_error(\"the 'Final Answer:' line is empty\"), raw=text)"),
    _case("Thought: I now know the final answer.\nFinal Answer: Today is 2025-03-14.\nTomorrow is "
          "2025-03-15.", "a Final Answer may have several lines: keep the whole value _fields gives, "
          "up to the next field", final_answer="Today is 2025-03-14.\nTomorrow is 2025-03-15.",
          action=None, error=None),
    _case("**Thought:** I now know the final answer.\n**Final Answer: 66**",
          "clean the answer with _clean: it strips the markdown '*' around it", final_answer="66",
          action=None, error=None),
    _case("Thought: I now know the final answer.\nFinal Answer:\n```\n66\n```",
          "clean the answer with _clean: it drops code-fence lines", final_answer="66", action=None,
          error=None),
    _case("Thought: I now know the final answer.\nFinal Answer: 66",
          "keep the reply as it came in the step: raw=text", final_answer="66",
          raw="Thought: I now know the final answer.\nFinal Answer: 66"),
    _case(_ACTION, "keep the reply as it came in the step: _action_step(..., text) sets raw=text",
          action="calculator", raw=_ACTION),
    _case("The answer is 12.5.", "keep the reply as it came in the step: Step(..., raw=text), "
          "errors included", raw="The answer is 12.5."),
    _case("Thought：我知道答案了。\nFinal Answer：北京：晴，12°C",
          "the answer is the model's own words, as written: match field names on the text as it "
          "is (_fields accepts '：'), never translate the whole reply",
          final_answer="北京：晴，12°C", action=None, error=None),
    _case("### Thought 1\nI need the date.\n- **Action:** `get_current_date`\n- Action Input: {}",
          "field names come decorated: headings, numbers, bullets, bold and backticks (_fields reads "
          "them all)", thought="I need the date.", action="get_current_date", action_input={}, error=None),
    _case('Thought: I should compute this.\nAction: calculator\nAction Input: {"expression": "(17 + 5) * 3"',
          "an unclosed brace: read the Action Input with parse_action_input, which adds the '}'",
          action="calculator", action_input=CALC, error=None),
    _error_case("100 / 8 = 12.5\n\nThe answer is 12.5.",
                "no field at all: return Step(error=format_error(_missing(...))): its message says "
                "'could not parse' and shows the format to copy"),
    _error_case("", "an empty reply is a format error too, not an exception"),
    Case(args=(REAL_MADE_UP_OBSERVATION,),
         expect=lambda s: _is_error(s) and "observation" in s.error.lower(),
         says="an error step saying the made-up Observation was ignored, not the answer '17 * 17 = 312'",
         hint="cut everything from a made-up 'Observation:' on, the Final Answer after it too (it was "
              "built on the invention): keep the cut from _fields and pass it to _missing"),
    Case(args=(REAL_EMPTY_ACTION,), expect=_is_error,
         says="an error step: the 'Action:' line names no tool",
         hint="the empty Action comes first, so it decides: _action_step returns the error "
              "'the Action: line names no tool'"),
    Case(args=("Action Input: {{{]]\x00 Thought",), expect=lambda s: hasattr(s, "error"),
         says="a Step (parse_step never raises)", hint="catch every parsing problem and "
         "turn it into a Step with an error"),
    _not_text_case(None),
    _not_text_case(42),
    _not_text_case(["Action: calculator"]),
)


def _input_case(text: str | None, expected: dict, hint: str) -> Case:
    """A case: parse_action_input(text) must return (expected, None)."""
    return Case(args=(text,), expected=(expected, None), hint=hint)


def _is_input_error(value: Any) -> bool:
    """The value is ({}, a non-empty problem text)."""
    return (isinstance(value, tuple) and len(value) == 2 and value[0] == {}
            and isinstance(value[1], str) and bool(value[1].strip()))


ACTION_INPUT_CASES = (
    _input_case('{"expression": "(17 + 5) * 3"}', CALC,
                "well-formed JSON: load it and return (the dict, None)"),
    _input_case('{"expression": "(17 + 5) * 3"} I will wait for the result.', CALC,
                "json.loads fails on the chatter around the object: cut from the first '{' to the "
                "last '}' before parsing"),
    _input_case(None, {}, "None means the reply had no Action Input line: return ({}, None), "
                "no error (the tool registry names any missing argument)"),
    _input_case("", {}, "an empty Action Input means no arguments: ({}, None)"),
    _input_case(" none ", {}, "'none' or 'null' mean no arguments: see _EMPTY_INPUTS"),
    _input_case('\n```json\n{"city": "Beijing", "date": "2025-03-15"}\n```', WEATHER,
                "drop the code fence lines (_strip_fences), then cut from the first '{'"),
    _input_case('{“city”：“Beijing”，“date”：“2025-03-15”}', WEATHER,
                "translate full-width characters with _FULL_WIDTH; _load straightens curly quotes"),
    _input_case('{"expression": "（17 + 5） * 3"}', CALC,
                "（ and ） are full-width too: translate the whole text, values included"),
    _input_case("{'expression': '(17 + 5) * 3'}", CALC,
                "single quotes are not JSON: let _load try its repaired copies"),
    _input_case('{"city": "Beijing", "date": "2025-03-15",}', WEATHER,
                "a trailing comma before '}' is not JSON: let _load repair it"),
    _input_case('{"expression": "(17 + 5) * 3"', CALC,
                "no '}' at all (an unclosed brace): add one and try again"),
    _input_case('{"filter": {"status": "paid"}} thanks', {"filter": {"status": "paid"}},
                "objects can nest: stop at the matching or the last '}', not at the first one"),
    _input_case('{"filter": {"status": "paid"}, "limit": 5} thanks',
                {"filter": {"status": "paid"}, "limit": 5},
                "objects can nest: the first '}' closes the inner object; stop at the matching '}' "
                "(_balanced_end) or the last one"),
    _input_case('{"filter": {"status": "paid"}} (see {notes})', {"filter": {"status": "paid"}},
                "the chatter after the object has a '}' of its own: try the '}' matching the first "
                "'{' (_balanced_end) before the last '}'"),
    Case(args=('["Beijing", "2025-03-15"]',), expect=_is_input_error,
         says="({}, '<the Action Input must be an object, not a list>')",
         hint="a JSON list is not a set of named arguments: return ({}, problem), the problem saying "
              "it must be an object, not a list"),
    _input_case('{"expression": "45 * 12}', {"expression": "45 * 12"},
                "a real model's reply, a string left open: _load closes it"),
    _input_case("Beijing", {"input": "Beijing"},
                "no '{' at all: a bare value becomes {'input': value}"),
    _input_case('{\n  "city": "Beijing",\n  "date": "2025-03-15"\n}', WEATHER,
                "a JSON object may span several lines: read the whole text, not its first line"),
    _input_case("Beijing\nI will wait for the weather.", {"input": "Beijing"},
                "a bare value is the first non-empty line: the lines after it are chatter"),
    _input_case("None", {}, "compare with _EMPTY_INPUTS in lower case: 'None', 'NULL' mean no "
                "arguments too"),
    _input_case("42", {"input": "42"}, "a bare value stays text, {'input': '42'}: json.loads would "
                "make it the int 42, which a tool that takes text (calculator) refuses"),
    _input_case('"Beijing"', {"input": "Beijing"},
                "strip the quotes and marks around a bare value with _strip_marks"),
    Case(args=('{"expression": }',), expect=_is_input_error,
         says="({}, '<what is wrong, for the model to read>')",
         hint="when nothing loads as a dict, return ({}, problem): a message, never an exception"),
)


PAIR = Cause(lambda v: not (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], dict)),
             "returns something that is not a pair (dict, problem): return (arguments, None) "
             "or ({}, problem)")
STEP = has_attributes("thought", "action", "action_input", "final_answer", "error",
                      says="returns something that is not a Step: return Step(thought=..., "
                           "action=..., action_input=..., final_answer=..., error=..., raw=text)")

INPUT_NEVER_RAISES = Cause(lambda exc: True, "parse_action_input raised an exception: when nothing "
                           "loads as a dict, return ({}, problem), a message for the model, never an "
                           "exception", raised=True)


def _caught(name: str = "") -> Callable[[Any], bool]:
    """The step is the safety net's 'unexpected <name>' error: the learner's _parse raised."""
    return lambda step: f"unexpected {name}" in str(step.error)


CAUGHT_JSON = Cause(_caught("JSONDecodeError"), "json.loads raised on a messy Action Input, and the "
                    "safety net turned it into 'unexpected JSONDecodeError': read the input with "
                    "parse_action_input (_action_step does), which repairs it")
CAUGHT = Cause(_caught(), "your _parse raised an exception, and parse_step's try/except turned it "
               "into an 'unexpected ...' error: the net is for surprises; handle a reply of this "
               "shape in _parse (see what is expected)")

NEVER_RAISES = Cause(lambda exc: True, "parse_step raised an exception: it must never raise; check "
                     "isinstance(text, str) first and wrap the call to _parse in try/except "
                     "Exception, returning a Step with an error", raised=True)

EXERCISES = [
    Exercise(name="parse_action_input", lesson="03",
             reference="solutions.parsing:parse_action_input", cases=ACTION_INPUT_CASES,
             causes=(PAIR, INPUT_NEVER_RAISES), screened=True),
    Exercise(name="parse_step", lesson="03", reference="solutions.parsing:parse_step",
             cases=PARSE_CASES, show=show_step, causes=(STEP, CAUGHT_JSON, CAUGHT, NEVER_RAISES),
             screened=True),
]
