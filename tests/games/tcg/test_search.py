"""TCG-BOT-01: the search bot's play-out policy and estimate."""

from __future__ import annotations

import random

from deathnote.games.tcg import GAME
from deathnote.games.tcg.search import VALUE_MODEL, features, turn_start

from .helpers import L_CHAR, LIGHT, MATSUDA, MISA, RYUK, pass_turns, put, started, to_action_phase


def test_playout_policy_picks_legal_actions_and_ends_games_by_points() -> None:
    """Play-outs of the policy alone: every choice is legal and the games end by points,
    far sooner than random play (about 200 actions a game)."""
    policy = GAME.playout_policy()
    lengths = []
    for seed in range(12):
        state, rng = started(first=seed % 2, seed=seed)
        prng = random.Random(seed)
        count = 0
        while state.winner is None and count < 600:
            seat = state.current
            legal = GAME.legal(state, seat)
            action = policy(state, seat, legal, prng)
            assert action in legal
            GAME.apply(state, seat, action, rng)
            count += 1
        assert state.winner is not None
        assert state.condition == "points", state.condition
        lengths.append(count)
    assert sum(lengths) / len(lengths) < 120


def test_playout_policy_works_to_win_and_places_free_characters() -> None:
    """Twelve points and an upright Character: it Works (not a random action: one choice
    in ten is random, so most seeds Work); a free Character in hand is placed."""
    policy = GAME.playout_policy()
    state, rng = started(first=0, seed=3)
    pass_turns(state, rng, 2)  # seat 0's second turn: an action phase
    me = state.players[0]
    put(state, 0, MATSUDA)
    to_action_phase(state, rng)
    me.points = 12
    legal = GAME.legal(state, 0)
    picks = [policy(state, 0, legal, random.Random(i)) for i in range(40)]
    assert sum(a.kind == "work" for a in picks) >= 32
    state, rng = started(first=0, seed=3)
    free = [a for a in GAME.legal(state, 0) if a.kind == "place"]
    free = [a for a in free if state.cards[a["card"]].cost == 0]
    if free:
        picks = [policy(state, 0, GAME.legal(state, 0), random.Random(i)) for i in range(40)]
        assert sum(a.kind == "place" for a in picks) >= 32


def test_evaluate_estimates_at_a_turn_start_only_and_prefers_the_leader() -> None:
    """An estimate only before the seat to move has done anything this turn (None after
    it places a Character); the two chances add up to 1; the seat with 12 points and two
    working Characters against none is the clear favourite, whoever moves; a finished game
    gives its result."""
    state, rng = started(first=0, seed=5)
    assert turn_start(state)
    values = GAME.evaluate(state)
    assert values is not None and abs(sum(values) - 1.0) < 1e-9
    place = [a for a in GAME.legal(state, 0) if a.kind == "place"]
    assert place
    GAME.apply(state, 0, place[0], rng)
    assert GAME.evaluate(state) is None
    # An action that changes nothing (an attach cancelled) still leaves the turn's start:
    # the search cannot stall on the estimate of its own turn's start.
    state, rng = started(first=0, seed=5)
    state.players[0].hand.append(RYUK)
    put(state, 0, LIGHT)
    attach = [a for a in GAME.legal(state, 0) if a.kind == "attach"]
    assert attach
    GAME.apply(state, 0, attach[0], rng)
    cancel = [a for a in GAME.legal(state, 0) if a.kind == "cancel"]
    assert cancel
    GAME.apply(state, 0, cancel[0], rng)
    assert not turn_start(state) and GAME.evaluate(state) is None
    for leader in (0, 1):
        state, rng = started(first=0, seed=5)
        state.players[leader].points = 12
        put(state, leader, LIGHT)
        put(state, leader, L_CHAR if leader else MISA)
        values = GAME.evaluate(state)
        assert values is not None
        assert values[leader] > 0.9
    state.winner = 1
    assert GAME.evaluate(state) == (0.0, 1.0)


def test_evaluate_counts_specials_and_a_win_within_reach() -> None:
    """The estimate's features (one weight each in ``VALUE_MODEL``): a Special attached
    (face down or up) raises the chance of its side; Work that reaches 13 this turn makes
    the seat to move the favourite, the opponent's that reaches 13 next turn lowers it."""
    assert len(VALUE_MODEL) == len(features(started(first=0, seed=5)[0]))
    state, _ = started(first=0, seed=5)
    base = GAME.evaluate(state)
    assert base is not None
    put(state, 0, LIGHT, special=RYUK)
    down = GAME.evaluate(state)
    state, _ = started(first=0, seed=5)
    put(state, 0, LIGHT)
    bare = GAME.evaluate(state)
    state, _ = started(first=0, seed=5)
    put(state, 0, LIGHT, special=RYUK, special_up=True)
    up = GAME.evaluate(state)
    assert down is not None and bare is not None and up is not None
    assert down[0] > bare[0] and up[0] > bare[0]
    # Two working Characters (1 point each) a side, 10 points for the opponent: with 11
    # points the seat to move reaches 13 this turn, with 10 it does not.
    state, _ = started(first=0, seed=5)
    for seat in (0, 1):
        put(state, seat, LIGHT)
        put(state, seat, MISA)
    state.players[1].points = 10
    state.players[0].points = 11
    near = features(state)
    assert near[9] == 1.0 and near[10] == 0.0
    reach = GAME.evaluate(state)
    state.players[0].points = 10
    short = GAME.evaluate(state)
    assert reach is not None and short is not None and reach[0] - short[0] > 0.3
    state, _ = started(first=0, seed=5)
    put(state, 1, LIGHT)
    state.players[1].points = 12
    assert features(state)[10] == 1.0
    threat = GAME.evaluate(state)
    state.players[1].points = 11
    safe = GAME.evaluate(state)
    assert threat is not None and safe is not None and threat[0] < safe[0]


def test_search_writes_only_pages_that_can_hit() -> None:
    """The search's tree considers only pages naming a Character on the opponent's field
    (face up or down): never its own Characters' names, names not in play, or Cancel;
    every other decision keeps all its actions (TCG-BOT-01)."""
    state, rng = started(first=0)
    put(state, 1, MATSUDA)
    put(state, 1, MISA, face_up=False)
    pass_turns(state, rng, 2)
    put(state, 0, LIGHT, special=RYUK, special_up=True)
    put(state, 0, L_CHAR)
    to_action_phase(state, rng)
    before = GAME.legal(state, 0)
    assert list(GAME.search_actions(state, 0, before)) == list(before)
    dn = [a for a in before if a.kind == "act" and a["ability"] == "deathnote"]
    GAME.apply(state, 0, dn[0], rng)
    legal = GAME.legal(state, 0)
    names = {fc.name for fc in state.players[1].field}
    kept = GAME.search_actions(state, 0, legal)
    assert {a["target"] for a in kept if a.kind == "target"} == names
    assert all(a.kind == "target" for a in kept)
    assert len(legal) > len(kept) + len(state.players[0].field)
