"""The Judgment Phase and the victory conditions."""

from __future__ import annotations

import pytest

from deathnote.engine import SPECTATOR, Match

from .helpers import act, kinds, new, poke, set_roles, st


def quiet_table(players: int, roles: dict[int, str], hands: dict[int, list[str]]) -> Match:
    """Seat 0 on turn; every other hand and the deck hold only Votes unless given."""
    m = new(players, 0)
    set_roles(m, roles)
    s = st(m)
    for seat, x in enumerate(s.seats):
        x.hand = list(hands.get(seat, ["vote", "vote"]))
    s.seats[0].hand.append("vote")
    s.deck = ["vote"] * 30
    s.discard = []
    poke(m)
    return m


def to_judgment(m: Match) -> None:
    """Everyone passes (discarding a Vote) until the Judgment Phase asks for eyes closed."""
    s = st(m)
    while s.winner is None:
        assert s.step is not None
        if s.step["k"] == "judgment":
            return
        act(m, "discard", card="vote")


def judge(m: Match, write: int | None = None, suggest: int = -1) -> None:
    """Every living player answers the Judgment (in seat order, stage by stage)."""
    s = st(m)
    while s.step is not None and s.step["k"] == "judgment":
        seat = min(m.pending())
        kind = m.legal(seat)[0].kind
        if kind == "write":
            act(m, "write", by=seat, seat=write)
        elif kind == "suggest":
            act(m, "suggest", by=seat, seat=suggest)
        else:
            act(m, "wait", by=seat)


def test_kira_with_death_note_must_write() -> None:
    m = quiet_table(4, {0: "police", 1: "kira", 2: "l", 3: "police"}, {1: ["death_note", "vote"]})
    to_judgment(m)
    s = st(m)
    # Everyone is asked alike with the eyes closed; only Kira's choices are names.
    assert set(m.pending()) == {0, 1, 2, 3}
    assert {d.to_json()["prompt"] for d in m.pending().values()} == {
        "Judgment: everyone's eyes are closed."
    }
    assert kinds(m, 1) == {("write", 0), ("write", 2), ("write", 3)}  # no pass, not himself
    for seat in (0, 2, 3):
        assert [a.kind for a in m.legal(seat)] == ["wait"]
    for viewer in (0, 2, 3, SPECTATOR):
        # Eyes closed (covert since rules version 3): each sees only that it is asked itself.
        v = m.view(viewer)
        assert v["waiting"] == ([] if viewer == SPECTATOR else [viewer])
        assert v["state"]["step"] == {"kind": "judgment"}
    act(m, "write", by=1, seat=3)
    assert s.seats[3].alive  # nothing happens before every eye is closed
    judge(m)
    assert not s.seats[3].alive
    assert s.judgments == 1 and s.phase == "investigation"


def test_kira_without_death_note_writes_nothing() -> None:
    m = quiet_table(4, {0: "police", 1: "kira", 2: "l", 3: "police"}, {3: ["death_note", "vote"]})
    to_judgment(m)
    assert [a.kind for a in m.legal(1)] == ["wait"]  # Kira cannot write
    judge(m)
    s = st(m)
    assert s.judgments == 1 and all(x.alive for x in s.seats)
    assert {"type": "no_name"} in [e["data"] for e in m.log(SPECTATOR)]


def test_kira_own_name_only_with_alias() -> None:
    m = quiet_table(4, {0: "police", 1: "kira", 2: "l", 3: "police"}, {1: ["death_note", "alias"]})
    to_judgment(m)
    assert ("write", 1) in kinds(m, 1)
    judge(m, write=1)
    s = st(m)
    assert s.seats[1].alive and "alias" in s.seats[1].hand
    log = [e["data"] for e in m.log(SPECTATOR)]
    assert {"type": "written", "target": 1} in log and {"type": "alias", "target": 1} in log


def test_alias_saves_the_named_player() -> None:
    m = quiet_table(
        4,
        {0: "police", 1: "kira", 2: "l", 3: "police"},
        {1: ["death_note", "vote"], 2: ["alias", "vote"]},
    )
    to_judgment(m)
    judge(m, write=2)
    s = st(m)
    assert s.seats[2].alive and "alias" in s.seats[2].hand and s.winner is None


def test_death_reveals_role_hand_under_deck() -> None:
    m = quiet_table(
        5,
        {0: "police", 1: "kira", 2: "l", 3: "police", 4: "worshipper"},
        {1: ["death_note", "vote"], 3: ["exchange", "surveillance"]},
    )
    to_judgment(m)
    s = st(m)
    deck_before = len(s.deck)
    judge(m, write=3)
    assert not s.seats[3].alive and s.seats[3].hand == []
    # The new phase's first turn drew one card from the top.
    assert len(s.deck) == deck_before + 2 - 1
    assert sorted(s.deck[-2:]) == ["exchange", "surveillance"]
    death = [e["data"] for e in m.log(SPECTATOR) if e["data"].get("type") == "death"]
    assert death == [{"type": "death", "target": 3, "role": "police", "cards": 2}]
    for viewer in (0, 1, 2, 4, SPECTATOR):
        assert m.view(viewer)["state"]["seats"][3]["role"] == "police"
    assert 3 not in s.order and s.current != 3


