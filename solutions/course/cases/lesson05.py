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
_MARKDOWN = "**Thought:** I need today's date.\n**Action:** get_current_date\n**Action Input:** {}"
_LOWER = 'thought: now the weather.\naction: get_weather\naction input: {"city": "Beijing", "date": "2025-03-15"}'
_WIDE = 'Thought：I need the weather.\nAction：get_weather\nAction Input：{"city": "Beijing", "date": "2025-03-15"}'
_CHINESE = '思考：我需要天气。\n行动：get_weather\n行动输入：{"city": "北京", "date": "2025-03-15"}'
_FIELD_KIND = ("find the fields with field_kind(line), which reads {shape} too: a test such as "
               "line.startswith('Action:') misses them, and the invention stays")


def _cut(text: str, expected: str, hint: str) -> Case:
    """A case: cut_after_action_input(text) must return `expected` (trailing whitespace aside)."""
    def test(value: object) -> bool:
        return isinstance(value, str) and value.rstrip() == expected.rstrip()
    return Case(args=(text,), expect=test, says=repr(expected), hint=hint)


CUT_CASES = (
    _cut(_DATE + "\nObservation: 2023-10-31\nThought: I now know the final answer\nFinal Answer: 2023-10-31",
         _DATE, "cut right after the Action Input: the Observation and the Final Answer after it were "
                "invented (only a Final Answer before any Action keeps the text whole)"),
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
    _cut(_MARKDOWN + "\n**Observation:** 2023-10-31\n**Final Answer:** Today is 2023-10-31.", _MARKDOWN,
         _FIELD_KIND.format(shape="markdown field names ('**Action:**')")),
    _cut(_LOWER + "\nobservation: Sunny\nfinal answer: Sunny.", _LOWER,
         _FIELD_KIND.format(shape="lower-case field names ('action:')")),
    _cut(_WIDE + "\nObservation：Sunny\nThought：Now I know.\nFinal Answer：Sunny.", _WIDE,
         _FIELD_KIND.format(shape="full-width colons ('Action：')")),
    _cut(_CHINESE + "\n观察：晴\n最终答案：晴。", _CHINESE,
         _FIELD_KIND.format(shape="Chinese field names ('行动：')")),
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
    _cut("Thought: I need the date.\nAction: get_current_date\nThought: Then the sum.\nAction: calculator\n"
         'Action Input: {"expression": "1 + 1"}', "Thought: I need the date.\nAction: get_current_date",
         "step 2 looks at the NEXT field line only: here a Thought, so the Action has no input; the "
         "Action Input further on belongs to another Action"),
    _cut('Thought: Compute.\nAction: calculator\nAction Input: {"expression": "(17 + 5) * 3"} = 66, so the '
         "answer is 66.", 'Thought: Compute.\nAction: calculator\nAction Input: {"expression": "(17 + 5) * 3"}',
         "cut right after the `}` that closes the input, inside its line: what follows it on the "
         "same line was written before the tool ran"),
    _cut('Thought: Weather.\nAction: get_weather\nAction Input:\n```json\n{"city": "Beijing", "date": '
         '"2025-03-15"}\n```\nObservation: Sunny',
         'Thought: Weather.\nAction: get_weather\nAction Input:\n```json\n{"city": "Beijing", "date": '
         '"2025-03-15"}',
         "look for the `{` in the whole Action Input field, up to the next field line: the JSON may "
         "start on a line after 'Action Input:' (here in a code fence)"),
    _cut("Thought: Weather.\nAction: get_weather\nAction Input: Beijing\nIt will be sunny, so the answer is yes.",
         "Thought: Weather.\nAction: get_weather\nAction Input: Beijing",
         "an input without `{` is its first line only: the lines after it, even without a label, "
         "were written before the tool ran"),
    _cut("Thought: Weather.\nAction: get_weather\nAction Input: Beijing, 2025-03-15\nObservation: Sunny",
         "Thought: Weather.\nAction: get_weather\nAction Input: Beijing, 2025-03-15",
         "an input that is not JSON ends with its line"),
    _cut('Thought: Weather.\nAction: get_weather\nAction Input: Beijing, 2025-03-15\nThought: Then the calendar.\n'
         'Action: get_calendar\nAction Input: {"date": "2025-03-15"}',
         "Thought: Weather.\nAction: get_weather\nAction Input: Beijing, 2025-03-15",
         "the Action Input's field ends at the next field line: look for its '{' inside that field "
         "only (a '{' further on belongs to another step)"),
    _cut('Thought: Weather.\nAction: get_weather\nAction Input: {\n  "city": "Beijing",\n  "date": "2025-03-15"\n'
         'Observation: Sunny',
         'Thought: Weather.\nAction: get_weather\nAction Input: {\n  "city": "Beijing",\n  "date": "2025-03-15"',
         "a JSON input that never closes (json_end gives -1): keep the field up to the next field line"),
    _cut("Sure! Here is my step.\n\n" + _DATE + "\nI will wait for the result.\nObservation: 2023-10-31",
         "Sure! Here is my step.\n\n" + _DATE,
         "keep everything before the Action, chatter included: the result is the start of the reply"),
    _cut(_FINAL + "\nThought: Let me check.\nAction: get_current_date\nAction Input: {}\nObservation: 2025-03-14",
         _FINAL + "\nThought: Let me check.\nAction: get_current_date\nAction Input: {}\nObservation: 2025-03-14",
         "when a Final Answer comes before any Action, return the reply unchanged: step 1 looks "
         "for the first line that is an Action OR a Final Answer"),
    _cut("The answer is 66.", "The answer is 66.", "a reply without an Action comes back unchanged"),
    _cut("", "", "an empty reply comes back unchanged"),
)

