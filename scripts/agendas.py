"""The workshop agendas of docs/instructors.md, kept as data: lessons, exercises, breaks.

Usage: python scripts/agendas.py   (prints each agenda's table)

An agenda is a list of items in the order the room meets them: a lesson done in the room (with,
optionally, some of its exercises left as homework), a lesson's solved notebook shown on the
projector, a break, or a stretch of time with a purpose (opening, wrap-up). A lesson's minutes are
the estimate of scripts/lesson_time.py; an exercise left as homework takes its own minutes (its
cell's metadata `exercise.minutes`) off the lesson's, since the room reads it and runs its check,
which hands over the reference. The other items state their minutes here. The lessons an agenda
leaves out, and the exercises it leaves as homework, are what a learner does afterwards
(`make catch-up LESSON=NN` gives a latecomer the lessons before NN solved).
sync_readme.py writes each agenda's table into docs/instructors.md; tests/test_instructors.py
checks that each fits its slot and names only lessons and exercises the course has.
"""
from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # solutions, for the exercise registry
from lesson_time import Estimate, estimates, exercise_minutes  # noqa: E402
from notebook_tools import NOTEBOOK_GLOB, REPO, read_notebook  # noqa: E402

MAX_WITHOUT_BREAK = 120
"""The longest stretch, in minutes, an agenda may run between two breaks."""
OPENING = "Opening: every laptop runs the first cell of lesson 00; one that cannot moves to Binder"
WRAP_UP = "Wrap-up: what the lessons left for afterwards add, and how to go on at home"
SECOND_OPENING = ("Opening: every laptop opens its workspace from the first day; a learner who missed "
                  "it runs `make catch-up LESSON=09`")


@dataclass(frozen=True)
class Lesson:
    """A lesson worked through in the room, by its number; `homework`: exercises left for later."""

    number: str
    homework: tuple[str, ...] = ()


@dataclass(frozen=True)
class Projector:
    """A lesson's solved notebook shown on the projector, for `minutes`."""

    number: str
    minutes: float
    what: str


@dataclass(frozen=True)
class Break:
    """A break of `minutes`."""

    name: str
    minutes: float


@dataclass(frozen=True)
class Stretch:
    """Time with a purpose that is not a lesson: the opening, the wrap-up."""

    name: str
    minutes: float


Item = Lesson | Projector | Break | Stretch


@dataclass(frozen=True)
class Agenda:
    """A workshop of `slot` minutes: its block name, its label, what it covers, its items in order."""

    key: str
    label: str
    slot: float
    summary: str
    items: tuple[Item, ...]
    follows: str = ""  # the key of the agenda a room has done before this one, if any

    @property
    def title(self) -> str:
        """The heading: the label and the slot, e.g. "Half a day: 3.5 hours"."""
        hours = self.slot / 60
        length = f"{self.slot:g} minutes" if self.slot < 120 else f"{hours:g} hour{'s' if hours != 1 else ''}"
        return f"{self.label}: {length}" if self.label else length.capitalize()


