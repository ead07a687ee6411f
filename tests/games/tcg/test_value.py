"""The search bot's estimate of a TCG position (TCG-BOT-02)."""

from __future__ import annotations

from deathnote.games.tcg import GAME
from deathnote.games.tcg.state import ACTION

from .helpers import LIGHT, MISA, fresh, put, started


def test_evaluate_estimates_at_the_start_of_a_turn_only() -> None:
    state, _rng = fresh()
    assert GAME.evaluate(state) is None  # the mulligans
    state, _rng = started()
    even = GAME.evaluate(state)
    assert even is not None and abs(sum(even) - 1.0) < 1e-9
    # The player to move is ahead by victory points and on the field: a better chance.
    state.players[0].points = 6
    put(state, 0, LIGHT)
    ahead = GAME.evaluate(state)
    assert ahead is not None and ahead[0] > even[0] and ahead[1] < even[1]
    # Behind: worse than even, from the other seat's side too.
    state.players[0].points, state.players[1].points = 0, 8
    put(state, 1, MISA)
    put(state, 1, "DN-S12")
    behind = GAME.evaluate(state)
    assert behind is not None and behind[0] < even[0]
    # After a Character is placed, in the Action phase or in a two-step choice: no estimate.
    state.players[0].placed = 1
    assert GAME.evaluate(state) is None
    state.players[0].placed = 0
    state.phase = ACTION
    assert GAME.evaluate(state) is None


def test_evaluate_gives_the_winner_all() -> None:
    state, _rng = started()
    state.winner = 1
    assert GAME.evaluate(state) == (0.0, 1.0)
    state.winner = 0
    assert GAME.evaluate(state) == (1.0, 0.0)
