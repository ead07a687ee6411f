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