AGENDAS = (
    Agenda("agenda_90", "", 90,
           "One lesson to meet the model and one to build the first tool, then the loop the course "
           "is heading for, shown solved on the projector; a short break before the demo.", (
        Stretch(OPENING, 5),
        Lesson("00"),
        Lesson("01", homework=("calculator",)),
        Break("Stretch your legs", 5),
        Projector("04", 10, "the loop the next lessons build, run on the projector"),
    )),
    Agenda("agenda_half_day", "Half a day", 210,
           "The core of the course, from one question to a working ReAct loop; the break falls when "
           "the prompt is built and the reply is about to be read.", (
        Stretch(OPENING, 5),
        Lesson("00"),
        Lesson("01"),
        Lesson("02"),
        Break("Coffee", 20),
        Lesson("03"),
        Lesson("04"),
        Stretch(WRAP_UP, 5),
    )),
    Agenda("agenda_full_day", "A full day", 420,
           "From the first question to an agent with memory; lunch once the parser is done and the "
           "loop is next, and a coffee break in the middle of each half.", (
        Stretch(OPENING, 10),
        Lesson("00"),
        Lesson("01"),
        Break("Coffee", 15),
        Lesson("02"),
        Lesson("03"),
        Break("Lunch", 45),
        Lesson("04"),
        Lesson("05"),
        Lesson("06"),
        Break("Coffee", 15),
        Lesson("07"),
        Lesson("08"),
        Stretch(WRAP_UP, 10),
    )),
    Agenda("agenda_second_day", "A second day", 420,
           "For a room that did the full day: safety, evaluation and long tasks, then the seven "
           "lessons of current practice; a coffee break after evaluation, lunch after the tokens "
           "lesson, and coffee before variance.", (
        Stretch(SECOND_OPENING, 10),
        Lesson("09"),
        Lesson("10"),
        Break("Coffee", 15),
        Lesson("11"),
        Lesson("12"),
        Lesson("13"),
        Break("Lunch", 45),
        Lesson("14"),
        Lesson("15"),
        Lesson("16"),
        Break("Coffee", 15),
        Lesson("17"),
        Lesson("18"),
        Stretch("Wrap-up: questions, and the same agent on a real model (lesson 11's opt-in cell)", 10),
    ), follows="agenda_full_day"),
)
"""The agendas of docs/instructors.md."""


@dataclass(frozen=True)
class Course:
    """What the agendas are measured against: each lesson's title, minutes and exercise minutes."""

    titles: dict[str, str]                  # "00" -> "Welcome"
    estimates: dict[str, Estimate]          # "00" -> the estimate of scripts/lesson_time.py
    exercises: dict[str, dict[str, float]]  # "01" -> {"_evaluate": 10.0, "calculator": 5.0}

    @property
    def minutes(self) -> dict[str, float]:
        """Each lesson's estimated minutes, by number."""
        return {number: row.minutes for number, row in self.estimates.items()}

    def in_room(self, lesson: Lesson) -> float:
        """The minutes `lesson` takes in the room, its homework exercises left out."""
        return self.minutes[lesson.number] - sum(self.exercises[lesson.number][name] for name in lesson.homework)


def _title(path: Path) -> str:
    """A lesson's title, from its first line: "# Lesson 00 — Welcome" gives "Welcome"."""
    first = read_notebook(path).cells[0].source.splitlines()[0]
    return first.partition("—")[2].strip() or first.lstrip("# ").strip()


def exercise_cells(path: Path) -> dict[str, float]:
    """The exercises a notebook's exercise cells hold, by the name `check()` knows them by (the
    functions a cell injects that solutions/course/exercises.py registers), and each cell's minutes."""
    from solutions.course.exercises import exercises

    registered = exercises()
    found = {}
    for cell in read_notebook(path).cells:
        meta = cell.metadata.get("exercise")
        if cell.cell_type == "code" and isinstance(meta, dict):
            names = [ref.rpartition(":")[2] for ref in meta.get("inject", ())]
            for name in [name for name in names if name in registered] or names:
                found[name] = exercise_minutes(cell, path.name)
    return found


def course(root: Path = REPO) -> Course:
    """Read the lessons of `root`: titles, the estimator's minutes and the exercise cells."""
    lessons = sorted((Path(root) / "lessons").glob(NOTEBOOK_GLOB))
    return Course(titles={path.name[:2]: _title(path) for path in lessons},
                  estimates={row.name[:2]: row for row in estimates(root)},
                  exercises={path.name[:2]: exercise_cells(path) for path in lessons})


def minutes_of(item: Item, known: Course) -> float:
    """The minutes one item takes."""
    return known.in_room(item) if isinstance(item, Lesson) else item.minutes


def total(agenda: Agenda, known: Course) -> float:
    """The minutes the whole agenda takes."""
    return sum(minutes_of(item, known) for item in agenda.items)


