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
    if isinstance(script, (str, Path)):
        script = _read_file(Path(script))
    if isinstance(script, Mapping) and "replies" in script:
        script = script["replies"]
    if not isinstance(script, (list, tuple)):
        raise TypeError(f"a script must be a list of replies (or a .json/.yaml path), got "
                        f"{type(script).__name__}; each reply is {ACCEPTED_SHAPES}")
    if not script:
        raise ValueError("a script needs at least one reply; each reply is " + ACCEPTED_SHAPES)
    return tuple(parse_entry(index, entry) for index, entry in enumerate(script))


def _read_file(path: Path) -> object:
    """Load a script file: JSON by the standard library, YAML by PyYAML (imported only here)."""
    suffix = path.suffix.lower()
    if suffix not in _SUFFIXES:
        raise ValueError(f"a script file must end with .json, .yaml or .yml, got {str(path)!r}; "
                         "to script replies directly pass a list, e.g. from_script(['Final Answer: 42'])")
    text = path.read_text(encoding="utf-8")
    if suffix == ".json":
        import json

        return json.loads(text)
    try:
        import yaml
    except ImportError as error:
        raise ModuleNotFoundError(f"reading the YAML script {str(path)!r} needs PyYAML "
                                  "(pip install pyyaml), or write the script as .json") from error
    return yaml.safe_load(text)


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

        arguments = json.dumps(dict(arguments), ensure_ascii=False)
    if not isinstance(arguments, str):
        raise _bad_entry(index, entry, "has tool call 'arguments' that are neither a dict nor a str")
    call_id = call.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise _bad_entry(index, entry, "has a tool call 'id' that is not a str")
    return {"id": call_id, "type": "function", "function": {"name": call["name"], "arguments": arguments}}
