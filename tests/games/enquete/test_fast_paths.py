"""The search's hot paths give what the plain calls give: ``legal`` (``moves`` written
out), ``apply_quiet`` (one quiet context per thread, pointed at each state in turn) and
``ring`` (no membership test)."""

from __future__ import annotations

import random

import pytest

from deathnote.engine import Match
from deathnote.games.enquete.flow import ring, role_info
from deathnote.games.enquete.sampling import fork_state
from deathnote.games.enquete.state import EnqState

from .helpers import st


@pytest.mark.parametrize("players", [4, 5, 8])
def test_legal_is_the_movers_actions_of_moves(players: int) -> None:
    checked = 0
    for seed in range(3):
        m = Match.create("enquete", players, seed)
        game = m.game
        rng = random.Random(seed)
        while m.outcome() is None:
            state = st(m)
            mover, actions = game.moves(state)
            for seat in range(players):
                expected = list(actions) if seat == mover else []
                assert list(game.legal(state, seat)) == expected, (seed, seat)
            checked += 1
            seat = min(m.pending())
            legal = m.legal(seat)
            m.submit(seat, legal[rng.randrange(len(legal))])
        assert not any(game.legal(st(m), seat) for seat in range(players))
    assert checked > 100


@pytest.mark.parametrize("players", [5, 7])
def test_apply_quiet_plays_as_apply_on_states_in_turn(players: int) -> None:
    # Two copies played in alternation through ``apply_quiet`` (the one context goes from
    # one state to the other at every step) end as the same game played through ``apply``.
    for seed in range(3):
        m = Match.create("enquete", players, seed)
        game = m.game
        loud, quiet = fork_state(st(m)), [fork_state(st(m)), fork_state(st(m))]
        rngs = [random.Random(seed), random.Random(seed), random.Random(seed)]
        pick = random.Random(seed + 100)
        steps = 0
        while not loud.over and steps < 2000:
            mover, legal = game.moves(loud)
            assert mover is not None
            action = legal[pick.randrange(len(legal))]
            game.apply(loud, mover, action, rngs[0])
            for q, rng in zip(quiet, rngs[1:], strict=True):
                game.apply_quiet(q, mover, action, rng)
            steps += 1
            for q in quiet:
                assert q.stack == loud.stack and q.seats == loud.seats, (seed, steps)
        assert quiet[0] == loud and quiet[1] == loud
        assert steps > 50


def _plain_ring(st: EnqState, start: int, direction: str, include_start: bool) -> list[int]:
    """``ring`` as first written (each seat looked for in the list before it is added)."""
    d = 1 if direction == "clockwise" else -1
    out: list[int] = []
    for i in range(0 if include_start else 1, st.players + (0 if include_start else 1)):
        s = (start + d * i) % st.players
        if s != st.detective and not st.seats[s].dead and s not in out:
            out.append(s)
    return out


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_ring_lists_the_living_players_as_the_plain_walk(players: int) -> None:
    state = st(Match.create("enquete", players, 1))
    for mask in range(1 << players):
        for s, x in enumerate(state.seats):
            x.dead = bool(mask >> s & 1)
        for start in range(players):
            for direction in ("clockwise", "counterclockwise"):
                for include in (True, False):
                    got = ring(state, start, direction, include)
                    assert got == _plain_ring(state, start, direction, include)


def test_role_info_is_the_role_card_with_that_id() -> None:
    state = st(Match.create("enquete", 6, 2))
    cards = state.content["roles"]
    for card in cards:
        assert role_info(state, card["id"]) is next(r for r in cards if r["id"] == card["id"])
    with pytest.raises(KeyError):
        role_info(state, "ryuk")
