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
