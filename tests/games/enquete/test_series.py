"""A series of games scored by Apples (ENQ-OPT-03): one game per player by default, the
Detective passed on clockwise, the Apples carried, the series' winner named at its end."""

from __future__ import annotations

import pytest

from deathnote.engine import Match
from deathnote.engine.errors import OptionsError

from .helpers import new, run_until, st


def play_out(m: Match) -> Match:
    run_until(m, lambda m: False)
    assert m.outcome() is not None
    return m


def detective_of(m: Match) -> int:
    return next(i for i, s in enumerate(st(m).seats) if s.role == "detective")


def test_a_series_is_one_game_per_player_by_default() -> None:
    m = play_out(new(4, seed=9))
    series = m.view(0)["state"]["series"]
    assert (series["game"], series["games"], series["over"]) == (1, 4, False)
    following = m.next_in_series()
    assert following is not None
    assert following["series_game"] == 2 and following["series_games"] == 4
    assert following["series_apples"] == m.view(0)["state"]["series_apples"]
    assert following["detective_seat"] == (detective_of(m) + 1) % 4
    assert "Game 1 of 4 of the series is over" in m.log(0)[-1]["text"]


def test_the_series_winner_is_named_after_its_last_game() -> None:
    first = play_out(new(4, seed=5, series_games=2))
    options = first.next_in_series()
    assert options is not None
    last = play_out(Match.create("enquete", 4, seed=6, options=options))
    assert detective_of(last) == (detective_of(first) + 1) % 4
    state = last.view(1)["state"]
    totals = state["series_apples"]
    assert totals == [a + b for a, b in zip(options["series_apples"], state["apples"], strict=True)]
    series = state["series"]
    assert series["over"] and series["winners"] == [
        s for s, t in enumerate(totals) if t == max(totals)
    ]
    end = last.log(1)[-1]["text"]
    assert end.startswith("The series of 2 games is over: ") and f"{max(totals)} Apple" in end
    assert last.next_in_series() is None


def test_a_single_game_is_no_series() -> None:
    m = play_out(new(4, seed=9, series_games=1))
    assert "series" not in m.view(0)["state"]
    assert m.next_in_series() is None
    with pytest.raises(OptionsError, match="past the series' last game"):
        new(4, seed=1, series_games=2, series_game=3)
