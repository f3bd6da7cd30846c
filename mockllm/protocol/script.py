"""Scripted mode: replay fixed replies in order, for lessons that need an exact conversation.

    MockLLM.from_script([
        "Thought: I need the weather.\\nAction: get_weather\\nAction Input: {\\"city\\": \\"Paris\\"}",
        {"content": "Thought: I now know the final answer.\\nFinal Answer: Sunny."},
        {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
    ])

or `MockLLM.from_script("script.json")` / `("script.yaml")`: a list of such replies, or a mapping
with a `replies` list. `stop` and `max_tokens` still apply to scripted replies.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mockllm.protocol.jsonvalue import MAX_DEPTH, check_json

ACCEPTED_SHAPES = (
    "a str (the reply text); "
    "{'content': str}; "
    "{'tool_calls': [{'name': str, 'arguments': dict or JSON str, 'id': str (optional)}, ...]}; "
    "or {'content': str, 'tool_calls': [...]}"
)
_SUFFIXES = (".json", ".yaml", ".yml")


class ScriptedReply:
    """One scripted reply, shaped like `mockllm.reply.respond.Reply` (content, tool_calls)."""

    __slots__ = ("content", "tool_calls")

    def __init__(self, content: str | None, tool_calls: tuple[dict, ...]) -> None:
        self.content = content
        self.tool_calls = tool_calls

    def __repr__(self) -> str:
        return f"ScriptedReply(content={self.content!r}, tool_calls={self.tool_calls!r})"


def script_explanation(step: int, seed: int) -> dict:
    """Return the `x_mock` explanation of the reply at 1-based script `step`."""
    return {
        "source": "script", "persona": None, "seed": seed, "step": step, "family": "",
        "rule": f"script step {step}", "quirks_fired": [], "quirks_suppressed": [],
    }


def exhausted_message(count: int) -> str:
    """Return the message of ScriptExhaustedError for a script of `count` replies."""
    return f"script exhausted after {count} replies; add more replies or create a new client"


def load_script(script: object) -> tuple[ScriptedReply, ...]:
    """Return the replies of a script given as a list, or as a .json/.yaml path."""
    if not isinstance(script, (str, Path)):
        return _replies(script)
    path = Path(script)
    loaded = _read_file(path)
    if isinstance(loaded, Mapping) and "replies" in loaded:
        loaded = loaded["replies"]
    if not isinstance(loaded, list):
        raise _file_error(path, f"holds a value of type {type(loaded).__name__}, not a list of replies")
    try:
        return _replies(loaded)
    except ValueError as error:
        raise ValueError(f"script file {str(path)!r}: {error}") from None


def _replies(script: object) -> tuple[ScriptedReply, ...]:
    """Parse a script given as a list (or a mapping with a `replies` list) of entries."""
    if isinstance(script, Mapping) and "replies" in script:
        script = script["replies"]
    if not isinstance(script, (list, tuple)):
        raise TypeError(f"a script must be a list of replies (or a .json/.yaml path), got "
                        f"{type(script).__name__}; each reply is {ACCEPTED_SHAPES}")
    if not script:
        raise ValueError("a script needs at least one reply; each reply is " + ACCEPTED_SHAPES)
    return tuple(parse_entry(index, entry) for index, entry in enumerate(script))


_FILE_SHAPE = ("a JSON or YAML list of replies, e.g. [\"Final Answer: 42\"], or a mapping "
               "{\"replies\": [...]}, saved as UTF-8")


def _file_error(path: Path, problem: str) -> ValueError:
    """Build the ValueError for a script file that cannot be read, naming the file."""
    return ValueError(f"script file {str(path)!r} {problem}; accepted: {_FILE_SHAPE}")


def _read_file(path: Path) -> object:
    """Load a script file: JSON by the standard library, YAML by PyYAML (imported only here).

    A UTF-8 byte order mark is accepted; every other problem (not UTF-8, empty, malformed,
    nested too deeply) is a ValueError that names the file.
    """
    suffix = path.suffix.lower()
    if suffix not in _SUFFIXES:
        raise ValueError(f"a script file must end with .json, .yaml or .yml, got {str(path)!r}; "
                         "to script replies directly pass a list, e.g. from_script(['Final Answer: 42'])")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        bad = f"byte {error.start} is {data[error.start]:#04x}"
        raise _file_error(path, f"is not valid UTF-8 ({bad})") from None
    if not text.strip():
        raise _file_error(path, "is empty")
    loaded = _parse_json(path, text) if suffix == ".json" else _parse_yaml(path, text)
    try:
        check_json("script", loaded)
    except ValueError:
        raise _file_error(path, f"nests deeper than {MAX_DEPTH} levels") from None
    except TypeError:
        pass  # a value JSON cannot carry (a YAML date): parse_entry names the entry
    return loaded


def _parse_json(path: Path, text: str) -> object:
    """Parse a JSON script file, with errors that name the file, the line and the column."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _file_error(path, f"is not valid JSON: {error.msg} (line {error.lineno}, "
                                f"column {error.colno})") from None
    except RecursionError:
        raise _file_error(path, "nests too deeply to be read") from None


