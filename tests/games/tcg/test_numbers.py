"""Stable action numbers (TCG-NUM-01), observation tensors (TCG-NUM-02) and typed decisions
(TCG-TURN-05)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from deathnote.agents import make_agent, observe
from deathnote.engine import OMNISCIENT, SPECTATOR, Action, Match
from deathnote.engine.rng import agent_rng
from deathnote.games.tcg import GAME, numbers
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


def _reference_side(state: Any, lay: Any, seat: int, own: bool, out: np.ndarray, at: int) -> None:
    """One side of TCG-NUM-02, slot by slot, each card added up copy by copy."""
    player = state.players[seat]
    turn = state.turn
    out[at : at + 3] = player.points / 13, len(player.deck) / 40, len(player.hand) / 40
    out[at + 3 + ("pending", "kept", "redrawn").index(player.mulligan)] = 1.0
    out[at + 6] = player.mark is not None
    out[at + 7] = player.protected
    out[at + 8] = player.deathnote_turn == turn and turn > 0
    if seat == state.current:
        out[at + 9 : at + 11] = player.placed, player.allowance
    out[at + 11] = player.turns_taken / 25
    at += numbers.SIDE
    for fc in player.field:
        base = at + numbers.PER_NAME * lay.name_at[fc.name]
        special = fc.special
        out[base : base + numbers.PER_NAME] = (
            1.0,
            fc.face_up,
            fc.upright,
            special is not None,
            special is not None and fc.special_face_up,
            fc.flipped_turn == turn,
            special is not None and fc.special_turn == turn,
            state.cards[fc.number].points / 3,
        )
        if special is not None and (fc.special_face_up or own):
            out[at + lay.specials_from + lay.special_at[special]] += 1.0
    for n in player.discard:
        out[at + lay.discard_from + lay.id_at[n]] += 0.25
    if own:
        for n in player.hand:
            out[at + lay.hand_from + lay.id_at[n]] += 0.25
        if player.mark is not None:
            out[at + lay.hand_from + len(lay.ids) + lay.name_at[player.mark.target]] = 1.0


def _reference_observation(state: Any, viewer: Any) -> np.ndarray:
    """TCG-NUM-02 as the rules doc says it, written plainly (numpy slot by slot)."""
    lay = numbers.layout(state)
    out = np.zeros(lay.total, np.float32)
    me = viewer if isinstance(viewer, int) else 0
    out[0] = state.turn / 50
    out[1] = state.current == me
    out[2] = state.first == me
    if state.winner is not None:
        out[3 if state.winner == me else 4] = 1.0
    out[5 + numbers.PHASES.index(state.phase)] = 1.0
    if state.choice is not None and viewer in (OMNISCIENT, state.current):
        out[5 + len(numbers.PHASES) + numbers.STEPS.index(state.choice["step"])] = 1.0
    for k, seat in enumerate((me, 1 - me)):
        own = viewer in (OMNISCIENT, seat)
        _reference_side(state, lay, seat, own, out, numbers.GLOBAL + k * lay.side)
    return out


def test_observation_equals_the_plain_slot_by_slot_encoding() -> None:
    # The tensor counts each pile's copies before writing and writes a Character's slots
    # in one go; every viewer's tensor at every step of random games equals the plain one.
    for seed in range(6):
        match = Match.create("tcg", 2, seed)
        rng = random.Random(seed)
        while True:
            for viewer in (0, 1, SPECTATOR, OMNISCIENT):
                expected = _reference_observation(match.state, viewer)
                assert GAME.observation_tensor(match.state, viewer).tobytes() == expected.tobytes()
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            legal = match.legal(seat)
            match.submit(seat, legal[rng.randrange(len(legal))])


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
