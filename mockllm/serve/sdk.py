"""`openai_client()` and `async_openai_client()`: real openai SDK clients whose HTTP is the mock.

    from mockllm import openai_client
    client = openai_client(persona="diligent", seed=0)      # an openai.OpenAI
    client.chat.completions.create(model="mock-react", messages=[...])
    client.responses.create(model="mock-react", input="...")    # the Responses API, the same model

Everything the SDK does works as against the API (typed responses, `with_raw_response`,
streaming and its helpers, `parse`, error classes), because the SDK itself builds and reads the
HTTP messages; only the transport is the mock, in process (`transport.py`): no socket, no network.

Retries: the SDK retries HTTP 408, 409, 429 and 5xx and timeouts by itself, `max_retries` times
(openai's default is 2), sleeping between tries (about 0.5 s, doubling, at most 8 s, or what the
mock's `retry-after-ms` asks: 10 ms). Its retries of a simulated failure fail too (`failures.py`),
so `failures={3: "rate_limit"}` reaches the caller's code whatever `max_retries` is. These clients
default to `max_retries=0`: one try, as with `MockLLM`, where the course's retry lesson handles it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from mockllm.serve.core import Service
from mockllm.serve.sessions import Sessions

if TYPE_CHECKING:
    import openai

BASE_URL = "http://mockllm.local/v1"
"""The base URL the clients use; no request ever leaves the process."""
API_KEY = "mock"


def openai_client(persona: str | None = "diligent", seed: int = 0, *,
                  quirks: dict[str, list[int]] | None = None,
                  failures: dict[int, str] | None = None, clock: object = None,
                  max_retries: int = 0, **sdk_options: object) -> openai.OpenAI:
    """Return an `openai.OpenAI` client served by one `MockLLM(persona, seed, ...)` in process.

    `sdk_options` go to `openai.OpenAI(...)` (e.g. `timeout=`, `default_headers=`).
    """
    options = {"persona": persona, "seed": seed, "quirks": quirks, "failures": failures,
               "clock": clock}
    return _client("OpenAI", "Client", options, max_retries=max_retries, **sdk_options)


def async_openai_client(persona: str | None = "diligent", seed: int = 0, *,
                        quirks: dict[str, list[int]] | None = None,
                        failures: dict[int, str] | None = None, clock: object = None,
                        max_retries: int = 0, **sdk_options: object) -> openai.AsyncOpenAI:
    """Return an `openai.AsyncOpenAI` client served by one `MockLLM(persona, seed, ...)` in process."""
    options = {"persona": persona, "seed": seed, "quirks": quirks, "failures": failures,
               "clock": clock}
    return _client("AsyncOpenAI", "AsyncClient", options, max_retries=max_retries, **sdk_options)


def _client(sdk_class: str, http_class: str, options: dict, **sdk_options: object) -> object:
    """`openai.<sdk_class>` on an `httpx2.<http_class>` whose transport is one client's service.

    One client is one conversation (`Sessions` with its default rule), so one MockLLM and one
    call counter, as with `MockLLM(**options)`.
    """
    openai, httpx2 = _sdk()
    from mockllm.serve.transport import mock_transport

    http_client = getattr(httpx2, http_class)(transport=mock_transport(Service(Sessions(options))))
    return getattr(openai, sdk_class)(api_key=API_KEY, base_url=BASE_URL, http_client=http_client,
                                      **sdk_options)


def _sdk() -> tuple:
    """(openai, httpx2), or an ImportError that says how to install them."""
    try:
        import httpx2
        import openai
    except ImportError as error:
        raise ImportError(
            "mockllm.openai_client() and async_openai_client() need the openai package: "
            "pip install 'react-mockllm[openai]' for the mock alone (from a clone: "
            "pip install './mockllm-dist[openai]'), pip install -e '.[test]' for the course."
        ) from error
    return openai, httpx2
