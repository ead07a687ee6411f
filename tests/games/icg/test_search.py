"""ICG-BOT-02: the search bot's play-out policy."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.engine import Match
from deathnote.games.icg import GAME


@pytest.mark.parametrize("rules", ["light", "kira"])
def test_playout_policy_picks_legal_actions_and_l_does_not_arrest_blind(rules: str) -> None:
    """Games played by the play-out policy alone on the bare state: every choice is legal,
    every game ends, and L seldom arrests the wrong player (a random L does so in about two
    games of three)."""
    policy = GAME.playout_policy()
    assert policy is not None
    endings: Counter[str] = Counter()
    for seed in range(16):
        match = Match.create("icg", 5, seed, {"rules": rules})
        state = match.state
        rng = random.Random(seed)
        for _ in range(2_000):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.pending(state))
            legal = GAME.legal(state, seat)
            action = policy(state, seat, legal, rng)
            assert action in legal
            GAME.apply(state, seat, action, rng)
        outcome = GAME.outcome(state)
        assert outcome is not None
        endings[outcome.condition] += 1
    assert endings["arrest_wrong"] <= 3, endings


def test_playout_policy_plays_as_the_heuristic_bot_on_the_seat_view() -> None:
    """On a real match the policy picks what the heuristic bot picks from the seat's view
    (same generator): it reads that view only."""
    policy = GAME.playout_policy()
    assert policy is not None
    for seed in range(6):
        match = Match.create("icg", 6, seed)
        for _ in range(6):
            if match.outcome() is not None:
                break
            seat = min(match.pending())
            legal = match.legal(seat)
            bot = make_agent("icg", "heuristic", seat)
            expected = bot.choose(observe(match, seat, agent_rng(seed, seat)))
            assert policy(match.state, seat, legal, agent_rng(seed, seat)) == expected
            match.submit(seat, expected)
