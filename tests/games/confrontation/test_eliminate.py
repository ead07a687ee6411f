"""The three ways L eliminates Suspects, and the notebook that tracks them."""

from __future__ import annotations

from deathnote.games.confrontation import GAME
from deathnote.games.confrontation.state import KIRA, L

from .helpers import chase, make_state, night, outside


def status(state: object, letter: str) -> dict[str, object]:
    nb = GAME.view(state, L)["notebook"]
    return next(s for s in nb["suspects"] if s["letter"] == letter)


def test_method_1_suspect_card_drawn() -> None:
    state = make_state(identity="G", suspects_top="EB", leads_top=[1, 2])
    chase(state, "A", "A")
    assert status(state, "E")["reason"] == "card"
    assert status(state, "B")["status"] == "remaining"


def test_method_2_suspect_i_with_three_xs_outside_its_grid() -> None:
    """Centred over Suspect I, the Search Grid leaves 3 X's outside: I cannot be Kira."""
    state = make_state(identity="G")
    night(state, 5, 7, 19, victim=5)  # regional for G, outside I
    night(state, 21, 7, 19, victim=21)  # regional for G, outside I
    assert status(state, "I") == {
        "letter": "I",
        "status": "remaining",
        "reason": None,
        "outside_kills": 2,
    }
    ev = night(state, 4, 7, 19, victim=4)  # local for G, outside I
    assert status(state, "I") == {
        "letter": "I",
        "status": "eliminated",
        "reason": "regional",
        "outside_kills": 3,
    }
    assert any(e.text.startswith("Suspect I is eliminated") and e.audience == {L} for e in ev)
    assert status(state, "G")["status"] == "remaining"  # Kira himself never is
    # every Suspect whose grid holds one of the X's survives this check
    for letter in ("D", "L", "N", "P", "R", "S"):
        assert status(state, letter)["status"] == "remaining", letter


def test_chapter_2_suspect_h_with_four_xs_outside_its_grid() -> None:
    """Chapter 2: 4 X's outside Suspect H's grid eliminate H (3 Regional Kills allowed)."""
    state = make_state(chapter=2, identity="E")
    far = [n for n in outside(state, "E") if n in outside(state, "H")]
    for i in range(3):
        night(state, far[i], far[3], far[4], victim=far[i])
        assert status(state, "H")["status"] == "remaining"
    assert 19 in outside(state, "H")
    night(state, 19, far[3], far[4], victim=19)  # local to E, outside H: the 4th X
    assert status(state, "H")["reason"] == "regional"
    assert status(state, "H")["outside_kills"] == 4


def test_method_3_quiet_night() -> None:
    """A Quiet Night clears every Suspect with a news criminal in its Local Area (and every
    Suspect that still had a Regional Kill, since Kira had none left)."""
    state = make_state(identity="G")
    night(state, 5, 7, 19, victim=5)
    night(state, 21, 7, 19, victim=21)
    before = set(GAME.view(state, L)["notebook"]["remaining"])
    night(state, 20, 15, 12)  # the Quiet Night example's news
    assert state.quiet_nights == 1
    t = state.tables
    for letter in before:
        s = t.letters.index(letter)
        near = any(t.local_mask[t.index_of_number[n]] >> s & 1 for n in (20, 15, 12))
        st = status(state, letter)
        if near or st["outside_kills"] < 2:
            assert st == {**st, "status": "eliminated", "reason": "quiet"}, letter
        else:
            assert st["status"] == "remaining", letter
    for letter in ("C", "I", "T", "Q", "B", "O"):  # near 20, 15 or 12
        assert status(state, letter)["status"] == "eliminated"
    assert status(state, "G")["status"] == "remaining"


def test_notebook_lists_remaining_suspects_and_reasons() -> None:
    state = make_state(identity="G", suspects_top="E", leads_top=[1])
    chase(state, "B", "B")
    night(state, 5, 7, 19, victim=5)
    nb = GAME.view(state, L)["notebook"]
    assert nb["remaining"] == [s["letter"] for s in nb["suspects"] if s["status"] == "remaining"]
    assert "E" not in nb["remaining"] and len(nb["remaining"]) == 19
    assert GAME.view(state, KIRA)["notebook"]["identity"] == "G"