def _flow_depth(text: str) -> int:
    """The deepest nesting of [ and { in `text` (quotes not considered: an upper bound), in one pass."""
    import re

    depth = deepest = 0
    for match in re.finditer(r"[\[\]{}]", text):
        depth = depth + 1 if match.group() in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    return deepest


def _parse_yaml(path: Path, text: str) -> object:
    """Parse a YAML script file with PyYAML's safe loader, with errors that name the file."""
    try:
        import yaml
    except ImportError as error:
        raise ModuleNotFoundError(f"reading the YAML script {str(path)!r} needs PyYAML "
                                  "(pip install pyyaml), or write the script as .json") from error
    if _flow_depth(text) > MAX_DEPTH:  # PyYAML takes seconds on deep [[[... before failing
        raise _file_error(path, f"nests deeper than {MAX_DEPTH} levels")
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise _file_error(path, f"is not valid YAML: {problem}{where}") from None
    except RecursionError:
        raise _file_error(path, "nests too deeply to be read") from None
    if loaded is None:
        raise _file_error(path, "holds no replies")
    return loaded


def _bad_entry(index: int, entry: object, problem: str) -> ValueError:
    """Build the ValueError for a malformed script entry."""
    return ValueError(f"script entry {index} ({entry!r:.80}) {problem}; accepted shapes: {ACCEPTED_SHAPES}")


def parse_entry(index: int, entry: object) -> ScriptedReply:
    """Turn one script entry into a ScriptedReply, or raise ValueError naming the entry."""
    if isinstance(entry, str):
        return ScriptedReply(entry, ())
    if not isinstance(entry, Mapping):
        raise _bad_entry(index, entry, f"is a {type(entry).__name__}")
    unknown = sorted(str(key) for key in entry if key not in ("content", "tool_calls"))
    if unknown:
        raise _bad_entry(index, entry, f"has unknown key(s) {', '.join(unknown)}")
    content, calls = entry.get("content"), entry.get("tool_calls")
    if content is not None and not isinstance(content, str):
        raise _bad_entry(index, entry, "has a 'content' that is not a str")
    if calls is None:
        if content is None:
            raise _bad_entry(index, entry, "has neither 'content' nor 'tool_calls'")
        return ScriptedReply(content, ())
    if not isinstance(calls, (list, tuple)) or not calls:
        raise _bad_entry(index, entry, "has 'tool_calls' that is not a non-empty list")
    return ScriptedReply(content, tuple(_parse_call(index, entry, call) for call in calls))


def _parse_call(index: int, entry: object, call: object) -> dict:
    """Normalise a scripted tool call to openai's shape; a str `arguments` is kept verbatim."""
    if isinstance(call, Mapping) and isinstance(call.get("function"), Mapping):
        call = {"id": call.get("id"), **call["function"]}  # already openai-shaped
    if not isinstance(call, Mapping) or not isinstance(call.get("name"), str) or not call["name"]:
        raise _bad_entry(index, entry, "has a tool call without a str 'name'")
    arguments = call.get("arguments", {})
    if isinstance(arguments, Mapping):
        import json

        try:
            arguments = json.dumps(check_json("arguments", dict(arguments)), ensure_ascii=False)
        except (TypeError, ValueError) as error:
            raise _bad_entry(index, entry, f"has tool call 'arguments' JSON cannot carry ({error})") from None
    if not isinstance(arguments, str):
        raise _bad_entry(index, entry, "has tool call 'arguments' that are neither a dict nor a str")
    call_id = call.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise _bad_entry(index, entry, "has a tool call 'id' that is not a str")
    return {"id": call_id, "type": "function", "function": {"name": call["name"], "arguments": arguments}}
