"""The game turn: Investigation order, Arrest, Death Note, Red position, the end."""

from __future__ import annotations

import pytest

from deathnote.engine import IllegalAction, Match

from .helpers import (
    act,
    arrange,
    asked,
    death_note,
    everyone_waits,
    new,
    quiet_investigation_phase,
    st,
    texts,
    to_death_note,
)


def investigators(m: Match) -> list[int]:
    """The investigators of the current Investigation phase, in order."""
    order = []
    while st(m).phase not in ("arrest", "over"):
        s = min(m.pending())
        if st(m).phase == "investigate":
            order.append(s)
        m.submit(s, m.legal(s)[0])
    return order


def test_investigation_clockwise_from_red() -> None:
    m = new(6, seed=3)
    assert investigators(m) == [0, 1, 2, 3, 4, 5]


def test_investigate_an_opponent_only() -> None:
    m = new(5, seed=3)
    targets = sorted(a["target"] for a in m.legal(0))
    assert targets == [1, 2, 3, 4]
    with pytest.raises(IllegalAction):
        act(m, 0, "investigate", target=0)


def test_same_player_investigated_several_times_a_turn() -> None:
    m = new(4, seed=5)
    for s in (0, 2, 3):
        act(m, s, "investigate", target=1)
        while st(m).phase == "cover":
            target = asked(m)
            m.submit(target, m.legal(target)[0])
        if s == 0:
            act(m, 1, "investigate", target=0)
            while st(m).phase == "cover":
                m.submit(0, m.legal(0)[0])
    assert len(st(m).seats[1].covered) == 6
    assert [h["seat"] for h in st(m).history] == [1, 0, 1, 1]


def test_arrest_right_l_team_wins() -> None:
    m = new(6, seed=1)
    arrange(m, missions={2: "l", 4: "kira", 1: "team_member", 3: "x_kira"})
    quiet_investigation_phase(m)
    act(m, 2, "arrest", target=4)
    out = m.outcome()
    assert out is not None and out.winners == ("l",) and out.condition == "arrest_right"
    team = tuple(s for s, x in enumerate(st(m).seats) if x.mission in ("l", "team_member"))
    assert out.winning_seats == team and 1 in team
    assert st(m).seats[2].mission_revealed and st(m).seats[4].mission_revealed


def test_arrest_wrong_kira_team_wins() -> None:
    m = new(6, seed=1)
    arrange(m, missions={2: "l", 4: "kira", 3: "x_kira"})
    quiet_investigation_phase(m)
    act(m, 2, "arrest", target=3)  # arresting an X-Kira is a wrong accusation too
    out = m.outcome()
    assert out is not None and out.winners == ("kira",) and out.condition == "arrest_wrong"
    assert st(m).seats[2].out
    assert 3 in out.winning_seats and 4 in out.winning_seats and 2 not in out.winning_seats


def test_arrest_phase_asks_every_living_seat_alike() -> None:
    m = new(5, seed=2)
    arrange(m, missions={3: "l", 0: "kira"})
    quiet_investigation_phase(m)
    pending = m.pending()
    assert sorted(pending) == [0, 1, 2, 3, 4]
    assert len({(d.kind, d.prompt, d.covert) for d in pending.values()}) == 1
    assert all(d.covert for d in pending.values())
    for s in (0, 1, 2, 4):
        assert [a.kind for a in m.legal(s)] == ["pass"]
    assert {a.kind for a in m.legal(3)} == {"pass", "arrest"}
    assert m.view(1)["waiting"] == [1]  # nobody sees who else is still deciding
    with pytest.raises(IllegalAction):
        act(m, 1, "arrest", target=0)
    everyone_waits(m)
    assert "Nobody is arrested." in texts(m)
    assert st(m).phase == "dn_identity"


def test_death_note_only_kira_acts_covertly() -> None:
    m = new(5, seed=2)
    arrange(m, missions={1: "kira"})
    to_death_note(m)
    pending = m.pending()
    assert sorted(pending) == [0, 1, 2, 3, 4] and all(d.covert for d in pending.values())
    for s in (0, 2, 3, 4):
        assert [a.kind for a in m.legal(s)] == ["wait"]
    written = {a["identity"] for a in m.legal(1) if a.kind == "write"}
    assert len(written) == 8  # any of the eight Identities on the board


