"""The Investigation Phase: draw, play or pass, turn order, phases, the FAQ case."""

from __future__ import annotations

import random

import pytest

from deathnote.engine import SPECTATOR, IllegalAction, Match
from deathnote.games.werewolf.rules import Ctx, start_investigation

from .helpers import act, asked, finish_turn_discarding, kinds, new, set_hand, set_roles, st


def test_turn_draws_one() -> None:
    m = new(5, 4)
    s = st(m)
    assert asked(m) == 0 and len(s.seats[0].hand) == 3 and s.drawn in s.seats[0].hand
    drew = s.drawn
    finish_turn_discarding(m)
    assert len(s.seats[0].hand) == 2
    assert len(s.seats[1].hand) == 3
    # Everyone sees that a card is drawn; only the drawer sees which.
    mine = [e for e in m.log(0) if e["data"].get("type") == "drew"]
    assert mine and mine[0]["data"]["card"] == drew
    assert not [e for e in m.log(2) if e["data"].get("type") == "drew" and e["data"]["seat"] == 0]
    assert [e for e in m.log(2) if e["data"].get("type") == "draw" and e["data"]["seat"] == 0]


def test_empty_deck_reshuffles_discard() -> None:
    m = new(4, 5)
    s = st(m)
    s.discard.extend(s.deck)
    s.deck.clear()
    finish_turn_discarding(m)
    assert s.reshuffles == 1 and len(s.discard) == 0
    assert any(e["data"].get("type") == "reshuffle" for e in m.log(SPECTATOR))


def test_play_or_discard() -> None:
    m = new(4, 6)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["vote", "alias", "exchange"])
    assert kinds(m) == {
        ("play", "vote"),
        ("play", "exchange"),
        ("discard", "vote"),
        ("discard", "alias"),
        ("discard", "exchange"),
    }
    act(m, "discard", card="alias")
    s = st(m)
    assert s.discard[-1] == "alias" and sorted(s.seats[0].hand) == ["exchange", "vote"]
    assert {"type": "discard", "seat": 0, "card": "alias"} in [e["data"] for e in m.log(3)]


def test_turn_order_and_judgment_after_each() -> None:
    m = new(6, 7, first=4)
    order = []
    s = st(m)
    while s.judgments == 0 and s.phase == "investigation":
        if s.step and s.step["k"] == "turn":
            order.append(asked(m))
        finish_turn_discarding(m)
    assert order == [4, 5, 0, 1, 2, 3]
    assert s.judgments == 1 or s.phase == "judgment"


def test_two_turns_before_first_judgment() -> None:
    for players in (4, 5):
        m = new(players, 8, first=1)
        order = []
        while st(m).judgments == 0:
            if (
                st(m).phase == "investigation"
                and len(m.pending()) == 1
                and st(m).step["k"] == "turn"
            ):  # type: ignore[index]
                order.append(asked(m))
            seat = min(m.pending())
            discards = [a for a in m.legal(seat) if a.kind == "discard"]
            m.submit(seat, discards[0] if discards else m.legal(seat)[0])
        ring = [(1 + i) % players for i in range(players)]
        assert order[: 2 * players] == ring * 2
        # From the second phase on, one turn each.
        assert st(m).winner or len(st(m).order) == len([x for x in st(m).seats if x.alive]) - 1


def test_phase_restarts_with_first_player() -> None:
    m = new(6, 9, first=2)
    s = st(m)
    while s.judgments == 0 and not s.winner:
        seat = min(m.pending())
        discards = [a for a in m.legal(seat) if a.kind == "discard"]
        m.submit(seat, discards[0] if discards else m.legal(seat)[0])
    assert s.winner or (s.phase == "investigation" and s.current == 2)
    # A dead first player: the next living player to the left starts.
    m = new(6, 9, first=2)
    s = st(m)
    s.seats[2].alive = False
    ctx = Ctx(s, random.Random(0), [])
    s.judgments = 1
    start_investigation(ctx)
    assert s.current == 3 and s.order == [4, 5, 0, 1]


def test_faq_stuck_hand_draws_again() -> None:
    m = new(4, 10)
    set_roles(m, {0: "kira", 1: "police", 2: "l", 3: "police"})
    s = st(m)
    set_hand(m, 0, ["exchange", "vote", "alias"])
    # Police holding Arrest and DEATH NOTE who draws the other Arrest is stuck (FAQ example).
    s.seats[1].hand = ["arrest", "death_note"]
    s.deck = ["arrest", "vote", "exchange", "alias", "interrogation"]
    act(m, "discard", card="alias")
    assert asked(m) == 1
    assert sorted(s.seats[1].hand) == ["arrest", "death_note", "vote"]
    assert sorted(s.deck) == ["alias", "arrest", "exchange", "interrogation"]
    assert kinds(m) == {("play", "vote"), ("discard", "vote")}
    assert {"type": "stuck", "seat": 1} in [e["data"] for e in m.log(SPECTATOR)]
    private = [e["data"] for e in m.log(1) if e["data"].get("type") == "redrew"]
    assert private == [{"type": "redrew", "seat": 1, "card": "vote", "returned": "arrest"}]
    for other in (0, 2, 3):
        assert not any(e["data"].get("type") == "redrew" for e in m.log(other))


def test_death_note_never_played_or_discarded() -> None:
    m = new(4, 11)
    set_roles(m, {0: "kira"})
    set_hand(m, 0, ["death_note", "vote", "alibi"])
    assert ("play", "death_note") not in kinds(m)
    assert ("discard", "death_note") not in kinds(m)
    with pytest.raises(IllegalAction):
        act(m, "discard", card="death_note")


def test_rejected_choice_changes_nothing() -> None:
    m = new(4, 12)
    record = m.record()
    with pytest.raises(IllegalAction):
        m.submit(0, {"kind": "play", "card": "no_such_card"})
    with pytest.raises(IllegalAction):
        m.submit(1, {"kind": "discard", "card": "vote"})
    assert m.record() == record
    assert isinstance(Match.replay(record), Match)


def test_memos_of_turn_actions_and_lowest_cards_answer_as_worked_out() -> None:
    """``turn_actions`` and ``lowest_choices`` are kept by Role and hand; at every step of
    random games they answer as the rules worked out afresh, for every living seat."""
    from deathnote.games.werewolf import rules as R

    from .test_numbers import random_steps

    checked = 0
    for players, seed in ((4, 1), (6, 2), (7, 3)):
        for m in random_steps(players, seed):
            state = st(m)
            for seat, x in enumerate(state.seats):
                if not x.alive or not x.hand:
                    continue
                assert R.turn_actions(state, seat) == R._turn_actions(state, seat)
                assert R.lowest_choices(state, seat) == R.lowest_of(state, x.role, x.hand)
                checked += 1
    assert checked > 100
