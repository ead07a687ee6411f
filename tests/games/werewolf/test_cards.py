"""Every Investigation card, and the number-changing abilities."""

from __future__ import annotations

import pytest

from deathnote.engine import SPECTATOR, IllegalAction

from .helpers import act, asked, kinds, new, set_hand, set_roles, st


def test_arrest_only_l_never_discarded() -> None:
    m = new(4, 1)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["arrest", "vote", "exchange"])
    assert ("play", "arrest") not in kinds(m) and ("discard", "arrest") not in kinds(m)
    with pytest.raises(IllegalAction):
        act(m, "play", card="arrest")
    m = new(4, 1)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "police"})
    set_hand(m, 0, ["arrest", "vote", "exchange"])
    assert ("play", "arrest") in kinds(m) and ("discard", "arrest") not in kinds(m)


def test_arrest_leaves_the_game_and_non_kira_denies() -> None:
    m = new(5, 2)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "police", 4: "worshipper"})
    s = st(m)
    set_hand(m, 0, ["arrest", "vote", "exchange"])
    act(m, "play", card="arrest")
    assert kinds(m) == {("target", t) for t in (1, 2, 3, 4)}
    act(m, "target", seat=2)
    assert s.removed == ["arrest"] and "arrest" not in s.discard
    assert s.winner is None
    assert {"type": "denied", "target": 2} in [e["data"] for e in m.log(SPECTATOR)]


def test_arrest_of_kira_wins() -> None:
    m = new(5, 3)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "police", 4: "worshipper"})
    set_hand(m, 0, ["arrest", "vote", "exchange"])
    set_hand(m, 1, ["exchange", "death_note"])
    act(m, "play", card="arrest")
    act(m, "target", seat=1)
    out = m.outcome()
    assert out is not None and out.winners == ("l",) and out.condition == "arrest"
    assert set(out.winning_seats) == {0, 2, 3}
    assert not m.pending()


def test_alibi_lets_kira_deny() -> None:
    m = new(5, 3)
    set_roles(m, {0: "l", 1: "kira", 2: "police", 3: "police", 4: "worshipper"})
    set_hand(m, 0, ["arrest", "vote", "exchange"])
    set_hand(m, 1, ["alibi", "death_note"])
    act(m, "play", card="arrest")
    act(m, "target", seat=1)
    assert m.outcome() is None
    denied = [e["data"] for e in m.log(SPECTATOR) if e["data"].get("type") == "denied"]
    assert denied == [{"type": "denied", "target": 1}]
    # The denial looks the same as anyone else's: the Alibi stays hidden in the hand.
    assert "alibi" in st(m).seats[1].hand and "alibi" not in st(m).discard


def test_handgun_only_police_printed_numbers() -> None:
    m = new(4, 4)
    set_roles(m, {0: "kira", 1: "police", 2: "l", 3: "police"})
    set_hand(m, 0, ["handgun", "vote", "exchange"])
    assert ("play", "handgun") not in kinds(m) and ("discard", "handgun") in kinds(m)
    m = new(4, 4)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["handgun", "vote", "exchange"])
    set_hand(m, 1, ["exchange", "death_note"])  # Kira may not renumber for a Handgun
    act(m, "play", card="handgun")
    act(m, "target", seat=1)
    shown = [e["data"] for e in m.log(SPECTATOR) if e["data"].get("type") == "handgun"]
    assert shown == [{"type": "handgun", "seat": 0, "target": 1, "card": "death_note"}]
    assert "death_note" in st(m).seats[1].hand  # revealed, not given away


def test_handgun_reveal_to_shooter_option() -> None:
    m = new(4, 4, handgun_reveal="shooter")
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["handgun", "vote", "exchange"])
    set_hand(m, 2, ["arrest", "alias"])
    act(m, "play", card="handgun")
    act(m, "target", seat=2)
    for viewer, sees in ((0, True), (2, True), (1, False), (3, False), (SPECTATOR, False)):
        got = [e for e in m.log(viewer) if e["data"].get("type") == "handgun"]
        assert bool(got) == sees
        if got:
            assert got[0]["data"]["card"] == "arrest"


def test_witness_private_look() -> None:
    m = new(6, 5)
    set_roles(m, {0: "police", 3: "kira"})
    set_hand(m, 0, ["witness", "vote", "exchange"])
    act(m, "play", card="witness")
    act(m, "target", seat=3)
    assert m.view(0)["state"]["me"]["known_roles"] == {"3": "kira"}
    for viewer in (1, 2, 3, 4, 5, SPECTATOR):
        assert not any(e["data"].get("type") == "witness" for e in m.log(viewer))
    assert m.view(3)["state"]["seats"][0]["role"] is None


