"""A JSON value that fits a JSON schema, built deterministically from the schema and some text.

Used for `response_format={"type": "json_schema", ...}` (from the final answer) and for the
arguments of a tool call that `tool_choice` forces (from the question). The rules:

- a string is the text (or, for a property named like a ReAct field, that field: `thought`,
  `action`, `action_input`, `answer`/`final_answer`; `question`/`query` get the question); one
  named like an explanation (`explanation`, `reasoning`, `rationale`, `steps`, `summary`,
  `description`...) gets the thought followed by the answer (else the answer to the question);
  `format` date / date-time / time / email / uri / uuid gets a value of that form;
  minLength / maxLength are met by padding or cutting;
- a number or integer is the text's answer (`answer_number`: the result after its last `=`,
  else its first number the question does not hold, else its first number, else the question's,
  else 0); a property named like a confidence (`confidence`, `probability`...) gets 0.9 of its
  range instead. Either is moved into minimum / maximum. A boolean is True only when the text
  starts with "yes"/"true";
- `enum` gives the member the answer names (equal to its number, or a word of its text), else its
  first value; `const` its value; `anyOf`/`oneOf`/a list of types the first
  option (a `null` option only as a last resort), except that a list of types holding both a
  number and a string gives the number when the answer is one (no letters in it, as in
  "(17 + 5) * 3 = 66") and the text otherwise; `allOf` the merge of its parts;
- an array has one item (or `minItems`, at most `maxItems`), an object every property in order;
- `$ref` to `#`, `#/$defs/...` or `#/definitions/...` is followed (in `allOf` too); a reference
  already being expanded ends there (an empty array, an omitted optional property, or null, and
  in `allOf` a part left out), so recursive schemas give finite values. `pattern`, `multipleOf`
  and `uniqueItems` are not enforced.
- One value holds about MAX_SIZE string characters and array items in all: a `minLength` or
  `minItems` (or several nested) that asks for more is met only up to there. A real model could
  not write such a value either: its reply would stop at its output limit.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

MAX_DEPTH = 32
"""How deep a built value may nest; below that, only what the schema requires is built."""
BUDGET = 10_000
"""How many values one build may make before it, too, builds only what is required."""
MAX_SIZE = 1_000_000
"""The string characters and array items one build makes at most (past it, no padding, no more items)."""
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_LETTER = re.compile(r"[^\W\d_]")
_RESULT = re.compile(r"(?:=|的结果是|结果是)\s*([-+]?\d+(?:\.\d+)?)")
_EXPLAINING = frozenset({"explanation", "explain", "reasoning", "reason", "rationale", "justification",
                         "steps", "step", "summary", "description", "analysis", "working", "work"})
_CONFIDENCE = frozenset({"confidence", "probability", "certainty", "likelihood", "confidence_score"})
ANSWER_NAMES = frozenset({"answer", "final_answer", "result", "value", "total", "output", "solution"})
"""Property names that hold the answer itself (built first, and read as a number when it is one)."""
_STEP_FIELDS = {
    "answer": "answer", "final_answer": "answer", "result": "answer", "response": "answer",
    "output": "answer", "text": "answer", "content": "answer", "thought": "thought",
    "action": "action", "tool": "action", "tool_name": "action", "action_input": "action_input",
    "question": "question", "query": "question",
}
_FORMATS = {"email": "user@example.com", "uri": "https://example.com/", "url": "https://example.com/",
            "hostname": "example.com", "ipv4": "192.0.2.1", "time": "00:00:00Z"}


class Facts:
    """What the values are made of: the text, the question, the ReAct fields, today's date."""

    __slots__ = ("text", "question", "fields", "today")

    def __init__(self, text: str, question: str = "", fields: Mapping[str, object] | None = None,
                 today: str = "2025-03-14") -> None:
        self.text, self.question, self.today = text, question, today
        self.fields = dict(fields or {})

    def number(self) -> float:
        """The number the text answers with (see `answer_number`)."""
        return answer_number(self.text, self.question)

    def explanation(self) -> str:
        """Explanatory text: the thought, then the answer (else the answer to the question)."""
        thought = self.fields.get("thought")
        thought = thought.strip() if isinstance(thought, str) else ""
        answer = self.text.strip()
        if thought and thought != answer:
            return f"{thought if thought[-1:] in '.?!。？！' else thought + '.'} {answer}"
        question = self.question.strip()
        return f"To answer \"{question}\": {answer}" if question and question != answer else answer


