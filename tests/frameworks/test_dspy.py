"""DSPy's Predict and ReAct, with its ChatAdapter and its JSONAdapter, through the mock server.

DSPy calls the model through litellm, so it reaches the mock by its URL. Each test checks the
typed answer DSPy parsed from the mock's reply, and ReAct's trajectory: the calculator called
with the question's expression, its result, then `finish`.
"""
from __future__ import annotations

import dspy
import pytest
from agent_task import ANSWER, EXPECTED_CALLS, MODEL, QUESTION, calculator

ADAPTERS = {"chat": dspy.ChatAdapter, "json": dspy.JSONAdapter}


class Arithmetic(dspy.Signature):
    """Answer the arithmetic question."""

    question: str = dspy.InputField()
    answer: int = dspy.OutputField()


def _lm(server_url: str) -> object:
    """A DSPy LM on the mock server: no cache, no retries (a parse failure shows at once)."""
    return dspy.LM(f"openai/{MODEL}", api_base=server_url, api_key="mock", cache=False,
                   num_retries=0)


def _no_fallback(name: str) -> object:
    """The adapter, without ChatAdapter's silent second try with JSONAdapter."""
    if name == "chat":
        return dspy.ChatAdapter(use_json_adapter_fallback=False)
    return dspy.JSONAdapter()


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_dspy_predict_typed_answer(server_url: str, adapter: str) -> None:
    lm = _lm(server_url)
    with dspy.context(lm=lm, adapter=_no_fallback(adapter)):
        prediction = dspy.Predict(Arithmetic)(question=QUESTION)
    assert prediction.answer == int(ANSWER)
    assert len(lm.history) == 1  # one model call: the first reply parsed


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_dspy_chain_of_thought_reasoning_and_answer(server_url: str, adapter: str) -> None:
    with dspy.context(lm=_lm(server_url), adapter=_no_fallback(adapter)):
        prediction = dspy.ChainOfThought("question -> answer: float")(question=QUESTION)
    assert prediction.answer == float(ANSWER)
    assert ANSWER in prediction.reasoning


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_dspy_react_calls_the_calculator_then_finishes(server_url: str, adapter: str) -> None:
    lm = _lm(server_url)
    with dspy.context(lm=lm, adapter=_no_fallback(adapter)):
        prediction = dspy.ReAct("question -> answer: int", tools=[calculator])(question=QUESTION)
    trajectory = prediction.trajectory
    names = [trajectory[k] for k in trajectory if k.startswith("tool_name_")]
    assert names == ["calculator", "finish"]
    assert [(trajectory["tool_name_0"], trajectory["tool_args_0"])] == EXPECTED_CALLS
    assert trajectory["observation_0"] == ANSWER
    assert prediction.answer == int(ANSWER)
    assert len(lm.history) == 3  # two steps, then the extraction of the answer
