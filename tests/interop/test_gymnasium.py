"""The Gymnasium adapter passes Gymnasium's env checker on every game; vector envs work."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from deathnote.engine import DeathNoteError, IllegalAction, games
from deathnote.interop.gymnasium import DeathNoteGymEnv, gym_id, register_envs

CONFIGS = [
    (game_id, players)
    for game_id, game in sorted(games().items())
    for players in sorted({game.min_players, game.max_players})
]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # The checker warns about the unbounded Box (counts have no fixed maximum).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_every_game_is_registered() -> None:
    ids = register_envs()
    assert ids == [gym_id(g) for g in sorted(games())]
    assert "deathnote/Confrontation-v0" in ids and "deathnote/ICG-v0" in ids
    assert all(i in gymnasium.registry for i in ids)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_gymnasium_check_env(game_id: str, players: int) -> None:
    made = gymnasium.make(gym_id(game_id), players=players, seat=players - 1)
    check_env(made.unwrapped)
    assert isinstance(made.unwrapped, DeathNoteGymEnv)
    assert made.unwrapped.opponents == dict.fromkeys(range(players - 1), "heuristic")


def play_episode(env: gymnasium.Env, seed: int) -> tuple[float, int]:  # type: ignore[type-arg]
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        steps += 1
        assert "illegal_action" not in info
        if term or trunc:
            return float(reward), steps


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_masked_play_ends_with_a_win_or_loss(opponents: str) -> None:
    env = gymnasium.make("deathnote/ICG-v0", players=5, seat=2, opponents=opponents)
    results = [play_episode(env, seed) for seed in range(6)]
    assert {r for r, _ in results} <= {-1.0, 1.0}
    match = env.unwrapped.match  # type: ignore[attr-defined]
    assert match.outcome() is not None and match.players == 5
    # The seat's last observation is its own view.
    assert np.array_equal(
        env.unwrapped._observe()["observation"],  # type: ignore[attr-defined]
        match.observation_tensor(2),
    )


def test_illegal_action_ends_the_episode_as_a_loss() -> None:
    env = gymnasium.make("deathnote/Confrontation-v0").unwrapped
    obs, _ = env.reset(seed=3)
    before = env.match.record()  # type: ignore[attr-defined]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info) == (-1.0, True, False, {"illegal_action": True})
    assert env.match.record() == before  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match="reset"):
        env.step(0)
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))  # type: ignore[attr-defined]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(DeathNoteError, match="seat"):
        gymnasium.make("deathnote/TCG-v0", seat=2)
    with pytest.raises(DeathNoteError, match="unknown agent"):
        gymnasium.make("deathnote/TCG-v0", opponents="nobody")
    with pytest.raises(DeathNoteError, match="3 names"):
        gymnasium.make("deathnote/Werewolf-v0", players=4, opponents=["random"])


def test_same_seed_same_episode() -> None:
    env = gymnasium.make("deathnote/Werewolf-v0", players=5, seat=1, opponents="heuristic")
    first = play_episode(env, 11), env.unwrapped.match.record()  # type: ignore[attr-defined]
    again = play_episode(env, 11), env.unwrapped.match.record()  # type: ignore[attr-defined]
    assert first == again


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_vector_env(mode: str) -> None:
    vec = gymnasium.make_vec(
        "deathnote/Confrontation-v0", num_envs=3, vectorization_mode=mode, opponents="random"
    )
    try:
        obs, _ = vec.reset(seed=7)
        assert obs["observation"].shape == (3, 346) and obs["action_mask"].shape == (3, 84)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(60):
            # An env that just ended shows an empty mask; its next action only resets it.
            actions = np.array(
                [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]]
            )
            obs, rewards, term, trunc, _ = vec.step(actions)
            ended += int(term.sum())
            assert set(rewards[term].tolist()) <= {-1.0, 1.0}
            # Autoreset: an env that ended plays its next episode on the following step.
            for row, done in zip(obs["action_mask"], term | trunc, strict=True):
                assert done or row.any()
        assert ended >= 3
    finally:
        vec.close()
