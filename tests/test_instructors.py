"""The instructor's guide (docs/instructors.md): agendas that fit, figures that are current, links
that resolve, the commands it gives; Binder's start-up and its links."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import agendas  # noqa: E402
import lesson_time  # noqa: E402
import sync_readme  # noqa: E402

GUIDE = ROOT / "docs" / "instructors.md"
KNOWN = agendas.course(ROOT)
SLOTS = [90, 210, 420, 420]
"""The slots the guide promises: 90 minutes, half a day (3.5 hours), a full day (7 hours)."""


def _text(path: Path = GUIDE) -> str:
    return path.read_text(encoding="utf-8")


def _block(name: str, text: str | None = None) -> str:
    """The body of the generated block `name` in the guide."""
    found = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", text or _text(), re.S)
    assert found, f"docs/instructors.md lacks the block {name}"
    return found.group(1)


# ---------------------------------------------------------------- the agendas


def test_the_agendas_are_the_four_slots() -> None:
    assert sorted(agenda.slot for agenda in agendas.AGENDAS) == SLOTS


@pytest.mark.parametrize("agenda", agendas.AGENDAS, ids=[a.key for a in agendas.AGENDAS])
def test_each_agenda_fits_its_slot(agenda: agendas.Agenda) -> None:
    total = agendas.total(agenda, KNOWN)
    assert total <= agenda.slot, f"{agenda.title}: {total:.1f} minutes, over its {agenda.slot:g}"


@pytest.mark.parametrize("agenda", agendas.AGENDAS, ids=[a.key for a in agendas.AGENDAS])
def test_each_agenda_names_only_lessons_and_exercises_the_course_has(agenda: agendas.Agenda) -> None:
    from solutions.course.exercises import exercises

    registry = exercises()
    lessons = [item.number for item in agenda.items if isinstance(item, agendas.Lesson)]
    assert lessons, f"{agenda.title}: no lesson in the room"
    assert lessons == sorted(set(lessons)), f"{agenda.title}: lessons repeated or out of order: {lessons}"
    for item in agenda.items:
        if isinstance(item, (agendas.Lesson, agendas.Projector)):
            assert item.number in KNOWN.minutes, f"{agenda.title}: no lesson {item.number}"
        if isinstance(item, agendas.Projector):
            assert list((ROOT / "solutions").glob(f"{item.number}_*.ipynb")), f"no solved lesson {item.number}"
        for name in getattr(item, "homework", ()):
            assert name in registry and registry[name].lesson == item.number, \
                f"{agenda.title}: lesson {item.number} has no exercise {name!r}"
            assert name in KNOWN.exercises[item.number], \
                f"{agenda.title}: {name!r} has no exercise cell of its own to leave as homework"


@pytest.mark.parametrize("agenda", agendas.AGENDAS, ids=[a.key for a in agendas.AGENDAS])
def test_each_agenda_opens_with_every_laptop_running_and_breaks_in_time(agenda: agendas.Agenda) -> None:
    opening = agendas.SECOND_OPENING if agenda.follows else agendas.OPENING  # a second day's laptops ran once
    assert agenda.items[0] == agendas.Stretch(opening, agenda.items[0].minutes)
    longest = max(agendas.stretches(agenda, KNOWN))
    assert longest <= agendas.MAX_WITHOUT_BREAK, \
        f"{agenda.title}: {longest:.0f} minutes without a break (at most {agendas.MAX_WITHOUT_BREAK})"


def test_a_second_day_follows_an_agenda_and_leaves_out_only_what_neither_covers() -> None:
    second = next(agenda for agenda in agendas.AGENDAS if agenda.follows)
    first = next(agenda for agenda in agendas.AGENDAS if agenda.key == second.follows)
    covered = [item.number for agenda in (first, second) for item in agenda.items
               if isinstance(item, agendas.Lesson)]
    assert covered == sorted(KNOWN.minutes)  # together, every lesson once, in order
    assert agendas.afterwards(second, KNOWN) == "Nothing is left for afterwards."


def test_homework_takes_its_exercise_minutes_off_the_lesson() -> None:
    lesson = agendas.Lesson("01", homework=("calculator",))
    assert KNOWN.in_room(lesson) == KNOWN.minutes["01"] - KNOWN.exercises["01"]["calculator"]
    assert 0 < KNOWN.exercises["01"]["calculator"] < KNOWN.minutes["01"]


def test_a_stretch_without_breaks_is_measured() -> None:
    agenda = agendas.Agenda("x", "", 90, "", (agendas.Stretch("a", 50), agendas.Break("b", 5),
                                             agendas.Stretch("c", 20), agendas.Stretch("d", 15)))
    assert agendas.stretches(agenda, KNOWN) == [50, 35]
    assert agendas.total(agenda, KNOWN) == 90


# ---------------------------------------------------------------- the guide's figures


def test_the_guide_blocks_are_current() -> None:
    """What `scripts/sync_readme.py --check` checks, for this file alone."""
    blocks = {"lesson_times": sync_readme.lesson_times_block(), **sync_readme.agenda_blocks(),
              **sync_readme.mistakes_blocks()}
    names = sync_readme.BLOCKS[sync_readme.INSTRUCTORS]
    assert set(names) <= set(blocks)
    text = _text()
    assert sync_readme.render(text, names, blocks, "docs/instructors.md") == text, \
        "docs/instructors.md is out of date: run `python scripts/sync_readme.py` (or `make lessons`)"


def test_the_lesson_times_are_the_estimators_and_the_lessons_own() -> None:
    rows = re.findall(r"^\| \[(\d\d) [^]]+\]\(\.\./lessons/([^)]+)\) \| (\d+) \|", _block("lesson_times"), re.M)
    estimates = lesson_time.estimates(ROOT)
    assert [(number, name) for number, name, _ in rows] == [(e.name[:2], e.name) for e in estimates]
    for (_, name, minutes), estimate in zip(rows, estimates):
        assert int(minutes) == round(estimate.minutes), name
        assert f"*About {minutes} minutes" in lesson_time.stated_time(ROOT / "lessons" / name), name


def test_the_mistakes_table_holds_the_whole_catalogue() -> None:
    from solutions.course.exercises import exercises
    from tests.wrong_solutions import catalogue

    order = list(exercises())  # the guide lists the exercises in the registry's order
    entries = sorted(catalogue(), key=lambda entry: order.index(entry.exercise))
    rows = re.findall(r"^\| (?!the mistake|---)(.+) \| (.+) \|$", _block("mistakes"), re.M)
    assert len(rows) == len(entries)
    for (fault, says), entry in zip(rows, entries):
        assert fault == sync_readme.table_text(entry.fault)
        assert says == (f"accepted: {sync_readme.table_text(entry.harmless)}" if entry.harmless
                        else f"“{sync_readme.table_text(entry.says)}”")


def test_table_text_escapes_markdown_outside_code() -> None:
    assert sync_readme.table_text("2 ** 3 | _x `a|b_`") == r"2 \*\* 3 \| \_x `a\|b_`"


def test_the_guide_is_linked_and_its_anchors_resolve() -> None:
    assert "](docs/instructors.md)" in _text(ROOT / "README.md")
    text = _text()
    slugs = {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
             for heading in re.findall(r"^#+ (.+)$", text, re.M)}
    for anchor in re.findall(r"\]\(#([^)]+)\)", text):
        assert anchor in slugs, f"docs/instructors.md: no heading for #{anchor}"


MAKEFILE_COMMANDS = [
    # (what the Makefile runs, what the guide gives as the plain command)
    ("-m venv $(VENV)", "python -m venv .venv"),
    ("-m pip install --quiet --upgrade pip", r".venv\Scripts\python -m pip install --upgrade pip"),
    ("$(PIP_EDITABLE) '.[test]'", r'.venv\Scripts\python -m pip install -e ".[test]"'),
    ('-c "import matplotlib.font_manager"', r'.venv\Scripts\python -c "import matplotlib.font_manager"'),
    ("scripts/workspace.py sync", "python scripts/workspace.py sync"),
    ("scripts/workspace.py reset", "python scripts/workspace.py reset 03"),
    ("-m solutions.course.lab", r".venv\Scripts\python -m solutions.course.lab"),
    ("scripts/catch_up.py", "python scripts/catch_up.py 07"),
    ('--from "$(FROM)"', "--from 04"),
    ("scripts/progress.py", r".venv\Scripts\python scripts/progress.py"),
    ('--json "$(JSON)"', "--json build/progress.json"),
    ("-m pytest -n 2 --dist loadscope", r".venv\Scripts\python -m pytest -n 2 --dist loadscope"),
]


@pytest.mark.parametrize("makefile, guide", MAKEFILE_COMMANDS, ids=[g for _, g in MAKEFILE_COMMANDS])
def test_the_plain_commands_are_what_the_makefile_runs(makefile: str, guide: str) -> None:
    assert makefile in _text(ROOT / "Makefile"), f"the Makefile no longer runs {makefile!r}: update the guide"
    assert f"`{guide}" in _text(), f"docs/instructors.md does not give {guide!r}"


# ---------------------------------------------------------------- Binder and JupyterHub


def _binder_link() -> str:
    found = re.search(r"\]\((https://mybinder\.org/v2/gh/[^)\s]+)\)", _text(ROOT / "README.md"))
    assert found, "README.md has no Binder badge"
    return found.group(1)


def test_the_binder_badge_opens_lesson_00_in_the_workspace() -> None:
    link = urlsplit(_binder_link())
    assert link.path.startswith("/v2/gh/<owner>/<repo>/"), "the README explains the <owner>/<repo> placeholder"
    (urlpath,) = parse_qs(link.query)["urlpath"]
    first = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))[0].name
    assert urlpath == f"lab/tree/workspace/{first}"
    assert "replace `<owner>/<repo>`" in _text(ROOT / "README.md")


def test_binder_runs_the_python_the_course_needs() -> None:
    import tomllib

    floor = tomllib.loads(_text(ROOT / "pyproject.toml"))["project"]["requires-python"]
    runtime = _text(ROOT / "binder" / "runtime.txt").strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    assert floor == ">=3.11" and int(runtime.split(".")[1]) >= 11


@pytest.mark.skipif(shutil.which("bash") is None, reason="binder/start is a bash script (Binder runs Linux)")
def test_binder_start_makes_the_workspace_and_keeps_a_learners_notebook(tmp_path: Path) -> None:
    for folder in ("binder", "scripts", "lessons"):
        (tmp_path / folder).mkdir()
    shutil.copy2(ROOT / "binder" / "start", tmp_path / "binder" / "start")
    shutil.copy2(ROOT / "scripts" / "workspace.py", tmp_path / "scripts" / "workspace.py")
    lessons = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))[:2]
    for lesson in lessons:
        shutil.copy2(lesson, tmp_path / "lessons" / lesson.name)
    start = [str(tmp_path / "binder" / "start"), sys.executable, "-c", "open('started', 'w').close()"]
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    subprocess.run(start, cwd=tmp_path, check=True, capture_output=True, env=env)
    assert (tmp_path / "started").exists(), "binder/start did not hand over to the command after it"
    copies = tmp_path / "workspace"
    assert [p.read_bytes() for p in sorted(copies.glob("*.ipynb"))] == [p.read_bytes() for p in lessons]
    mine = copies / lessons[0].name
    mine.write_bytes(b'{"edited": "by the learner"}')
    subprocess.run(start, cwd=tmp_path, check=True, capture_output=True, env=env)
    assert mine.read_bytes() == b'{"edited": "by the learner"}'


def test_binder_scripts_are_executable() -> None:
    for name in ("start", "postBuild"):
        path = ROOT / "binder" / name
        assert _text(path).startswith("#!/bin/bash\n") and path.stat().st_mode & 0o111, name


def test_the_nbgitpuller_link_opens_lesson_00_in_the_clone() -> None:
    found = re.search(r"^https://<hub>/hub/user-redirect/git-pull\?\S+$", _text(), re.M)
    assert found, "docs/instructors.md has no nbgitpuller link template"
    query = {key: value for key, (value,) in parse_qs(urlsplit(found.group(0)).query).items()}
    assert set(query) == {"repo", "branch", "targetpath", "urlpath"}
    assert query["repo"] == "https://github.com/<owner>/<repo>"
    first = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))[0].name
    assert query["urlpath"] == f"lab/tree/{query['targetpath']}/lessons/{first}"
    assert f"cd ~/{query['targetpath']} && python scripts/workspace.py sync" in _text()
