"""Game end: Kira's points, L's accusation, and Kira's points checked first."""

from __future__ import annotations

import pytest

from deathnote.engine import IllegalAction
from deathnote.games.confrontation import GAME
from deathnote.games.confrontation.state import ACCUSE, DAY, KIRA, OVER, L

from .helpers import act, chase, make_state, night


def test_kira_wins_at_15_points_immediately() -> None:
    state = make_state(identity="E")
    state.points = 13
    night(state, 7, 27, 19, victim=27)
    assert state.phase == OVER
    assert state.result is not None and state.result.winners == ("kira",)
    assert state.result.condition == "points"


def test_chase_kill_can_win_at_once() -> None:
    state = make_state(identity="E", leads_top=[1])
    state.points = 12
    chase(state, "A", "B")  # a Bomber at A: 3 points
    assert state.result is not None and state.result.condition == "points"
    assert GAME.pending(state) == {}


def test_chapter_2_target_is_20_points() -> None:
    state = make_state(chapter=2, identity="E")
    state.points = 17
    night(state, 19, 7, 2, victim=19)  # a Stabber: 18
    assert state.phase == DAY
    state.points = 19
    night(state, 25, 7, 2, victim=25)
    assert state.result is not None and state.result.condition == "points"


def test_accusation_right_and_wrong() -> None:
    state = make_state(identity="G")
    act(state, L, "accuse")
    assert state.phase == ACCUSE
    act(state, L, "name", suspect="G")
    assert state.result is not None
    assert (state.result.winners, state.result.condition) == (("l",), "accusation_right")
    state = make_state(identity="G")
    act(state, L, "accuse")
    act(state, L, "name", suspect="B")
    assert state.result is not None
    assert (state.result.winners, state.result.condition) == (("kira",), "accusation_wrong")


def test_l_may_accuse_only_remaining_suspects_at_the_start_of_a_day() -> None:
    state = make_state(identity="G", suspects_top="E", leads_top=[1])
    chase(state, "A", "A")
    with pytest.raises(IllegalAction):
        act(state, L, "accuse")  # the night is under way
    night(state, 5, 7, 19, victim=5)
    act(state, L, "accuse")
    names = {a["suspect"] for a in GAME.legal(state, L)}
    assert "E" not in names and "G" in names and len(names) == 19
    with pytest.raises(IllegalAction):
        act(state, L, "name", suspect="E")
    with pytest.raises(IllegalAction):
        act(state, KIRA, "name", suspect="G")


def test_kira_points_are_checked_before_the_accusation() -> None:
    """Kira reaching his target the same night L could name him still wins."""
    state = make_state(identity="G")
    for letter in "ABCDEFHIJKLMNOPQRST":
        state.eliminated[state.tables.letters.index(letter)] = "card"
    state.points = 14
    night(state, 7, 27, 19, victim=7)  # Kira reaches 17 before the next day's accusation
    assert state.result is not None and state.result.winners == ("kira",)
    with pytest.raises(IllegalAction):
        act(state, L, "accuse")