def test_kira_and_worshipper_see_each_other_at_judgment() -> None:
    m = quiet_table(
        5, {0: "police", 1: "kira", 2: "l", 3: "police", 4: "worshipper"}, {0: ["death_note"]}
    )
    to_judgment(m)  # Kira has no DEATH NOTE: the eyes still open
    judge(m)
    for viewer in (1, 4):
        got = [e["data"] for e in m.log(viewer) if e["data"].get("type") == "kira_team"]
        assert got == [{"type": "kira_team", "kira": 1, "worshipper": 4}]
    for viewer in (0, 2, 3, SPECTATOR):
        assert not any(e["data"].get("type") == "kira_team" for e in m.log(viewer))
    assert m.view(4)["state"]["me"]["known_roles"] == {"1": "kira"}


def test_worshipper_points_kira_at_a_name() -> None:
    m = quiet_table(
        5, {0: "police", 1: "kira", 2: "l", 3: "police", 4: "worshipper"}, {1: ["death_note"]}
    )
    to_judgment(m)
    assert set(m.pending()) == {0, 1, 2, 3, 4}
    assert ("suggest", -1) in kinds(m, 4) and ("suggest", 1) in kinds(m, 4)
    assert [a.kind for a in m.legal(1)] == ["wait"]  # Kira writes once the pointing is done
    act(m, "suggest", by=4, seat=2)
    for seat in (0, 1, 2, 3):
        act(m, "wait", by=seat)
    assert m.view(1)["state"]["me"]["suggested"] == 2
    assert "suggested" not in m.view(4)["state"]["me"]
    for viewer in (1, 4):
        assert any(e["data"].get("type") == "suggest" for e in m.log(viewer))
    for viewer in (0, 2, 3, SPECTATOR):
        assert not any(e["data"].get("type") == "suggest" for e in m.log(viewer))
    assert kinds(m, 1) >= {("write", 0), ("write", 2)}
    judge(m, write=0)  # Kira need not follow the pointing
    assert not st(m).seats[0].alive


def test_all_l_dead_kira_wins() -> None:
    m = quiet_table(
        6,
        {0: "police", 1: "kira", 2: "l", 3: "l", 4: "police", 5: "worshipper"},
        {1: ["death_note", "vote"]},
    )
    st(m).seats[3].alive = False
    st(m).seats[3].hand = []
    to_judgment(m)
    judge(m, write=2, suggest=2)
    out = m.outcome()
    assert out is not None and out.winners == ("kira",) and out.condition == "l_dead"
    assert set(out.winning_seats) == {1, 5}


def test_l_team_down_to_one_kira_wins() -> None:
    m = quiet_table(4, {0: "police", 1: "kira", 2: "l", 3: "police"}, {1: ["death_note", "vote"]})
    to_judgment(m)
    judge(m, write=3)
    assert m.outcome() is None
    to_judgment(m)
    judge(m, write=0)
    out = m.outcome()
    assert out is not None and out.winners == ("kira",) and out.condition == "l_team_one"


def test_every_arrest_out_kira_wins() -> None:
    m = quiet_table(4, {0: "l", 1: "kira", 2: "police", 3: "police"}, {0: ["arrest", "vote"]})
    act(m, "play", card="arrest")
    act(m, "target", seat=2)
    out = m.outcome()
    assert out is not None and out.winners == ("kira",) and out.condition == "no_arrest"


@pytest.mark.parametrize("players", [5, 6, 7])
def test_one_arrest_left_plays_on(players: int) -> None:
    m = quiet_table(players, {0: "l", 1: "kira"}, {0: ["arrest", "vote"]})
    act(m, "play", card="arrest")
    act(m, "target", seat=2)
    assert m.outcome() is None and st(m).removed == ["arrest"]


def test_game_end_reveals_everything() -> None:
    m = quiet_table(4, {0: "l", 1: "kira", 2: "police", 3: "police"}, {0: ["arrest", "vote"]})
    act(m, "play", card="arrest")
    act(m, "target", seat=1)
    for viewer in (0, 1, 2, 3, SPECTATOR):
        state = m.view(viewer)["state"]
        assert [x["role"] for x in state["seats"]] == ["l", "kira", "police", "police"]
        assert len(state["hands"]) == 4
    assert not m.pending()


def eyes_closed_rounds(m: Match, seat: int) -> int:
    """How many eyes-closed questions ``seat`` answers before the eyes open."""
    s = st(m)
    rounds = 0
    while s.step is not None and s.step["k"] == "judgment":
        rounds += min(m.pending()) == seat
        judge_one(m)
    return rounds


def judge_one(m: Match) -> None:
    """The lowest pending seat answers (Kira writes seat 3, the Worshipper points at no one)."""
    seat = min(m.pending())
    kind = m.legal(seat)[0].kind
    if kind == "write":
        act(m, "write", by=seat, seat=3)
    elif kind == "suggest":
        act(m, "suggest", by=seat, seat=-1)
    else:
        act(m, "wait", by=seat)


def test_judgment_rounds_do_not_show_who_holds_the_notebook() -> None:
    # Whether Kira holds the DEATH NOTE is secret until the eyes open: with the Worshipper
    # alive, every player is asked the same number of times either way.
    roles = {0: "police", 1: "kira", 2: "l", 3: "police", 4: "worshipper"}
    with_kira = quiet_table(5, roles, {1: ["death_note", "vote"]})
    elsewhere = quiet_table(5, roles, {0: ["death_note"]})
    to_judgment(with_kira)
    to_judgment(elsewhere)
    assert eyes_closed_rounds(with_kira, 2) == eyes_closed_rounds(elsewhere, 2) == 2
    # The Worshipper may point even when Kira cannot write; Kira sees it.
    for m in (with_kira, elsewhere):
        assert any(e["data"].get("type") == "suggest" for e in m.log(1))
