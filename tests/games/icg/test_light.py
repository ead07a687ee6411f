"""Light rules: Clues face up; the investigated player covers Clues that are not theirs."""

from __future__ import annotations

import pytest

from deathnote.engine import IllegalAction

from .helpers import act, arrange, asked, new, st, texts


def test_cover_two_id_clues_not_the_identity() -> None:
    m = new(4, seed=1)
    arrange(m, identities={1: "misa"}, missions={1: "team_member"})
    act(m, 0, "investigate", target=1)
    assert asked(m) == 1 and m.pending()[1].kind == "cover"
    options = {a["clue"] for a in m.legal(1)}
    assert options == {"ryuzaki", "soichiro", "light", "matsuda", "aizawa", "naomi", "watari"}
    with pytest.raises(IllegalAction):
        act(m, 1, "cover", clue="misa")
    with pytest.raises(IllegalAction):
        act(m, 1, "cover", clue="kira")  # a Mission-Clue only when two ID-Clues cannot be
    act(m, 1, "cover", clue="light")
    assert st(m).seats[1].covered == []  # covered together once both are chosen
    assert "light" not in {a["clue"] for a in m.legal(1)}
    act(m, 1, "cover", clue="watari")
    assert st(m).seats[1].covered == ["light", "watari"]
    assert "Player 2 covers Light Yagami and Watari." in texts(m)
    assert m.view("spectator")["state"]["seats"][1]["covered"] == ["light", "watari"]
    assert st(m).current == 1  # the next investigator


def test_rulebook_example_mission_clue_when_two_id_clues_left() -> None:
    # "Player A is under investigation, and only 2 of his ID-Clue cards are still face up.
    # He is forced to turn face down a Mission Card. Next time he will be under investigation
    # he will have to turn face down another Mission card."
    m = new(4, seed=2)
    arrange(m, identities={3: "naomi"}, missions={3: "x_kira"})
    a = st(m).seats[3]
    a.covered = ["ryuzaki", "soichiro", "light", "misa", "matsuda", "aizawa"]
    act(m, 0, "investigate", target=3)
    assert m.pending()[3].kind == "cover"
    assert {x["clue"] for x in m.legal(3)} == {"kira", "l", "team_member"}
    act(m, 3, "cover", clue="l")
    assert a.covered[-1] == "l" and len(a.covered) == 7
    act(m, 1, "investigate", target=3)
    assert {x["clue"] for x in m.legal(3)} == {"kira", "team_member"}
    act(m, 3, "cover", clue="team_member")
    act(m, 2, "investigate", target=3)
    act(m, 3, "cover", clue="kira")
    # Only the Identity's ID-Clue, one other and the Mission's Clue remain: nothing to do.
    act(m, 3, "investigate", target=0)
    while st(m).phase == "cover":
        m.submit(0, m.legal(0)[0])
    assert st(m).phase == "arrest"
    m2 = new(4, seed=2)
    arrange(m2, identities={3: "naomi"}, missions={3: "x_kira"})
    st(m2).seats[3].covered = [
        *["ryuzaki", "soichiro", "light", "misa", "matsuda", "aizawa"],
        *["kira", "l", "team_member"],
    ]
    act(m2, 0, "investigate", target=3)
    assert "Player 4 has nothing left to cover." in texts(m2)
    assert st(m2).current == 1


def test_identity_never_fully_revealed_by_clues() -> None:
    m = new(4, seed=3)
    arrange(m, identities={1: "watari"})
    for s in (0, 2, 3):
        act(m, s, "investigate", target=1) if s != 1 else None
        while st(m).phase == "cover":
            m.submit(1, m.legal(1)[0])
        if s == 0:
            act(m, 1, "investigate", target=0)
            while st(m).phase == "cover":
                m.submit(0, m.legal(0)[0])
    up = [c for c in st(m).clue_ids[:8] if c not in st(m).seats[1].covered]
    assert len(up) == 2 and "watari" in up
