from __future__ import annotations

import pytest

from deathnote.engine import IllegalAction
from deathnote.interop import MatchEnv

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_env_plays_to_the_end_with_rewards() -> None:
    env = MatchEnv("toy")
    obs = env.reset(seed=4)
    assert env.rewards() == {0: 0.0, 1: 0.0}
    steps = 0
    while not env.done:
        assert obs["viewer"] == env.agent_selection
        obs = env.step(env.rng.randrange(len(obs["legal"])))
        steps += 1
    rewards = env.rewards()
    assert sorted(rewards.values()) == [-1.0, 1.0]
    winner = env.match.outcome().winning_seats[0]  # type: ignore[union-attr]
    assert rewards[winner] == 1.0
    assert steps == len(env.match.actions)  # type: ignore[union-attr]


def test_env_rejects_bad_index_and_use_before_reset() -> None:
    env = MatchEnv("toy")
    with pytest.raises(IllegalAction, match="reset"):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(IllegalAction, match=r"0\.\.1"):
        env.step(7)
    assert env.match is not None and env.match.actions == []
