"""tests/frameworks/ needs the agent frameworks, installed only in .venv-frameworks: `make test`
does not collect it; `make test-frameworks` runs it by path, where it is collected as usual."""
collect_ignore = ["frameworks"]
