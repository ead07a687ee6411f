"""Forks and sampled worlds: a fork is independent; a sample never contradicts its viewer."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from deathnote.engine import OMNISCIENT, SPECTATOR, Match, Viewer
from deathnote.games.werewolf import sample as ww_sample
from deathnote.games.werewolf.sample import Knowledge

from .helpers import act, new, set_hand, set_roles, st
from .test_numbers import random_steps


def all_cards(m: Match) -> Counter[str]:
    s = st(m)
    return Counter(s.deck + s.discard + s.removed + [c for x in s.seats for c in x.hand])


def check_world(m: Match, viewer: Viewer, rng: random.Random) -> Match:
    """One sample for ``viewer``, checked against the match."""
    world = m.sample_world(viewer, rng)
    assert world.view(viewer) == m.view(viewer)
    if isinstance(viewer, int):
        assert [(a, a.label) for a in world.legal(viewer)] == [
            (a, a.label) for a in m.legal(viewer)
        ]
    assert all_cards(world) == all_cards(m)
    assert sorted(x.role for x in st(world).seats) == sorted(x.role for x in st(m).seats)
    # The viewer's own seat, the public table and the size of every hand are unchanged.
    for s, (x, y) in enumerate(zip(st(m).seats, st(world).seats, strict=True)):
        assert len(x.hand) == len(y.hand) and x.alive == y.alive
        if s == viewer or not x.alive:
            assert (x.role, sorted(x.hand)) == (y.role, sorted(y.hand))
    # Every legal action of every pending seat plays on the sample.
    for seat in world.pending():
        for action in world.legal(seat):
            world.fork().submit(seat, action)
    return world


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_samples_never_contradict_the_viewer(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        steps = random_steps(players, 100 + seed)
        for m in steps[:: max(1, len(steps) // 12)]:
            for viewer in [*range(players), SPECTATOR, OMNISCIENT]:
                world = check_world(m, viewer, rng)
                if viewer == OMNISCIENT:
                    assert world.view(OMNISCIENT) == m.view(OMNISCIENT)


def test_sample_of_a_sample_still_agrees() -> None:
    rng = random.Random(5)
    m = random_steps(6, 7)[40]
    for viewer in (0, 3, SPECTATOR):
        world = check_world(m, viewer, rng)
        check_world(world, viewer, rng)


def test_fork_is_independent_and_shares_the_content() -> None:
    m = random_steps(7, 2)[30]
    before = {v: m.view(v) for v in [*range(7), SPECTATOR, OMNISCIENT]}
    twin = m.fork()
    assert st(twin).content is st(m).content and st(twin).tables is st(m).tables
    while twin.outcome() is None and len(twin.actions) < len(m.actions) + 60:
        seat = min(twin.pending())
        twin.submit(seat, twin.legal(seat)[-1])
    assert {v: m.view(v) for v in before} == before


def test_every_hidden_value_appears_over_many_samples() -> None:
    m = new(5, 3)
    set_roles(m, {0: "l", 1: "kira", 2: "worshipper", 3: "police", 4: "police"})
    rng = random.Random(1)
    kiras, holders, firsts = set(), set(), set()
    for _ in range(400):
        world = check_world(m, 0, rng)
        s = st(world)
        kiras.add(next(i for i, x in enumerate(s.seats) if x.role == "kira"))
        holders |= {i for i, x in enumerate(s.seats) if "death_note" in x.hand}
        firsts.add(s.deck[0])
    # Seat 0 knows only its own Role and hand: any other seat may be Kira or hold the notebook
    # (unless seat 0 holds it), and any hidden card but the notebook (dealt into a hand, never
    # discarded, and no hand has gone under the deck) may be on top of the deck.
    assert kiras == {1, 2, 3, 4}
    if "death_note" not in st(m).seats[0].hand:
        assert holders == {1, 2, 3, 4}
    hidden = all_cards(m) - Counter(st(m).seats[0].hand) - Counter(st(m).discard)
    assert firsts == set(hidden) - {"death_note"}


def test_samples_keep_what_the_viewer_knows() -> None:
    m = new(7, 11)
    set_roles(
        m, {0: "police", 1: "kira", 2: "worshipper", 3: "l", 4: "l", 5: "police", 6: "watari"}
    )
    st(m).seats[6].known_roles = {3: "l", 4: "l"}
    set_hand(m, 0, ["surveillance", "exchange", "vote"])
    set_hand(m, 2, ["alias", "interrogation"])
    act(m, "play", card="surveillance")
    act(m, "target", seat=2)
    rng = random.Random(2)
    kiras = set()
    for _ in range(200):
        world = check_world(m, 0, rng)
        assert sorted(st(world).seats[2].hand) == ["alias", "interrogation"]  # it looked
        kiras.add(next(i for i, x in enumerate(st(world).seats) if x.role == "kira"))
        w = check_world(m, 6, rng)
        assert [st(w).seats[i].role for i in (3, 4, 6)] == ["l", "l", "watari"]
    assert kiras == {1, 2, 3, 4, 5, 6}


def test_a_card_given_stays_known_until_it_is_passed_unseen() -> None:
    m = new(4, 12)
    set_roles(m, {0: "police", 1: "kira", 2: "l", 3: "police"})
    set_hand(m, 0, ["exchange", "witness", "vote"])
    set_hand(m, 3, ["alias", "vote"])
    act(m, "play", card="exchange")
    act(m, "target", seat=3)
    act(m, "give", card="alias")
    act(m, "give", card="witness")
    rng = random.Random(3)
    for _ in range(100):
        assert "witness" in st(check_world(m, 0, rng)).seats[3].hand
    know = Knowledge(st(m), [e for e in st(m).history if e.visible_to(0)], 0)
    assert know.known[3] == Counter({"witness": 1})
    # A spectator knows nothing of these hands.
    spectator = Knowledge(st(m), [e for e in st(m).history if e.visible_to(SPECTATOR)], None)
    assert not any(spectator.known)


@pytest.mark.parametrize("written", [True, False])
def test_samples_follow_what_the_judgment_showed(written: bool) -> None:
    # A name written: Kira held the DEATH NOTE; none written: he did not. Until a hand passes
    # cards unseen, every sample gives the notebook to Kira (or keeps it from him).
    from .test_judgment import judge, quiet_table, to_judgment

    holder = 1 if written else 3
    m = quiet_table(
        4,
        {0: "police", 1: "kira", 2: "l", 3: "police"},
        # An Arrest in a hand, as every deal has (the sampler keeps one there).
        {holder: ["death_note", "vote"], 0: ["arrest", "vote", "vote"]},
    )
    to_judgment(m)
    judge(m, write=3 if written else None)
    assert st(m).seats[3].alive is not written
    rng = random.Random(4)
    kiras = set()
    for _ in range(150):
        s = st(check_world(m, 0, rng))
        kira = next(i for i, x in enumerate(s.seats) if x.role == "kira")
        kiras.add(kira)
        assert ("death_note" in s.seats[kira].hand) is written
    assert kiras == ({1, 2} if written else {1, 2, 3})


def test_samples_see_a_renumbered_death_note() -> None:
    # Seat 0 saw the DEATH NOTE in seat 3's hand; in an Exchange seat 3 then gave a Vote as
    # its lowest card: only Kira may renumber the notebook, so seat 3 is Kira in every sample.
    from .test_judgment import quiet_table

    m = quiet_table(
        4,
        {0: "l", 1: "police", 2: "police", 3: "kira"},
        {0: ["surveillance", "exchange"], 2: ["arrest", "vote"], 3: ["death_note", "vote"]},
    )
    act(m, "play", card="surveillance")
    act(m, "target", seat=3)
    for _ in range(3):
        act(m, "discard", card="vote")
    act(m, "play", card="exchange")
    act(m, "target", seat=3)
    act(m, "give", card="vote")  # the notebook renumbered above the Vote
    act(m, "give", card="vote")
    rng = random.Random(6)
    for _ in range(100):
        s = st(check_world(m, 0, rng))
        assert s.seats[3].role == "kira" and "death_note" in s.seats[3].hand
    # Seat 1 saw none of it: any other seat may be Kira for it.
    kiras = {
        next(i for i, x in enumerate(st(check_world(m, 1, rng)).seats) if x.role == "kira")
        for _ in range(100)
    }
    assert kiras == {0, 2, 3}


@pytest.mark.parametrize("viewer", [0, 3, SPECTATOR])
def test_a_state_read_again_samples_as_a_fresh_read(viewer: Viewer) -> None:
    """``sample`` reads a state's history once per viewer and reuses it while the history
    is unchanged: the worlds are those of a fresh read, on one match played on step by
    step (its state object stays the same while its history grows)."""
    m = new(5, 11)
    rng = random.Random(11)
    for step in range(80):
        if m.outcome() is not None:
            break
        seed = rng.getrandbits(32)
        # The first sample finds the read of the step before (or none), the second this one.
        cached = [m.sample_world(viewer, random.Random(seed)).view(OMNISCIENT) for _ in range(2)]
        ww_sample._LAST_READ[0] = None  # forget the read
        fresh = m.sample_world(viewer, random.Random(seed)).view(OMNISCIENT)
        assert cached == [fresh, fresh], f"step {step}"
        seat = min(m.pending())
        legal = m.legal(seat)
        m.submit(seat, legal[rng.randrange(len(legal))])


def dealt_cards_placed(know: Knowledge, hands: list[list[str]], deck: list[str]) -> bool:
    """Whether the DEATH NOTE is in a hand and, until an Arrest is played, an Arrest in a
    hand or among the cards of the dead under the deck (``Knowledge.buried_below``)."""
    if "death_note" in deck:
        return False
    below = deck[len(deck) - know.buried_below(len(deck)) :]
    return know.arrest_spent or any("arrest" in h for h in hands) or "arrest" in below


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_the_notebook_stays_in_hands_and_an_arrest_in_hands_or_under_the_deck(
    players: int,
) -> None:
    """The deal puts the DEATH NOTE and an Arrest into the hands and neither can be
    discarded. Only Kira holding the notebook writes a name and he never dies of it, so in
    every true position of random games the notebook is in a living hand, even after
    deaths; until an Arrest is played one is in a hand or among the cards of the dead still
    under the deck (anywhere in the deck once a shuffle mixed them in). So the sampler's
    rejection never falls back on the truth; every sampled world keeps both."""
    rng = random.Random(players)
    after_death = 0
    for seed in range(8):
        steps = random_steps(players, 200 + seed)
        for i, m in enumerate(steps):
            s = st(m)
            if s.winner is not None:
                continue
            public = Knowledge(s, [e for e in s.history if e.visible_to(SPECTATOR)], None)
            assert dealt_cards_placed(public, [x.hand for x in s.seats], s.deck)
            dead = not all(x.alive for x in s.seats)
            after_death += dead
            if i % (3 if dead else 11):
                continue
            for viewer in (i % players, SPECTATOR):
                w = st(m.sample_world(viewer, rng))
                assert dealt_cards_placed(public, [x.hand for x in w.seats], w.deck)
    assert after_death > 20
