"""Cases for lesson 05 (Failure clinic): the cut after the Action Input, and the repeat guard."""
from __future__ import annotations

from solutions.course.exercises import Case, Exercise, returns

_DATE = "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}"
_WEATHER = 'Thought: Now the weather.\nAction: get_weather\nAction Input: {"city": "Beijing", "date": "2025-03-15"}'
_PRETTY = ('Thought: Now the weather.\nAction: get_weather\nAction Input: {\n  "city": "Beijing",\n'
           '  "date": "2025-03-15"\n}')
_NESTED = ('Thought: A filter.\nAction: query_orders\nAction Input: {"range": {"start": "2025-03-01", '
           '"end": "2025-03-07"}, "note": "a } in a string"}')
_FINAL = "Thought: I now know the final answer.\nFinal Answer: Today is 2025-03-14."


def _cut(text: str, expected: str, hint: str) -> Case:
    """A case: cut_after_action_input(text) must return `expected` (trailing whitespace aside)."""
    def test(value: object) -> bool:
        return isinstance(value, str) and value.rstrip() == expected.rstrip()
    return Case(args=(text,), expect=test, says=repr(expected), hint=hint)


CUT_CASES = (
    _cut(_DATE + "\nObservation: 2023-10-31\nThought: I now know the final answer\nFinal Answer: 2023-10-31",
         _DATE, "cut right after the Action Input: the Observation and the answer after it were invented"),
    _cut(_WEATHER + "\nThought: Then I will check the calendar.\nAction: get_calendar\n"
         'Action Input: {"date": "2025-03-15"}', _WEATHER,
         "a second Thought/Action after the first Action Input goes too: the cut does not wait for "
         "an 'Observation:' label"),
    _cut(_WEATHER + "\nThought: I now know the final answer\nFinal Answer: Sunny.", _WEATHER,
         "a Final Answer written after the Action Input is a guess: cut it too"),
    _cut(_DATE + "\nObservation：2023-10-31\nFinal Answer: 2023-10-31", _DATE,
         "find the fields with field_kind(line), which knows full-width colons and markdown, "
         "instead of searching for 'Observation:'"),
    _cut(_DATE + "\n**Observation:** 2023-10-31", _DATE,
         "find the fields with field_kind(line), which knows '**Observation:**'"),
    _cut(_PRETTY + "\nObservation: Sunny", _PRETTY,
         "a JSON input may span several lines: cut after the `}` that closes it (json_end), "
         "not at the end of the Action Input line"),
    _cut(_NESTED + "\nObservation: 3 orders", _NESTED,
         "cut after the `}` that closes the first `{` (json_end counts nesting and skips strings), "
         "not after the first `}`"),
    _cut('Thought: Search.\nAction: search_docs\nAction Input: {"query": "Observation: tips"}\nObservation: none',
         'Thought: Search.\nAction: search_docs\nAction Input: {"query": "Observation: tips"}',
         "only a field line starts a field: 'Observation:' inside the JSON input is part of the input"),
    _cut("Thought: I need the date.\nAction: get_current_date\nObservation: 2023-10-31",
         "Thought: I need the date.\nAction: get_current_date",
         "no Action Input after the Action: keep the text up to the end of the Action line"),
    _cut("Thought: Weather.\nAction: get_weather\nAction Input: Beijing, 2025-03-15\nObservation: Sunny",
         "Thought: Weather.\nAction: get_weather\nAction Input: Beijing, 2025-03-15",
         "an input that is not JSON ends with its line"),
    _cut('Thought: Weather.\nAction: get_weather\nAction Input: {"city": "Beijing"\nObservation: Sunny',
         'Thought: Weather.\nAction: get_weather\nAction Input: {"city": "Beijing"',
         "a JSON input that never closes (json_end gives -1): keep the field up to the next field line"),
    _cut("Sure! Here is my step.\n\n" + _DATE + "\nI will wait for the result.\nObservation: 2023-10-31",
         "Sure! Here is my step.\n\n" + _DATE,
         "keep everything before the Action, chatter included: the result is the start of the reply"),
    _cut(_FINAL + "\nThought: Let me check.\nAction: get_current_date\nAction Input: {}",
         _FINAL + "\nThought: Let me check.\nAction: get_current_date\nAction Input: {}",
         "when a Final Answer comes before any Action, return the reply unchanged"),
    _cut("The answer is 66.", "The answer is 66.", "a reply without an Action comes back unchanged"),
    _cut("", "", "an empty reply comes back unchanged"),
)

_TODAY = ("get_current_date", {})
_BEIJING = ("get_weather", {"city": "Beijing", "date": "2025-03-15"})
_SHANGHAI = ("get_weather", {"city": "Shanghai", "date": "2025-03-15"})


def _verdict(calls: list, action: str, action_input: dict, expected: str, hint: str) -> Case:
    """A case: repeat_verdict(calls, action, action_input) must return `expected`."""
    return Case(args=(calls, action, action_input), expected=expected, hint=hint)


REPEAT_CASES = (
    _verdict([], *_TODAY, "new", "no earlier call: 'new'"),
    _verdict([_BEIJING], *_SHANGHAI, "new",
             "compare the input too: the same tool with another input is a new call"),
    _verdict([_BEIJING], *_BEIJING, "repeat", "the identical call made once before: 'repeat'"),
    _verdict([_BEIJING, _TODAY], *_BEIJING, "repeat",
             "look at every earlier call, not only the last one: A, B, A repeats A"),
    _verdict([_TODAY], "get_weather", {"date": "2025-03-15", "city": "Beijing"}, "new",
             "another tool is a new call"),
    _verdict([_BEIJING], "get_weather", {"date": "2025-03-15", "city": "Beijing"}, "repeat",
             "compare the inputs as dicts (==): the order of the keys does not matter"),
    _verdict([("add_days", {"date": "2025-03-14", "days": 3})], "add_days",
             {"date": "2025-03-14", "days": "3"}, "new",
             "compare the values as they are: 3 and '3' are different inputs"),
    _verdict([_TODAY, _TODAY], *_TODAY, "stop", "made twice before: 'stop'"),
    _verdict([_TODAY, _BEIJING, _TODAY, _BEIJING], *_TODAY, "stop",
             "count the identical calls anywhere in the list, not only in a row"),
    _verdict([_TODAY] * 3, *_TODAY, "stop", "twice or more before: still 'stop'"),
    _verdict([_TODAY, _BEIJING], *_SHANGHAI, "new", "count only identical calls"),
)

EXERCISES = [
    Exercise(name="cut_after_action_input", lesson="05",
             reference="solutions.guards.cut:cut_after_action_input", cases=CUT_CASES,
             causes=(returns(str, "return the text (a str), the start of the reply"),), screened=True),
    Exercise(name="repeat_verdict", lesson="05", reference="solutions.guards.repeat:repeat_verdict",
             cases=REPEAT_CASES,
             causes=(returns(str, "return one of the strings 'new', 'repeat' or 'stop'"),)),
]
