"""Chapter 2: Apples and the Ryuk Bribery Tracker, Stars and the Intel Tracker, abilities."""

from __future__ import annotations

import random

import pytest

from deathnote.engine import IllegalAction, Match
from deathnote.games.confrontation import GAME, rules
from deathnote.games.confrontation.state import (
    APPLES,
    CHASE,
    DAY,
    DICE,
    KIRA,
    NEWS,
    STARS,
    SWITCH,
    L,
)

from .helpers import act, chase, keep_forced, make_state, night, set_news, stars, texts


def local_night(state: object, i: int) -> None:
    t = state.tables  # type: ignore[attr-defined]
    g = t.letters.index("G")
    local = [t.numbers[c] for c in t.local_criminals[g] if state.alive[c]]  # type: ignore[attr-defined]
    far = [t.numbers[c] for c in range(len(t.numbers)) if not t.local_mask[c] >> g & 1]
    night(state, local[0], far[2 * i], far[2 * i + 1], victim=local[0])


def test_apple_example() -> None:
    """Round 1: 2 Apples, both in Row 3. Round 3: 3 Apples, one in Row 2 and two in Row 3,
    completing Row 3 (Last Minute A/B Switch). Round 4: 2 Apples in Row 2: its 2 points
    count at once and its Apple Core is filled; Row 3's core stays empty."""
    state = make_state(chapter=2, identity="G", leads_top=[1, 4, 2, 5])
    chase(state, "B", "A")  # Lead 1, scene B: a Stabber and 2 Apples
    assert state.phase == APPLES and state.apples_to_place == 2
    rows = {a["row"] for a in GAME.legal(state, KIRA)}
    assert rows == {0, 1, 2, 3}  # any row he chooses
    act(state, KIRA, "apple", row=2)
    act(state, KIRA, "apple", row=2)
    assert state.apples == [0, 0, 2, 0] and state.phase == DICE
    local_night(state, 0)
    chase(state, "A", "A")  # round 2: L wins
    assert state.phase == STARS
    act(state, L, "star", rows=GAME.legal(state, L)[0]["rows"])
    local_night(state, 1)
    chase(state, "A", "B")  # Lead 2, scene A: 3 Apples
    assert state.apples_to_place == 3
    act(state, KIRA, "apple", row=1)
    act(state, KIRA, "apple", row=2)
    ev = act(state, KIRA, "apple", row=2)
    assert state.apples == [0, 1, 4, 0]
    assert any("Last Minute A/B Switch" in e.text and e.audience == {KIRA} for e in ev)
    nb = GAME.view(state, KIRA)["notebook"]["ryuk"]
    assert nb["rows"][2]["complete"] and not nb["rows"][2]["used"]
    local_night(state, 2)
    points = state.points
    chase(state, "B", "A")  # Lead 5, scene B: a Shooter and 2 Apples
    act(state, KIRA, "apple", row=1)
    ev = act(state, KIRA, "apple", row=1)
    assert state.points == points + 2 + 2  # the Shooter, then the row's 2 points at once
    assert any("+2 points" in e.text and e.audience is None for e in ev)
    rows_view = GAME.view(state, KIRA)["notebook"]["ryuk"]["rows"]
    assert rows_view[1]["used"] and not rows_view[2]["used"]  # the cores
    assert GAME.view(state, KIRA)["notebook"]["ryuk_points"] == 2


