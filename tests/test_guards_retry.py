"""Tests for solutions.guards.retry (lesson 05): which errors are retried, the waits, the budget."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from mockllm import APITimeoutError, MockLLM, RateLimitError
from solutions.guards.retry import (MAX_DELAY, RetriesExhausted, Retry, RetryingClient, backoff_delay,
                                    is_transient, retry_after)

REQUEST = {"model": "mock-react", "messages": [{"role": "user", "content": "What is (17 + 5) * 3?"}]}


def _named(name: str, base: type = Exception, **fields: object) -> BaseException:
    """An exception of a class called `name`, as openai's would be, without importing openai."""
    return type(name, (base,), dict(fields))("boom")


class Failing:
    """A client that raises the given errors in turn, then answers 'ok'."""

    def __init__(self, *errors: BaseException) -> None:
        self.errors, self.calls = list(errors), 0
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **request: object) -> str:
        """Raise the next error, or return 'ok'."""
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


def test_transient_errors_by_class_or_status() -> None:
    assert is_transient(RateLimitError("slow down")) and is_transient(APITimeoutError("late"))
    for name in ("RateLimitError", "APITimeoutError", "APIConnectionError", "InternalServerError"):
        assert is_transient(_named(name))
    parent = type("APIConnectionError", (Exception,), {})
    assert is_transient(type("SomeTimeout", (parent,), {})("x"))  # found through the class's bases
    for status in (408, 409, 429, 500, 503):
        assert is_transient(_named("APIStatusError", status_code=status))
    for error in (_named("BadRequestError", status_code=400), _named("AuthenticationError", status_code=401),
                  ValueError("bad"), KeyError("x"), RuntimeError("script exhausted"),
                  _named("APIStatusError", status_code="429")):
        assert not is_transient(error)


def test_the_openai_classes_are_transient_when_openai_is_installed() -> None:
    openai = pytest.importorskip("openai")
    from mockllm.protocol.errors import simulated_failure

    for kind in ("rate_limit", "timeout"):
        error = simulated_failure(kind, 1)  # openai is loaded: also an openai class
        assert isinstance(error, (openai.RateLimitError, openai.APITimeoutError)) and is_transient(error)
    assert retry_after(simulated_failure("rate_limit", 1)) == 1.0


def test_backoff_doubles_up_to_the_cap_and_honours_retry_after() -> None:
    assert [backoff_delay(n) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, MAX_DELAY]
    assert backoff_delay(10 ** 9) == MAX_DELAY
    assert backoff_delay(0, retry_after=3.0) == 3.0
    assert backoff_delay(2, retry_after=600.0) == 2.0 and backoff_delay(1, retry_after=0) == 1.0
    assert retry_after(ValueError()) is None
    assert retry_after(SimpleNamespace(response=SimpleNamespace(headers={"retry-after": "x"}))) is None


def test_a_retry_succeeds_and_every_wait_goes_through_the_injected_sleep() -> None:
    waits: list[float] = []
    inner = Failing(RateLimitError("429"), APITimeoutError("late"))
    client = RetryingClient(inner, max_retries=3, sleep=waits.append)
    assert client.chat.completions.create(**REQUEST) == "ok"
    assert waits == [0.5, 1.0] and inner.calls == 3
    assert client.retries == [Retry("RateLimitError", 0.5), Retry("APITimeoutError", 1.0)]


def test_the_budget_ends_in_retries_exhausted() -> None:
    waits: list[float] = []
    inner = Failing(*[RateLimitError("429")] * 5)
    client = RetryingClient(inner, max_retries=2, sleep=waits.append)
    with pytest.raises(RetriesExhausted, match="3 tries failed") as info:
        client.chat.completions.create(**REQUEST)
    assert info.value.stop_reason == "retries_exhausted" and isinstance(info.value.__cause__, RateLimitError)
    assert waits == [0.5, 1.0] and inner.calls == 3
    assert RetryingClient(Failing(RateLimitError("x")), max_retries=0, sleep=waits.append) is not None


def test_other_errors_are_not_retried() -> None:
    waits: list[float] = []
    inner = Failing(ValueError("Invalid value for 'messages'"))
    with pytest.raises(ValueError, match="messages"):
        RetryingClient(inner, sleep=waits.append).chat.completions.create(**REQUEST)
    assert waits == [] and inner.calls == 1


def test_with_the_mock_failures_option() -> None:
    waits: list[float] = []
    client = RetryingClient(MockLLM(failures={1: "rate_limit", 2: "timeout"}), sleep=waits.append)
    response = client.chat.completions.create(**REQUEST)
    assert response.choices[0].message.content and len(waits) == 2


@pytest.mark.parametrize("options, error", [({"max_retries": -1}, ValueError), ({"max_retries": True}, ValueError),
                                            ({"max_retries": 1.5}, ValueError), ({"sleep": 3}, TypeError)])
def test_bad_options_are_refused(options: dict, error: type) -> None:
    with pytest.raises(error):
        RetryingClient(MockLLM(), **options)
