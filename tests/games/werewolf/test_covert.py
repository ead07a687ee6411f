"""Issue 11 §5: a covert decision changes nothing that another viewer sees.

For every covert pending decision met in random games, the match is compared with the same
match in which that seat has nothing to decide (Kira without the DEATH NOTE at a Judgment; a
hand whose lowest-numbered card is forced, for an Interrogation or an Exchange) or, for the
Worshipper who always has a choice, in which it points at no one. In the twin the seat
answers at once; in the match it answers last; the other seats answer alike, in a random
order. Every other viewer's view (phase, step, prompts, legal actions, log entries, waiting
lists) must stay identical at every point until the decision is resolved. Rules version 2
failed this: the `waiting` list showed who had not yet answered with the eyes closed.
"""

from __future__ import annotations

import random

import pytest

from deathnote.engine import SPECTATOR, Action, Match, Viewer
from deathnote.games.werewolf.rules import lowest_of

from .helpers import act, new, poke, set_hand, set_roles, st

#: The eyes-closed and lowest-card decisions, checked even if a version forgot to mark them
#: covert (so this test fails on rules version 2).
SECRET_KINDS = ("judgment", "shinigami", "give_lowest")


def twin_without_choice(m: Match, seat: int, rng: random.Random) -> tuple[Match, Action] | None:
    """The same match in which ``seat`` has exactly one legal action, and the action ``seat``
    plays in ``m`` (None when no such twin can be made here)."""
    s = st(m)
    step = s.step
    assert step is not None
    legal = list(m.legal(seat))
    kind = legal[0].kind
    if kind == "write":
        # Kira holds the DEATH NOTE: in the twin it lies in the deck instead.
        deck = s.deck
        spots = [i for i, c in enumerate(deck) if c != "death_note"]
        if not spots:
            return None
        twin = m.fork()
        t = st(twin)
        j = rng.choice(spots)
        hand = t.seats[seat].hand
        hand[hand.index("death_note")], t.deck[j] = t.deck[j], "death_note"
        assert t.step is not None
        t.step["kira"] = None
        poke(twin)
        return twin, rng.choice(legal)
    if kind == "give":
        # A lowest-card pass with a choice: in the twin the other choices are swapped with
        # deck cards that cannot be given, so the card given here is the only choice.
        given = rng.choice(legal)
        card = given["card"]
        role = s.seats[seat].role
        twin = m.fork()
        t = st(twin)
        hand = t.seats[seat].hand
        for i, c in enumerate(hand):
            if c == card or c not in lowest_of(t, role, hand):
                continue
            # From the bottom up, never the top card (the next turn draws it).
            for j in range(len(t.deck) - 1, 0, -1):
                d = t.deck[j]
                trial = [*hand[:i], d, *hand[i + 1 :]]
                if lowest_of(t, role, trial) == lowest_of(t, role, [x for x in trial if x != d]):
                    hand[i], t.deck[j] = d, c
                    break
        if lowest_of(t, role, hand) != [card]:
            return None
        poke(twin)
        return twin, given
    return None


def informed(m: Match, seat: int, action: Action) -> set[int]:
    """Seats the rules show this decision to (besides the seat itself)."""
    s = st(m)
    if action.kind == "suggest":
        return {i for i, x in enumerate(s.seats) if x.role == "kira"}
    return set()


def same_for(a: Match, b: Match, viewers: list[Viewer], what: str) -> None:
    for viewer in viewers:
        assert a.view(viewer) == b.view(viewer), (viewer, what, len(a.actions))


