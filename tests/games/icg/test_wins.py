"""Win conditions of every Mission, including players already out of the game."""

from __future__ import annotations

from .helpers import act, arrange, death_note, new, quiet_investigation_phase, st, to_death_note


def test_team_member_out_still_wins_with_l() -> None:
    m = new(6, seed=30)
    arrange(m, missions={0: "kira", 1: "l", 2: "team_member", 3: "x_kira"})
    to_death_note(m)
    death_note(m, 0, st(m).seats[2].identity, 2)
    assert st(m).seats[2].out
    quiet_investigation_phase(m)
    act(m, 1, "arrest", target=0)
    out = m.outcome()
    assert out is not None and out.winners == ("l",)
    assert 2 in out.winning_seats and 3 not in out.winning_seats


def test_x_kira_out_still_wins_with_kira() -> None:
    m = new(6, seed=31)
    arrange(m, missions={0: "kira", 1: "l", 3: "x_kira"})
    to_death_note(m)
    death_note(m, 0, st(m).seats[3].identity, 3)
    assert st(m).seats[3].out and m.outcome() is None
    to_death_note(m)
    death_note(m, 0, st(m).seats[1].identity, 1)
    out = m.outcome()
    assert out is not None and out.winners == ("kira",) and 3 in out.winning_seats


def test_team_member_loses_when_kira_wins() -> None:
    m = new(5, seed=32)
    arrange(m, missions={0: "kira", 1: "l", 2: "team_member"})
    quiet_investigation_phase(m)
    act(m, 1, "arrest", target=2)
    out = m.outcome()
    assert out is not None and out.winners == ("kira",)
    assert set(out.winning_seats) == {
        s for s, x in enumerate(st(m).seats) if x.mission in ("kira", "x_kira")
    }
    assert 2 not in out.winning_seats and 1 not in out.winning_seats
