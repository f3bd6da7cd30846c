"""Model names: `BASE[:PERSONA[:SEED]]` picks the persona and seed of one request.

`mock-react` uses the defaults (of `openai_client(...)` or of the server's `--persona`/`--seed`),
`mock-react:sloppy` the persona `sloppy`, `mock-react:sloppy:3` also seed 3, `mock-react::3` the
default persona with seed 3, and `mock-react:none` no persona (only forced quirks). Any base name
is accepted (a framework may send `gpt-4o-mini`); only the parts after `:` are read.
"""
from __future__ import annotations

BASE_MODEL = "mock-react"
OWNER = "mockllm"


class UnknownModel(LookupError):
    """A model name whose persona or seed part the mock does not know (HTTP 404, like the API)."""


def parse_model(name: str, persona: str | None, seed: int) -> tuple[str | None, int]:
    """Return the (persona, seed) that model `name` asks for, with the defaults for missing parts."""
    from mockllm.behaviour.personas import personas

    parts = name.split(":")
    if len(parts) > 3:
        raise UnknownModel(_unknown(name, "it has more than three ':'-separated parts"))
    if len(parts) > 1 and parts[1]:
        known = personas()
        if parts[1] != "none" and parts[1] not in known:
            raise UnknownModel(_unknown(name, f"{parts[1]!r} is not a persona; personas: "
                                              f"{', '.join(known)}, or none"))
        persona = None if parts[1] == "none" else parts[1]
    if len(parts) > 2:
        text = parts[2]
        if not (text.isascii() and text.lstrip("-").isdigit() and len(text) <= 20):
            raise UnknownModel(_unknown(name, f"the seed {text!r} is not an integer"))
        seed = int(text)
    return persona, seed


def _unknown(name: str, why: str) -> str:
    """The message of a 404 for an unknown model name, saying what is accepted."""
    shown = name if len(name) <= 80 else name[:77] + "..."
    return (f"The model '{shown}' does not exist: {why}. Accepted: a name like {BASE_MODEL}, "
            f"{BASE_MODEL}:PERSONA or {BASE_MODEL}:PERSONA:SEED (see GET /v1/models).")


def model_card(model_id: str, created: int) -> dict:
    """One entry of `GET /v1/models`, shaped like openai's `Model`."""
    return {"id": model_id, "object": "model", "created": created, "owned_by": OWNER}


def model_list(created: int) -> dict:
    """The body of `GET /v1/models`: the base model, one id per persona, then the other base models."""
    from mockllm.behaviour.personas import personas

    from mockllm.protocol.model_specs import MODELS

    ids = [BASE_MODEL, *(f"{BASE_MODEL}:{name}" for name in personas()),
           *(name for name in MODELS if name != BASE_MODEL)]
    return {"object": "list", "data": [model_card(model_id, created) for model_id in ids]}
