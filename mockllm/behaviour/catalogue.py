"""The quirk catalogue: every misbehaviour, what the learner sees, and what stops it by default.

`QUIRKS` is one half of the persona table (`mockllm.behaviour.personas` holds the other: which
persona has which quirk, and when). A suppressor is a rule id found in the system prompt
(`RULES`) or `correction:<kind>`, a corrective message of that kind seen earlier in the run.
An empty tuple means nothing suppresses the quirk: the defence belongs in the agent's code.
"""
from __future__ import annotations

from mockllm.behaviour import degenerate as dg
from mockllm.behaviour import jsonic as js
from mockllm.behaviour import quirks_layout as lay
from mockllm.behaviour import quirks_move as mv
from mockllm.behaviour import quirks_text as tx
from mockllm.behaviour import tiny
from mockllm.behaviour import tiny_forced as tf
from mockllm.behaviour import tiny_told as tt
from mockllm.behaviour.quirks import Quirk

__all__ = ["RULES", "CORRECTIONS", "QUIRKS", "check_suppressor"]

RULES = ("format", "one_action", "no_observation", "final_not_tool", "stop_when_enough",
         "live_data", "example")
CORRECTIONS = ("format", "repeat", "unknown_tool")
_FMT = ("correction:format",)
_TOLD = ("correction:format", "correction:unknown_tool")  # told its reply did not work


def _quirks(*items: Quirk) -> dict[str, Quirk]:
    """Index quirks by name."""
    return {item.name: item for item in items}


