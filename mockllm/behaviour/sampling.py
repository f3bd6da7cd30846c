"""Sampling: which seed a request's seeded triggers read, from the client, the request and the temperature.

The client's seed (`MockLLM(seed=...)`, the model name's `mock-react:sloppy:3`) stands for the
model the client talks to: its seeded quirks fire on the same replies at every temperature.
A request's own `seed` (the API's `seed` parameter) stands for the sampler's seed: at a
temperature above 0 it takes the place of the client's seed for that request, so runs with
different seeds differ and the same seed gives the same bytes again; at temperature 0 (greedy
decoding draws nothing) it changes nothing, and every seed gives the client's run. A request
without `seed` is answered as before. docs/mock.md ("Seeds and temperature") states the rule.
"""
from __future__ import annotations


def sampling_seed(client_seed: int, request_seed: int | None, temperature: float) -> int:
    """The seed the persona's seeded triggers read: the request's at temperature > 0, else the client's."""
    if request_seed is None or not temperature > 0:
        return client_seed
    if not isinstance(request_seed, int) or isinstance(request_seed, bool):
        raise TypeError(f"seed must be an int, got {request_seed!r}")
    return request_seed
