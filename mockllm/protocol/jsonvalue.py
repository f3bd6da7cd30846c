"""Check that a value is one JSON can carry, in linear time and without recursion.

The openai SDK sends every request as JSON: a key JSON turns into a string (1 -> "1", None ->
"null") arrives as that string, and any other key or value (a tuple key, a set, a function) makes
`json.dumps` fail. `check_json` does the same checks up front and names the field, and it refuses
nesting deeper than MAX_DEPTH levels, which would otherwise end in a RecursionError later on.
"""
from __future__ import annotations

from collections.abc import Mapping

from mockllm.protocol.fields import show

MAX_DEPTH = 64
"""How deeply a JSON value in a request (a schema, a script entry) may nest."""
_ATOMS = (str, int, float, bool, type(None))
_KEY_TYPES = (str, int, float, bool, type(None))  # the keys json.dumps turns into strings
_STR = frozenset({str})


def _where(path: tuple | None) -> str:
    """Render a linked path (key, parent) as '.properties.city' / '[0]' (empty at the top)."""
    parts = []
    while path is not None:
        key, path = path
        parts.append(f"[{key}]" if isinstance(key, int) and not isinstance(key, bool) else f".{key}")
    return "".join(reversed(parts))


def check_json(field: str, value: object, max_depth: int = MAX_DEPTH) -> object:
    """Return `value` as JSON carries it (non-str keys made strings), or raise naming `field`.

    TypeError for a key or value JSON cannot carry; ValueError for nesting deeper than
    `max_depth`. The value is walked level by level, without recursion: linear time. Only when
    something is wrong is it walked again, with paths, to say where.
    """
    level, depth, converted = [value], 0, False
    while level:
        depth += 1
        below: list = []
        for item in level:
            kind = type(item)
            if kind in _ATOMS:
                continue
            mapping = kind is dict or (kind is not list and kind is not tuple and isinstance(item, Mapping))
            if mapping or isinstance(item, (list, tuple)):
                if depth > max_depth:
                    return _explain(field, value, max_depth)
                if not mapping:
                    below.extend(item)
                    continue
                if not _STR.issuperset(map(type, item)):
                    if not all(isinstance(key, _KEY_TYPES) for key in item):
                        return _explain(field, value, max_depth)
                    converted = True
                below.extend(item.values())
            elif not isinstance(item, _ATOMS):
                return _explain(field, value, max_depth)
        level = below
    if not converted:
        return value
    import json

    return json.loads(json.dumps(value, ensure_ascii=False))


def _explain(field: str, value: object, max_depth: int) -> object:
    """Walk `value` again, with paths, and raise the error check_json found."""
    stack: list[tuple[object, int, tuple | None]] = [(value, 1, None)]
    while stack:
        item, depth, path = stack.pop()
        if type(item) in _ATOMS:
            continue
        if isinstance(item, (Mapping, list, tuple)) and depth > max_depth:
            raise ValueError(f"Invalid value for '{field}': nested deeper than {max_depth} levels "
                             f"(at '{field}{_where(path)}'); flatten it.")
        if isinstance(item, Mapping):
            for key, sub in item.items():
                if type(key) is not str and not isinstance(key, _KEY_TYPES):
                    raise TypeError(f"Invalid type for '{field}': the key {show(key)} at "
                                    f"'{field}{_where(path)}' is a {type(key).__name__}; "
                                    "JSON object keys must be strings.")
                stack.append((sub, depth + 1, (str(key), path)))
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, depth + 1, (index, path)) for index, sub in enumerate(item))
        elif not isinstance(item, _ATOMS):
            raise TypeError(f"Invalid type for '{field}': {show(item)} at '{field}{_where(path)}' "
                            f"is a {type(item).__name__}, which JSON cannot carry; use str, int, "
                            "float, bool, None, lists and dicts.")
    raise AssertionError("check_json found a problem that _explain cannot find")  # pragma: no cover
