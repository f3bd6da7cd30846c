"""Regenerate the generated blocks of README.md, docs/mock.md and docs/instructors.md.

Usage: python scripts/sync_readme.py [--check]   (--check exits 1 when a file is stale)

README.md holds the three-line client example and the count of the wrong-solution catalogue
(tests/wrong_solutions/); docs/mock.md the call with a tool, its `x_mock`
explanation and the rulebook; docs/instructors.md the lesson times (scripts/lesson_time.py), the
workshop agendas (scripts/agendas.py) and the catalogue's mistakes with what each check says.
Each block sits between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
"""
from __future__ import annotations

import functools
import inspect
import json
import re
import textwrap
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MOCK_DOC = ROOT / "docs" / "mock.md"
INSTRUCTORS = ROOT / "docs" / "instructors.md"
BLOCKS = {README: ("example", "wrong_solutions"), MOCK_DOC: ("example_tools", "explanation", "rulebook"),
          INSTRUCTORS: ("lesson_times", "agenda_90", "agenda_half_day", "agenda_full_day", "agenda_second_day",
                        "mistakes_count", "mistakes")}
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


def _importable() -> None:
    """Put the repository (tests.wrong_solutions, solutions) and scripts/ on the import path."""
    for path in (str(ROOT), str(ROOT / "scripts")):
        if path not in sys.path:
            sys.path.insert(0, path)


def wrong_solutions_block() -> str:
    """The catalogue's count, as the sentence README "How we test" prints."""
    _importable()
    from tests.wrong_solutions import MIN_PER_EXERCISE, counts

    c = counts()
    harmless = (f"; {c['harmless']} more are harmless (the lesson's later cells give the same results) and "
                "are accepted, each with the reason written beside it") if c["harmless"] else ""
    return textwrap.fill(f"{c['exercises']} exercises, {c['wrong']} classic wrong solutions in the catalogue (at least "
            f"{MIN_PER_EXERCISE} an exercise): {c['refused']} refused, each with a first reason that names "
            f"its fault{harmless}.", 94)


_CODE_SPAN = re.compile(r"(`[^`]*`)")
_MARKDOWN = re.compile(r"([\\*_<>\[\]|])")


def table_text(text: str) -> str:
    """`text` safe in a Markdown table cell: its code spans kept, other Markdown marks escaped."""
    return "".join(part.replace("|", "\\|") if part.startswith("`") else _MARKDOWN.sub(r"\\\1", part)
                   for part in _CODE_SPAN.split(text))


@functools.cache
def _course():
    """The lessons' titles, minutes and exercise cells (scripts/agendas.py), read once."""
    _importable()
    from agendas import course

    return course(ROOT)


def lesson_times_block() -> str:
    """The estimator's minutes of each lesson, its optional parts and its exercises, as a table."""
    _importable()
    import lesson_time

    known = _course()
    lines = ["| lesson | minutes | optional parts | its exercises (minutes each) |", "|---|---|---|---|"]
    rows = list(known.estimates.values())
    for row in rows:
        number = row.name[:2]
        exercises = ", ".join(f"`{name}` ({minutes:g})" for name, minutes in known.exercises[number].items())
        lines.append(f"| [{number} {known.titles[number]}](../lessons/{row.name}) | {round(row.minutes)} | "
                     f"{round(row.optional_minutes)} | {exercises} |")
    whole = sum(row.minutes for row in rows)
    optional = sum(row.optional_minutes for row in rows)
    lines.append(f"| **all {len(rows)}** | **{round(whole)}** | {round(optional)} | |")
    how = textwrap.fill(
        f"Each lesson's minutes count its words at {lesson_time.WORDS_PER_MINUTE} a minute, each code line "
        f"read at {lesson_time.CODE_SECONDS_PER_LINE} seconds, each collapsed cell run at "
        f"{lesson_time.COLLAPSED_CELL_SECONDS} seconds, each line of output at "
        f"{lesson_time.OUTPUT_SECONDS_PER_LINE} second{'s' if lesson_time.OUTPUT_SECONDS_PER_LINE != 1 else ''}, "
        "and the minutes set for each exercise (its cell's metadata).", 94)
    return how + "\n\n" + "\n".join(lines) + (f"\n\nThe {len(rows)} lessons come to {round(whole)} minutes, "
                                               f"{whole / 60:.1f} hours, without breaks or the optional parts.")


def agenda_blocks() -> dict[str, str]:
    """Each agenda of scripts/agendas.py as a table, by its block name."""
    _importable()
    from agendas import AGENDAS, block

    known = _course()
    return {agenda.key: block(agenda, known) for agenda in AGENDAS}


def mistakes_blocks() -> dict[str, str]:
    """The catalogue's wrong solutions, per lesson and exercise: each fault and what the check says."""
    _importable()
    from solutions.course.exercises import exercises
    from tests.wrong_solutions import catalogue

    known, registry, entries = _course(), exercises(), catalogue()
    refused = sum(not entry.harmless for entry in entries)
    count = textwrap.fill(
        f"The catalogue holds {len(entries)} wrong solutions for the {len(registry)} exercises: {refused} are "
        f"refused, and for each the table gives the mistake and words that the first reason `check()` prints "
        f"contains; the other {len(entries) - refused} do no harm and are accepted, with the reason why.", 94)
    parts = []
    for lesson in sorted({exercise.lesson for exercise in registry.values()}):
        parts.append(f"### Lesson {lesson} — {known.titles[lesson]}")
        for name, exercise in registry.items():
            mine = [entry for entry in entries if entry.exercise == name]
            if exercise.lesson != lesson or not mine:
                continue
            accepted = sum(bool(entry.harmless) for entry in mine)
            summary = f"<code>{name}</code>: {len(mine)} wrong solutions" + (
                f", {accepted} of them accepted" if accepted else "")
            rows = [f"| {table_text(entry.fault)} | "
                    + (f"accepted: {table_text(entry.harmless)}" if entry.harmless else f"“{table_text(entry.says)}”")
                    + " |" for entry in mine]
            parts.append(f"<details><summary>{summary}</summary>\n\n| the mistake | the check's first reason "
                         f"contains |\n|---|---|\n" + "\n".join(rows) + "\n\n</details>")
    return {"mistakes_count": count, "mistakes": "\n\n".join(parts)}


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
    blocks = {**example_blocks(), "rulebook": rulebook_block(), "wrong_solutions": wrong_solutions_block(),
              "lesson_times": lesson_times_block(), **agenda_blocks(), **mistakes_blocks()}  # made once, for every file
    for path, names in BLOCKS.items():
        label = path.relative_to(ROOT).as_posix()
        old = path.read_text(encoding="utf-8")
        new = render(old, names, blocks, label)
        if new != old:
            stale.append(label)
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
    if "--check" in argv and stale:
        print(f"{', '.join(stale)} out of date with mockllm, the lessons or the catalogue: run `make lessons`")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
