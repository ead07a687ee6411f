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
from collections.abc import Iterator
from contextlib import contextmanager

#: ``gc.set_threshold`` for the young, middle and old generations.
THRESHOLDS = (50_000, 2, 10)


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
