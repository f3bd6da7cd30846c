"""Wrong solutions of lesson 18's exercise (load_checkpoints)."""
from __future__ import annotations

import json

from solutions.planning.saved import CHECKPOINT_SCHEMA, inputs_digest
from tests.wrong_solutions import Catalogue

CATALOGUE = Catalogue("18")
SELECT = "SELECT schema, inputs, value FROM checkpoints WHERE task = ? AND stage = ?"


def _loader(*, validate: bool = True, schema: bool = True, digest: bool = True, by_task: bool = True,
            stop: bool = True, catch: str = "all", empty: str = "stop", delete: bool = False):
    """The exercise's loader with everything right but what the arguments turn off (one mistake each)."""
    def load(conn, stages, task_id):
        checkpoints = {}
        for stage in stages:
            if by_task:
                row = conn.execute(SELECT, (task_id, stage.name)).fetchone()
            else:
                row = conn.execute("SELECT schema, inputs, value FROM checkpoints WHERE stage = ?",
                                   (stage.name,)).fetchone()
            if row is None and empty == "stop":
                return checkpoints, f"{stage.name}: no checkpoint saved"
            if row is None and empty == "skip":
                continue
            saved_schema, saved_digest, text = row  # empty == "crash": None cannot be unpacked
            problem = None
            if schema and saved_schema != CHECKPOINT_SCHEMA:
                problem = "another schema"
            elif digest and saved_digest != inputs_digest(stage.name, checkpoints):
                problem = "other inputs"
            else:
                if catch == "all":
                    try:
                        value = json.loads(text)
                        problems = stage.validate(value, checkpoints) if validate else []
                    except Exception as error:
                        problems = [str(error)]
                elif catch == "json":
                    try:
                        value = json.loads(text)
                    except ValueError as error:
                        problems = [str(error)]
                    else:
                        problems = stage.validate(value, checkpoints) if validate else []
                else:
                    value = json.loads(text)
                    problems = stage.validate(value, checkpoints) if validate else []
                problem = problems[0] if problems else None
            if problem is not None:
                if delete:
                    conn.execute("DELETE FROM checkpoints WHERE task = ? AND stage = ?", (task_id, stage.name))
                if stop:
                    return checkpoints, f"{stage.name}: {problem}"
                continue
            checkpoints[stage.name] = value
        return checkpoints, "every stage has a checkpoint that holds"
    return load


CATALOGUE.wrong("load_checkpoints", fault="trusts a saved checkpoint without validating it",
                says="a checkpoint that fails its validator was loaded")(_loader(validate=False))
CATALOGUE.wrong("load_checkpoints", fault="never checks the schema the checkpoint was saved with",
                says="a checkpoint saved with another schema was loaded")(_loader(schema=False))
CATALOGUE.wrong("load_checkpoints", fault="ignores the inputs digest",
                says="a checkpoint saved for other inputs was loaded")(_loader(digest=False))
CATALOGUE.wrong("load_checkpoints", fault="selects by stage only, ignoring the task id",
                says="another task's checkpoint was loaded")(_loader(by_task=False))
CATALOGUE.wrong("load_checkpoints", fault="skips a refused checkpoint and goes on loading the later ones",
                says="resuming after the first refused checkpoint instead of at it")(_loader(stop=False))
CATALOGUE.wrong("load_checkpoints", fault="skips a stage without a checkpoint and goes on loading",
                says="resuming after the first refused checkpoint instead of at it")(_loader(empty="skip"))
CATALOGUE.wrong("load_checkpoints", fault="crashes on an empty store (reads the row fetchone() did not find)",
                says="fetchone() is None when a stage has no checkpoint saved")(_loader(empty="crash"))
CATALOGUE.wrong("load_checkpoints", fault="crashes on a saved value that is not JSON",
                says="a saved value that is not JSON (a damaged record) raised")(_loader(catch="none"))
CATALOGUE.wrong("load_checkpoints", fault="lets a validator's exception escape",
                says="a validator raised on a saved value, and the error escaped")(_loader(catch="json"))
CATALOGUE.wrong("load_checkpoints", fault="deletes a refused checkpoint without committing: the store stays locked",
                says="the store was left locked")(_loader(delete=True))


@CATALOGUE.wrong("load_checkpoints", fault="loads nothing: every stage runs again",
                 says="nothing was loaded where checkpoints that hold are saved")
def loads_nothing(conn, stages, task_id):
    return {}, "starting over"


@CATALOGUE.wrong("load_checkpoints", fault="formats the task id into the SQL",
                 says="the SQL broke on a quote in the task id")
def formats_the_task_id(conn, stages, task_id):
    checkpoints = {}
    for stage in stages:
        row = conn.execute(f"SELECT schema, inputs, value FROM checkpoints WHERE task = '{task_id}' "
                           f"AND stage = '{stage.name}'").fetchone()
        if row is None:
            return checkpoints, f"{stage.name}: no checkpoint saved"
        schema, digest, text = row
        if schema != CHECKPOINT_SCHEMA or digest != inputs_digest(stage.name, checkpoints):
            return checkpoints, f"{stage.name}: refused"
        try:
            value = json.loads(text)
            problems = stage.validate(value, checkpoints)
        except Exception as error:
            problems = [str(error)]
        if problems:
            return checkpoints, f"{stage.name}: {problems[0]}"
        checkpoints[stage.name] = value
    return checkpoints, "all loaded"


@CATALOGUE.wrong("load_checkpoints", fault="closes the connection it was given",
                 says="it closed the connection it was given")
def closes_the_connection(conn, stages, task_id):
    try:
        return _loader()(conn, stages, task_id)
    finally:
        conn.close()
