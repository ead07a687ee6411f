"""Stable action numbers and observation tensors."""

from __future__ import annotations

import random

import numpy as np
import pytest

from deathnote.agents import RandomAgent, agent_rng, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Match


@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_legal_action_has_a_stable_number(players: int) -> None:
    sizes = set()
    for seed in range(5):
        m = Match.create("enquete", players, seed)
        sizes.add(m.action_space.size)
        agents = [RandomAgent(s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while m.outcome() is None:
            s = min(m.pending())
            ids = [m.action_id(a) for a in m.legal(s)]
            assert len(set(ids)) == len(ids)
            for a, i in zip(m.legal(s), ids, strict=True):
                assert m.action_at(i) == a and m.action_at(i, seat=s).label == a.label
            assert int(m.legal_mask(s).sum()) == len(ids)
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
    assert len(sizes) == 1
    again = Match.create("enquete", players, 99).action_space
    assert [again.at(i) for i in range(again.size)] == list(m.action_space.actions)  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [4, 5, 8])
def test_observations_have_a_fixed_shape_and_only_what_the_viewer_sees(players: int) -> None:
    rng = random.Random(players)
    differ = 0
    for seed in range(3):
        m = Match.create("enquete", players, seed)
        agents = [RandomAgent(s) for s in range(players)]
        rngs = [agent_rng(seed, s) for s in range(players)]
        while m.outcome() is None:
            if len(m.actions) % 11 == 0:
                for viewer in [*range(players), SPECTATOR]:
                    obs = m.observation_tensor(viewer)
                    assert obs.shape == m.observation_shape() and obs.dtype == np.float32
                    world = m.sample_world(viewer, rng)
                    # A world the viewer cannot tell apart gives the same tensor...
                    assert np.array_equal(world.observation_tensor(viewer), obs)
                    # ...while the omniscient one usually sees more.
                    differ += not np.array_equal(world.observation_tensor(OMNISCIENT), obs)
            s = min(m.pending())
            m.submit(s, agents[s].choose(observe(m, s, rngs[s])))
        assert m.observation_tensor(0).shape == m.observation_shape()
    assert differ > 0


@pytest.mark.parametrize("players", [4, 6, 8])
def test_state_vector_equals_the_vector_of_the_view(players: int) -> None:
    """The vector read from the state is exactly the view's vector, for every viewer at
    every step of random games, the end included."""
    from deathnote.games.enquete.learning import encode, encode_state

    for seed in range(3):
        m = Match.create("enquete", players, seed)
        rng = random.Random(seed)
        while True:
            state = m.state
            asked = next(iter(m.pending()), None)
            for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
                fast = encode_state(state, viewer, asked)
                slow = encode(m.game.view(state, viewer), players, asked)
                assert fast.dtype == np.float32
                assert np.array_equal(fast, slow), (seed, viewer, len(m.actions))
                assert np.array_equal(m.observation_tensor(viewer), slow)
            if m.outcome() is not None:
                break
            s = min(m.pending())
            legal = m.legal(s)
            m.submit(s, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players", [4, 7])
def test_vector_remembered_by_table_version_equals_a_fresh_one(players: int) -> None:
    """The slots every viewer shares are remembered by the state's ``table_version``,
    kept while only the stack changes (a window's passes). Along random games played as
    the learning adapters play them (``apply_quiet``), and in copies and sampled worlds
    of their positions, every viewer's vector equals the one built from its view alone."""
    from deathnote.games.enquete import GAME
    from deathnote.games.enquete.learning import encode, encode_state

    viewers = [*range(players), SPECTATOR, OMNISCIENT]
    kept = 0
    for seed in range(4):
        state = GAME.fork_state(Match.create("enquete", players, seed).state)
        rng, draw = random.Random(seed), random.Random(-seed)
        while True:
            asked = GAME.mover(state)
            for viewer in viewers:
                slow = encode(GAME.view(state, viewer), players, asked)
                assert np.array_equal(encode_state(state, viewer, asked), slow), viewer
            if asked is None:
                break
            if rng.random() < 0.2:
                twin = GAME.fork_state(state)
                assert twin.table_version != state.table_version
                viewer = rng.choice(viewers)
                world = GAME.sample_state(state, viewer, draw)
                for other in (twin, world):
                    slow = encode(GAME.view(other, viewer), players, asked)
                    assert np.array_equal(encode_state(other, viewer, asked), slow)
                    assert np.array_equal(encode_state(state, viewer, asked), slow)
            legal = GAME.legal(state, asked)
            version = state.table_version
            GAME.apply_quiet(state, asked, legal[rng.randrange(len(legal))], draw)
            kept += state.table_version == version
    assert kept > 50  # the remembered slots were used (passes in windows)