def test_star_example() -> None:
    """Round 2: two Stars in Row 2. Round 5: two more complete Row 2: L draws another
    Suspect card at once, with 3 Stars, which go in Row 4; Row 2's circle is filled."""
    state = make_state(chapter=2, identity="G", suspects_top="BCL", leads_top=[1, 3, 4, 6, 8])
    chase(state, "A", "B")
    while state.phase == APPLES:
        act(state, KIRA, "apple", row=0)
    local_night(state, 0)
    chase(state, "A", "A")  # round 2: L draws B, 2 Stars
    assert state.phase == STARS and state.stars_to_place == 2
    assert GAME.pending(state)[L].covert  # Kira is not shown how many Stars L places
    assert GAME.pending(state)[L].data["stars"] == 2
    stars(state, 1, 1)  # both Stars of the card in one step
    assert state.stars == [0, 2, 0, 0] and state.phase == NEWS
    for i in (1, 2):
        local_night(state, i)
        chase(state, "A", "B")
        while state.phase == APPLES:
            act(state, KIRA, "apple", row=GAME.legal(state, KIRA)[0]["row"])
    local_night(state, 3)
    chase(state, "B", "B")  # round 5: L draws C, 2 Stars
    ev = act(state, L, "star", rows=[1, 1])
    assert "L's Intel earns him one more Suspect card." in texts(ev)
    assert any(e.text == "You draw Suspect L with 3 Stars." and e.audience == {L} for e in ev)
    assert state.phase == STARS and state.stars_to_place == 3  # one step for the new card
    stars(state, 3, 3, 3)
    assert state.stars == [0, 4, 0, 3]
    intel = GAME.view(state, L)["notebook"]["intel"]["rows"]
    assert intel[1]["used"] and intel[1]["complete"]
    assert GAME.view(state, L)["notebook"]["cards"] == ["B", "C", "L"]


def test_kira_changes_the_dice() -> None:
    state = make_state(chapter=2, identity="G", leads_top=[1])
    state.apples[0] = 3  # Row 1 complete: change up to 3 dice
    chase(state, "A", "B", random.Random(1))  # L was asked first: "keep" was his only choice
    assert state.phase == DICE and GAME.pending(state) == {KIRA: GAME.pending(state)[KIRA]}
    assert GAME.pending(state)[KIRA].covert
    ev = act(state, KIRA, "dice", faces=["knife", "bomb", "bomb"])
    assert state.dice == ["knife", "bomb", "bomb"] and state.phase == NEWS
    assert sorted(state.faces_left) == ["bomb", "bomb", "knife"]
    assert "Kira changes the dice: Knife, Bomb, Bomb." in texts(ev)
    assert state.ryuk_used[0]
    set_news(state, ["gun", "gun", "gun"])
    _finish_night(state)
    act(state, L, "follow")
    act(state, KIRA, "chase", side="A")
    act(state, L, "chase", side="A")  # L wins: Kira is asked about his Switch, then L's Stars
    act(state, KIRA, "switch", use=False)
    act(state, L, "star", rows=GAME.legal(state, L)[0]["rows"])
    act(state, L, "dice", faces=[])
    assert state.phase == DICE and GAME.legal(state, KIRA) == (rules.DICE_KEEP,)  # used once


def _finish_night(state: object) -> None:
    while state.phase == NEWS:  # type: ignore[attr-defined]
        act(state, L, "news", criminal=GAME.legal(state, L)[0]["criminal"])
    if state.phase != DAY:  # type: ignore[attr-defined]
        act(state, KIRA, "kill", criminal=GAME.legal(state, KIRA)[0]["criminal"])


def test_l_changes_the_dice_then_kira_has_the_last_word() -> None:
    state = make_state(chapter=2, identity="G", leads_top=[1])
    state.apples[0] = 3
    state.stars[0] = 4
    chase(state, "A", "B")
    assert state.phase == DICE and set(GAME.pending(state)) == {L}  # L first
    act(state, L, "dice", faces=["knife", "knife", "knife"])
    assert state.phase == DICE and set(GAME.pending(state)) == {KIRA}
    act(state, KIRA, "dice", faces=[])  # Kira keeps L's dice
    assert state.dice == ["knife", "knife", "knife"] and state.phase == NEWS
    assert state.intel_used[0] and not state.ryuk_used[0]


