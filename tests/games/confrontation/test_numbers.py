"""Stable action numbers and observation tensors (CONF-NUM-01, CONF-NUM-02)."""

from __future__ import annotations

import random

import numpy as np

from deathnote.engine import rng as draw
from deathnote.engine.actions import OMNISCIENT, SPECTATOR
from deathnote.engine.match import Match
from deathnote.engine.spaces import TableSpace
from deathnote.games.confrontation import GAME
from deathnote.games.confrontation.state import KIRA, L

from .test_sample import mid_games

VIEWERS = (KIRA, L, SPECTATOR, OMNISCIENT)


def test_every_legal_action_has_a_stable_number() -> None:
    sizes = {}
    for chapter in (1, 2):
        space = GAME.action_space(2, {"chapter": chapter})
        assert space is GAME.action_space(2, {"chapter": chapter})
        sizes[chapter] = space.size
        for seed in range(40):
            match = Match.create("confrontation", 2, seed=seed, options={"chapter": chapter})
            rng = random.Random(seed)
            while match.outcome() is None:
                seat = min(match.pending())
                for action in match.legal(seat):
                    index = match.action_id(action)
                    assert match.action_at(index) == action
                    assert match.action_at(index, seat) is action
                mask = match.legal_mask(seat)
                assert mask.sum() == len(match.legal(seat))
                match.submit(seat, draw.choice(rng, match.legal(seat)))
    # Chapter 1's table holds only what Chapter 1 can do: no Switch, dice, Apple or Star
    assert sizes == {1: 2 + 20 + 2 + 60, 2: 2 + 20 + 2 + 2 + 11 + 4 + 715 + 120}
    tiny = GAME.action_space(2, {"variant": "tiny"})
    assert tiny.size == 2 + 3 + 2 + 2 * 2
    # Chapter 1: the day, the names, the Chase, then news and kill per criminal (1 ... 30)
    chapter1 = GAME.action_space(2, {"chapter": 1})
    assert isinstance(chapter1, TableSpace)
    kinds = [a.kind for a in chapter1.actions]
    assert (
        kinds
        == ["follow", "accuse"] + ["name"] * 20 + ["chase"] * 2 + ["news"] * 30 + ["kill"] * 30
    )
    assert [a.args for a in chapter1.actions[24:]] == [(("criminal", k),) for k in range(1, 31)] * 2


def test_observation_is_fixed_float32_and_only_from_the_view() -> None:
    """Worlds the viewer cannot tell apart (sampled for it) give equal tensors; the
    tensor changes with what the viewer sees."""
    rng = random.Random(8)
    for chapter in (1, 2):
        shape = GAME.observation_shape(2, {"chapter": chapter})
        for match in mid_games(chapter, 25, seed=30 + chapter):
            for viewer in VIEWERS:
                obs = match.observation_tensor(viewer)
                assert obs.dtype == np.float32 and obs.shape == shape
                for _ in range(3):
                    world = match.sample_world(viewer, rng)
                    assert np.array_equal(world.observation_tensor(viewer), obs)
            kira, l_obs = match.observation_tensor(KIRA), match.observation_tensor(L)
            assert not np.array_equal(kira, l_obs)


def test_state_tensor_equals_the_tensor_of_the_view() -> None:
    """The fast tensor (from the state) is exactly the view's tensor, for every viewer at
    every step of random games of both chapters and the tiny variant, the end included."""
    from deathnote.games.confrontation import numbers
    from deathnote.games.confrontation.view import build_view

    for options in ({"chapter": 1}, {"chapter": 2}, {"variant": "tiny"}):
        for seed in range(12):
            match = Match.create("confrontation", 2, seed=seed, options=options)
            rng = random.Random(seed)
            while True:
                state = match.state
                t = state.tables
                for viewer in VIEWERS:
                    fast = numbers.state_tensor(state, viewer)
                    slow = numbers.tensor(build_view(state, viewer), viewer, t.chapter, t.variant)
                    assert fast is not None and fast.dtype == np.float32
                    assert np.array_equal(fast, slow), (options, seed, viewer, state.phase)
                if match.outcome() is not None:
                    break
                seat = min(match.pending())
                match.submit(seat, draw.choice(rng, match.legal(seat)))


def test_state_tensor_leaves_custom_content_to_the_view() -> None:
    import copy

    from deathnote.games.confrontation import content, numbers, rules

    data = copy.deepcopy(content.load(None, 1))
    state = rules.new_state(content.tables(data, 1), random.Random(1))
    assert numbers.state_tensor(state, L) is None
    assert GAME.observation_tensor(state, L).shape == GAME.observation_shape(2, {})


def test_the_search_key_is_equal_exactly_when_the_observation_is() -> None:
    """A search tree keys a seat's information set by ``search_key`` instead of the
    observation's bytes: for each viewer, over every step of random games of both chapters
    and the tiny variant and the worlds sampled from each seat's view there (whose
    observations equal the true state's), equal keys go with equal observations and
    unequal keys with unequal ones."""
    key_of: dict[tuple[object, bytes], object] = {}
    tensor_of: dict[tuple[object, object], bytes] = {}
    merged = 0  # different states with the same observation: the keys must merge them too
    for options in ({"chapter": 1}, {"chapter": 2}, {"variant": "tiny"}):
        for seed in range(10):
            match = Match.create("confrontation", 2, seed=seed, options=options)
            rng = random.Random(seed)
            while True:
                states = [match.state]
                if match.outcome() is None:
                    states += [match.sample_world(v, rng).state for v in (KIRA, L) for _ in "ab"]
                for state in states:
                    for viewer in VIEWERS:
                        tensor = GAME.observation_tensor(state, viewer).tobytes()
                        key = GAME.search_key(state, viewer)
                        hash(key)
                        known = key_of.setdefault((viewer, tensor), key)
                        merged += known is not key
                        assert known == key, (options, seed, viewer, state.phase)
                        assert tensor_of.setdefault((viewer, key), tensor) == tensor
                if match.outcome() is not None:
                    break
                seat = min(match.pending())
                match.submit(seat, draw.choice(rng, match.legal(seat)))
    assert merged > 1000 and len(key_of) > 1000
