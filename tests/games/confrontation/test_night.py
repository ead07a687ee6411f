"""The Nighttime Phase: dice, the Nightly News, kills, Local and Regional kills, Quiet Nights."""

from __future__ import annotations

import random

import pytest

from deathnote.engine import IllegalAction, Match
from deathnote.games.confrontation import GAME, rules
from deathnote.games.confrontation.state import DAY, KILL, KIRA, NEWS, OVER, L

from .helpers import act, chase, kill, make_state, news, night, outside, set_news, texts


def test_dice_are_rolled_from_the_match_generator() -> None:
    rolls = []
    for seed in (4, 4, 9):
        match = Match.create("confrontation", 2, seed=seed)
        match.submit(L, {"kind": "follow"})
        match.submit(KIRA, {"kind": "chase", "side": "A"})
        match.submit(L, {"kind": "chase", "side": "B"})
        assert match.state.phase == NEWS and len(match.state.dice) == 3
        rolls.append(tuple(match.state.dice))
    assert rolls[0] == rolls[1]
    faces = set(match.state.tables.dice[0])
    assert all(face in faces for face in rolls[2])


def test_news_example_7_27_19() -> None:
    """L rolls a Bomb, a Gun and a Knife and features criminals 7, 27 and 19."""
    state = make_state(identity="E")
    set_news(state, ["bomb", "gun", "knife"])
    legal = {a["criminal"] for a in GAME.legal(state, L)}
    assert {7, 27, 19} <= legal
    news(state, 7, 27)
    with pytest.raises(IllegalAction):
        act(state, L, "news", criminal=1)  # a Bomber: only the Knife face is left
    assert state.phase == NEWS and state.faces_left == ["knife"]
    state2 = make_state(identity="E")
    set_news(state2, ["bomb", "gun", "knife"])
    ev = news(state2, 7, 27, 19)
    assert "Nightly News: criminals 7 (Bomber), 27 (Shooter), 19 (Stabber)." in texts(ev)
    assert state2.phase == KILL


def test_news_picks_must_match_the_faces() -> None:
    state = make_state(identity="E")
    set_news(state, ["bomb", "bomb", "gun"])
    t = state.tables
    kinds = {t.crime_type[t.index_of_number[a["criminal"]]] for a in GAME.legal(state, L)}
    assert kinds == {"bomb", "gun"}
    news(state, 7)
    with pytest.raises(IllegalAction):
        act(state, L, "news", criminal=7)  # three different criminals
    with pytest.raises(IllegalAction):
        act(state, L, "news", criminal=19)  # a Stabber matches no face
    with pytest.raises(IllegalAction):
        act(state, KIRA, "news", criminal=1)  # not Kira's decision


def test_too_few_criminals_of_a_type_make_wild_faces() -> None:
    state = make_state(identity="E")
    t = state.tables
    bombs = [c for c, k in enumerate(t.crime_type) if k == "bomb"]
    for c in bombs[1:]:
        state.alive[c] = False
        state.living["bomb"] -= 1
    ev = set_news(state, ["bomb", "bomb", "bomb"])
    assert sorted(state.faces_left) == ["any", "any", "bomb"]
    assert any("any criminal" in x for x in texts(ev))
    legal = {a["criminal"] for a in GAME.legal(state, L)}
    assert t.numbers[bombs[0]] in legal and 19 in legal  # any living criminal fits a wild face
    assert all(t.numbers[c] not in legal for c in bombs[1:])  # never a dead one


def test_kira_must_kill_one_of_the_news_and_scores_by_type() -> None:
    """Example: Kira kills criminal 27, a Shooter, for 2 points; both mark an X."""
    state = make_state(identity="E")
    night(state, 7, 27, 19)
    assert {a["criminal"] for a in GAME.legal(state, KIRA)} == {7, 27, 19}
    assert GAME.legal(state, L) == ()
    with pytest.raises(IllegalAction):
        kill(state, 16)  # not on the news
    ev = kill(state, 27)
    assert state.points == 2 and state.points_by_type["gun"] == 2
    assert any("kills criminal 27" in x for x in texts(ev))
    for viewer in (KIRA, L, "spectator"):
        view = GAME.view(state, viewer)
        assert view["kills"] == [27]
        assert next(k for k in view["map"]["criminals"] if k["number"] == 27)["killed"]
    assert state.phase == DAY and state.day == 2


