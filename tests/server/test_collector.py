"""The collector's settings for the server and the load test's client (server.collector)."""

from __future__ import annotations

import gc
import time

from deathnote.server.collector import THRESHOLDS, Pauses, settled


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


def test_pauses_count_each_generations_collections_and_list_the_long_ones() -> None:
    pauses = Pauses(long=0.0).start()  # every pause is "long": each one is listed
    try:
        gc.collect(0)
        gc.collect(2)
    finally:
        pauses.stop()
    seen = pauses.to_json()
    gc.collect(1)
    assert pauses.to_json() == seen  # not watched any more
    assert seen["collections"][0] >= 1 and seen["collections"][2] >= 1
    assert len(seen["long"]) == sum(seen["collections"])
    ended, generation, took = seen["long"][-1]
    assert generation == 2 and took >= 0 and ended <= time.time()
    assert seen["seconds"][2] >= took


def test_pauses_list_only_collections_at_least_as_long_as_asked() -> None:
    pauses = Pauses(long=3600.0).start()
    try:
        gc.collect()
    finally:
        pauses.stop()
    assert pauses.to_json()["collections"][2] == 1
    assert pauses.to_json()["long"] == []