QUIRKS: dict[str, Quirk] = _quirks(
    Quirk("prose_only", "text", "Plain prose with no Thought/Action/Final Answer fields.",
          ("format", "correction:format"), tx.prose_only, tx.prose_only_structured,
          tx.prose_only_applies),
    Quirk("fake_observation", "text", "Keeps writing after its Action: an invented "
          "`Observation:` line, then `Thought: I now know the final answer` and a `Final Answer:` "
          "built from the invented value.", (),
          tx.fake_observation, applies=tx.fake_observation_applies),
    Quirk("multi_action", "text", "A second Thought/Action/Action Input block after the first: "
          "the step it would take next, based on a result it imagined.", ("one_action",),
          tx.multi_action, applies=tx.multi_action_applies),
    Quirk("extra_call", "move", "When it could answer, it first repeats its last tool call once "
          "'to double-check' (once per run).", ("stop_when_enough",), mv.extra_call,
          applies=mv.extra_call_applies),
    Quirk("chatter_before", "text", "A friendly sentence before the fields "
          "('Sure! Let me work through this.').", _FMT, tx.chatter_before),
    Quirk("chatter_after", "text", "A sentence after the fields ('I will wait for the result.').",
          _FMT, tx.chatter_after),
    Quirk("markdown_fields", "text", "Field names in markdown: `**Thought:**`.", _FMT,
          tx.markdown_fields),
    Quirk("lowercase_fields", "text", "Field names in lower case: `thought:`, `action input:`.",
          _FMT, tx.lowercase_fields),
    Quirk("fullwidth_punctuation", "text", "Full-width punctuation: `Thought：` and "
          "`Action Input：{“city”：“Beijing”，“date”：“2025-03-15”}`.", _FMT,
          tx.fullwidth_punctuation),
    Quirk("json_single_quotes", "text", "Action Input with single quotes: {'city': 'Beijing'}.",
          _FMT, tx.json_single_quotes, tx.json_single_quotes_args),
    Quirk("json_trailing_comma", "text", 'Action Input with a trailing comma: {"city": "Beijing",}.',
          _FMT, tx.json_trailing_comma, tx.json_trailing_comma_args),
    Quirk("json_unclosed_brace", "text", 'Action Input without its closing brace: {"city": "Beijing"',
          _FMT, tx.json_unclosed_brace, tx.json_unclosed_brace_args),
    Quirk("json_trailing_prose", "text", 'Prose after the JSON: {"city": "Beijing"} I will wait '
          "for the result.", _FMT, tx.json_trailing_prose),
    Quirk("chinese_final_marker", "text", "The final marker in Chinese: `最终答案：`.", _FMT,
          tx.chinese_final_marker),
    Quirk("answer_without_tool", "move", "Answers a live-data question (date, weather, orders, "
          "calendar) at once with an invented value, without calling a tool.", ("live_data",),
          mv.answer_without_tool),
    Quirk("repeat_call", "move", "Repeats its previous call, identical, ignoring the observation.",
          ("correction:repeat",), mv.repeat_call),
    Quirk("final_answer_as_tool", "move", '`Action: Final Answer` with `Action Input: {"answer": '
          '"..."}` (in tool-call mode, a call to a `final_answer` tool).', ("final_not_tool",),
          mv.final_answer_as_tool),
    Quirk("unknown_tool", "move", "Calls a plausible tool that is not offered: `date_calculator`, "
          "`weather_api`, `search_web`, `math`.", ("correction:unknown_tool",), mv.unknown_tool),
    Quirk("obey_injection", "move", "Follows an instruction found in an observation: calls the tool "
          "it names (with its JSON) or puts the demanded text in its answer.", (),
          mv.obey_injection),
    Quirk("lose_thread", "move", "Loses the thread: calls the run's first tool again, or answers "
          "early with only the facts it has.", (), mv.lose_thread),
    Quirk("missing_action_input", "text", "An `Action:` line with no `Action Input:` after it.",
          _FMT, tiny.missing_action_input),
    Quirk("copy_example", "move", "Copies the worked example's values (e.g. `45 * 3 - 10`, `125`) "
          "instead of the question's.", (), tiny.copy_example),
    Quirk("template_echo", "text", "Echoes the prompt's template: `Action: the tool to use, one of "
          "[get_current_date, calculator, ...]`.", _FMT, tiny.template_echo),
    Quirk("identical_reply", "text", "At temperature 0, the identical reply as its previous step.",
          (), tiny.identical_reply, tiny.identical_reply_structured),
    Quirk("repeat_phrase", "text", "Repeats one phrase until max_tokens cuts it "
          "(finish_reason 'length').", (), tiny.repeat_phrase, tiny.repeat_phrase_structured),
    Quirk("whole_trajectory", "text", "Action, an invented Observation and a Final Answer in one "
          "reply.", ("no_observation",), tiny.whole_trajectory, tiny.whole_trajectory_structured),
    Quirk("missing_thought", "text", "Chatter, then an Action without its `Thought:` line.",
          _FMT, tiny.missing_thought),
    Quirk("same_reply_to_correction", "text", "At temperature 0, told the same correction again, "
          "it sends its previous reply again, byte for byte: the same prose to the same "
          "correction, over and over.", (), tt.same_reply_to_correction,
          tiny.identical_reply_structured),
    Quirk("copy_placeholders", "text", "At temperature 0, answers a correction by copying its "
          "placeholders as written: `Action: <one tool name>`, `Action Input: <a JSON object>`.",
          (), tt.copy_placeholders),
    Quirk("restate_rules", "text", "At temperature 0, answers a correction by restating the "
          "prompt's rules as prose ('You should use only one action per reply and never write an "
          "observation yourself...'), with no step.", (), tt.restate_rules),
    Quirk("off_task_call", "text", "Tool-call mode, a call forced by tool_choice: a call of a tool "
          "the question does not need (for a named function, that one) with made-up arguments "
          "(`get_weather({\"city\": \"Paris\", \"date\": \"2023-01-01\"})`).", (),
          tf.off_task_call, tf.off_task_call_structured),
    # layout drift: every field there, laid out as a strict parser does not expect
    Quirk("input_not_json", "text", "An Action Input that is not JSON: a bare string "
          "(`Action Input: Beijing, 2025-03-15`), a quoted one (`\"Beijing\"`), or `None` for a "
          "tool without input.", _FMT, lay.input_not_json),
    Quirk("input_fenced", "text", "The Action Input JSON in a code fence (```` ```json ````) on "
          "the lines below `Action Input:`.", _FMT, lay.input_fenced),
    Quirk("input_inline_code", "text", "The Action Input JSON in inline code: "
          '`` `{"city": "Beijing"}` ``.', _FMT, lay.input_inline_code),
    Quirk("bold_field_lines", "text", "Whole field lines in bold: `**Action: get_weather**`.",
          _FMT, lay.bold_field_lines),
    Quirk("field_spacing", "text", "Blank lines between the fields, the fields indented, or the "
          "Action Input's JSON on the line below `Action Input:`.", _FMT, lay.field_spacing),
    Quirk("multiline_json", "text", "The Action Input pretty-printed over several lines: valid "
          "JSON, but not on the `Action Input:` line alone.", (), lay.multiline_json),
    Quirk("json_cut_in_string", "text", "The Action Input cut off inside a string, where the reply "
          'ends: `{"city": "Beij` or `{"expression": "45 * 12}` (in tool-call mode, the '
          "arguments).", _FMT, lay.json_cut_in_string, lay.json_cut_in_string_args),
    # chat-tuned models that prefer JSON
    Quirk("json_blob_action", "text", 'A JSON blob instead of the fields: `{"action": '
          '"calculator", "action_input": "2+2"}`, fenced (```` ```json ````) or not, with or '
          'without an `Action:` label; the answer as `{"action": "Final Answer", "action_input": '
          '"..."}`. In tool-call mode it uses tool_calls.', _TOLD, js.json_blob_action),
    Quirk("call_syntax", "text", 'The action as a function call, with no Action Input: `Action: '
          'calculator("2 + 2")`, `Action: get_weather(city="Beijing", date="2025-03-15")`.', _TOLD,
          js.call_syntax),
    Quirk("action_none", "text", "`Action: None`, `Action: N/A` or `Action: (no action needed)` "
          "above its Final Answer.", _TOLD, js.action_none),
    Quirk("tool_call_in_content", "text", "Tool-call mode only: the call written as JSON in the "
          'content (`{"name": "get_weather", "arguments": {...}}`), and no tool_calls.', (),
          js.structured_only, js.tool_call_in_content),
    Quirk("arguments_as_string", "text", "Tool-call mode only: `arguments` encoded twice, a JSON "
          'string holding the object: `"{\\"city\\": \\"Beijing\\"}"`.', (),
          js.structured_only, js.arguments_as_string),
    # degenerate replies
    Quirk("empty_reply", "text", "An empty reply (in tool-call mode: empty content and no tool "
          "calls).", (), dg.empty_reply, dg.empty_reply_structured),
    Quirk("echo_question", "text", "The question written back (`Question: ...`, `The question "
          "is: ...`) instead of a step.", _FMT, dg.echo_question, dg.echo_question_structured),
    Quirk("echo_prompt", "text", "The system prompt written back, then `Question: ...` and "
          "`Thought:`, as if continuing a document.", _FMT, dg.echo_prompt,
          dg.echo_prompt_structured),
    Quirk("schema_copy", "text", "The tool's schema copied as its input: `{\"type\": \"object\", "
          '"properties": {"city": {"type": "string"}, ...}}`.', (), dg.schema_copy,
          dg.schema_copy_args),
    Quirk("action_and_answer", "text", "An Action and at once a Final Answer it guessed, with no "
          "Observation between them.", (), dg.action_and_answer),
)


def check_suppressor(name: str) -> None:
    """Reject a suppressor that is neither a rule id nor 'correction:<kind>'."""
    kind = name.removeprefix("correction:")
    if (kind == name and name not in RULES) or (kind != name and kind not in CORRECTIONS):
        raise ValueError(f"unknown suppressor {name!r}; use a rule id {RULES} or "
                         f"'correction:<kind>' with a kind in {CORRECTIONS}")


for _quirk in QUIRKS.values():
    for _name in _quirk.suppressed_by:
        check_suppressor(_name)
