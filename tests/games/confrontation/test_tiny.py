"""The tiny variant (CONF-TINY-01): Chapter 1's rules on a reduced Map, deck and horizon."""

from __future__ import annotations

import random

import pytest

from deathnote.agents import RandomAgent, observe
from deathnote.engine import Match, OptionsError
from deathnote.games.confrontation import GAME
from deathnote.games.confrontation.state import KIRA, L


def test_tiny_is_an_option_of_chapter_1() -> None:
    assert GAME.parse_options(2, {"variant": "tiny"}) == {"chapter": 1, "variant": "tiny"}
    # the default variant is not written into the options (records stay as they were)
    assert GAME.parse_options(2, {"variant": "standard", "chapter": 2}) == {"chapter": 2}
    with pytest.raises(OptionsError, match="chapter"):
        GAME.parse_options(2, {"variant": "tiny", "chapter": 2})
    with pytest.raises(OptionsError, match="variant"):
        GAME.parse_options(2, {"variant": "huge"})
    match = Match.create("confrontation", 2, 3, {"variant": "tiny"})
    t = match.state.tables
    assert (t.chapter, t.days, t.variant) == (1, 2, "tiny")
    assert len(t.letters) == 3 and len(t.numbers) == 2 and len(t.leads) == 2
    assert match.view(L)["state"]["last_day"] == 2
    assert Match.create("confrontation", 2, 3).view(L)["state"]["last_day"] is None
    # its own action table and tensor: 3 Suspects to name, 2 criminals
    assert match.observation_shape() != Match.create("confrontation", 2, 3).observation_shape()
    assert match.observation_tensor(L).shape == match.observation_shape()
    assert "After Day 2 L must name a Suspect." in match.view(L)["log"][0]["text"]


def _play_to_day_3(match: Match) -> None:
    """L wins the first Chase (both at A); Kira the second (Kira at B, L at A)."""
    while match.outcome() is None and match.state.day <= 2:
        seat = min(match.pending())
        legal = match.legal(seat)
        side = "B" if seat == KIRA and match.state.day == 2 else "A"
        follow = [a for a in legal if a.kind == "follow"]
        chase = [a for a in legal if a.kind == "chase" and a["side"] == side]
        match.submit(seat, (follow or chase or list(legal))[0])


def test_l_must_accuse_after_the_last_day() -> None:
    for seed in range(4):
        match = Match.create("confrontation", 2, seed, {"variant": "tiny"})
        _play_to_day_3(match)
        # 3 points from the Chase at the Stabber, 10 from the two kills: short of 15
        assert match.outcome() is None and match.state.points == 13
        assert match.state.day == 3 and match.pending().keys() == {L}
        assert [a.kind for a in match.legal(L)] == ["accuse"]
        match.submit(L, match.legal(L)[0])
        assert len(match.legal(L)) == 2  # L drew one Suspect card: two Suspects remain
        assert {a.kind for a in match.legal(L)} == {"name"}


def test_random_tiny_games_end_within_the_horizon() -> None:
    conditions = set()
    for seed in range(60):
        match = Match.create("confrontation", 2, seed, {"variant": "tiny"})
        bots = [RandomAgent(KIRA), RandomAgent(L)]
        rng = random.Random(seed)
        while match.outcome() is None:
            seat = min(match.pending())
            match.submit(seat, bots[seat].choose(observe(match, seat, rng)))
            assert match.state.day <= 3
        conditions.add(match.outcome().condition)
    assert conditions == {"points", "accusation_right", "accusation_wrong"}
