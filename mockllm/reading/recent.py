"""A bounded memo of the newest entries: how reading, and the digest, resume a resent conversation.

An agent resends its conversation two messages longer at every step, so what was worked out for
the last few requests is what the next one can start from; the oldest entries are dropped first.
`Recent.of` keys such a memo by an object's identity, for what is worked out from a table that
comes unchanged with every request (a persona's entries, the offered tools). The server calls the
mock from several threads at once: adding an entry and dropping the oldest hold a lock.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Hashable


class Recent(dict):
    """A dict of at most `size` entries; `remember` adds one, dropping the oldest added."""

    def __init__(self, size: int) -> None:
        """An empty memo of at most `size` entries."""
        super().__init__()
        self.size = size
        self._lock = threading.Lock()

    def remember(self, key: Hashable, value: Any) -> Any:
        """Keep `value` under `key` (a new entry goes last, the first to be dropped is the oldest);
        return it."""
        with self._lock:
            self[key] = value
            if len(self) > self.size:
                del self[next(iter(self))]
        return value

    def of(self, obj: Any, compute: Callable[[Any], Any]) -> Any:
        """`compute(obj)`, remembered under the object's identity (for objects that never change
        but are costly to hash); the object is kept with its entry, so its id is not reused."""
        kept = self.get(id(obj))
        if kept is not None and kept[0] is obj:
            return kept[1]
        return self.remember(id(obj), (obj, compute(obj)))[1]
