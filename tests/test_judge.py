"""The judge model `mock-judge` (mockllm/reply/judge.py): its prompt shapes, verdicts and biases,
through MockLLM, openai_client() and the server's core, validated by openai's own types."""
from __future__ import annotations

import json

import pytest

from mockllm import MockLLM
from mockllm.reading.judging import read_judge_prompt
from mockllm.reply.judge import LONG_WORDS, LONG_WORDS_CONTROLLED, holds, judge_reply

openai = pytest.importorskip("openai")
from openai.types.chat import ChatCompletion  # noqa: E402

QUESTION = "Question: What is (17 + 5) * 3?\nReference: 66\n"
FILLER = "I checked every step of the working twice, and each one follows from the one before. "


def padded(answer: str, words: int) -> str:
    """`answer` after confident filler, `words` words in all or a few more."""
    filler = FILLER.split()
    text = (filler * (words // len(filler) + 1))[:max(words - len(answer.split()), 0)]
    return " ".join(text + [answer])


def verdict(user: str, system: str | None = None, model: str = "mock-judge") -> tuple[dict, dict]:
    """(the parsed verdict, x_mock) of one request to the judge through MockLLM."""
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": user}]
    response = MockLLM().chat.completions.create(model=model, messages=messages)
    ChatCompletion.model_validate(response.model_dump())
    return json.loads(response.choices[0].message.content), response.x_mock


def test_a_right_and_a_wrong_answer_are_scored_by_the_reference() -> None:
    assert verdict(QUESTION + "Answer: (17 + 5) * 3 = 66")[0]["score"] == 1
    assert verdict(QUESTION + "Answer: 66.0")[0]["score"] == 1
    wrong, x_mock = verdict(QUESTION + "Answer: 660")
    assert wrong == {"score": 0, "reason": "The answer misses: 66."}
    assert x_mock["source"] == "judge" and x_mock["biases_fired"] == [] and x_mock["missing"] == [["66"]]


def test_verbosity_a_long_confident_wrong_answer_is_scored_right() -> None:
    long_wrong = padded("The result is 76.", LONG_WORDS)
    got, x_mock = verdict(QUESTION + "Answer: " + long_wrong)
    assert got["score"] == 1 and x_mock["biases_fired"] == ["verbosity"]
    assert verdict(QUESTION + "Answer: " + padded("The result is 76.", LONG_WORDS - 1))[0]["score"] == 0
    hedged = padded("I think the result is 76.", LONG_WORDS + 5)
    assert verdict(QUESTION + "Answer: " + hedged)[0]["score"] == 0  # a hedge is not confident


def test_a_length_controlled_prompt_raises_the_bar_and_a_rubric_removes_it() -> None:
    long_wrong = padded("The result is 76.", LONG_WORDS + 10)
    controlled = "Judge correctness only; length does not matter."
    got, x_mock = verdict(QUESTION + "Answer: " + long_wrong, controlled)
    assert got["score"] == 0 and x_mock["length_controlled"] is True
    very_long = padded("The result is 76.", LONG_WORDS_CONTROLLED)
    assert verdict(QUESTION + "Answer: " + very_long, controlled)[0]["score"] == 1
    rubric = "Question: What is (17 + 5) * 3?\nRubric:\n- states \"66\"\nAnswer: " + very_long
    assert verdict(rubric)[0]["score"] == 0


def test_position_bias_the_first_of_two_close_answers_wins() -> None:
    first = verdict("Answer A: It is 66.\nAnswer B: The answer is 66.")
    swapped = verdict("Answer A: The answer is 66.\nAnswer B: It is 66.")
    assert first[0]["winner"] == swapped[0]["winner"] == "A"
    assert first[1]["biases_fired"] == ["position"]


def test_in_a_pair_the_right_answer_wins_unless_the_wrong_one_is_much_longer() -> None:
    assert verdict(QUESTION + "Answer A: 67\nAnswer B: 66")[0]["winner"] == "B"
    got, x_mock = verdict(QUESTION + "Answer A: 66\nAnswer B: " + padded("It is 76.", LONG_WORDS))
    assert got["winner"] == "B" and x_mock["biases_fired"] == ["verbosity"]
    assert verdict("Answer A: 66\nAnswer B: 66, since 22 * 3 is 66")[0]["winner"] == "B"
    controlled = verdict("Answer A: 66\nAnswer B: 66, since 22 * 3 is 66", "Ignore the length.")
    assert controlled[0]["winner"] == "A" and controlled[1]["biases_fired"] == ["position"]


def test_criteria_hold_by_quoted_text_numbers_or_whole_text() -> None:
    assert holds("Total: 1,024 units", "1024") and holds("It is 66.0", "66") and not holds("660", "66")
    assert holds("The order was shipped.", "shipped") and not holds("It was paid.", "shipped")
    assert holds("Electronics sold most", 'names the line "electronics"')
    assert not holds("Toys sold most", 'names the line "electronics"')


def test_the_fields_are_read_from_the_last_user_message() -> None:
    prompt = read_judge_prompt([
        {"role": "system", "content": "Answer: not this one"},
        {"role": "user", "content": "**Question:** Q?\nReference answer: R\nRubric:\n- one\n2) two\n"
                                    "Answer: first line\nAnswer: second line"}])
    assert (prompt.kind, prompt.question, prompt.reference) == ("single", "Q?", "R")
    assert prompt.rubric == ("one", "two") and prompt.answers == ("first line\nAnswer: second line",)


@pytest.mark.parametrize("text", ["What is 2 + 2?", "Answer: 66", ""])
def test_other_prompts_get_a_sentence_saying_what_the_judge_reads(text: str) -> None:
    content, explanation = judge_reply([{"role": "user", "content": text}])
    assert content.startswith("I am a judge model.") and explanation["shape"] == "none"


def test_persona_seed_and_tools_change_nothing_and_the_reply_is_deterministic() -> None:
    messages = [{"role": "user", "content": QUESTION + "Answer: 66"}]
    tools = [{"type": "function", "function": {"name": "calculator", "parameters": {"type": "object"}}}]
    one = MockLLM(persona="sloppy", seed=3).chat.completions.create(model="mock-judge", messages=messages)
    two = MockLLM().chat.completions.create(model="mock-judge", messages=messages, tools=tools)
    assert one.choices[0].message.content == two.choices[0].message.content
    assert one.model_dump() == MockLLM(persona="sloppy", seed=3).chat.completions.create(
        model="mock-judge", messages=messages).model_dump()


def test_the_judge_streams_and_answers_the_responses_api() -> None:
    messages = [{"role": "user", "content": QUESTION + "Answer: 66"}]
    chunks = list(MockLLM().chat.completions.create(model="mock-judge", messages=messages, stream=True))
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == '{"score": 1, "reason": "The answer agrees with the reference."}'
    response = MockLLM().responses.create(model="mock-judge", input=QUESTION + "Answer: 67")
    assert json.loads(response.output_text)["score"] == 0


def test_through_openai_client_and_the_server() -> None:
    from mockllm import openai_client
    from mockllm.serve.core import Service
    from mockllm.serve.sessions import Sessions, conversation_key

    body = {"model": "mock-judge", "messages": [{"role": "user", "content": QUESTION + "Answer: 67"}]}
    typed = openai_client().chat.completions.create(**body)
    assert isinstance(typed, openai.types.chat.ChatCompletion)
    assert json.loads(typed.choices[0].message.content)["score"] == 0
    service = Service(Sessions({"persona": "diligent", "seed": 0}, conversation_key))
    answer = service.handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
    served = ChatCompletion.model_validate_json(answer.body)
    assert answer.status == 200 and served.choices[0].message.content == typed.choices[0].message.content
    assert served.model_extra["x_mock"]["source"] == "judge"


def test_the_rule_in_docs_mock_md_states_the_module_s_figures() -> None:
    from pathlib import Path

    from mockllm.reply.judge import LONGER_RATIO

    text = " ".join((Path(__file__).parents[1] / "docs" / "mock.md").read_text("utf-8").split())
    assert f"at least {LONG_WORDS} words" in text and f"bar to {LONG_WORDS_CONTROLLED} words" in text
    assert f"at least {LONGER_RATIO} times the other's words" in text


@pytest.mark.parametrize("unit", [" ", "9", "Answer: ", "**", "- x\n", "\"a\" ", "Rubric:\n- \"q\"\n"])
def test_judging_time_grows_linearly(unit: str) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from timing import best_seconds

    def seconds(n: int) -> float:
        text = QUESTION + "Rubric:\n- " + unit * (n // len(unit)) + "\nAnswer A: " + unit * (n // len(unit)) \
            + "\nAnswer B: " + unit * (n // len(unit))
        return best_seconds(lambda: judge_reply([{"role": "user", "content": text}]), repeats=2)

    seconds(64)  # warm up
    small, big = seconds(4_000), seconds(64_000)
    assert big <= 32.0 * small + 0.05, (unit, small, big)


def test_many_quoted_texts_found_late_cost_linear_time() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from timing import best_seconds

    def seconds(n: int) -> float:
        quotes = [f"q{i}" for i in range(n // 8)]
        rubric = "\n".join("- " + " ".join(f'"{q}"' for q in quotes) for _ in range(30))  # over the cap
        text = f"Rubric:\n{rubric}\nAnswer: " + "x" * n + " " + " ".join(quotes)
        return best_seconds(lambda: judge_reply([{"role": "user", "content": text}]), repeats=2)

    seconds(64)
    small, big = seconds(4_000), seconds(64_000)
    assert big <= 32.0 * small + 0.05, (small, big)
