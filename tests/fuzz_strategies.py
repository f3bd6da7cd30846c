"""Hypothesis strategies for the parser fuzz tests: odd text, and valid replies taken apart.

`mutated_replies` starts from a well-formed reply (hand-written, or a real small model's reply
vendored in tests/data) and applies a few mutations: a field line deleted, duplicated or swapped,
punctuation made full-width or curly, the input fenced, the JSON truncated or nested, a huge line,
control characters, other scripts.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Callable

from hypothesis import strategies as st

DATA = Path(__file__).resolve().parent / "data"
WEATHER = '{"city": "Beijing", "date": "2025-03-15"}'

VALID = (
    "Thought: I need today's date.\nAction: get_current_date\nAction Input: {}",
    'Thought: Compute it.\nAction: calculator\nAction Input: {"expression": "(17 + 5) * 3"}',
    f"Thought: I need the weather.\nAction: get_weather\nAction Input: {WEATHER}",
    'Thought: Look it up.\nAction: lookup_order\nAction Input: {"order_id": "A1002"}',
    "Thought: I now know the final answer.\nFinal Answer: (17 + 5) * 3 = 66",
    "Thought: I now know the final answer.\nFinal Answer: Order A1002 shipped on\n2025-03-12.",
    f'```json\n{{"action": "get_weather", "action_input": {WEATHER}}}\n```',
    'Thought: t\nAction: calculator(2 + 2)',
    'Thought: t\nAction: get_weather(city="Beijing", date="2025-03-15")',
    "Thought: I know it.\nAction: None\nFinal Answer: 4",
    f"思考：我需要天气。\n行动：get_weather\n行动输入：{WEATHER}",
    "思考：我现在知道答案了。\n最终答案：明天北京有沙尘暴。",
    'Action: Final Answer\nAction Input: {"answer": "66"}',
    f"**Thought:** t\n**Action:** get_weather\n**Action Input:**\n```json\n{WEATHER}\n```",
)
"""Well-formed replies in the shapes the course reads."""


def _real_replies() -> tuple[str, ...]:
    """The real small-model replies kept in tests/data."""
    rows = []
    for name in ("real_replies_sample.jsonl", "real_replies_shapes.jsonl"):
        rows += [json.loads(line)["raw_reply"] for line in
                 (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(rows)


SEEDS = VALID + _real_replies()

FIELD_WORDS = ("Thought:", "Action:", "Action Input:", "Final Answer:", "Observation:", "Question:",
               "思考：", "行动：", "行动输入：", "最终答案：", "观察：", "**Action:**", "### Final Answer",
               "action_input:", "Final Answer", "Thought 1:", "- Action:", "> Observation:")
PIECES = FIELD_WORDS + ("{", "}", "[", "]", '"', "'", "“", "”", "：", "，", "（", "）", "```json", "```",
                        "`", "\\", "\n", "\r\n", "\r", "\t", " ", "calculator", "get_weather", "None",
                        '{"expression": "1+1"}', '{"action": "calculator", "action_input": {}}', "(", ")",
                        "\x00", "\x1b[31m", "\u200b", "\ufeff", "\u2028", "\u202e", "é", "e\u0301", "𝔘",
                        "😀", "Привет", "مرحبا", "שלום", "天气", "１７", "ｃａｌｃ", "\udcff")
"""Fragments that arbitrary replies are glued from: fields, brackets, quotes, controls, scripts."""

EXOTIC = ("\x00", "\x07", "\x1b", "\x7f", "\u200b", "\u200d", "\u202e", "\ufeff", "\u2028", "\u2029",
          "\udcff", "\U0010ffff", "\u0301", "Ж", "ע", "ع", "天", "ｱ", "𝟙", "😀")
"""Control characters, invisible and direction marks, a lone surrogate, other scripts."""

_FULL_WIDTH = str.maketrans({":": "：", ",": "，", "(": "（", ")": "）", "{": "｛", "}": "｝", '"': "＂"})
_CURLY = str.maketrans({'"': "“", "'": "’"})

Draw = Callable[[st.SearchStrategy], object]
_NUMBER = st.integers(0, 1 << 20)  # one strategy for every position: built and checked once


def _below(draw: Draw, n: int) -> int:
    """A drawn number from 0 to n - 1 (0 when n is 0)."""
    return draw(_NUMBER) % n if n > 0 else 0


def _pick(draw: Draw, choices: tuple) -> object:
    """One of `choices`, drawn."""
    return choices[_below(draw, len(choices))]


def _delete(draw: Draw, lines: list[str]) -> list[str]:
    index = _below(draw, len(lines))
    return lines[:index] + lines[index + 1:]


def _duplicate(draw: Draw, lines: list[str]) -> list[str]:
    index, to = _below(draw, len(lines)), _below(draw, len(lines) + 1)
    return lines[:to] + [lines[index]] + lines[to:]


def _swap(draw: Draw, lines: list[str]) -> list[str]:
    a, b = _below(draw, len(lines)), _below(draw, len(lines))
    lines = list(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def _punctuation(draw: Draw, lines: list[str]) -> list[str]:
    index = _below(draw, len(lines))
    table = _pick(draw, (_FULL_WIDTH, _CURLY))
    return lines[:index] + [lines[index].translate(table)] + lines[index + 1:]


def _fence(draw: Draw, lines: list[str]) -> list[str]:
    start = _below(draw, len(lines) + 1)
    end = start + _below(draw, len(lines) - start + 1)
    fence = _pick(draw, ("```", "```json", "`", "~~~"))
    return lines[:start] + [fence] + lines[start:end] + [fence.rstrip("json")] + lines[end:]


def _truncate(draw: Draw, lines: list[str]) -> list[str]:
    text = "\n".join(lines)
    return text[:_below(draw, len(text) + 1)].split("\n")


def _nest(draw: Draw, lines: list[str]) -> list[str]:
    depth = 1 + _below(draw, 300)
    text = "\n".join(lines)
    brace = text.find("{")
    if brace < 0:
        return lines + ['Action Input: ' + '{"a": ' * depth + "1" + "}" * _below(draw, depth + 1)]
    end = text.rfind("}") + 1 or len(text)
    return (text[:brace] + '{"a": ' * depth + text[brace:end] + "}" * depth + text[end:]).split("\n")


def _huge_line(draw: Draw, lines: list[str]) -> list[str]:
    unit = _pick(draw, (" ", "x", "{", "Action ", "*", '"', "天", "\\"))
    index = _below(draw, len(lines) + 1)
    return lines[:index] + [unit * (500 + _below(draw, 4_501))] + lines[index:]


def _insert(draw: Draw, lines: list[str]) -> list[str]:
    text = "\n".join(lines)
    at = _below(draw, len(text) + 1)
    extra = "".join(_pick(draw, EXOTIC) for _ in range(1 + _below(draw, 6)))
    return (text[:at] + extra + text[at:]).split("\n")


def _prefix(draw: Draw, lines: list[str]) -> list[str]:
    """Chatter or markdown marks before a line."""
    index = _below(draw, len(lines))
    mark = _pick(draw, ("**", "### ", "- ", "> ", "1. ", "Sure! ", "  ", "\t", "`"))
    return lines[:index] + [mark + lines[index]] + lines[index + 1:]


MUTATIONS = (_delete, _duplicate, _swap, _punctuation, _fence, _truncate, _nest, _huge_line, _insert,
             _prefix)


@st.composite
def mutated_replies(draw: Draw) -> str:
    """A well-formed reply after zero to four mutations."""
    lines = _pick(draw, SEEDS).split("\n")
    for _ in range(_below(draw, 5)):
        lines = _pick(draw, MUTATIONS)(draw, lines) or [""]
    return "\n".join(lines)


_BLOB = st.binary(max_size=120)  # cheap to draw and to shrink: the texts below are made from bytes


def _decoded(blob: bytes, how: int) -> str:
    """Text made from `blob`: UTF-8 (bad bytes replaced), Latin-1 (controls), UTF-16 (any BMP
    character, lone surrogates included) or glued from the format's fragments."""
    if how == 0:
        return blob.decode("utf-8", errors="replace")
    if how == 1:
        return blob.decode("latin-1")
    if how == 2:
        return blob[:len(blob) // 2 * 2].decode("utf-16-le", errors="surrogatepass")
    return "".join(PIECES[byte % len(PIECES)] for byte in blob)


@st.composite
def arbitrary_texts(draw: Draw) -> str:
    """Any text at all, or text glued from the format's fragments."""
    return _decoded(draw(_BLOB), _below(draw, 4))


FIELD_LINES = ("Observation:", "observation:", "**Observation:**", "Observation 1:", "观察：",
               "> Observation:", "### Observation", "- Observation:", "OBSERVATION :")
"""Ways of starting an Observation line that the parser recognises."""
MARKER = "FABRICATED-7731"
"""The text of an invented observation's consequences: must never reach an answer or an action."""
_HEADS = st.one_of(mutated_replies(), arbitrary_texts())
TAILS = (f"Thought: I now know the final answer.\nFinal Answer: {MARKER}",
         f"Final Answer: {MARKER}", f"最终答案：{MARKER}",
         f'Action: Final Answer\nAction Input: {{"answer": "{MARKER}"}}',
         f'Action: {MARKER}\nAction Input: {{"x": "{MARKER}"}}',
         f'{{"action": "Final Answer", "action_input": "{MARKER}"}}')
"""What a model writes after the Observation it invented: an answer or a call built on it."""


@st.composite
def fabricated_observations(draw: Draw) -> str:
    """A reply (of any shape) followed by an invented Observation line and an answer built on it."""
    head = draw(_HEADS).replace(MARKER, "")
    head = _pick(draw, ("", "\n", "\r\n", "\n\n")).join(["", head]) if head else head
    label, said = _pick(draw, FIELD_LINES), _decoded(draw(_BLOB), _below(draw, 4)).replace(MARKER, "")
    observation = label + ("" if label.endswith((":", "：", ":**")) else "\n") + said
    tail = _pick(draw, TAILS)
    return f"{head}\n{observation}\n{tail}"


def _value(draw: Draw, depth: int = 0) -> object:
    """A value that is not a str: a number, None, bytes-like, a container of such values, an object."""
    blob, kind = draw(_BLOB), _below(draw, 11 if depth < 2 else 7)
    simple = (None, bool(blob), int.from_bytes(blob[:9], "little", signed=True),
              struct.unpack("<d", blob[:8].ljust(8, b"\0"))[0], blob, bytearray(blob), object())
    if kind < len(simple):
        return simple[kind]
    items = [_value(draw, depth + 1) for _ in range(_below(draw, 4))]
    if kind == 7:
        return items
    if kind == 8:
        return tuple(items)
    if kind == 9:
        return memoryview(blob)
    return {_decoded(blob[:4], 0): item for item in items}


@st.composite
def non_text_values(draw: Draw) -> object:
    """Values a broken client might hand over instead of a reply's text."""
    return _value(draw)
