"""Kira rules: Clues in hand; Identity or Mission investigations; take back 2, reveal 3."""

from __future__ import annotations

import pytest

from deathnote.engine import IllegalAction

from .helpers import act, arrange, new, st, texts

ID_CLUES = ["ryuzaki", "soichiro", "light", "misa", "matsuda", "aizawa", "naomi", "watari"]


def test_investigator_chooses_identity_or_mission() -> None:
    m = new(4, seed=1, rules="kira")
    kinds = {(a["target"], a["type"]) for a in m.legal(0)}
    assert kinds == {(t, k) for t in (1, 2, 3) for k in ("identity", "mission")}


def test_identity_investigation_reveals_two_id_one_mission_with_a_true_card() -> None:
    m = new(4, seed=1, rules="kira")
    arrange(m, identities={1: "misa"}, missions={1: "team_member"})
    act(m, 0, "investigate", target=1, type="identity")
    assert m.pending()[1].kind == "reveal"
    assert {a["clue"] for a in m.legal(1)} == set(st(m).clue_ids)
    act(m, 1, "reveal", clue="light")
    act(m, 1, "reveal", clue="watari")
    # Two wrong ID-Clues: the Mission-Clue must now be the true one.
    assert [a["clue"] for a in m.legal(1)] == ["team_member"]
    with pytest.raises(IllegalAction):
        act(m, 1, "reveal", clue="kira")
    act(m, 1, "reveal", clue="team_member")
    x = st(m).seats[1]
    assert sorted(x.table) == ["light", "team_member", "watari"] and len(x.hand) == 9
    assert "Player 2 reveals Light Yagami, Watari and Investigation Team Member." in texts(m)
    assert m.view(3)["state"]["seats"][1]["table"] == ["light", "watari", "team_member"]
    assert m.view(3)["state"]["seats"][1]["hand_size"] == 9


def test_mission_investigation_reveals_one_id_two_missions() -> None:
    m = new(4, seed=1, rules="kira")
    arrange(m, identities={1: "misa"}, missions={1: "team_member"})
    act(m, 0, "investigate", target=1, type="mission")
    act(m, 1, "reveal", clue="kira")
    act(m, 1, "reveal", clue="l")
    assert [a["clue"] for a in m.legal(1)] == ["misa"]  # one ID-Clue left, must be true
    act(m, 1, "reveal", clue="misa")
    assert sorted(st(m).seats[1].table) == ["kira", "l", "misa"]


def test_take_back_two_before_revealing_again() -> None:
    m = new(4, seed=1, rules="kira")
    arrange(m, identities={1: "misa"}, missions={1: "team_member"})
    act(m, 0, "investigate", target=1, type="mission")
    for c in ("kira", "l", "misa"):
        act(m, 1, "reveal", clue=c)
    act(m, 1, "investigate", target=0, type="mission")
    while st(m).phase != "investigate":
        m.submit(0, m.legal(0)[0])
    act(m, 2, "investigate", target=1, type="identity")
    assert m.pending()[1].kind == "return"
    assert {a["clue"] for a in m.legal(1)} == {"kira", "l", "misa"}
    act(m, 1, "return", clue="kira")
    act(m, 1, "return", clue="misa")
    assert "Player 2 takes back Kira and Misa Amane." in texts(m)
    assert m.pending()[1].kind == "reveal"
    act(m, 1, "reveal", clue="misa")  # a card taken back may be revealed again
    act(m, 1, "reveal", clue="light")
    act(m, 1, "reveal", clue="kira")
    assert sorted(st(m).seats[1].table) == ["kira", "l", "light", "misa"]


def test_cannot_answer_does_nothing() -> None:
    m = new(4, seed=1, rules="kira")
    arrange(m, identities={1: "misa"}, missions={1: "team_member"})
    x = st(m).seats[1]
    # After ten investigations all 12 Clues are on the table: taking back 2 leaves too few.
    x.table = [*ID_CLUES, "kira", "l", "x_kira", "team_member"]
    x.hand = []
    act(m, 0, "investigate", target=1, type="mission")
    assert "Player 2 cannot reveal Clues as asked and does nothing." in texts(m)
    assert st(m).current == 1 and len(x.table) == 12


def test_take_back_keeps_a_legal_reveal_possible() -> None:
    m = new(4, seed=1, rules="kira")
    arrange(m, identities={1: "misa"}, missions={1: "team_member"})
    x = st(m).seats[1]
    # On the table: both true cards and two Mission-Clues; in hand only wrong ones.
    x.table = ["misa", "team_member", "kira", "l"]
    x.hand = [c for c in st(m).clue_ids if c not in x.table]
    act(m, 0, "investigate", target=1, type="identity")
    first = {a["clue"] for a in m.legal(1)}
    assert first == {"misa", "team_member", "kira", "l"}
    act(m, 1, "return", clue="kira")
    # Taking back "l" now would leave no true card to reveal.
    assert {a["clue"] for a in m.legal(1)} == {"misa", "team_member"}