def test_surveillance_private_look() -> None:
    m = new(4, 6)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["surveillance", "vote", "exchange"])
    set_hand(m, 2, ["arrest", "alias"])
    act(m, "play", card="surveillance")
    act(m, "target", seat=2)
    assert m.view(0)["state"]["me"]["seen_hands"] == {"2": ["arrest", "alias"]}
    for viewer in (1, 2, 3, SPECTATOR):
        assert not any(e["data"].get("type") == "surveillance" for e in m.log(viewer))


def test_vote_simultaneous_then_public() -> None:
    m = new(4, 7)
    set_hand(m, 0, ["vote", "exchange", "interrogation"])
    act(m, "play", card="vote")
    assert set(m.pending()) == {0, 1, 2, 3}
    m.submit(2, {"kind": "vote", "seat": 1})
    # A vote already cast stays hidden until everyone has pointed.
    assert not any(e["data"].get("type") == "vote" for e in m.log(0))
    assert set(m.pending()) == {0, 1, 3}
    with pytest.raises(IllegalAction):
        m.submit(1, {"kind": "vote", "seat": 1})  # not at yourself
    for seat, t in ((0, 3), (1, 0), (3, 1)):
        m.submit(seat, {"kind": "vote", "seat": t})
    votes = [e["data"] for e in m.log(SPECTATOR) if e["data"].get("type") == "vote"]
    assert votes == [{"type": "vote", "votes": {"0": 3, "1": 0, "2": 1, "3": 1}}]
    assert asked(m) == 1


def test_exchange_takes_lowest_and_gives_any() -> None:
    m = new(4, 8)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    s = st(m)
    set_hand(m, 0, ["exchange", "vote", "interrogation"])
    set_hand(m, 3, ["alias", "vote"])
    act(m, "play", card="exchange")
    act(m, "target", seat=3)
    assert asked(m) == 3 and kinds(m) == {("give", "alias")}
    act(m, "give", card="alias")
    assert asked(m) == 0
    assert m.view(0)["state"]["me"]["took"] == "alias"
    assert kinds(m) == {("give", "alias"), ("give", "vote"), ("give", "interrogation")}
    act(m, "give", card="alias")  # give back the card taken
    assert sorted(s.seats[3].hand) == ["alias", "vote"]
    assert sorted(s.seats[0].hand) == ["interrogation", "vote"]
    passes = [e["data"] for e in m.log(3) if e["data"].get("type") == "pass"]
    assert len(passes) == 2
    for viewer in (1, 2, SPECTATOR):
        assert not any(e["data"].get("type") == "pass" for e in m.log(viewer))
    assert asked(m) == 1


def test_exchange_logs_each_pass_once_for_every_viewer() -> None:
    # Issue 19: rules version 2 logged the card given back twice for the giver (the private
    # pass and a public "gives a card back"). Now each viewer reads each thing once.
    m = new(4, 8)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["exchange", "vote", "interrogation"])
    set_hand(m, 3, ["alias", "vote"])
    start = len(m.events)
    act(m, "play", card="exchange")
    act(m, "target", seat=3)
    act(m, "give", card="alias")
    act(m, "give", card="vote")
    new_events = m.events[start:]
    end = next(i for i, e in enumerate(new_events) if e.data.get("type") == "draw")
    exchange = new_events[:end]
    for viewer in (0, 1, 2, 3, SPECTATOR):
        seen = [e for e in exchange if e.visible_to(viewer)]
        types = [e.data.get("type") for e in seen]
        if viewer in (0, 3):
            assert types == ["play", "target", "pass", "pass"]
            assert [e.text for e in seen[2:]] == [
                "Player 4 gives Alias to Player 1.",
                "Player 1 gives Vote to Player 4.",
            ]
        else:
            assert types == ["play", "target"]
        assert "gets one card back" in seen[1].text
        assert len({e.text for e in seen}) == len(seen)


def test_exchange_ties_give_either() -> None:
    m = new(7, 9)
    set_roles(m, {0: "l", 1: "police"})
    set_hand(m, 0, ["exchange", "vote", "interrogation"])
    set_hand(m, 1, ["alias", "alias"])
    act(m, "play", card="exchange")
    act(m, "target", seat=1)
    assert kinds(m) == {("give", "alias")}


