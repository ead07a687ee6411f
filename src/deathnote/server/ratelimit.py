"""Moving-window rate limits counted in this process's memory.

The same answers as the ``limits`` library's ``MovingWindowRateLimiter`` on its asyncio
``MemoryStorage`` (``hit`` and ``get_window_stats``), which stays in use with ``--redis``
(every process shares one count there). In memory that storage costs every hit a new
task that expires the events of every key through a worker thread, copying each key's
list of hits, and it inserts every hit at the front of that list: with many connections a
second that was a few percent of the server's CPU per action in ``deathnote loadtest``.
Here a key keeps its hits in a deque, oldest first, dropped from the front as the window
moves past them, and keys with no hit left in their window are swept once in a while.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from limits import RateLimitItem

#: Hits between two sweeps of the keys whose window has emptied.
SWEEP_EVERY = 4096


class WindowStats(NamedTuple):
    """When the oldest hit in the window leaves it (wall-clock seconds), hits left."""

    reset_time: float
    remaining: int


class LocalMovingWindow:
    """At most ``item.amount`` hits per key in any ``item.get_expiry()`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        #: key -> (window seconds, the hits in it, oldest first)
        self._hits: dict[str, tuple[int, deque[float]]] = {}
        self._until_sweep = SWEEP_EVERY

    def _window(
        self, item: RateLimitItem, identifiers: tuple[str, ...], now: float
    ) -> deque[float]:
        key = item.key_for(*identifiers)
        entry = self._hits.get(key)
        if entry is None:
            entry = self._hits[key] = (item.get_expiry(), deque())
        hits = entry[1]
        start = now - entry[0]
        while hits and hits[0] <= start:
            hits.popleft()
        return hits

    async def hit(self, item: RateLimitItem, *identifiers: str) -> bool:
        """Count one hit unless the window holds ``item.amount`` already (then False)."""
        now = self.clock()
        self._until_sweep -= 1
        if self._until_sweep <= 0:
            self._sweep(now)
        hits = self._window(item, identifiers, now)
        if len(hits) >= item.amount:
            return False
        hits.append(now)
        return True

    async def get_window_stats(self, item: RateLimitItem, *identifiers: str) -> WindowStats:
        """When the window lets the next hit in, and how many hits it has left."""
        now = self.clock()
        hits = self._window(item, identifiers, now)
        start = hits[0] if hits else now
        return WindowStats(start + item.get_expiry(), item.amount - len(hits))

    def keys(self) -> int:
        """How many keys are held (each has had a hit within its window, or has not been
        swept since)."""
        return len(self._hits)

    def _sweep(self, now: float) -> None:
        self._until_sweep = SWEEP_EVERY
        for key, (seconds, hits) in list(self._hits.items()):
            if not hits or hits[-1] <= now - seconds:
                del self._hits[key]
