from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from deathnote.engine import DeathNoteError, Match
from deathnote.sim.runner import Batch, seat_agents, simulate

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_same_seed_same_summary_and_records_replay(tmp_path: Path) -> None:
    batch = Batch("toy", 2, ("random", "random"), save_dir=str(tmp_path))
    first = simulate(batch, 30, seed=5)
    second = simulate(Batch("toy", 2, ("random", "random")), 30, seed=5)
    for key in ("wins", "outcomes", "errors", "mean_actions", "games"):
        assert first[key] == second[key]
    assert sum(first["wins"].values()) == 30 and first["errors"] == 0
    records = sorted(tmp_path.glob("toy-*.json"))
    assert len(records) == 30
    match = Match.replay(orjson.loads(records[0].read_bytes()))
    assert match.outcome() is not None
    other = simulate(Batch("toy", 2, ("random", "random")), 30, seed=6)
    assert other["mean_actions"] != first["mean_actions"] or other["wins"] != first["wins"]


def test_agents_spec() -> None:
    assert seat_agents(["random"], 3) == ["random"] * 3
    assert seat_agents(["a", "b"], 2) == ["a", "b"]
    with pytest.raises(DeathNoteError, match="exactly 2 names"):
        seat_agents(["a", "b", "c"], 2)


def test_game_seeds_are_the_published_ones() -> None:
    """The shared seeding generator gives exactly random.Random(text)'s seeds."""
    import random

    from deathnote.sim.runner import game_seed

    for seed in (0, 1, 7, 123456789):
        for index in (0, 1, 2, 999):
            expected = random.Random(f"deathnote:{seed}:{index}").getrandbits(62)
            assert game_seed(seed, index) == expected


@pytest.mark.parametrize("game", ["confrontation", "tcg", "werewolf"])
def test_random_games_in_a_row_are_the_games_of_a_table_of_random_agents(game: str) -> None:
    """play_one seeds the generators of the game before anew for the next one (and plays
    without a Table): every game is still exactly the one a Table of random agents plays."""
    from deathnote.agents import RandomAgent
    from deathnote.engine.play import Table
    from deathnote.engine.registry import get_game
    from deathnote.sim.runner import game_seed, play_one

    players = get_game(game).min_players
    batch = Batch(game, players, ("random",) * players)
    for index in range(12):
        seed = game_seed(3, index)
        got = play_one(batch, seed, index)
        match = Match.create(game, players, seed)
        outcome = Table(match, [RandomAgent(s) for s in range(players)], seed).play()
        assert outcome is not None
        assert got["actions"] == len(match.actions) and got["winners"] == list(outcome.winners)
        assert got["scores"] == dict(outcome.scores) and got["condition"] == outcome.condition
