"""The observation vector read from the state is the vector of the view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from deathnote.engine import OMNISCIENT, SPECTATOR
from deathnote.engine.rng import choice
from deathnote.games.icg import observe

from .helpers import new


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {"rules": "light"}),
        (5, {"rules": "kira"}),
        (6, {"rules": "kira", "shinigami_eyes": True}),
        (8, {"rules": "light", "shinigami_eyes": True}),
    ],
)
def test_state_vector_equals_the_vector_of_the_view(players: int, options: dict) -> None:  # type: ignore[type-arg]
    """For every viewer at every step of random games, the end included."""
    game = new(players, 0, **options).game
    for seed in range(4):
        m = new(players, seed, **options)
        rng = random.Random(seed)
        while True:
            state, asked = m.state, m.pending()
            for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
                ask = viewer in asked
                fast = observe.encode_state(state, viewer, ask)
                slow = observe.encode(game.view(state, viewer), viewer, ask)
                assert fast.dtype == np.float32
                assert np.array_equal(fast, slow), (seed, viewer, state.phase)
                assert np.array_equal(m.observation_tensor(viewer), slow)
            if m.outcome() is not None:
                break
            seat = min(asked)
            m.submit(seat, choice(rng, m.legal(seat)))