def test_local_area_is_the_5x5_grid_around_home() -> None:
    state = make_state(identity="G")
    t = state.tables
    home = t.homes[t.letters.index("G")]
    for c, cell in enumerate(t.crime_cell):
        inside = abs(cell[0] - home[0]) <= 2 and abs(cell[1] - home[1]) <= 2
        assert bool(t.local_mask[c] >> t.letters.index("G") & 1) == inside
    nb = GAME.view(state, KIRA)["notebook"]
    assert nb["local_criminals"] == [4, 17]
    assert nb["home"] == {"x": home[0], "y": home[1]}
    assert nb["local_area"] == {"x0": 1, "y0": 11, "x1": 5, "y1": 13}


def test_regional_kills_are_limited_to_two_in_chapter_1() -> None:
    state = make_state(identity="G")
    night(state, 5, 7, 19, victim=5)  # regional for G
    night(state, 21, 7, 19, victim=21)  # regional for G
    nb = GAME.view(state, KIRA)["notebook"]
    assert nb["regional_used"] == 2 and nb["regional_left"] == 0
    assert nb["regional_kills"] == [5, 21]
    night(state, 4, 7, 19)  # 4 is local to G, 7 and 19 are not
    assert {a["criminal"] for a in GAME.legal(state, KIRA)} == {4}
    with pytest.raises(IllegalAction):
        kill(state, 7)
    kill(state, 4)
    assert state.regional_used == 2  # local kills are unlimited


def test_regional_kills_are_three_in_chapter_2() -> None:
    state = make_state(chapter=2, identity="E")
    far = outside(state, "E")
    for i in range(3):
        night(state, far[i], far[3], far[4], victim=far[i])
        assert state.phase == DAY
    assert state.regional_used == 3
    night(state, 19, far[3], far[4])  # 19 is local to E
    assert {a["criminal"] for a in GAME.legal(state, KIRA)} == {19}


def test_quiet_night_example() -> None:
    """Kira made two Regional Kills (5 and 21), had one Quiet Night; the news shows 20, 15
    and 12, all outside his Local Area: he declares a Quiet Night; one more ends the game."""
    state = make_state(identity="G")
    night(state, 5, 7, 19, victim=5)
    night(state, 21, 7, 19, victim=21)
    ev = night(state, 7, 27, 1)  # all outside G: the first Quiet Night
    assert state.quiet_nights == 1 and state.phase == DAY
    ev = night(state, 20, 15, 12)
    assert state.quiet_nights == 2
    assert any("Quiet Night (2 so far, 2 allowed)" in x for x in texts(ev))
    assert state.phase == DAY and state.result is None
    assert state.points == 2 + 1  # criminals 5 and 21 only: a Quiet Night scores nothing
    ev = night(state, 20, 15, 12)  # the third Quiet Night: the case goes cold
    assert state.phase == OVER
    assert state.result is not None
    assert state.result.winners == ("kira",) and state.result.condition == "cold_case"


def test_no_quiet_night_while_a_kill_is_possible() -> None:
    state = make_state(identity="G")
    night(state, 20, 15, 12)  # all outside G but Regional Kills remain: Kira must kill
    assert state.phase == KILL and state.quiet_nights == 0


def test_case_goes_cold_on_the_second_quiet_night_in_chapter_2() -> None:
    state = make_state(chapter=2, identity="E")
    far = outside(state, "E")
    for i in range(3):
        night(state, far[i], far[3], far[4], victim=far[i])
    night(state, far[3], far[4], far[5])
    assert state.quiet_nights == 1 and state.phase == DAY
    night(state, far[3], far[4], far[5])
    assert state.result is not None and state.result.condition == "cold_case"


def test_night_follows_every_chase() -> None:
    state = make_state(identity="G", leads_top=[2])
    chase(state, "A", "B", random.Random(3))
    assert state.phase == NEWS and state.day == 1
    assert rules.pending(state) == {L: rules.DECISIONS[NEWS]}
