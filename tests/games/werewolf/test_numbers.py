"""Stable action numbers and the observation tensor."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Match
from deathnote.games.werewolf.observe import observation_size, sections

from .helpers import new, poke, st


def random_steps(players: int, seed: int, **options: Any) -> list[Match]:
    """Forks of a random game at every step."""
    m = Match.create("werewolf", players, seed, options)
    agents = [RandomAgent(s) for s in range(players)]
    rngs = [agent_rng(seed, s) for s in range(players)]
    out = []
    while m.outcome() is None:
        out.append(m.fork())
        s = min(m.pending())
        m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
    out.append(m)
    return out


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_every_legal_action_has_a_stable_number(players: int) -> None:
    space = new(players, 0).action_space
    ids = [space.id(a) for a in space.actions]  # type: ignore[attr-defined]
    assert ids == list(range(space.size))
    assert space.size == 8 + 9 + players + 2 + 11 + players + (players + 1) + players + 1
    seen = set()
    for seed in range(4):
        for m in random_steps(players, seed):
            assert [a.to_json() for a in m.action_space.actions] == [  # type: ignore[attr-defined]
                a.to_json()
                for a in space.actions  # type: ignore[attr-defined]
            ]
            for seat in m.pending():
                legal = m.legal(seat)
                mask = m.legal_mask(seat)
                assert int(mask.sum()) == len(legal)
                for a in legal:
                    i = m.action_id(a)
                    assert m.action_at(i) == a and mask[i] == 1
                    assert m.action_at(i, seat=seat).label == a.label
                    seen.add(a.kind)
    assert {"play", "discard", "target", "give", "wait"} <= seen


@pytest.mark.parametrize("players", [4, 7])
def test_observation_has_a_fixed_shape_and_layout(players: int) -> None:
    assert observation_size(players) == sum(n for _, n in sections(players))
    for m in random_steps(players, 3)[::7]:
        for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
            obs = m.observation_tensor(viewer)
            assert obs.dtype == np.float32 and obs.shape == m.observation_shape()
            assert obs.shape == (observation_size(players),)


def test_observation_equal_for_worlds_the_viewer_cannot_tell_apart() -> None:
    # Seat 2's hand and the deck's bottom card trade places: seat 0 and the spectator see
    # the same table, so their tensors are equal; seat 2's differs.
    a, b = new(5, 4), new(5, 4)
    hand = st(b).seats[2].hand
    deck = st(b).deck
    j = next(i for i, c in enumerate(deck) if c != hand[0])
    hand[0], deck[j] = deck[j], hand[0]
    poke(b)
    for viewer in (0, 1, SPECTATOR):
        assert np.array_equal(a.observation_tensor(viewer), b.observation_tensor(viewer))
    assert not np.array_equal(a.observation_tensor(2), b.observation_tensor(2))
    assert not np.array_equal(a.observation_tensor(OMNISCIENT), b.observation_tensor(OMNISCIENT))


def test_observation_equal_in_sampled_worlds() -> None:
    import random

    rng = random.Random(9)
    for players in (5, 7):
        steps = random_steps(players, 21)
        for m in steps[:: max(1, len(steps) // 8)]:
            for viewer in [*range(players), SPECTATOR]:
                world = m.sample_world(viewer, rng)
                assert np.array_equal(
                    world.observation_tensor(viewer), m.observation_tensor(viewer)
                )


@pytest.mark.parametrize(("players", "handgun"), [(4, "table"), (5, "shooter"), (7, "table")])
def test_state_observation_equals_the_observation_of_the_view(players: int, handgun: str) -> None:
    """The tensor read from the state is exactly the view's tensor, for every viewer at
    every step of random games, the end included (the handgun option's slot as well)."""
    from deathnote.games.werewolf.observe import observation, state_observation
    from deathnote.games.werewolf.view import build_view

    for seed in range(6):
        for m in random_steps(players, seed, handgun_reveal=handgun):
            state, asked = m.state, m.pending()
            for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
                ask = viewer in asked
                fast = state_observation(state, viewer, ask)
                slow = observation(build_view(state, viewer), players, viewer, ask)
                assert fast.dtype == np.float32
                assert np.array_equal(fast, slow), (seed, viewer, state.step)
                assert np.array_equal(m.observation_tensor(viewer), slow)