def test_interrogation_direction_and_simultaneous_passes() -> None:
    m = new(4, 10)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    s = st(m)
    set_hand(m, 0, ["interrogation", "vote", "alibi"])
    set_hand(m, 1, ["death_note", "vote"])
    set_hand(m, 2, ["arrest", "exchange"])
    set_hand(m, 3, ["alias", "handgun"])
    act(m, "play", card="interrogation")
    assert kinds(m) == {("direction", "left"), ("direction", "right")}
    act(m, "direction", dir="right")
    assert set(m.pending()) == {0, 1, 2, 3}
    assert kinds(m, 0) == {("give", "alibi")}
    assert kinds(m, 1) == {("give", "death_note"), ("give", "vote")}  # Kira renumbers DEATH NOTE
    assert kinds(m, 2) == {("give", "arrest"), ("give", "exchange")}  # L renumbers Arrest
    assert kinds(m, 3) == {("give", "handgun"), ("give", "alias")}  # Police renumbers Handgun
    m.submit(0, {"kind": "give", "card": "alibi"})
    m.submit(1, {"kind": "give", "card": "vote"})
    m.submit(2, {"kind": "give", "card": "exchange"})
    m.submit(3, {"kind": "give", "card": "alias"})
    # To the right: seat 1 -> 0, 2 -> 1, 3 -> 2, 0 -> 3.
    assert sorted(s.seats[0].hand) == ["vote", "vote"]
    hand = list(s.seats[1].hand)
    hand.remove(s.drawn)  # type: ignore[arg-type]  (seat 1 has begun its turn)
    assert sorted(hand) == ["death_note", "exchange"]
    assert sorted(s.seats[2].hand) == ["alias", "arrest"]
    assert sorted(s.seats[3].hand) == ["alibi", "handgun"]
    seen = {
        v: sorted(
            (e["data"]["seat"], e["data"]["to"])
            for e in m.log(v)
            if e["data"].get("type") == "pass"
        )
        for v in (0, 1, 2, 3)
    }
    assert seen == {
        0: [(0, 3), (1, 0)],
        1: [(1, 0), (2, 1)],
        2: [(2, 1), (3, 2)],
        3: [(0, 3), (3, 2)],
    }
    assert not any(e["data"].get("type") == "pass" for e in m.log(SPECTATOR))


def test_interrogation_skips_the_dead() -> None:
    m = new(5, 11)
    s = st(m)
    s.seats[1].alive = False
    s.deck.extend(s.seats[1].hand)
    s.seats[1].hand = []
    set_hand(m, 0, ["interrogation", "vote", "alibi"])
    act(m, "play", card="interrogation")
    act(m, "direction", dir="left")
    assert set(m.pending()) == {0, 2, 3, 4}
    before = len(s.seats[2].hand)
    for seat in (0, 2, 3, 4):
        m.submit(seat, m.legal(seat)[0])
    assert s.current == 2 and len(s.seats[2].hand) == before + 1  # its turn's draw
    assert s.seats[1].hand == []
    got = [e["data"] for e in m.log(2) if e["data"].get("type") == "pass" and e["data"]["to"] == 2]
    assert got and got[0]["seat"] == 0


def test_number_change_example() -> None:
    # Rulebook: with Arrest and Alias, L may renumber Arrest to 10 and pass Alias instead.
    m = new(4, 12)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["interrogation", "vote", "alibi"])
    set_hand(m, 2, ["arrest", "alias"])
    set_hand(m, 3, ["arrest", "alias"])
    act(m, "play", card="interrogation")
    act(m, "direction", dir="left")
    assert kinds(m, 2) == {("give", "arrest"), ("give", "alias")}
    assert kinds(m, 3) == {("give", "arrest")}  # Police may not renumber Arrest


def test_watari_renumbers_arrest_worshipper_nothing() -> None:
    m = new(7, 13)
    set_roles(m, {0: "police", 1: "watari", 2: "worshipper"})
    set_hand(m, 0, ["interrogation", "vote", "alibi"])
    set_hand(m, 1, ["arrest", "alias"])
    set_hand(m, 2, ["death_note", "alias"])
    act(m, "play", card="interrogation")
    act(m, "direction", dir="left")
    assert kinds(m, 1) == {("give", "arrest"), ("give", "alias")}
    assert kinds(m, 2) == {("give", "death_note")}