def test_kira_last_minute_switch() -> None:
    """Both chose B; Kira switches to A, winning the Chase and scene A's reward."""
    state = make_state(chapter=2, identity="G", leads_top=[4])
    state.apples[2] = 4
    chase(state, "B", "B")
    assert state.phase == SWITCH and set(GAME.pending(state)) == {KIRA}
    ev = act(state, KIRA, "switch", use=True)
    assert "Kira uses the Last Minute A/B Switch: now on A." in texts(ev)
    assert state.phase == SWITCH and GAME.legal(state, L) == (rules.SWITCH_NO,)  # L may answer
    keep_forced(state)
    assert state.points == 2 and state.cards_drawn == []
    assert state.ryuk_used[2]


def test_l_last_minute_switch() -> None:
    """Kira chose A and L chose B; L switches to A, wins the Chase and draws a card."""
    state = make_state(chapter=2, identity="G", leads_top=[4], suspects_top="A")
    state.stars[2] = 5
    chase(state, "A", "B")
    assert state.phase == SWITCH and set(GAME.pending(state)) == {L}
    act(state, L, "switch", use=True)
    keep_forced(state)  # Kira, now losing, is asked too: he holds nothing
    assert state.points == 0 and len(state.cards_drawn) == 1


def test_both_switches_the_loser_first_then_the_answer() -> None:
    state = make_state(chapter=2, identity="G", leads_top=[4], suspects_top="A")
    state.apples[2] = 4
    state.stars[2] = 5
    chase(state, "A", "A")  # L is winning: Kira is asked first
    assert set(GAME.pending(state)) == {KIRA}
    act(state, KIRA, "switch", use=True)
    assert set(GAME.pending(state)) == {L}  # now L is losing and may answer
    act(state, L, "switch", use=True)
    assert state.chase == [1, 1] and len(state.cards_drawn) == 1
    with pytest.raises(IllegalAction):
        act(state, KIRA, "switch", use=True)


def test_declined_switch_is_not_announced() -> None:
    state = make_state(chapter=2, identity="G", leads_top=[4])
    state.apples[2] = 4
    ev = chase(state, "B", "B")
    ev += act(state, KIRA, "switch", use=False)
    assert not any("Switch" in e.text for e in ev if e.audience is None)
    assert not state.ryuk_used[2]


def test_extra_quiet_night() -> None:
    state = make_state(chapter=2, identity="G", suspects_top="L", leads_top=[1])
    state.stars[3] = 4
    chase(state, "A", "A")  # Suspect L: 3 Stars
    ev = act(state, L, "star", rows=[0, 0, 3])
    assert state.quiet_allowed == 2
    assert any("+1 Quiet Night" in e.text and e.audience is None for e in ev)
    assert GAME.view(state, KIRA)["quiet_allowed"] == 2


def test_full_rows_lose_extra_apples() -> None:
    state = make_state(chapter=2, identity="G", leads_top=[2])
    state.apples = [3, 3, 4, 4]
    state.ryuk_used = [True, True, True, True]
    ev = chase(state, "A", "B")
    assert any("Apples are lost" in x for x in texts(ev)) and state.phase == NEWS


def test_chapter_1_has_no_apples_or_abilities() -> None:
    state = make_state(chapter=1, identity="G", leads_top=[1])
    chase(state, "A", "A")
    assert state.phase == NEWS and state.stars == [] and state.apples == []
    assert GAME.view(state, L)["notebook"]["intel"] is None


def test_covert_decisions_are_not_shown_as_waiting() -> None:
    match = Match.create("confrontation", 2, seed=1, options={"chapter": 2})
    state = match.state
    state.apples[2] = 4
    match.submit(L, {"kind": "follow"})
    match.submit(KIRA, {"kind": "chase", "side": "A"})
    match.submit(L, {"kind": "chase", "side": "A"})
    assert state.phase == SWITCH
    assert match.view(L)["waiting"] == [] and match.view(KIRA)["waiting"] == [KIRA]
    assert CHASE != SWITCH
