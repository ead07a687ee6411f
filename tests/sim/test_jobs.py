"""``simulate --jobs``: the same summary for every number of worker processes."""

from __future__ import annotations

import pytest

from deathnote.sim.runner import Batch, Summary, chunks, game_seed, play_one, simulate


def one_after_another(batch: Batch, games: int, seed: int) -> dict[str, object]:
    """The summary of the games played in order in this process, one by one."""
    summary = Summary(batch.game, games, seed, batch.agents)
    for index in range(games):
        summary.add(play_one(batch, game_seed(seed, index), index))
    return summary.to_json(0.0)


@pytest.mark.parametrize(
    "batch",
    [
        Batch("confrontation", 2, ("heuristic", "random")),
        Batch("werewolf", 5, ("heuristic",) * 5),
    ],
)
def test_jobs_give_the_summary_of_the_games_played_one_after_another(batch: Batch) -> None:
    games = 150
    expected = one_after_another(batch, games, seed=3)
    counted: list[int] = []
    for jobs in (1, 2):
        result = simulate(batch, games, seed=3, jobs=jobs, progress=counted.append)
        assert {**result, "seconds": 0.0} == expected
    assert sum(counted) == 2 * games


def test_chunks_cover_every_game_once_in_order() -> None:
    for games in (0, 1, 7, 64, 65, 1000, 12345):
        parts = chunks(games)
        assert [i for part in parts for i in part] == list(range(games))
        assert len(parts) <= 64


@pytest.mark.parametrize("game", ["confrontation", "icg", "enquete", "werewolf", "tcg"])
def test_games_sharing_loaded_content_play_as_fresh_ones(game: str) -> None:
    """The simulator loads content once per process (``Match.with_seed``): no game may
    change it, or the next game would differ from a fresh one."""
    from deathnote.agents import make_agent
    from deathnote.engine import Match, get_game
    from deathnote.engine.play import play

    players = get_game(game).max_players
    template = Match.create(game, players, seed=0)
    for seed in range(1, 4):
        shared, fresh = template.with_seed(seed), Match.create(game, players, seed)
        assert shared.content is template.content
        for match in (shared, fresh):
            play(match, [make_agent(game, "heuristic", s) for s in range(players)])
        assert shared.record() == fresh.record()


@pytest.mark.parametrize("game", ["confrontation", "tcg"])
def test_a_match_made_with_seed_starts_as_a_created_one(game: str) -> None:
    """``Match.with_seed`` fills the fields itself (not through ``Match.__init__``): it
    must set every field a new match has, to the same value."""
    from deathnote.engine import Match

    template = Match.create(game, 2, seed=0)
    spare = template.with_seed(99).rng  # a used generator, seeded anew by with_seed
    spare.random()
    for seed in (5, 2**61 + 7):
        shared = template.with_seed(seed, spare if seed == 5 else None)
        assert (shared.rng is spare) == (seed == 5)
        fresh = Match(
            template.game, template.players, seed, template.options, template.content, None
        )
        assert set(vars(shared)) == set(vars(fresh))
        for name, value in vars(fresh).items():
            if name not in ("rng", "_snap_clock"):
                assert getattr(shared, name) == value, name
        assert shared.rng.getstate() == fresh.rng.getstate()


def test_game_seeds_are_those_of_a_generator_seeded_with_the_text() -> None:
    """The batch's game seeds (which games a simulation plays) are the first 62 bits of
    ``random.Random("deathnote:SEED:INDEX")``."""
    import random

    for seed, index in [(0, 0), (0, 1), (3, 149), (-2, 7), (10**30, 123_456)]:
        expected = random.Random(f"deathnote:{seed}:{index}").getrandbits(62)
        assert game_seed(seed, index) == expected