def stretches(agenda: Agenda, known: Course) -> list[float]:
    """The minutes between the breaks (before the first, between two, after the last)."""
    found = [0.0]
    for item in agenda.items:
        if isinstance(item, Break):
            found.append(0.0)
        else:
            found[-1] += minutes_of(item, known)
    return found


def _clock(minutes: float) -> str:
    """Minutes from the start as h:mm."""
    whole = round(minutes)
    return f"{whole // 60}:{whole % 60:02d}"


def _names(names: list[str] | tuple[str, ...]) -> str:
    """`a`, `b` and `c`."""
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _what(item: Item, known: Course) -> tuple[str, str]:
    """The item's description and what the learners do in it."""
    if isinstance(item, Lesson):
        title = f"[Lesson {item.number} — {known.titles[item.number]}](../lessons/" \
                f"{_notebook(item.number)})"
        done = [name for name in known.exercises[item.number] if name not in item.homework]
        doing = f"exercises {_names(done)}" if len(done) > 1 else f"exercise {_names(done)}"
        if item.homework:
            doing += f"; {_names(item.homework)} as homework"
        return title, doing
    if isinstance(item, Projector):
        return (f"On the projector: [solutions/{_notebook(item.number)}](../solutions/{_notebook(item.number)})",
                item.what)
    if isinstance(item, Break):
        return f"*{item.name}*", "break"
    return item.name, ""


def _notebook(number: str, root: Path = REPO) -> str:
    """The file name of lesson `number`, e.g. 00_welcome.ipynb."""
    return next((Path(root) / "lessons").glob(f"{number}_*.ipynb")).name


def afterwards(agenda: Agenda, known: Course) -> str:
    """The sentence naming what the agenda leaves for after the workshop, with its minutes."""
    before = next((a for a in AGENDAS if a.key == agenda.follows), None) if agenda.follows else None
    done = {item.number for a in (before, agenda) if a is not None for item in a.items
            if isinstance(item, Lesson)}
    left = [number for number in known.minutes if number not in done]
    homework = [(item.number, name) for item in agenda.items if isinstance(item, Lesson) for name in item.homework]
    minutes = sum(known.minutes[n] for n in left) + sum(known.exercises[n][name] for n, name in homework)
    parts = []
    if homework:
        each = [f"`{name}` (lesson {n})" for n, name in homework]
        parts.append(("the exercises " + ", ".join(each[:-1]) + " and " + each[-1]) if len(each) > 1
                     else "the exercise " + each[0])
    if left:
        parts.append(f"lessons {left[0]} to {left[-1]}" if len(left) > 1 and
                     int(left[-1]) - int(left[0]) == len(left) - 1 else "lessons " + ", ".join(left))
    return (f"Left for afterwards: {' and '.join(parts)}, about {round(minutes)} minutes by the same "
            "estimate.") if parts else "Nothing is left for afterwards."


def block(agenda: Agenda, known: Course) -> str:
    """The agenda as docs/instructors.md shows it: its heading, what it covers, its table."""
    return f"### {agenda.title}\n\n{textwrap.fill(agenda.summary, 94)}\n\n{table(agenda, known)}"


def table(agenda: Agenda, known: Course) -> str:
    """The agenda as a Markdown table (start, item, what the room does, minutes) and its total."""
    lines = ["| starts | item | what the room does | minutes |", "|---|---|---|---|"]
    clock = 0.0
    for item in agenda.items:
        what, doing = _what(item, known)
        minutes = minutes_of(item, known)
        lines.append(f"| {_clock(clock)} | {what} | {doing} | {round(minutes)} |")
        clock += minutes
    lines.append(f"| {_clock(clock)} | **end** | | **{round(clock)} of {round(agenda.slot)}** |")
    return "\n".join(lines) + "\n\n" + textwrap.fill(afterwards(agenda, known), 94)


def main() -> int:
    """Print every agenda's table."""
    known = course()
    for agenda in AGENDAS:
        print(block(agenda, known) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
