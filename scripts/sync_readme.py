"""Regenerate the generated blocks of README.md and docs/mock.md from mockllm itself.

Usage: python scripts/sync_readme.py [--check]   (--check exits 1 when a file is stale)

README.md holds the three-line client example and the count of the wrong-solution catalogue
(tests/wrong_solutions/); docs/mock.md the call with a tool, its `x_mock`
explanation and the rulebook. Each block sits between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
"""
from __future__ import annotations

import inspect
import json
import re
import textwrap
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MOCK_DOC = ROOT / "docs" / "mock.md"
BLOCKS = {README: ("example", "wrong_solutions"), MOCK_DOC: ("example_tools", "explanation", "rulebook")}
"""Which generated blocks each file holds."""


def _three_lines():
    from mockllm import MockLLM
    client = MockLLM(persona="diligent", seed=0)
    resp = client.chat.completions.create(model="mock-react", messages=[{"role": "user", "content": "Question: What is (17 + 5) * 3?"}])
    return resp


def _with_tools():
    from mockllm import MockLLM
    client = MockLLM(persona="diligent", seed=0)
    resp = client.chat.completions.create(model="mock-react", messages=[
        {"role": "system", "content": "Tools:\n- calculator: arithmetic, e.g. {\"expression\": \"2 * 3\"}\n"
                                      "Reply with Thought:, Action:, Action Input: or Final Answer:"},
        {"role": "user", "content": "Question: What is (17 + 5) * 3?"}], stop=["Observation:"])
    return resp


def _shown(example) -> str:
    """The example's code (its body, without the return) and what it prints, as Markdown."""
    body = inspect.getsource(example).splitlines()[1:-1]
    code = textwrap.dedent("\n".join(body))
    resp = example()
    out = (f">>> print(resp.choices[0].message.content)\n{resp.choices[0].message.content}\n"
           f">>> resp.choices[0].finish_reason, resp.usage.total_tokens\n"
           f"({resp.choices[0].finish_reason!r}, {resp.usage.total_tokens})")
    return f"```python\n{code}\n```\n\n```python\n{out}\n```"


def example_blocks() -> dict[str, str]:
    """The client examples (run here), their outputs and the second one's explanation field."""
    explanation = json.dumps(_with_tools().model_dump()["x_mock"], indent=2, ensure_ascii=False)
    return {"example": _shown(_three_lines), "example_tools": _shown(_with_tools),
            "explanation": f"```json\n{explanation}\n```"}


def rulebook_block() -> str:
    """The rulebook as a Markdown table, generated from mockllm's persona tables."""
    from mockllm.behaviour.personas import rulebook_markdown

    return rulebook_markdown().strip()


def wrong_solutions_block() -> str:
    """The catalogue's count, as the sentence README "How we test" prints."""
    sys.path.insert(0, str(ROOT))
    from tests.wrong_solutions import MIN_PER_EXERCISE, counts

    c = counts()
    harmless = (f"; {c['harmless']} more are harmless (the lesson's later cells give the same results) and "
                "are accepted, each with the reason written beside it") if c["harmless"] else ""
    return textwrap.fill(f"{c['exercises']} exercises, {c['wrong']} classic wrong solutions in the catalogue (at least "
            f"{MIN_PER_EXERCISE} an exercise): {c['refused']} refused, each with a first reason that names "
            f"its fault{harmless}.", 94)


def render(text: str, names: tuple[str, ...], blocks: dict[str, str],
           label: str = "README.md") -> str:
    """Return `text` with the generated blocks `names` filled in from `blocks`."""
    for name in names:
        pattern = re.compile(rf"^([ ]*)(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", re.S | re.M)
        if not pattern.search(text):
            raise SystemExit(f"{label} lacks the markers <!-- {name}:start --> / <!-- {name}:end -->")
        text = pattern.sub(lambda m: m.group(1) + m.group(2) + textwrap.indent(blocks[name], m.group(1))
                           + "\n" + m.group(1) + m.group(3), text)  # an indented block keeps its indent
    return text


def main(argv: list[str]) -> int:
    """Write the files, or with --check report which ones are out of date."""
    stale = []
    blocks = {**example_blocks(), "rulebook": rulebook_block(), "wrong_solutions": wrong_solutions_block()}  # made once, for every file
    for path, names in BLOCKS.items():
        label = path.relative_to(ROOT).as_posix()
        old = path.read_text(encoding="utf-8")
        new = render(old, names, blocks, label)
        if new != old:
            stale.append(label)
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
    if "--check" in argv and stale:
        print(f"{', '.join(stale)} out of date with mockllm: run `make lessons`")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
