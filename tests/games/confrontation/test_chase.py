"""The Daytime Phase: the Chase, secret simultaneous choices, rewards."""

from __future__ import annotations

import pytest

from deathnote.engine import IllegalAction, Match
from deathnote.games.confrontation import GAME
from deathnote.games.confrontation.state import CHASE, KIRA, NEWS, L

from .helpers import act, chase, make_state, texts


def test_lead_card_is_revealed_each_day() -> None:
    state = make_state(leads_top=[1])
    ev = act(state, L, "follow")
    assert state.phase == CHASE
    assert "Lead card 1" in ev[0].text and ev[0].audience is None
    assert GAME.view(state, "spectator")["lead"] == {
        "number": 1,
        "A": {"type": "bomb", "points": 3, "apples": 0},
        "B": {"type": "knife", "points": 1, "apples": 0},
    }


def test_chase_choices_are_simultaneous_and_secret() -> None:
    match = Match.create("confrontation", 2, seed=2)
    match.submit(L, {"kind": "follow"})
    assert set(match.pending()) == {KIRA, L}  # both decide at once
    match.submit(KIRA, {"kind": "chase", "side": "B"})
    for viewer in (L, "spectator"):
        view = match.view(viewer)
        assert view["state"]["chase"]["revealed"] is None
        assert not any("chose" in e["text"] for e in view["log"])
        assert (
            "my_choice" not in str(view["state"]) or view["state"]["notebook"]["my_choice"] is None
        )
        assert view["state"]["chase"]["chosen"] == {"kira": True, "l": False}
    assert match.view(KIRA)["state"]["notebook"]["my_choice"] == "B"
    assert match.view(L)["state"]["notebook"]["my_choice"] is None
    with pytest.raises(IllegalAction):
        match.submit(KIRA, {"kind": "chase", "side": "A"})  # no second choice
    match.submit(L, {"kind": "chase", "side": "A"})
    assert match.view("spectator")["state"]["chase"]["revealed"] == {"kira": "B", "l": "A"}


@pytest.mark.parametrize(
    ("kira", "l_side", "kira_points", "cards"),
    [("A", "A", 0, 1), ("B", "B", 0, 1), ("A", "B", 3, 0), ("B", "A", 1, 0)],
)
def test_chase_table(kira: str, l_side: str, kira_points: int, cards: int) -> None:
    """The rulebook's Chase table, on Lead card 1 (A: a Bomber, B: a Stabber)."""
    state = make_state(leads_top=[1], suspects_top="E")
    ev = chase(state, kira, l_side)
    assert state.points == kira_points
    assert len(state.cards_drawn) == cards
    assert state.kills == []  # Chase kills are not marked on the Map
    assert state.phase == NEWS  # the night follows
    if cards:
        assert "L wins the Chase" in " ".join(texts(ev))
    else:
        assert "Kira wins the Chase" in " ".join(texts(ev))


def test_chase_example_bomber_points() -> None:
    """Kira selected A while L selected B: Kira earns 3 points as a Bomber killed."""
    state = make_state(leads_top=[1])
    chase(state, "A", "B")
    assert state.points == 3
    assert state.points_by_type == {"knife": 0, "gun": 0, "bomb": 3}
    assert GAME.view(state, KIRA)["notebook"]["points_by_type"]["bomb"] == 3


def test_chase_example_suspect_e_drawn() -> None:
    """Kira and L both selected A: L draws the Suspect E card and shades it."""
    state = make_state(leads_top=[1], suspects_top="E")
    ev = chase(state, "A", "A")
    drawn = [e for e in ev if "Suspect E" in e.text]
    assert drawn and all(e.audience == frozenset({L}) for e in drawn)
    nb = GAME.view(state, L)["notebook"]
    e = next(s for s in nb["suspects"] if s["letter"] == "E")
    assert e == {"letter": "E", "status": "eliminated", "reason": "card", "outside_kills": 0}
    assert "E" not in nb["remaining"] and nb["cards"] == ["E"]
    assert GAME.view(state, "spectator")["suspect_cards_drawn"] == 1
    assert "Suspect E" not in str(GAME.view(state, KIRA))
