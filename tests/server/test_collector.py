"""The collector's settings for the server and the load test's client (server.collector)."""

from __future__ import annotations

import gc

from deathnote.server.collector import THRESHOLDS, settled


def test_settled_freezes_and_sets_thresholds_for_the_block_only() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    kept = [object() for _ in range(10)]
    with settled():
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_settled_leaves_frozen_what_was_frozen_before() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with settled():
            assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()
