"""kill -9 under load (issue 18 §4): rooms playing, the server killed and started again.

A bounded version of ``deathnote loadtest --kill-after S`` (the benchmark runs 100 rooms):
every action a seat was told was accepted is found in storage afterwards, and every room
that was playing at the kill plays on after the restart.
"""

from __future__ import annotations

import asyncio

import pytest

from deathnote.server.loadtest import run_loadtest


@pytest.mark.timeout(200)
def test_kill_9_under_load_loses_no_acknowledged_action_and_every_room_resumes() -> None:
    figures = asyncio.run(
        run_loadtest(
            rooms=12,
            # Enough play that the kill at 1.5 s comes mid-play on an idle machine too
            # (12 x 120 actions once all finished before it, at about 1,000 actions/s).
            actions=600,
            seconds=60,
            game="confrontation",
            db=None,
            port=0,
            kill_after=1.5,
        )
    )
    crash = figures.crash
    assert crash is not None
    assert crash["acknowledged_before_kill"] > 0
    assert crash["acknowledged"] > crash["acknowledged_before_kill"]  # play went on
    assert crash["lost"] == 0 and crash["found"] == crash["acknowledged"]
    assert crash["live_at_kill"] > 0
    assert crash["resumed"] == crash["live_at_kill"]
    assert figures.failed_rooms == 0, figures.errors