def answer_number(text: str, question: str = "") -> float:
    """The number a text answers with: the result after its last '=' ('的结果是'), else its first
    number the question does not hold, else its first number, else the question's first, else 0."""
    results = _RESULT.findall(text)
    if results:
        return float(results[-1])
    numbers = [float(n) for n in _NUMBER.findall(text)]
    asked = {float(n) for n in _NUMBER.findall(question)}
    new = [n for n in numbers if n not in asked and -n not in asked]
    if new or numbers:
        return (new or numbers)[0]
    found = _NUMBER.search(question)
    return float(found.group()) if found else 0.0


def build(schema: Mapping, facts: Facts) -> object:
    """Return a value valid against `schema` (see the module docstring for the rules)."""
    return _Builder(schema, facts).value(schema, "", 0, ())


class _Builder:
    """Walks one schema; `refs` holds the $refs being expanded on the current path."""

    def __init__(self, root: Mapping, facts: Facts) -> None:
        self.root, self.facts, self.left, self.room = root, facts, BUDGET, MAX_SIZE

    def spend(self, wanted: int) -> int:
        """As much of `wanted` (string characters or array items) as the room left allows."""
        granted = max(0, min(wanted, self.room))
        self.room -= granted
        return granted

    def value(self, schema: object, name: str, depth: int, refs: tuple) -> object:
        """The value for `schema` at a property called `name`."""
        self.left -= 1
        if self.left <= 0:
            depth = max(depth, MAX_DEPTH)  # out of budget: only what is required from here on
        if not isinstance(schema, Mapping):
            return self.string({}, name)  # `true` or a malformed schema: any string will do
        if "$ref" in schema:
            ref = schema["$ref"]
            if ref in refs or depth > MAX_DEPTH:
                return None
            return self.value(self.resolve(ref), name, depth + 1, (*refs, ref))
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self.member(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                return self.value(self.pick(schema[key], refs), name, depth + 1, refs)
        if isinstance(schema.get("allOf"), list):
            merged = dict(schema)
            for part in merged.pop("allOf"):
                ref = part.get("$ref") if isinstance(part, Mapping) else None
                if ref is not None:
                    if ref in refs:
                        continue  # being expanded already: its properties are in the merge
                    part, refs = self.resolve(ref), (*refs, ref)
                merged = _merge(merged, part)
            return self.value(merged, name, depth + 1, refs)
        return self.typed(schema, self.kind(schema), name, depth, refs)

    def kind(self, schema: Mapping) -> str:
        """The JSON type to build: a number-or-string list by the answer, else `_type`'s."""
        kinds = schema.get("type")
        if isinstance(kinds, list) and "string" in kinds and ("number" in kinds or "integer" in kinds):
            if _NUMBER.search(self.facts.text) and not _LETTER.search(self.facts.text):
                return "integer" if "integer" in kinds else "number"
            return "string"
        return _type(schema)

    def typed(self, schema: Mapping, kind: str, name: str, depth: int, refs: tuple) -> object:
        """The value of a schema of one JSON type."""
        if kind == "object":
            return self.object(schema, depth, refs)
        if kind == "array":
            return self.array(schema, name, depth, refs)
        if kind in ("number", "integer"):
            return self.number(schema, kind == "integer", name)
        if kind == "boolean":
            return self.facts.text.strip().lower().startswith(("yes", "true"))
        if kind == "null":
            return None
        return self.string(schema, name)

    def pick(self, options: list, refs: tuple) -> object:
        """The first option that is neither null nor a reference being expanded (else the first)."""
        for option in options:
            usable = isinstance(option, Mapping) and option.get("type") != "null"
            if usable and option.get("$ref") not in refs:
                return option
        return next((o for o in options if isinstance(o, Mapping) and o.get("type") == "null"), options[0])

    def object(self, schema: Mapping, depth: int, refs: tuple) -> dict:
        """Every property (only the required ones when deep, or when a property recurses)."""
        properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
        required = [r for r in schema.get("required", ()) if isinstance(r, str)] \
            if isinstance(schema.get("required"), list) else []
        built = {}
        for key in sorted(properties, key=lambda k: k.lower() not in ANSWER_NAMES):  # the answer first
            sub = properties[key]
            recursive = isinstance(sub, Mapping) and sub.get("$ref") in refs
            if key in required or not (recursive or depth >= MAX_DEPTH):
                built[key] = self.value(sub, key, depth + 1, refs)
        out = {key: built[key] for key in properties if key in built}  # in the schema's order
        for key in required:
            out.setdefault(key, self.string({}, key))
        return out

    def member(self, members: list) -> object:
        """The enum member the answer names (its number, or a word of its text), else the first."""
        number = self.facts.number()
        for member in members:
            if isinstance(member, (int, float)) and not isinstance(member, bool) and member == number:
                return member
        said = f"{self.facts.text} {self.facts.fields.get('thought') or ''}".lower()
        words = set(re.findall(r"[^\W_]+", said))
        return next((m for m in members if isinstance(m, str) and m.lower() in words), members[0])

    def array(self, schema: Mapping, name: str, depth: int, refs: tuple) -> list:
        """One item (or minItems of them; prefixItems each once), within maxItems."""
        low = schema.get("minItems", 0) if isinstance(schema.get("minItems"), int) else 0
        high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        items = schema.get("items", {})
        recursive = isinstance(items, Mapping) and items.get("$ref") in refs
        count = max(low, len(prefix), 0 if recursive or depth >= MAX_DEPTH else 1)
        count = count if high is None else min(count, high)
        out: list = []
        while len(out) < count and (self.spend(1) or not out):  # out of room: one item at most
            out.append(self.value(prefix[len(out)] if len(out) < len(prefix) else items, name, depth + 1, refs))
        return out

    def number(self, schema: Mapping, integer: bool, name: str = "") -> float | int:
        """The answer's number (0.9 of the range for a confidence), moved into the bounds."""
        import math

        bound = {key: schema[key] for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
                 if isinstance(schema.get(key), (int, float)) and not isinstance(schema.get(key), bool)}
        if name.lower() in _CONFIDENCE:
            top = bound.get("maximum", bound.get("exclusiveMaximum", 1))
            value: float = 0.9 * top if top > 1 else 0.9
        else:
            value = self.facts.number()
        if integer:
            value = int(value)
            if "minimum" in bound and value < bound["minimum"]:
                value = math.ceil(bound["minimum"])
            if "exclusiveMinimum" in bound and value <= bound["exclusiveMinimum"]:
                value = math.floor(bound["exclusiveMinimum"]) + 1
            if "maximum" in bound and value > bound["maximum"]:
                value = math.floor(bound["maximum"])
            if "exclusiveMaximum" in bound and value >= bound["exclusiveMaximum"]:
                value = math.ceil(bound["exclusiveMaximum"]) - 1
            return value
        value = max(value, bound.get("minimum", value))
        if "exclusiveMinimum" in bound and value <= bound["exclusiveMinimum"]:
            value = bound["exclusiveMinimum"] + 1
        value = min(value, bound.get("maximum", value))
        if "exclusiveMaximum" in bound and value >= bound["exclusiveMaximum"]:
            low = bound.get("minimum", bound.get("exclusiveMinimum", bound["exclusiveMaximum"] - 2))
            value = (low + bound["exclusiveMaximum"]) / 2
        return int(value) if float(value).is_integer() else value

    def string(self, schema: Mapping, name: str) -> str:
        """The text, a ReAct field by the property's name, or a value of the schema's format."""
        fmt = schema.get("format")
        if fmt == "date":
            text = self.facts.today
        elif fmt == "date-time":
            text = f"{self.facts.today}T00:00:00Z"
        elif fmt == "uuid":
            import hashlib

            raw = self.facts.text.encode("utf-8", "surrogatepass")
            digest = hashlib.blake2b(raw, digest_size=16).hexdigest()
            text = f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-8{digest[17:20]}-{digest[20:32]}"
        elif fmt in _FORMATS:
            text = _FORMATS[fmt]
        else:
            text = self.field(name)
        low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
        high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
        self.spend(len(text))
        text = text + "." * self.spend(low - len(text))
        return text if high is None else text[:high]

    def field(self, name: str) -> str:
        """The text for a string property: its ReAct field when the name says which, an
        explanation when it asks for one, else the text."""
        if name.lower() in _EXPLAINING:
            return self.facts.explanation()
        wanted = _STEP_FIELDS.get(name.lower())
        if wanted == "question":
            return self.facts.question or self.facts.text
        value = self.facts.fields.get(wanted) if wanted else None
        if value is None:
            return self.facts.text
        if isinstance(value, str):
            return value
        import json

        return json.dumps(value, ensure_ascii=False)

    def resolve(self, ref: object) -> object:
        """The schema a local `$ref` points to ({} when it points nowhere)."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            return {}
        node: object = self.root
        for part in (p for p in ref[1:].split("/") if p):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part) if isinstance(node, Mapping) else None
        return node if isinstance(node, Mapping) else {}


def _type(schema: Mapping) -> str:
    """The schema's JSON type: its `type` (the first non-null one of a list), else a guess."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "required" in schema:
        return "object"
    return "array" if "items" in schema or "prefixItems" in schema else "string"


def _merge(base: Mapping, part: object) -> dict:
    """Merge an allOf part into `base`: properties and required lists joined, the rest overridden."""
    if not isinstance(part, Mapping):
        return dict(base)
    merged = {**base, **{k: v for k, v in part.items() if k not in ("properties", "required")}}
    merged["properties"] = {**(base.get("properties") or {}), **(part.get("properties") or {})}
    merged["required"] = [*(base.get("required") or []), *(part.get("required") or [])]
    return merged
