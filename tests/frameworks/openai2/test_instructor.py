"""instructor's TOOLS and JSON_SCHEMA modes on an openai 2.x client of the mock server: the
response model comes back filled with the answer the model computed (66), not the question's
first number."""
from __future__ import annotations

import instructor
import openai
import pytest
from agent_task import ANSWER, MODEL, QUESTION
from pydantic import BaseModel


class Answer(BaseModel):
    """The answer to the question."""

    answer: int


@pytest.mark.parametrize("mode", [instructor.Mode.TOOLS, instructor.Mode.JSON_SCHEMA])
def test_instructor_response_model(server_url: str, mode: instructor.Mode) -> None:
    client = instructor.from_openai(openai.OpenAI(base_url=server_url, api_key="mock",
                                                  max_retries=0), mode=mode)
    answer, completion = client.chat.completions.create_with_completion(
        model=MODEL, response_model=Answer, max_retries=0,
        messages=[{"role": "user", "content": QUESTION}])
    assert isinstance(answer, Answer)
    assert answer.model_dump() == {"answer": int(ANSWER)}
    assert completion.model_extra["x_mock"]["source"] == "policy"
