"""`python -m mockllm` and the `mockllm` console script: see `mockllm.serve.cli`."""
from __future__ import annotations

import sys

from mockllm import __version__
from mockllm.serve import cli


def main(argv: list[str] | None = None) -> int:
    """Run the command line with this package's version for `--version`; return the exit code."""
    return cli.main(argv, version=__version__)


if __name__ == "__main__":
    sys.exit(main())
