"""Python's own parser, behind one lock: for arithmetic and Python-literal arguments in replies.

CPython 3.11's `ast.parse` is not safe to call from several threads at once: it can fail with
`SystemError: AST constructor recursion depth mismatch` (fixed in later releases). The server
answers from several threads, so every parse the mock makes goes through here.
"""
from __future__ import annotations

import ast
import threading

_LOCK = threading.Lock()


def parse_expression(text: str) -> ast.Expression:
    """`ast.parse(text, mode="eval")`, one thread at a time."""
    with _LOCK:
        return ast.parse(text, mode="eval")


def literal(text: str) -> object:
    """`ast.literal_eval(text)`, one thread at a time."""
    with _LOCK:
        return ast.literal_eval(text)
