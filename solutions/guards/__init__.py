"""The failure clinic's guards, one concept a module. Built in lesson 05 (Failure clinic).

- `parse.py`: `parse_reply`, the lesson-03 parser extended to the shapes real models write
  (rewritten by `shapes.py`, cut after the Action Input by `cut.py`);
- `repeat.py`: an identical repeated call noticed, then stopped;
- `calls.py`: `GuardedTools`, bare inputs bound to parameters, field-like tool names refused;
- `live.py`: an answer to a live-data question without any tool call, refused once;
- `retry.py`: rate limits and timeouts retried with exponential backoff;
- `agent.py`: `guarded_agent`, all of them around the lesson-04 loop;
- `questions.py`, `scoreboard.py`: a fixed question set and the bare-versus-guarded comparison.
"""
from solutions.guards.agent import STOP, guarded_agent
from solutions.guards.parse import parse_reply

__all__ = ["STOP", "guarded_agent", "parse_reply"]
