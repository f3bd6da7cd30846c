"""`python -m mockllm serve`: see `mockllm.serve.cli`."""
from __future__ import annotations

import sys

from mockllm.serve.cli import main

if __name__ == "__main__":
    sys.exit(main())
