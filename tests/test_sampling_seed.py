"""A request's `seed` and `temperature` (docs/mock.md, "Seeds and temperature"; lesson 17).

At a temperature above 0 the request's seed takes the place of the client's: different seeds give
different runs, the same seed the same bytes. At temperature 0 the seed changes nothing. A request
without a seed is answered as before, so the lessons' runs are unchanged. Checked through
`MockLLM`, `openai_client()` (validated by the SDK's own types) and the server's core.
"""
from __future__ import annotations

import json

import pytest

from mockllm import MockLLM
from mockllm.behaviour.sampling import sampling_seed
from mockllm.serve.core import Service
from mockllm.serve.sessions import Sessions, conversation_key
from solutions.agent import run_agent
from solutions.evaluation.dataset import EVAL_SET
from solutions.evaluation.repeats import Sampled, repeat
from solutions.prompt import build_system_prompt
from solutions.tools import world_tools

PROMPT = build_system_prompt(world_tools())
QUESTIONS = ("What is (17 + 5) * 3?", "What will the weather be in Beijing tomorrow?",
             "What is the status of order A1003?")
SEEDS = range(12)


def messages(question: str) -> list[dict]:
    """The course's prompt and one question."""
    return [{"role": "system", "content": PROMPT}, {"role": "user", "content": f"Question: {question}"}]


def create(persona: str, question: str, **options: object) -> object:
    """One first reply from a fresh client of `persona` (client seed 0)."""
    return MockLLM(persona=persona).chat.completions.create(
        model="mock-react", messages=messages(question), stop=["Observation:"], **options)


def dumped(response: object) -> str:
    """The whole response as JSON text: the bytes a server would send."""
    return json.dumps(response.model_dump(), sort_keys=True)


# ---------------------------------------------------------------- the rule itself

def test_the_request_seed_counts_only_above_temperature_0() -> None:
    assert sampling_seed(3, None, 1.0) == 3 and sampling_seed(3, 7, 0.0) == 3
    assert sampling_seed(3, 7, 0.7) == 7 and sampling_seed(3, 7, 2) == 7
    with pytest.raises(TypeError, match="seed must be an int"):
        sampling_seed(3, True, 1.0)


@pytest.mark.parametrize("persona", ["sloppy", "jsonic", "tiny"])
def test_different_seeds_give_different_runs_above_temperature_0(persona: str) -> None:
    for question in QUESTIONS:
        replies = {seed: dumped(create(persona, question, temperature=0.7, seed=seed)) for seed in SEEDS}
        assert len(set(replies.values())) > 1, (persona, question)
        again = {seed: dumped(create(persona, question, temperature=0.7, seed=seed)) for seed in SEEDS}
        assert again == replies  # the same seed, the same bytes


@pytest.mark.parametrize("persona", ["sloppy", "jsonic", "tiny"])
def test_at_temperature_0_every_seed_gets_the_clients_reply(persona: str) -> None:
    for question in QUESTIONS:
        plain = dumped(create(persona, question, temperature=0))
        assert {dumped(create(persona, question, temperature=0, seed=seed)) for seed in SEEDS} == {plain}


def test_the_request_seed_is_the_clients_seed_for_that_request() -> None:
    for seed in SEEDS:
        sent = create("sloppy", QUESTIONS[1], temperature=0.7, seed=seed)
        made = MockLLM(persona="sloppy", seed=seed).chat.completions.create(
            model="mock-react", messages=messages(QUESTIONS[1]), stop=["Observation:"], temperature=0.7)
        assert dumped(sent) == dumped(made) and sent.x_mock["seed"] == seed


def test_without_a_seed_nothing_changes() -> None:
    for persona in ("sloppy", "jsonic", "tiny", "diligent"):
        for question in QUESTIONS:
            default = create(persona, question)
            assert dumped(default) == dumped(create(persona, question, temperature=1.0))
            assert default.x_mock["seed"] == 0


def test_a_persona_without_seeded_rows_gives_one_reply_for_every_seed() -> None:
    for question in QUESTIONS:
        replies = {create("diligent", question, temperature=0.7, seed=s).choices[0].message.content
                   for s in SEEDS}
        assert len(replies) == 1


def test_ids_follow_the_seed_used() -> None:
    ids = {create("jsonic", QUESTIONS[0], temperature=0.7, seed=seed).id for seed in SEEDS}
    assert len(ids) == len(SEEDS)
    assert create("jsonic", QUESTIONS[0], temperature=0, seed=5).id == create("jsonic", QUESTIONS[0], temperature=0).id


def test_a_seed_that_is_not_an_int_is_refused_naming_it() -> None:
    for bad in ("3", 1.5, True):
        with pytest.raises(TypeError, match="'seed'"):
            create("sloppy", QUESTIONS[0], temperature=0.7, seed=bad)


# ---------------------------------------------------------------- through the SDK and the server

def test_through_openai_client_the_same_rule_and_the_sdks_types() -> None:
    openai = pytest.importorskip("openai")
    from mockllm import openai_client

    client = openai_client(persona="jsonic")
    for temperature, distinct in ((0.7, True), (0, False)):
        replies = []
        for seed in SEEDS:
            response = client.chat.completions.create(model="mock-react", messages=messages(QUESTIONS[0]),
                                                      stop=["Observation:"], temperature=temperature, seed=seed)
            assert isinstance(response, openai.types.chat.ChatCompletion)
            direct = create("jsonic", QUESTIONS[0], temperature=temperature, seed=seed)
            assert response.choices[0].message.content == direct.choices[0].message.content
            assert response.model_extra["x_mock"]["seed"] == (seed if temperature else 0)
            replies.append(response.choices[0].message.content)
        assert (len(set(replies)) > 1) is distinct


def test_through_the_server_the_body_seed_picks_the_reply() -> None:
    svc = Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))
    for seed in (1, 4):
        body = {"model": "mock-react:jsonic", "messages": messages(QUESTIONS[0]), "stop": ["Observation:"],
                "temperature": 0.7, "seed": seed}
        answer = svc.handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
        assert answer.status == 200
        reply = json.loads(answer.body)
        direct = create("jsonic", QUESTIONS[0], temperature=0.7, seed=seed)
        assert reply["choices"][0]["message"]["content"] == direct.choices[0].message.content
        assert reply["x_mock"]["seed"] == seed


# ---------------------------------------------------------------- the course's repeated runs

def test_sampled_sends_every_request_with_its_seed_and_temperature() -> None:
    seen = []

    class Recorder:
        def __init__(self) -> None:
            self.chat = type("Chat", (), {"completions": self})()

        def create(self, **request: object) -> object:
            seen.append((request["temperature"], request["seed"]))
            return MockLLM(persona="jsonic").chat.completions.create(**request)

    run_agent("What is (17 + 5) * 3?", Sampled(Recorder(), 5, 0.7), world_tools(), max_steps=4)
    assert seen and set(seen) == {(0.7, 5)}


def test_repeated_runs_are_reproducible_and_vary_by_seed() -> None:
    items = EVAL_SET[:12]
    first = repeat(items, "jsonic", runs=4, agent=run_agent, progress=False)
    assert first == repeat(items, "jsonic", runs=4, agent=run_agent, progress=False)
    assert set(first.values()) - {0, 4}, "some question must succeed on some seeds only"
    greedy = repeat(items, "jsonic", runs=4, temperature=0, agent=run_agent, progress=False)
    assert set(greedy.values()) <= {0, 4}
    with pytest.raises(ValueError, match="runs must be a positive int"):
        repeat(items, "jsonic", runs=0)