def test_death_note_kira_may_bluff_with_his_own_placement_or_identity() -> None:
    m = new(5, seed=2)
    arrange(m, missions={1: "kira", 3: "l"})
    own = st(m).seats[1].identity
    other = st(m).seats[4].identity
    to_death_note(m)
    act(m, 1, "write", identity=other)
    everyone_waits(m)
    # Kira may cover his own Placement number with another Identity: a miss the table sees.
    assert {a["placement"] for a in m.legal(1) if a.kind == "place"} == {0, 1, 2, 3, 4}
    act(m, 1, "place", placement=1)
    everyone_waits(m)
    assert not st(m).seats[1].out
    assert st(m).death_notes[-1] == {"turn": 1, "identity": other, "seat": 1, "hit": False}
    # Next turn: his own Identity may be written, but then not on his own Placement.
    to_death_note(m)
    act(m, 1, "write", identity=own)
    everyone_waits(m)
    assert {a["placement"] for a in m.legal(1) if a.kind == "place"} == {0, 2, 3, 4}


def test_death_note_choice_hidden_until_resolved() -> None:
    m = new(5, seed=2)
    arrange(m, missions={1: "kira", 3: "l"})
    victim = st(m).seats[4].identity
    to_death_note(m)
    act(m, 1, "write", identity=victim)
    everyone_waits(m)
    assert m.view(1)["state"]["me"]["death_note"] == victim
    for viewer in (0, 2, 3, 4, "spectator"):
        view = m.view(viewer)
        assert "death_note" not in view["state"].get("me", {})
        assert victim not in str(view["log"][-3:])
        assert "death_note_choice" not in view["state"]
    assert m.view("omniscient")["state"]["death_note_choice"]["identity"] == victim
    act(m, 1, "place", placement=4)
    everyone_waits(m)
    assert st(m).seats[4].out and st(m).seats[4].mission_revealed
    assert m.view(0)["state"]["seats"][4]["identity"] == victim


def test_death_note_hit_puts_player_out_and_reveals_mission() -> None:
    m = new(6, seed=4)
    arrange(m, missions={0: "kira", 2: "team_member", 5: "l"})
    to_death_note(m)
    death_note(m, 0, st(m).seats[2].identity, 2)
    assert m.outcome() is None
    x = m.view(3)["state"]["seats"][2]
    assert x["out"] and x["mission"] == "team_member"
    assert any("is out of the game; Mission: Investigation Team Member" in t for t in texts(m))
    # An out player no longer investigates nor can be investigated.
    assert 2 not in st(m).order and st(m).current != 2
    while st(m).phase != "arrest":
        s = min(m.pending())
        if st(m).phase == "investigate":
            assert all(a.get("target") != 2 for a in m.legal(s))
        m.submit(s, m.legal(s)[0])
    assert 2 not in m.pending()


def test_death_note_hit_on_l_ends_the_game() -> None:
    m = new(6, seed=4)
    arrange(m, missions={0: "kira", 3: "l"})
    to_death_note(m)
    death_note(m, 0, st(m).seats[3].identity, 3)
    out = m.outcome()
    assert out is not None and out.winners == ("kira",) and out.condition == "death_note"


def test_death_note_miss_is_public() -> None:
    m = new(6, seed=4)
    arrange(m, missions={0: "kira", 3: "l"})
    wrong = st(m).seats[2].identity
    to_death_note(m)
    death_note(m, 0, wrong, 3)
    assert m.outcome() is None and not st(m).seats[3].out
    assert (
        f"Player 4 is not {m.view(1)['state']['identities'][[c['id'] for c in m.view(1)['state']['identities']].index(wrong)]['name']}."
        in texts(m)
    )
    assert st(m).death_notes == [{"turn": 1, "identity": wrong, "seat": 3, "hit": False}]


def test_death_note_may_stay_empty() -> None:
    m = new(4, seed=4)
    arrange(m, missions={1: "kira"})
    to_death_note(m)
    death_note(m, 1, None, None)
    assert "Eyes open: the Death Note board is empty." in texts(m)
    assert st(m).turn == 2 and all(not x.out for x in st(m).seats)


def test_red_placement_passes_to_the_right() -> None:
    m = new(5, seed=6)
    arrange(m, missions={0: "kira"})
    to_death_note(m)
    death_note(m, 0, None, None)
    assert st(m).red == 4 and st(m).turn == 2
    assert st(m).current == 4 and st(m).order == [0, 1, 2, 3]
    # An out player is skipped.
    arrange(m, missions={2: "l"})
    st(m).seats[3].out = True
    st(m).seats[3].mission_revealed = True
    quiet_investigation_phase(m)
    everyone_waits(m)
    death_note(m, 0, None, None)
    assert st(m).red == 2


def test_game_goes_on_until_a_mission_is_fulfilled_or_the_turn_limit() -> None:
    m = new(4, seed=7, turn_limit=3)
    arrange(m, missions={0: "kira"})
    for _ in range(3):
        to_death_note(m)
        death_note(m, 0, None, None)
    out = m.outcome()
    assert out is not None and out.winners == () and out.condition == "turn_limit"
    assert st(m).turn == 3
