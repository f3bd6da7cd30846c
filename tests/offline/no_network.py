"""The environment of a machine with no network, as pip and the course's processes see it."""
from __future__ import annotations

import os

CLOSED = "http://127.0.0.1:9"
"""A proxy on a port nothing listens on: any attempt to reach an index fails at once."""
REFUSED = {"PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "http_proxy": CLOSED,
           "https_proxy": CLOSED, "HTTP_PROXY": CLOSED, "HTTPS_PROXY": CLOSED}
"""pip finds no index (nor a config file's), and every proxy is a closed port."""
LOOPBACK = "127.0.0.1,localhost"


def refused(**extra: str) -> dict[str, str]:
    """This process's environment, its pip settings dropped, the network refused but loopback."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("PIP_") and key.lower() not in ("no_proxy", "all_proxy")}
    environment.update(REFUSED, ALL_PROXY=CLOSED, all_proxy=CLOSED, NO_PROXY=LOOPBACK,
                       no_proxy=LOOPBACK, **extra)
    return environment
