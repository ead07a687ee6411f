"""The load test command: a real server on 127.0.0.1, scripted rooms, bot rooms beside them."""

from __future__ import annotations

import asyncio

from deathnote.server.loadtest import run_loadtest


def test_the_load_test_measures_every_accepted_action_next_to_bot_rooms() -> None:
    figures = asyncio.run(
        run_loadtest(
            2,
            10,
            30.0,
            "confrontation",
            None,
            0,
            bot_rooms=1,
            bot_level="random",
            memory_sites=3,
            think=0.1,
        )
    )
    assert figures.failed_rooms == 0
    assert figures.accepted >= 20  # each scripted room plays its share
    assert len(figures.latencies) == figures.accepted  # one latency per accepted action
    assert figures.percentile(0.5) <= figures.percentile(0.99)
    # --think: a seat waits at least half the mean before each answer, so a room's two
    # seats cannot play its actions faster than one per 0.05 s each.
    per_room = figures.accepted / 2
    assert figures.seconds >= 0.05 * per_room / 2
    lines = figures.lines()
    assert "each seat answers after 0.1 s on average" in lines
    assert lines[0].startswith("next to 1 rooms of random bots")
    assert any("p99" in line for line in lines)
    # --memory-sites: the lines of code that allocated most while the rooms were made
    sites = [line for line in lines if line.startswith("  allocated since the start")]
    assert len(sites) == 3 and all("size=" in line for line in sites)