_TODAY = ("get_current_date", {})
_BEIJING = ("get_weather", {"city": "Beijing", "date": "2025-03-15"})
_SHANGHAI = ("get_weather", {"city": "Shanghai", "date": "2025-03-15"})


def _verdict(calls: list, action: str, action_input: dict, expected: str, hint: str) -> Case:
    """A case: repeat_verdict(calls, action, action_input) must return `expected`."""
    return Case(args=(calls, action, action_input), expected=expected, hint=hint)


def _copies(calls: list, action: str, action_input: dict, expected: str, hint: str,
            untouched: bool = False) -> Case:
    """A case: `expected` for equal copies of the inputs (not the same objects); with `untouched`,
    `calls` must be left as it was too."""
    given: dict = {}

    def setup() -> tuple[tuple, dict]:
        given["calls"] = [(name, dict(arguments)) for name, arguments in calls]
        return (given["calls"], action, dict(action_input)), {}

    def test(value: object) -> bool:
        return value == expected and (not untouched or given["calls"] == calls)
    return Case(setup=setup, expect=test, hint=hint,
                says=f"{expected!r}, and `calls` as it was" if untouched else repr(expected),
                label=f"repeat_verdict({calls!r}, {action!r}, {action_input!r})")


REPEAT_CASES = (
    _verdict([], *_TODAY, "new", "no earlier call: 'new'"),
    _verdict([_BEIJING], *_SHANGHAI, "new",
             "compare the input too: the same tool with another input is a new call"),
    _verdict([_BEIJING], *_BEIJING, "repeat", "the identical call made once before: 'repeat'"),
    _copies([_BEIJING], *_BEIJING, "repeat",
            "compare the inputs with ==, not `is`: an input written again is an equal dict, "
            "but another object"),
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
    _verdict([("Weather", {"city": "Beijing"})], "weather", {"city": "Beijing"}, "new",
             "compare the names as they are (==): GuardedTools has matched every known name to its "
             "tool already, and two names it could not match are two different calls"),
    _verdict([("query_orders", {"filter": {"status": "paid", "month": "2025-03"}})], "query_orders",
             {"filter": {"month": "2025-03", "status": "paid"}}, "repeat",
             "compare the inputs with ==, which compares nested dicts too, whatever their key order "
             "(a set or the text of the items fails on a nested dict)"),
    _copies([_BEIJING, _TODAY], *_TODAY, "repeat",
            "only read `calls`, never change it (append, sort, reverse): the guarded registry adds "
            "each call to it after asking you and pairs it with its result", untouched=True),
)

EXERCISES = [
    Exercise(name="cut_after_action_input", lesson="05",
             reference="solutions.guards.cut:cut_after_action_input", cases=CUT_CASES,
             causes=(returns(str, "return the text (a str), the start of the reply"),), screened=True),
    Exercise(name="repeat_verdict", lesson="05", reference="solutions.guards.repeat:repeat_verdict",
             cases=REPEAT_CASES,
             causes=(returns(str, "return one of the strings 'new', 'repeat' or 'stop'"),)),
]
