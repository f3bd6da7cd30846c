"""Regenerate the README's generated blocks: the client example's output and the rulebook.

Usage: python scripts/sync_readme.py [--check]   (--check exits 1 when README.md is stale)
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
    """The README's client examples (run here), their outputs and an explanation field."""
    explanation = json.dumps(_with_tools().model_dump()["x_mock"], indent=2, ensure_ascii=False)
    return {"example": _shown(_three_lines), "example_tools": _shown(_with_tools),
            "explanation": f"```json\n{explanation}\n```"}


def rulebook_block() -> str:
    """The rulebook as a Markdown table, generated from mockllm's persona tables."""
    from mockllm.behaviour.personas import rulebook_markdown

    return rulebook_markdown().strip()


def render(text: str) -> str:
    """Return README text with every generated block filled in."""
    blocks = {**example_blocks(), "rulebook": rulebook_block()}
    for name, body in blocks.items():
        pattern = re.compile(rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"README.md lacks the markers <!-- {name}:start --> / <!-- {name}:end -->")
        text = pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)
    return text


def main(argv: list[str]) -> int:
    """Write README.md, or with --check report whether it is up to date."""
    old = README.read_text(encoding="utf-8")
    new = render(old)
    if "--check" in argv:
        if new != old:
            print("README.md is out of date with mockllm: run `make lessons`")
            return 1
        return 0
    if new != old:
        README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
