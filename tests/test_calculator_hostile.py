"""The calculator cannot be abused: hostile expressions are refused clearly, fast and without effect.

Each expression below is refused with a ValueError (a TypeError for a value that is not a
string) whose message names what was wrong; each refusal takes under 50 ms (best of three: a
hang guard, `make bench` measures speed). Then the whole set runs in a fresh interpreter under
an audit hook (`sys.addaudithook`): no code is executed, nothing is opened, imported or run as
a process, and the canary file that some expressions try to create does not appear.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solutions.tools import calculator
from timing import best_seconds

ILLEGAL = "illegal characters: "
TOO_LONG = r"too long \(\d+ characters, at most 200\)"
POWER = "power too large: the exponent must be from -100 to 100"
CANARY = "CANARY"
"""A file some expressions try to create (relative: the audited run works in an empty folder)."""

HOSTILE: list[tuple[str, str, str]] = [
    # (kind, expression, what the message must say: a regular expression)
    ("import", "__import__('os')", ILLEGAL + "'__import__'"),
    ("import", f"__import__('os').system('touch {CANARY}')", ILLEGAL + "'__import__', \"'os'\", 'system'"),
    ("import", "import os", ILLEGAL + "'import', 'os'"),
    ("import", "from os import system", ILLEGAL + "'from', 'os', 'import'"),
    ("import", "__import__('subprocess').run(['ls'])", ILLEGAL + "'__import__'"),
    ("import", "__builtins__.__import__('sys')", ILLEGAL + "'__builtins__', '__import__'"),
    ("import", "importlib.import_module('os')", ILLEGAL + "'importlib', 'import_module'"),
    ("import", f"__import__('pathlib').Path('{CANARY}').touch()", ILLEGAL + "'__import__'"),
    ("dunder", "().__class__.__bases__[0].__subclasses__()", ILLEGAL + "'__class__', '__bases__\\['"),
    ("dunder", "(1).__class__", ILLEGAL + "'__class__'"),
    ("dunder", "1 .__add__(2)", ILLEGAL + "'__add__'"),
    ("dunder", "__builtins__", ILLEGAL + "'__builtins__'"),
    ("dunder", "__debug__", ILLEGAL + "'__debug__'"),
    ("dunder", "[].__class__.__mro__", ILLEGAL + "'\\[\\]', '__class__', '__mro__'"),
    ("attribute", "(1).real", ILLEGAL + "'real'"),
    ("attribute", "1..hex()", ILLEGAL + "'hex'"),
    ("attribute", "(2).bit_length()", ILLEGAL + "'bit_length'"),
    ("attribute", "a.b", ILLEGAL + "'a', 'b'"),
    ("call", "abs(-1)", ILLEGAL + "'abs'"),
    ("call", "pow(2, 10)", ILLEGAL + "'pow', ','"),
    ("call", "eval('1+1')", ILLEGAL + "'eval'"),
    ("call", "exec('x=1')", ILLEGAL + "'exec'"),
    ("call", "compile('1', 'f', 'eval')", ILLEGAL + "'compile'"),
    ("call", f"open('{CANARY}', 'w')", ILLEGAL + f"'open', \"'{CANARY}',\""),
    ("call", "print(1)", ILLEGAL + "'print'"),
    ("call", "input()", ILLEGAL + "'input'"),
    ("call", "exit()", ILLEGAL + "'exit'"),
    ("call", "breakpoint()", ILLEGAL + "'breakpoint'"),
    ("call", "getattr(1, 'real')", ILLEGAL + "'getattr'"),
    ("call", "globals()['__builtins__']", ILLEGAL + "'globals'"),
    ("lambda", "lambda: 1", ILLEGAL + "'lambda:'"),
    ("lambda", "(lambda x: x)(1)", ILLEGAL + "'lambda', 'x:'"),
    ("lambda", "(lambda: __import__('os'))()", ILLEGAL + "'lambda:', '__import__'"),
    ("comprehension", "[x for x in (1, 2)]", ILLEGAL + "'\\[x', 'for'"),
    ("comprehension", "{x for x in (1,)}", ILLEGAL + "'{x', 'for'"),
    ("comprehension", "{x: x for x in (1,)}", ILLEGAL + "'{x:', 'x', 'for'"),
    ("comprehension", "(x for x in (1,))", ILLEGAL + "'x', 'for', 'in'"),
    ("comprehension", "sum(i for i in range(10**9))", ILLEGAL + "'sum', 'i', 'for'"),
    ("name", "x + 1", ILLEGAL + "'x'"),
    ("name", "True", ILLEGAL + "'True'"),
    ("name", "None", ILLEGAL + "'None'"),
    ("name", "nan", ILLEGAL + "'nan'"),
    ("name", "inf", ILLEGAL + "'inf'"),
    ("name", "pi * 2", ILLEGAL + "'pi'"),
    ("name", "_", ILLEGAL + "'_'"),
    ("string", "'a'", ILLEGAL + "\"'a'\""),
    ("string", "'a' * 10**9", ILLEGAL + "\"'a'\""),
    ("string", '"1" + "1"', ILLEGAL + "'\"'"),
    ("string", "r'\\n'", ILLEGAL + "\"r'\\\\\\\\n'\""),
    ("string", "'''1'''", ILLEGAL + "\"'''\""),
    ("bytes", "b'x'", ILLEGAL + "\"b'x'\""),
    ("bytes", "b'\\x00' * 10", ILLEGAL + "\"b'\\\\\\\\x\""),
    ("walrus", "(x := 5)", ILLEGAL + "'x', ':='"),
    ("walrus", "(y := 10**9) * y", ILLEGAL + "'y', ':='"),
    ("f-string", "f'{1+1}'", ILLEGAL + "\"f'{\", \"}'\""),
    ("f-string", "f'{__import__(\"os\")}'", ILLEGAL + "\"f'{__import__\""),
    ("statement", "1; 2", ILLEGAL + "';'"),
    ("statement", "del x", ILLEGAL + "'del', 'x'"),
    ("statement", "yield 1", ILLEGAL + "'yield'"),
    ("statement", "await x", ILLEGAL + "'await', 'x'"),
    ("statement", "assert 0", ILLEGAL + "'assert'"),
    ("operator", "1 if 1 else 2", ILLEGAL + "'if', 'else'"),
    ("operator", "not 1", ILLEGAL + "'not'"),
    ("operator", "1 < 2", ILLEGAL + "'<'"),
    ("operator", "5 % 3", ILLEGAL + "'%'"),
    ("operator", "1 << 100", ILLEGAL + "'<<'"),
    ("operator", "~1", ILLEGAL + "'~'"),
    ("operator", "1 & 1", ILLEGAL + "'&'"),
    ("operator", "1 @ 1", ILLEGAL + "'@'"),
    ("operator", "1 // 2", "operator FloorDiv is not allowed; use \\+ - \\* / or \\*\\*"),
    ("operator", "2 ^ 10", ILLEGAL + "'\\^'.*use \\*\\* for powers"),
    ("container", "[1][0]", ILLEGAL + "'\\[', '\\]\\[', '\\]'"),
    ("container", "{1: 2}", ILLEGAL + "'{', ':', '}'"),
    ("container", "...", "only numbers are allowed"),
    ("power", "9**9**9", POWER),
    ("power", "10**100000", POWER),
    ("power", "2 ** 1000", POWER),
    ("power", "2 ** -1000", POWER),
    ("power", "-(10 ** 300) * 10", POWER),
    ("power", "(10 ** 100) ** 100", "power too large: the result would exceed 1e300"),
    ("power", "2 ** 0.5", "the exponent must be a whole number"),
    ("power", "0 ** -1", "division by zero"),
    ("magnitude", "10 ** 100 * 10 ** 100 * 10 ** 100 * 10 ** 100", r"result is too large \(more than 1e300\)"),
    ("magnitude", "1e309", r"result is too large"),
    ("magnitude", "1e308 * 10", r"result is too large"),
    ("size", "(" * 10_000 + "1" + ")" * 10_000, TOO_LONG),
    ("size", "9" * 1_000_000, TOO_LONG),
    ("size", "1+" * 100_000 + "1", TOO_LONG),
    ("size", " " * 1_000_000, TOO_LONG),
    ("size", "(" * 31 + "1" + ")" * 31, r"nested too deeply \(at most 30 parentheses\)"),
    ("size", "(" * 100 + "1", "nested too deeply"),
    ("size", "1" + ")" * 100, "not valid arithmetic"),
    ("size", "", "empty"),
    ("unicode", "١٢٣ + 1", ILLEGAL + "'١٢٣'"),
    ("unicode", "٣ * ٣", ILLEGAL + "'٣'"),
    ("unicode", "3²", ILLEGAL + "'²'"),
    ("unicode", "①+①", ILLEGAL + "'①'"),
    ("unicode", "Ⅻ", ILLEGAL + "'Ⅻ'"),
    ("unicode", "𝟙 + 𝟚", ILLEGAL + "'𝟙', '𝟚'"),
    ("unicode", "߁ + 1", ILLEGAL + "'߁'"),
    ("unicode", "᠑", ILLEGAL + "'᠑'"),
    ("unicode", "½", ILLEGAL + "'½'"),
    ("unicode", "1⁄2", ILLEGAL + "'⁄'"),
    ("unicode", "٫5", ILLEGAL + "'٫'"),
    ("unicode", "1\u20032", ILLEGAL + "'\\\\u2003'"),
    ("unicode", "1\u200b2", ILLEGAL + "'\\\\u200b'"),
    ("control", "1\x002", ILLEGAL + "'\\\\x00'"),
    ("control", "1\x1b[2J", ILLEGAL + "'\\\\x1b\\['"),
]

NOT_STRINGS = [None, 42, 1.5, b"1 + 1", bytearray(b"2"), ["1 + 1"], {"expression": "1"}, object()]


def test_the_set_covers_every_kind_the_issue_lists() -> None:
    kinds = {kind for kind, _, _ in HOSTILE}
    assert len(HOSTILE) >= 60 and len({expression for _, expression, _ in HOSTILE}) == len(HOSTILE)
    assert {"import", "dunder", "attribute", "call", "lambda", "comprehension", "name", "string",
            "bytes", "walrus", "f-string", "power", "size", "unicode"} <= kinds


@pytest.mark.parametrize(("kind", "expression", "message"), HOSTILE,
                         ids=[f"{kind}-{i}" for i, (kind, _, _) in enumerate(HOSTILE)])
def test_a_hostile_expression_is_refused_saying_why(kind: str, expression: str, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        calculator(expression)
    assert re.search(message, str(refused.value)), str(refused.value)
    assert str(refused.value).startswith(("expression ", "operator ", "power ", "result ", "the exponent",
                                          "only numbers", "division"))
    assert len(str(refused.value)) < 400  # the message, not the megabyte echoed back
    seconds = best_seconds(lambda: pytest.raises(ValueError, calculator, expression))
    assert seconds < 0.050, f"{seconds * 1e3:.1f} ms: a hang guard (a refusal takes microseconds)"


@pytest.mark.parametrize("value", NOT_STRINGS, ids=lambda value: type(value).__name__)
def test_a_value_that_is_not_a_string_is_refused_naming_its_type(value: object) -> None:
    with pytest.raises(TypeError, match=f"expression must be a string .* got {type(value).__name__}$"):
        calculator(value)  # type: ignore[arg-type]


AUDITED = r'''
import json, sys
from solutions.tools import calculator

expressions = json.loads(sys.stdin.read())
values = [None, 42, 1.5, b"1 + 1", ["1 + 1"], {"expression": "1"}]
calculator("(17 + 5) * 3")  # warm up: the calculator's own first use
before = set(sys.modules)
events = []
sys.addaudithook(lambda event, args: events.append(
    (event, args[1] if event == "compile" else repr(args)[:80])))  # compile: (source, file name)
outcomes = []
for expression in expressions + values:
    try:
        outcomes.append("returned " + calculator(expression))
    except (ValueError, TypeError) as refused:
        outcomes.append(type(refused).__name__)
    except BaseException as other:
        outcomes.append("raised " + type(other).__name__)
new_modules = sorted(set(sys.modules) - before)
print(json.dumps({"events": events, "new_modules": new_modules, "outcomes": outcomes}))
'''


def test_the_whole_set_has_no_side_effect(tmp_path: Path) -> None:
    expressions = [expression for _, expression, _ in HOSTILE]
    done = subprocess.run([sys.executable, "-c", AUDITED], input=json.dumps(expressions), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(done.stdout)
    assert seen["outcomes"] == ["ValueError"] * len(expressions) + ["TypeError"] * 6
    assert seen["new_modules"] == []
    kinds = {event for event, _ in seen["events"]}
    assert kinds <= {"compile"}, sorted(kinds)  # no exec, open, import, os.system, subprocess...
    # ast.parse is the only compile: to a tree, under its default file name, never to code
    assert {args for event, args in seen["events"] if event == "compile"} <= {"<unknown>"}
    assert not (tmp_path / CANARY).exists() and list(tmp_path.iterdir()) == []
