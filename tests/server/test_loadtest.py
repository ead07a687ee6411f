"""The load test command: a real server on 127.0.0.1, scripted rooms, bot rooms beside them."""

from __future__ import annotations

import asyncio
import os
import random

from deathnote.engine.match import Match
from deathnote.server.loadtest import Figures, RoomDriver, parsed_action, run_loadtest


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
    # each latency with when it was measured, all during the play
    assert len(figures.latency_at) == len(figures.latencies)
    assert all(figures.play_start <= at for at in figures.latency_at)
    # the collector's pauses during the play, in the server and in this client
    for pauses in (figures.server_pauses, figures.client_pauses):
        assert pauses is not None and len(pauses["collections"]) == 3
        assert all(n >= 0 for n in pauses["collections"])
    assert figures.percentile(0.5) <= figures.percentile(0.99)
    # --think: a seat waits at least half the mean before each answer, so a room's two
    # seats cannot play its actions faster than one per 0.05 s each.
    per_room = figures.accepted / 2
    assert figures.seconds >= 0.05 * per_room / 2
    lines = figures.lines()
    assert "each seat answers after 0.1 s on average, at random" in lines
    assert lines[0].startswith("next to 1 rooms of random bots")
    assert any("p99" in line for line in lines)
    assert any(line.startswith("server's collector while playing: ") for line in lines)
    assert any(line.startswith("client's collector while playing: ") for line in lines)
    # --memory-sites: the lines of code that allocated most while the rooms were made
    sites = [line for line in lines if line.startswith("  allocated since the start")]
    assert len(sites) == 3 and all("size=" in line for line in sites)


def test_a_bot_seat_rebuilds_the_whole_view_from_the_servers_patches_and_log_tails() -> None:
    # What the server sends a connection: the log after the step it last had and a patch
    # of the state (Match.view with since and patch). Rebuilt, it is the whole view.
    match = Match.create("confrontation", 2, 7)
    driver = RoomDriver("http://127.0.0.1:1", "confrontation", 1, 0.0, 0, asyncio.Event())
    rng = random.Random(3)
    sent: dict[int, int | None] = {0: None, 1: None}
    patched = 0
    while match.outcome() is None:
        for seat in (0, 1):
            since = sent[seat]
            view = match.view(seat, since=since, patch=True)
            patched += "patch" in view
            rebuilt = driver._rebuild(seat, {"since": since, "view": view})
            whole = match.view(seat)
            for key in ("state", "log", "legal", "decision", "waiting", "outcome"):
                assert rebuilt[key] == whole[key], (key, len(match.actions))
            sent[seat] = len(match.actions)
        seat = rng.choice(sorted(match.pending()))
        match.submit(seat, rng.choice(match.legal(seat)))
    assert patched > 0  # the patches were exercised, not only whole states


def test_heuristic_seats_play_whole_games_through_the_server() -> None:
    figures = asyncio.run(run_loadtest(2, 40, 30.0, "confrontation", None, 0, seats="heuristic"))
    assert figures.failed_rooms == 0
    assert figures.accepted >= 80
    assert figures.rejected == 0  # a bot chooses among its own view's legal actions
    lines = figures.lines()
    assert "each seat answers at once, as the game's heuristic bot chooses" in lines
    if os.path.exists("/proc/self/task"):  # Linux: how long both waited for a CPU
        assert figures.server_cpu_wait is not None and figures.server_cpu_wait >= 0
        assert figures.client_cpu_wait is not None and figures.client_cpu_wait >= 0
        assert any(line.startswith("waited for a CPU (ready, not running): ") for line in lines)
    # Every acknowledged action was stored, in transactions of one or more (group commit).
    assert figures.stored >= figures.accepted and 1 <= figures.commits <= figures.stored
    assert any(line.startswith(f"storage: {figures.stored} actions in ") for line in lines)


def test_a_seat_parses_each_legal_action_once_for_every_view_that_lists_it() -> None:
    match = Match.create("confrontation", 2, 7)
    seat = min(match.pending())
    entries = match.view(seat)["legal"]
    first = [parsed_action(e) for e in entries]
    assert first == list(match.legal(seat))  # the label is not part of the action
    assert all(parsed_action(dict(e)) is a for e, a in zip(entries, first, strict=True))


def test_the_report_says_when_the_slowest_actions_were_measured() -> None:
    # 300 actions over 3 seconds of play: the 3 slowest all in the second one
    latencies = [0.01] * 297 + [0.5, 0.6, 0.7]
    at = [100.0 + i / 100 for i in range(297)] + [101.2, 101.5, 101.9]
    figures = Figures(
        rooms=1,
        seconds=3.0,
        accepted=300,
        rejected=0,
        games_finished=0,
        latencies=latencies,
        latency_at=at,
        play_start=100.0,
        server_pauses={
            "collections": [4, 1, 0],
            "seconds": [0.2, 0.1, 0.0],
            "long": [[101.4, 1, 0.08]],
        },
        client_pauses={"collections": [2, 0, 0], "seconds": [0.01, 0.0, 0.0], "long": []},
    )
    lines = figures.slowest_lines()
    assert lines[0] == (
        "slowest 1% (at least 500.0 ms, 3 actions): half of them in 1 of the 3 seconds of "
        "play (second 1), the rest in 0 others"
    )
    assert lines[1] == (
        "server's collector while playing: 5 collections (4 young, 1 middle, 0 whole), "
        "0.30 s in all (0.20 / 0.10 / 0.00), 1 pause of 50 ms or more (longest 80 ms; second 1)"
    )
    assert lines[2] == (
        "client's collector while playing: 2 collections (2 young, 0 middle, 0 whole), "
        "0.01 s in all (0.01 / 0.00 / 0.00), 0 pauses of 50 ms or more"
    )
