"""The course's machinery, apart from the reference code the lessons build.

- `check` (`check.py`): `fn = check(fn)` after each exercise; `exercises.py` is the registry,
  `cases/lessonNN.py` the cases of each lesson, `limits.py` the time and memory limits every case
  runs under, `screen.py` the refusal of eval, exec & co. before a case runs.
- `display.py`: a trace as text and HTML; `widgets/`: the trace viewer, the playground and the
  approval buttons.

The reference code (`solutions/tools.py`, `solutions/parsing.py`, ...) imports only `display`
from here; nothing here is imported when `solutions` is.
"""
