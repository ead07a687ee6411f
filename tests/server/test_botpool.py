"""Search bots in worker processes: the same choice as in the server, from the record."""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from pathlib import Path

import pytest

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine.match import Match
from deathnote.server import botpool
from deathnote.server.botpool import BotPool, searches, think
from tests.live_server import LiveServer

AGENT = "ismcts:sims=24"  # a fixed number of simulations: the same choice on any machine


def _head(match: Match) -> dict[str, object]:
    return {"game": match.game.id, "players": match.players, "seed": match.seed, "options": {}}


def _moves(match: Match, count: int) -> None:
    """Random moves, never an accusation (which would end a Confrontation at once)."""
    rng = random.Random(5)
    for _ in range(count):
        seat = min(match.pending())
        legal = [a for a in match.legal(seat) if a.kind != "accuse"]
        match.submit(seat, rng.choice(legal))


def test_a_worker_chooses_as_the_bot_would_in_the_server_and_moves_its_rng_alike() -> None:
    for game, players in (("confrontation", 2), ("werewolf", 5)):
        match = Match.create(game, players, 8)
        _moves(match, 6)
        seat = min(match.pending())
        here_rng, there_rng = agent_rng(8, seat), agent_rng(8, seat)
        here = make_agent(game, AGENT, seat).choose(observe(match, seat, here_rng))
        actions = [[s, a.to_json()] for s, a in match.actions]
        there, state, _memory = think(
            "r1", _head(match), actions, seat, AGENT, there_rng.getstate()
        )
        assert there == here.to_json(), game
        assert state == here_rng.getstate(), game


def test_a_worker_keeps_each_rooms_match_and_replays_only_what_is_new() -> None:
    botpool._kept.clear()
    match = Match.create("confrontation", 2, 3)
    _moves(match, 4)
    actions = [[s, a.to_json()] for s, a in match.actions]
    think("room", _head(match), actions, min(match.pending()), AGENT, random.Random(1).getstate())
    kept = botpool._kept["room"]
    _moves(match, 3)
    actions = [[s, a.to_json()] for s, a in match.actions]
    think("room", _head(match), actions, min(match.pending()), AGENT, random.Random(1).getstate())
    assert botpool._kept["room"] is kept and len(kept.actions) == 7  # moved on, not rebuilt
    # Another history under the same key (a room rewound, say) is replayed afresh.
    other = Match.create("confrontation", 2, 3)
    _moves(other, 2)
    rewound = [[s, a.to_json()] for s, a in other.actions]
    think("room", _head(other), rewound, min(other.pending()), AGENT, random.Random(1).getstate())
    assert botpool._kept["room"] is not kept and len(botpool._kept["room"].actions) == 2


def test_the_pool_runs_the_search_in_another_process() -> None:
    assert searches("ismcts-hard") and searches("ismcts") and not searches("heuristic")
    match = Match.create("confrontation", 2, 4)
    seat = min(match.pending())
    rng = agent_rng(4, seat)
    expected_rng = agent_rng(4, seat)
    expected = make_agent("confrontation", AGENT, seat).choose(observe(match, seat, expected_rng))
    pool = BotPool(1)
    try:
        chosen, _memory = asyncio.run(pool.choose("r", match, seat, AGENT, rng))
    finally:
        pool.close()
    assert chosen == expected and rng.getstate() == expected_rng.getstate()


def _niceness() -> int:
    return os.nice(0)


def test_the_workers_yield_the_cpu_to_the_server() -> None:
    pool = BotPool(1)
    try:
        worker = pool._executor().submit(_niceness).result(timeout=60)
    finally:
        pool.close()
    assert worker == min(19, os.nice(0) + botpool.WORKER_NICENESS)


def test_a_bot_made_afresh_each_move_remembers_its_answers_through_the_worker() -> None:
    """A search bot back at an information set it answered before (nothing it sees
    changed, e.g. it began a two-step choice and cancelled it) takes another answer, also
    when the worker makes it afresh for every move: its memory travels with the move."""
    match = Match.create("confrontation", 2, 5)
    _moves(match, 3)
    seat = min(match.pending())
    assert len(match.legal(seat)) > 1
    actions = [[s, a.to_json()] for s, a in match.actions]
    state = agent_rng(5, seat).getstate()
    first, _state, memory = think("m", _head(match), actions, seat, AGENT, state)
    again, _state, _memory = think("m", _head(match), actions, seat, AGENT, state)
    assert again == first  # a fresh bot with no memory answers the same
    other, _state, later = think("m", _head(match), actions, seat, AGENT, state, memory)
    assert other != first  # handed what it answered here, it answers otherwise
    remembered = [a.to_json() for answers in later.values() for a in answers]
    assert first in remembered and other in remembered


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The parent is the second field after the command name in parentheses.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("ending", ["killed", "stopped"])
def test_no_worker_outlives_the_server(tmp_path: Path, ending: str) -> None:
    server = LiveServer(tmp_path / "rooms.db")
    try:
        seats = [{"kind": "bot", "agent": "ismcts"}] * 2
        created = server.post("/api/rooms", {"game": "confrontation", "seats": seats})
        room, token = created["room"], created["creator_token"]
        deadline = time.monotonic() + 60
        while server.get(f"/api/rooms/{room}?token={token}")["room"]["step"] < 2:
            assert time.monotonic() < deadline, "the bots never moved"
            time.sleep(0.2)
        assert server.process is not None
        workers = _children(server.process.pid)
        assert workers, "the search bots thought in no worker process"
        if ending == "killed":
            server.kill()  # SIGKILL: no shutdown code runs in the server
        else:
            server.stop()
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers)
    finally:
        server.stop()
