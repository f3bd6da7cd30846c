"""Write a `Move` as the reply a DSPy adapter parses: `[[ ## field ## ]]` sections or a JSON object.

ChatAdapter (each output field in order, then the end marker):

    [[ ## next_thought ## ]]
    I should use calculator to compute (17 + 5) * 3.

    [[ ## next_tool_name ## ]]
    calculator

    [[ ## next_tool_args ## ]]
    {"expression": "(17 + 5) * 3"}

    [[ ## completed ## ]]

JSONAdapter: the same fields as one JSON object. A ReAct step's fields come from the move (a
final answer is a call to `finish` with no arguments); any other output field is filled by
`mockllm.reply.schema_values` from its schema and the answer ("What is (17 + 5) * 3?" -> an
int field gets 66, a `reasoning` field the thought and the answer). The prompt is read by
`mockllm.reading.dspy_format`.
"""
from __future__ import annotations

import json

from mockllm.brain.context import Move
from mockllm.reply.schema_values import Facts, build
from mockllm.reading.dspy_format import COMPLETED, FINISH, DspyPrompt

__all__ = ["dspy_values", "render_dspy"]


def dspy_values(move: Move, prompt: DspyPrompt, question: str) -> dict[str, object]:
    """The value of each output field the prompt asks for, in its order."""
    if prompt.is_react_step:
        step = {"next_thought": move.thought, "next_tool_name": move.action or FINISH,
                "next_tool_args": dict(move.action_input or {}) if move.action else {}}
    else:
        step = {}
    answer = move.final_answer if move.final_answer is not None else move.thought
    facts = Facts(answer, question, {"thought": move.thought, "answer": answer})
    rest = [f for f in prompt.outputs if f.name not in step]
    schema = {"type": "object", "properties": {f.name: f.schema for f in rest},
              "required": [f.name for f in rest]}
    built = build(schema, facts) if rest else {}
    return {f.name: step[f.name] if f.name in step else built.get(f.name) for f in prompt.outputs}


def _shown(value: object) -> str:
    """A value as ChatAdapter expects it in a section: text as is, the rest as JSON (or Python
    True/False, which DSPy's bool parsing takes)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return json.dumps(value, ensure_ascii=False)


def render_dspy(move: Move, prompt: DspyPrompt, question: str) -> str:
    """The reply content for a move, in the layout the prompt's adapter parses."""
    values = dspy_values(move, prompt, question)
    if prompt.adapter == "json":
        return json.dumps(values, indent=2, ensure_ascii=False)
    sections = [f"[[ ## {name} ## ]]\n{_shown(value)}" for name, value in values.items()]
    return "\n\n".join([*sections, COMPLETED])
