"""Stable action numbers (TCG-NUM-01), observation tensors (TCG-NUM-02) and typed decisions
(TCG-TURN-05)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from deathnote.agents import make_agent, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Action, Match
from deathnote.engine.rng import agent_rng
from deathnote.games.tcg import GAME
from tests.games.tcg.test_worlds import played


def test_every_legal_action_has_a_stable_number() -> None:
    space = GAME.action_space(2, {})
    again = GAME.action_space(2, GAME.parse_options(2, {"first": 1}))
    assert [again.at(i) for i in range(again.size)] == [space.at(i) for i in range(space.size)]
    seen = set()
    for seed in range(20):
        match = Match.create("tcg", 2, seed)
        agents = [make_agent("tcg", "heuristic", s) for s in (0, 1)]
        rngs = [agent_rng(seed, s) for s in (0, 1)]
        rng = random.Random(seed)
        while match.outcome() is None:
            seat = min(match.pending())
            legal = match.legal(seat)
            for action in legal:
                number = match.action_id(action)
                assert match.action_at(number) == action
                seen.add(number)
            mask = match.legal_mask(seat)
            assert mask.sum() == len(legal) and mask.shape == (space.size,)
            if seed % 2:
                action = legal[rng.randrange(len(legal))]
            else:
                action = agents[seat].choose(observe(match, seat, rngs[seat]))
            match.submit(seat, action)
    assert len(seen) > space.size // 3


def test_observation_has_a_fixed_shape_and_hides_what_the_viewer_cannot_see() -> None:
    shape = GAME.observation_shape(2, {})
    rng = random.Random(2)
    for seed in range(8):
        for steps in (0, 30, 90):
            match = played(seed, steps, "heuristic")
            for viewer in (0, 1, SPECTATOR, OMNISCIENT):
                tensor = match.observation_tensor(viewer)
                assert tensor.shape == shape and tensor.dtype == np.float32
                for _ in range(3):
                    world = match.sample_world(viewer, rng)
                    assert np.array_equal(world.observation_tensor(viewer), tensor)


def test_observation_shows_own_secrets() -> None:
    match = played(4, 40, "heuristic")
    other = match.fork()
    player = other.state.players[0]
    swap = next(n for n in sorted(other.state.cards) if n not in player.hand)
    player.hand[0] = swap
    assert not np.array_equal(other.observation_tensor(0), match.observation_tensor(0))
    assert np.array_equal(other.observation_tensor(1), match.observation_tensor(1))
    assert np.array_equal(other.observation_tensor(SPECTATOR), match.observation_tensor(SPECTATOR))


def test_decisions_carry_data() -> None:
    for seed in range(6):
        match = Match.create("tcg", 2, seed)
        agents = [make_agent("tcg", "heuristic", s) for s in (0, 1)]
        rngs = [agent_rng(seed, s) for s in (0, 1)]
        steps = set()
        while match.outcome() is None:
            seat, decision = min(match.pending().items())
            assert decision.data["step"] in (
                "mulligan",
                "character",
                "action",
                "attach",
                "act",
                "event",
            )
            assert decision.data["turn"] == match.state.turn
            steps.add(decision.data["step"])
            if decision.kind == "action":
                works = {a["character"] for a in match.legal(seat) if a.kind == "work"}
                assert set(decision.data["work"]) == works
            if decision.kind == "target":
                assert decision.data["step"] == match.state.choice["step"]  # type: ignore[index]
            match.submit(seat, agents[seat].choose(observe(match, seat, rngs[seat])))
        assert {"mulligan", "character", "action"} <= steps


def test_heuristic_bot_fails_loudly_on_broken_data() -> None:
    match = Match.create("tcg", 2, seed=1)
    while next(iter(match.pending().values())).kind != "action":
        seat = min(match.pending())
        match.submit(seat, match.legal(seat)[-1])
    seat = min(match.pending())
    obs = observe(match, seat, agent_rng(1, seat))
    obs.view["decision"]["data"] = {}
    with pytest.raises(KeyError):
        make_agent("tcg", "heuristic", seat).choose(obs)
    assert isinstance(
        make_agent("tcg", "heuristic", seat).choose(observe(match, seat, agent_rng(1, seat))),
        Action,
    )