def test_every_player_is_asked_even_without_a_choice() -> None:
    m = new(6, 14)
    set_hand(m, 0, ["interrogation", "vote", "alibi"])
    act(m, "play", card="interrogation")
    act(m, "direction", dir="left")
    assert set(m.pending()) == set(range(6))
    # Covert (rules version 3): nobody is shown who is still choosing, so a seat with a
    # choice to make (a number it may change) looks like one without.
    assert all(d.kind == "give_lowest" and d.covert for d in m.pending().values())
    assert m.view(4)["waiting"] == [4] and m.view(SPECTATOR)["waiting"] == []
    before = m.view(3), m.view(SPECTATOR)
    m.submit(1, m.legal(1)[0])
    assert (m.view(3), m.view(SPECTATOR)) == before


def test_shinigami_must_be_played() -> None:
    m = new(6, 15)
    set_roles(m, {0: "police", 1: "kira", 2: "worshipper"})
    set_hand(m, 0, ["shinigami", "vote", "alibi"])
    assert kinds(m) == {("play", "shinigami")}
    act(m, "play", card="shinigami")
    for viewer in (1, 2):
        seen = [e["data"] for e in m.log(viewer) if e["data"].get("type") == "kira_team"]
        assert seen == [{"type": "kira_team", "kira": 1, "worshipper": 2}]
    for viewer in (0, 3, 4, 5, SPECTATOR):
        assert not any(e["data"].get("type") == "kira_team" for e in m.log(viewer))
    assert m.view(1)["state"]["me"]["known_roles"] == {"2": "worshipper"}
    assert m.view(2)["state"]["me"]["known_roles"] == {"1": "kira"}
    for seat in range(6):
        act(m, "suggest" if seat == 2 else "wait", by=seat, **({"seat": -1} if seat == 2 else {}))
    assert asked(m) == 1


def test_shinigami_worshipper_guides_kira() -> None:
    # FAQ: "During the Judgment Phase or when using a Shinigami, guide Kira on whom to judge
    # using eye contact or gestures." Everyone is asked alike while the eyes are closed.
    m = new(6, 15)
    set_roles(m, {0: "police", 1: "kira", 2: "worshipper"})
    set_hand(m, 0, ["shinigami", "vote", "alibi"])
    act(m, "play", card="shinigami")
    assert set(m.pending()) == set(range(6))
    assert {d.to_json()["prompt"] for d in m.pending().values()} == {
        "Shinigami: everyone's eyes are closed."
    }
    assert kinds(m, 2) == {("suggest", -1)} | {("suggest", t) for t in (0, 1, 3, 4, 5)}
    for seat in (0, 1, 3, 4, 5):
        assert [a.kind for a in m.legal(seat)] == ["wait"]
    assert m.view(4)["state"]["step"] == {"kind": "shinigami", "player": 0}
    act(m, "suggest", by=2, seat=3)
    for seat in (0, 1, 3, 4, 5):
        act(m, "wait", by=seat)
    for viewer in (1, 2):
        got = [e["data"] for e in m.log(viewer) if e["data"].get("type") == "suggest"]
        assert got == [{"type": "suggest", "seat": 2, "target": 3}]
    for viewer in (0, 3, 4, 5, SPECTATOR):
        assert not any(e["data"].get("type") == "suggest" for e in m.log(viewer))
    assert asked(m) == 1


def test_shinigami_with_the_worshipper_dead() -> None:
    # With the Worshipper dead (a public fact) nobody opens their eyes for anything.
    m = new(6, 15)
    set_roles(m, {0: "police", 1: "kira", 2: "worshipper"})
    st(m).seats[2].alive = False
    st(m).seats[2].hand = []
    set_hand(m, 0, ["shinigami", "vote", "alibi"])
    act(m, "play", card="shinigami")
    assert asked(m) == 1
    assert not any(e["data"].get("type") == "kira_team" for e in m.log(1))


def test_alias_and_alibi_are_only_discarded() -> None:
    m = new(4, 16)
    set_hand(m, 0, ["alias", "alibi", "vote"])
    assert ("play", "alias") not in kinds(m) and ("play", "alibi") not in kinds(m)
    assert {("discard", "alias"), ("discard", "alibi")} <= kinds(m)


def test_only_l_plays_arrest_not_watari_or_the_kira_team() -> None:
    # Watari may change the number on Arrest but only L "can use the Arrest card".
    for role in ("watari", "kira", "worshipper", "police"):
        m = new(7, 17)
        set_roles(m, {0: role})
        set_hand(m, 0, ["arrest", "vote", "exchange"])
        assert ("play", "arrest") not in kinds(m) and ("discard", "arrest") not in kinds(m)
        with pytest.raises(IllegalAction):
            act(m, "play", card="arrest")
