"""The search bot's reward and estimate of a position (ENQ-BOT-02)."""

from __future__ import annotations

import random

from deathnote.games.enquete.objectives import apples_now, score
from deathnote.games.enquete.value import APPLE_SCALE, VALUE_MODEL

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
    # Each seat's figure is its Role's model of its final Apples, from the Apples it would
    # score if the game ended now, scaled as the reward.
    apples, _lines = score(state)
    for i, seat in enumerate(state.seats):
        b0, b1, b2, b3, b4 = VALUE_MODEL[seat.role]
        now = apples[i]
        expected = b0 + b1 * now + (b2 + b3 * now) * state.round / 5 + (b4 if seat.dead else 0.0)
        assert abs(values[i] - min(1.0, max(0.0, expected / APPLE_SCALE))) < 1e-6
    # One choice later (the Detective picks the Action he gives): no estimate.
    m.submit(state.detective, m.legal(state.detective)[0])
    assert game.evaluate(st(m)) is None


def test_evaluate_gives_the_final_result_once_over() -> None:
    m = new(5, seed=4)
    while m.outcome() is None:
        seat = min(m.pending())
        m.submit(seat, m.legal(seat)[0])
    state = st(m)
    # The reward counts Apples (issue 14 measures them), not only whether a seat scored.
    expected = [min(1.0, a / APPLE_SCALE) for a in state.apples]
    assert m.game.search_rewards(state) == expected
    assert m.game.evaluate(state) == expected
    assert len(set(expected)) > 1


def test_apples_now_is_the_score_without_its_lines() -> None:
    # The estimate's Apples (no lines written) are the final score's, at every step of
    # random games at every table size.
    checked = 0
    for players in range(4, 9):
        for seed in range(3):
            m = new(players, seed=seed)
            rng = random.Random(seed)
            while m.outcome() is None:
                state = st(m)
                assert apples_now(state) == score(state)[0]
                checked += 1
                seat = min(m.pending())
                legal = m.legal(seat)
                m.submit(seat, legal[rng.randrange(len(legal))])
            assert apples_now(st(m)) == score(st(m))[0] == st(m).apples
    assert checked > 1000
