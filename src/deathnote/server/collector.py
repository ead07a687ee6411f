"""The garbage collector's settings for a process that makes and drops a few hundred small
objects per action (views, messages, futures) while holding many live ones (rooms): the
server, and the load test's client that plays against it.

What exists when play starts (modules, content, tables, rooms already made) is frozen out
of every later collection. Young objects are collected every 50,000 allocations instead of
Python's 700, so most of an action's objects are gone by then instead of being traversed
and promoted; the middle generation every 2 young collections, so one of its collections
stays short. Measured by gc callbacks in `deathnote loadtest --rooms 1000 --actions 20`:
the server spent 116-129 us of collection per action with (7000, 10, 10) (each full
collection a pause of 0.4-0.6 s), 51-68 us with these; 50 rooms: 41-44 against 30-31 us.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: ``gc.set_threshold`` for the young, middle and old generations.
THRESHOLDS = (50_000, 2, 10)
#: ``Pauses`` lists each collection at least this long (seconds); shorter ones are counted.
LONG_PAUSE = 0.05


def settle() -> None:
    """Collect once, freeze what is left and set ``THRESHOLDS`` for the rest of the
    process (the server, after start-up)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


@contextmanager
def settled() -> Iterator[None]:
    """``settle`` for the block only: the thresholds are put back when it ends, and the
    objects it froze are collected again as before (a caller that goes on afterwards, like
    a test run). Where something was frozen before, everything stays frozen: Python
    unfreezes all or nothing."""
    old = gc.get_threshold()
    was_frozen = gc.get_freeze_count() > 0
    settle()
    try:
        yield
    finally:
        gc.set_threshold(*old)
        if not was_frozen:
            gc.unfreeze()


class Pauses:
    """The collector's pauses in this process while watched (``start`` to ``stop``): per
    generation how many collections and how many seconds, and each pause of ``long``
    seconds or more with the generation and when it ended (``time.time()``: comparable
    between the load test's client and its server on one machine).

    A collection stops the whole process: every action arriving meanwhile waits for it.
    ``deathnote loadtest`` reads these from both of its processes to tell whether its
    slowest actions waited for a collector."""

    def __init__(self, long: float = LONG_PAUSE) -> None:
        self.long = long
        self.collections = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        #: (ended at, generation, seconds) of each pause of ``long`` seconds or more
        self.long_pauses: list[tuple[float, int, float]] = []
        self._began = 0.0

    def start(self) -> Pauses:
        """Watch from now on (returns itself)."""
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)
        return self

    def stop(self) -> None:
        """Stop watching (what was seen stays)."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = time.perf_counter() - self._began
        generation = info["generation"]
        self.collections[generation] += 1
        self.seconds[generation] += took
        if took >= self.long:
            self.long_pauses.append((time.time(), generation, took))

    def to_json(self) -> dict[str, Any]:
        """What was seen, as JSON (the server's debug endpoint sends it)."""
        return {
            "collections": list(self.collections),
            "seconds": list(self.seconds),
            "long": [list(pause) for pause in self.long_pauses],
        }
