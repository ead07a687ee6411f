"""Match.fork, Match.sample_world, stable action numbers and option models on the toy game."""

from __future__ import annotations

import random

import pytest

from deathnote.engine import Action, IllegalAction, Match, OptionsError, ReplayError
from deathnote.engine.options import coerce, schema
from deathnote.engine.registry import get_game

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_fork_is_independent() -> None:
    match = Match.create("toy", 2, seed=5)
    match.submit(0, {"kind": "pick", "parity": "odd"})
    twin = match.fork()
    twin.submit(1, {"kind": "pick", "parity": "even"})
    assert len(match.actions) == 1 and len(twin.actions) == 2
    assert match.state.picks == {0: "odd"}
    assert set(match.pending()) == {1}
    # The fork's generator continues from the same point: both roll the same die.
    match.submit(1, {"kind": "pick", "parity": "even"})
    assert match.view("omniscient") == twin.view("omniscient")


def test_sample_world_keeps_the_viewers_view_and_redraws_the_rest() -> None:
    match = Match.create("toy", 2, seed=5)
    match.submit(0, {"kind": "pick", "parity": "odd"})
    rng = random.Random(1)
    secrets = set()
    picks = set()
    for _ in range(200):
        world = match.sample_world(1, rng)
        assert world.view(1) == match.view(1)
        assert world.legal(1) == match.legal(1)
        secrets.add(world.state.secret)
        picks.add(world.state.picks[0])
        world.submit(1, world.legal(1)[0])  # playable
        with pytest.raises(ReplayError):
            world.record()
    assert len(secrets) > 50 and picks == {"odd", "even"}
    assert match.state.picks == {0: "odd"}


def test_action_numbers_and_mask() -> None:
    match = Match.create("toy", 2, seed=5)
    assert match.action_space.size == 2
    assert match.action_at(1) == Action.make("pick", parity="even")
    assert match.action_at(1, seat=0).label == "Pick even"
    assert match.action_id({"kind": "pick", "parity": "odd"}) == 0
    assert list(match.legal_mask(0)) == [1, 1]
    with pytest.raises(IllegalAction):
        match.action_at(2)
    with pytest.raises(IllegalAction):
        match.action_id({"kind": "pick", "parity": "blue"})
    assert match.observation_tensor(0).shape == match.observation_shape()


def test_options_model_is_strict_for_json_and_coerces_text() -> None:
    game = get_game("toy")
    assert Match.create("toy", 2, 1, {"target": 4}).options == {"target": 4}
    assert Match.create("toy", 2, 1).options == {"target": 3}
    with pytest.raises(OptionsError, match="no option 'colour'"):
        Match.create("toy", 2, 1, {"colour": 1})
    with pytest.raises(OptionsError, match="target"):
        Match.create("toy", 2, 1, {"target": True})
    with pytest.raises(OptionsError, match="target"):
        Match.create("toy", 2, 1, {"target": "4"})
    assert coerce(game, {"target": "4"}) == {"target": 4}
    assert schema(game)["properties"]["target"]["default"] == 3
