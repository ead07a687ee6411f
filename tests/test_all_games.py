"""The conformance suite every registered game must pass (random play, replay, views)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from typing import Any

import orjson
import pytest

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, IllegalAction, Match, games
from deathnote.sim.runner import MAX_ACTIONS

GAME_IDS = sorted(games())


def random_match(game_id: str, seed: int, players: int | None = None) -> Match:
    game = games()[game_id]
    match = Match.create(game_id, players or game.min_players, seed)
    agents = [RandomAgent(s) for s in range(match.players)]
    rngs = [agent_rng(seed, s) for s in range(match.players)]
    while match.outcome() is None:
        assert len(match.actions) < MAX_ACTIONS, "game does not end"
        pending = match.pending()
        assert pending, "no seat is asked but the game is not over"
        seat = min(pending)
        legal = match.legal(seat)
        assert legal, f"seat {seat} is asked but has no legal action"
        match.submit(seat, agents[seat].choose(observe(match, seat, rngs[seat])))
    return match


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", range(6))
def test_random_games_end_and_replay(game_id: str, seed: int) -> None:
    game = games()[game_id]
    for players in sorted({game.min_players, game.max_players}):
        match = random_match(game_id, seed, players)
        record = orjson.loads(orjson.dumps(match.record()))
        again = Match.replay(record)
        assert again.outcome() == match.outcome()
        outcome = match.outcome()
        assert outcome is not None
        # The seats that won (RL rewards, the screens' "who won") agree with the winners.
        assert set(outcome.winning_seats) <= set(range(players))
        assert bool(outcome.winning_seats) == bool(outcome.winners)
        viewers = [*range(players), SPECTATOR, OMNISCIENT]
        for viewer in viewers:
            view = match.view(viewer)
            orjson.dumps(view)  # JSON-ready
            assert again.view(viewer) == view


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rejected_actions_change_nothing(game_id: str) -> None:
    game = games()[game_id]
    match = Match.create(game_id, game.min_players, seed=11)
    seat = min(match.pending())
    idle = [s for s in range(match.players) if s not in match.pending()]
    before = (copy.deepcopy(match.state), match.record())
    bad = [(seat, {"kind": "no-such-move"}), (seat, {"nokind": 1}), (seat, "junk")]
    bad += [(s, match.legal(seat)[0].to_json()) for s in idle]
    for s, action in bad:
        with pytest.raises(IllegalAction):
            match.submit(s, action)  # type: ignore[arg-type]
        assert (match.state, match.record()) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_declares_its_facts(game_id: str) -> None:
    game = games()[game_id]
    assert game.id == game_id and game.name
    assert 1 <= game.min_players <= game.max_players
    assert game.wins_mode in ("count", "mean")


def _summary_with_hash_seed(game_id: str, players: int, hash_seed: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    args = ["simulate", game_id, "--players", str(players), "--games", "12", "--seed", "5"]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "deathnote",
            *args,
            "--agents",
            "heuristic",
            "--jobs",
            "1",
            "--json",
        ],
        env=env,
        capture_output=True,
        check=True,
        timeout=120,
    ).stdout
    summary: dict[str, Any] = orjson.loads(out)
    return {k: summary[k] for k in ("wins", "outcomes", "mean_actions", "errors")}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_heuristic_games_do_not_depend_on_hash_order(game_id: str) -> None:
    """The same seed gives the same games in every process: no bot or rule may let the
    iteration order of a set of strings (which differs between runs) choose anything."""
    players = games()[game_id].max_players
    first = _summary_with_hash_seed(game_id, players, "1")
    assert first["errors"] == 0
    assert _summary_with_hash_seed(game_id, players, "2") == first
