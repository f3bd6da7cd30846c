"""The mock over HTTP: an openai SDK transport in process and an OpenAI-compatible server.

    core.py       one request -> one answer (status, headers, body): routes, JSON, SSE, errors
    answer.py     the answer and the API's JSON error shape
    models.py     model names: `mock-react:sloppy:3` picks persona and seed; `GET /v1/models`
    sessions.py   which MockLLM (and so which call counter) serves a request
    transport.py  the answer as an httpx2 response, with no socket
    sdk.py        `openai_client()` and `async_openai_client()`: real openai clients on that transport
    app.py        the same core as an ASGI app (starlette); cli.py serves it with uvicorn

Nothing here is imported by `import mockllm`: openai, httpx2, starlette and uvicorn load on use.
"""
