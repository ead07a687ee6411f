"""The search bot's estimate of a position (ENQ-BOT-02)."""

from __future__ import annotations

import math

from deathnote.games.enquete.objectives import score
from deathnote.games.enquete.value import VALUE_MODEL

from .helpers import at_pick, new, run_until, st


def test_evaluate_estimates_at_the_start_of_a_round_only() -> None:
    m = new(5, seed=3)
    game = m.game
    assert game.evaluate(st(m)) is None  # set-up, before the first round
    run_until(m, at_pick("give_card"))
    state = st(m)
    values = game.evaluate(state)
    assert values is not None and len(values) == 5
    assert all(0.0 < v < 1.0 for v in values)
    # Each seat's figure is its Role's model: scoring if the game ended now counts.
    apples, _lines = score(state)
    for i, seat in enumerate(state.seats):
        b0, b1, b2, b3, b4 = VALUE_MODEL[seat.role]
        now = 1.0 if apples[i] > 0 else 0.0
        z = b0 + b1 * now + (b2 + b3 * now) * state.round / 5 + (b4 if seat.dead else 0.0)
        assert abs(values[i] - 1 / (1 + math.exp(-z))) < 1e-6
    # One choice later (the Detective picks the Action he gives): no estimate.
    m.submit(state.detective, m.legal(state.detective)[0])
    assert game.evaluate(st(m)) is None


def test_evaluate_gives_the_final_result_once_over() -> None:
    m = new(5, seed=4)
    while m.outcome() is None:
        seat = min(m.pending())
        m.submit(seat, m.legal(seat)[0])
    state = st(m)
    assert m.game.evaluate(state) == [1.0 if a > 0 else 0.0 for a in state.apples]
