"""mockllm: an offline, deterministic, OpenAI-shaped chat model and the world its tools read."""
from __future__ import annotations

import sys
from types import ModuleType

from mockllm.client import MockLLM
from mockllm.errors import APITimeoutError, MockAPIError, RateLimitError, ScriptExhaustedError

__all__ = [
    "MockLLM", "personas", "rulebook",
    "MockAPIError", "RateLimitError", "APITimeoutError", "ScriptExhaustedError",
]


class _Package(ModuleType):
    """The `mockllm` module object: `personas` and `rulebook` load `mockllm.personas` on first use.

    A plain lazy re-export would not do: the function `mockllm.personas()` shares its name with
    the submodule `mockllm.personas`, and importing the submodule makes Python set the package
    attribute `personas` to the module, hiding the function. The setter below ignores that.
    (So code that needs the submodule writes `from mockllm.personas import QUIRKS`.)
    """

    @property
    def personas(self) -> object:
        """The function `mockllm.personas.personas` (listing the persona names)."""
        from mockllm.personas import personas

        return personas

    @personas.setter
    def personas(self, value: object) -> None:
        if not isinstance(value, ModuleType):
            raise AttributeError("mockllm.personas is read-only")

    @property
    def rulebook(self) -> object:
        """The function `mockllm.personas.rulebook` (the table of personas and their quirks)."""
        from mockllm.personas import rulebook

        return rulebook

    def __dir__(self) -> list[str]:
        return sorted({*self.__dict__, "personas", "rulebook"})


sys.modules[__name__].__class__ = _Package
