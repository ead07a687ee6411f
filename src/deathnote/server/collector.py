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

What these settings cannot do: keep every pause short. CPython (3.11) counts young objects
as allocations minus deallocations of any tracked object, old ones included; while rooms
play, about as many old objects are freed as new ones kept, so the count stays low and the
young generation grows unseen. In ``deathnote loadtest --rooms 1000 --seats heuristic
--think 0.45`` (Pauses, 2026-12-08) the server collected only about 10 times in 48 s of
play, each time 200,000-280,000 young objects: 1.6-1.7 s in all and pauses of 150-370 ms,
and those few seconds made the run's p99 (most seconds of the play had p99 10-40 ms).
Collecting on a timer instead (young every 50 ms, middle every 0.5 s, all every 20 s; and
young every 0.1 s, middle every 4 s) made the young pauses short but promoted the objects
that live about a second (each seat's last views, kept for patches) into the older
generations, whose collections then took 50-330 ms, and doubled the time spent
collecting: p50 rose from 5-10 ms to 15-18 ms and p99 stayed at 250-460 ms. Young every
50 ms and nothing older but the whole heap every 60 s (121 s of play): 11.6 s collecting,
p50 60 ms, p99 271 ms and a 464 ms pause. Collecting the young and middle generations
every second (or 0.4 s) and freezing what survives (a scratch experiment, 2,170-2,210
actions/s): no pause past 84-116 ms and p99 205-208 ms, but 7.2-8.9 s of collecting in
113-115 s (the objects living 1-5 s, which the usual schedule mostly never scans, are all
scanned once), p50 11-22 ms, and the cycles that die frozen are never freed: RSS grew by
about 0.5 MiB a second. None was kept. A live room holds about 185 tracked objects in the
engine and the room (50 of them its seats' remembered views), about 300 with its two
connections; a full collection of 1,000 rooms is 200-300 ms in this Python whatever the
schedule. And with no pause past 89 ms in the server and none in the client (that schedule
in the server, the client's collector off) p99 was still 223 ms: the server waited for a
CPU 31 s of 116 s, the two processes wanting more than two cores in bursts. CPython 3.13
(the same code, 119 s of play) collects the same way: 23 pauses of 50 ms or more in the
server, the longest 445 ms, p99 512 ms, 0.418 ms of server CPU per action.
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