def play_both(
    a: Match, b: Match, seat: int, action_a: Action, action_b: Action, others: list[Viewer]
) -> int:
    """Play the decision on in both matches; returns how many states were compared.

    In ``b`` the seat answers at once; in ``a`` it thinks until every other seat asked has
    answered, in the same random order: the others must not tell the two apart at any point
    (who has answered an eyes-closed decision, or how long a seat takes, is nobody's business).
    """
    rng = random.Random(len(a.actions))
    step = st(a).step
    assert step is not None
    kind, judgments, turns = step["k"], st(a).judgments, st(a).turns

    def still(m: Match) -> bool:
        s = st(m).step
        return (
            s is not None
            and s["k"] == kind
            and (st(m).judgments, st(m).turns)
            == (
                judgments,
                turns,
            )
        )

    same_for(a, b, others, f"{kind}: while the seat decides")
    assert set(a.pending()) == set(b.pending())
    b.submit(seat, action_b)
    compared = 1
    while len(a.pending()) > 1:
        rest = sorted(set(a.pending()) - {seat})
        assert rest == sorted(b.pending())
        nxt = rng.choice(rest)
        move = rng.choice(list(a.legal(nxt)))
        a.submit(nxt, move)
        b.submit(nxt, move)
        if len(a.pending()) > 1:
            same_for(a, b, others, f"{kind}: the seat has not answered in one of them")
            compared += 1
    a.submit(seat, action_a)
    while True:
        if not still(a) and kind == "judgment":
            break  # the eyes open: the name written is public
        same_for(a, b, others, f"{kind}: after the seat answered")
        compared += 1
        if not still(a) or a.outcome() is not None:
            break
        assert set(a.pending()) == set(b.pending())
        nxt = rng.choice(sorted(a.pending()))
        move = rng.choice(list(a.legal(nxt)))
        a.submit(nxt, move)
        b.submit(nxt, move if nxt != seat else b.legal(nxt)[0])
    return compared


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_covert_decisions_change_nothing_another_viewer_sees(players: int) -> None:
    checked: dict[str, int] = {}
    for seed in range(12):
        rng = random.Random(seed)
        m = Match.create("werewolf", players, seed)
        while m.outcome() is None and len(m.actions) < 400:
            pending = m.pending()
            for seat, decision in sorted(pending.items()):
                secret = decision.covert or decision.kind in SECRET_KINDS
                if not secret or len(m.legal(seat)) < 2:
                    continue
                legal = list(m.legal(seat))
                if legal[0].kind == "suggest":
                    pairs = [(m.fork(), m.fork(), rng.choice(legal[1:]), legal[0])]
                else:
                    made = twin_without_choice(m, seat, rng)
                    if made is None:
                        continue
                    twin, action = made
                    pairs = [(m.fork(), twin, action, twin.legal(seat)[0])]
                    assert len(twin.legal(seat)) == 1
                for a, b, action_a, action_b in pairs:
                    skip = {seat} | informed(a, seat, action_a)
                    others: list[Viewer] = [v for v in range(players) if v not in skip]
                    others.append(SPECTATOR)
                    assert play_both(a, b, seat, action_a, action_b, others) > 0
                    key = f"{decision.kind}/{action_a.kind}"
                    checked[key] = checked.get(key, 0) + 1
            seat = rng.choice(sorted(pending))
            m.submit(seat, rng.choice(list(m.legal(seat))))
    assert "judgment/write" in checked
    assert any(k.startswith("give_lowest/give") for k in checked)
    if players >= 5:
        assert "judgment/suggest" in checked


def test_kira_with_alibi_denies_like_anyone_else() -> None:
    # Alibi is a reaction nobody is asked about: Kira holding it denies an Arrest exactly as
    # an innocent player does, so the table sees the same thing either way.
    views = []
    for kira in (1, 3):
        m = new(5, 21)
        set_roles(m, {0: "l", kira: "kira", 4 - kira: "police", 2: "police", 4: "worshipper"})
        set_hand(m, 0, ["arrest", "vote", "vote"])
        set_hand(m, 1, ["alibi", "vote"])
        act(m, "play", card="arrest")
        act(m, "target", seat=1)
        assert m.outcome() is None
        # Nobody was asked anything between the naming and the next turn.
        assert [d.kind for d in m.pending().values()] == ["turn"]
        assert [e.data["type"] for e in m.events[-4:]] == ["target", "denied", "draw", "drew"]
        views.append({v: m.view(v) for v in (0, 2, 4, SPECTATOR)})
    assert views[0] == views[1]
