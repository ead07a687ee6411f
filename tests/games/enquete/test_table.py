"""Suspicions, Death, the end of the game, Apples, Action windows."""

from __future__ import annotations

import random

import pytest

from deathnote.agents import RandomAgent, observe
from deathnote.engine import Event, Match
from deathnote.games.enquete.flow import (
    Ctx,
    die,
    end_condition,
    give_suspicions,
    kill,
    round_order,
)
from deathnote.games.enquete.objectives import score

from .helpers import (
    at_turn_window,
    choose,
    give,
    new,
    passes,
    play,
    poke,
    run_until,
    seat,
    set_roles,
    st,
    top,
)


def ctx_of(m):  # type: ignore[no-untyped-def]
    return Ctx(st(m), random.Random(0), [])


@pytest.mark.parametrize(("players", "limit"), [(4, 7), (5, 6), (6, 6), (7, 6), (8, 5)])
def test_suspicion_thresholds(players: int, limit: int) -> None:
    m = new(players, seed=1, detective_seat=0)
    set_roles(m, {1: "misa"})
    c = ctx_of(m)
    give_suspicions(c, {1: limit - 1}, "test")
    assert not st(m).seats[1].revealed and st(m).seats[1].suspicions == limit - 1
    give_suspicions(c, {1: 1}, "test")
    assert st(m).seats[1].revealed and st(m).seats[1].suspicions == 0


def test_revealed_players_receive_no_suspicions() -> None:
    m = new(6, seed=2, detective_seat=0)
    set_roles(m, {1: "matsuda"})
    c = ctx_of(m)
    give_suspicions(c, {1: 6}, "test")
    assert st(m).seats[1].revealed
    give_suspicions(c, {1: 3}, "test")
    assert st(m).seats[1].suspicions == 0


def test_death_consequences() -> None:
    m = new(6, seed=3, detective_seat=0)
    set_roles(m, {2: "mogi"})
    s = st(m)
    s.seats[2].hand = [1, 2]
    s.seats[2].suspicions = 3
    s.pawn = 2
    c = ctx_of(m)
    die(c, "p2", 1, secret=False)
    x = s.seats[2]
    assert x.dead and x.revealed and x.hand == [] and x.suspicions == 0 and s.pawn is None
    assert 1 in s.discard and 2 in s.discard
    give_suspicions(c, {2: 2}, "test")
    assert x.suspicions == 0
    assert 2 not in round_order(s)


def test_light_revealed_ends_game() -> None:
    m = new(6, seed=4, detective_seat=0)
    set_roles(m, {3: "light"})
    run_until(m, at_turn_window(1))
    n = give(m, 1, "denunciation")
    st(m).seats[3].suspicions = 4
    play(m, 1, n)
    choose(m, 3)
    out = m.outcome()
    assert out is not None and out.condition == "light_revealed"
    assert out.scores["Detective"] >= 3


def test_three_dead_roles_end_game() -> None:
    m = new(8, seed=5, detective_seat=0)
    set_roles(m, {1: "light", 2: "mogi", 3: "yagami", 4: "aizawa"})
    run_until(m, at_turn_window(1))
    c = ctx_of(m)
    die(c, "p2", None, secret=False)
    die(c, "p3", None, secret=False)
    die(c, "p4", None, secret=True)  # Top Secret: dead but not revealed
    poke(m)
    passes(m)
    assert m.outcome() is None
    die(c, "i0", None, secret=False)
    poke(m)
    passes(m)
    out = m.outcome()
    assert out is not None and out.condition == "three_dead"


@pytest.mark.parametrize("players", [4, 6, 8])
def test_the_end_is_begun_as_soon_as_it_is_met(players: int) -> None:
    # ENQ-END-05: the resolution loop reads the end conditions again only after a step
    # function ran (a window or an answered choice leaving the stack changes no reveal or
    # death); so whenever a seat is asked, a met condition has begun the end unless a Death
    # Note in progress holds it.
    for seed in range(12):
        m = new(players, seed=seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            s = st(m)
            if s.ending is None and s.holds == 0:
                assert end_condition(s) is None
            asked = min(m.pending())
            legal = m.legal(asked)
            m.submit(asked, legal[rng.randrange(len(legal))])


def test_round_five_ends_game() -> None:
    m = new(5, seed=6, detective_seat=0)
    for x in st(m).seats:
        x.hand = []
    run_until(m, lambda m: False)
    out = m.outcome()
    assert out is not None
    assert st(m).round == 5 or out.condition != "round5"


def test_round_five_condition_reached() -> None:
    m = new(4, seed=7, detective_seat=0)
    s = st(m)
    # Nobody can receive Suspicions: every player has an Alibi each round.
    while m.outcome() is None:
        s.alibi = [1, 2, 3]
        poke(m)
        from .helpers import default

        m.submit(seat(m), default(m))
    out = m.outcome()
    assert out is not None and out.condition == "round5" and s.round == 5


def test_apples_scored_for_dead_players() -> None:
    m = new(6, seed=8, detective_seat=0)
    set_roles(m, {1: "light", 2: "higuchi", 3: "matsuda", 4: "watari", 5: "misa"})
    s = st(m)
    c = ctx_of(m)
    die(c, "p3", 2, secret=False)  # Higuchi kills Matsuda
    die(c, "p2", None, secret=False)  # Higuchi dies too
    apples, _ = score(s)
    # Higuchi (dead, revealed): Matsuda is dead (+2), he is revealed (no +2).
    assert apples[2] == 2
    # Light: unrevealed (+2), a Kira player unrevealed (+1: Light himself), Ryuk in hand?
    ryuk = any(s.content["actions"][n - 1]["ryuk"] for n in s.seats[1].hand)
    assert apples[1] == 3 + int(ryuk)


def test_series_apples_carry() -> None:
    m = new(4, seed=9, series_apples=[3, 0, 1, 2])
    run_until(m, lambda m: False)
    view = m.view(0)
    assert view["state"]["series_apples"] == [
        a + b for a, b in zip([3, 0, 1, 2], view["state"]["apples"], strict=True)
    ]
    assert m.outcome() is not None


def test_windows_ask_every_seat_alike() -> None:
    m = new(6, seed=10, detective_seat=0)
    run_until(m, at_turn_window(1))
    s = st(m)
    for x in s.seats[1:]:
        x.hand = x.hand or [46]
    poke(m)
    prompts = set()
    asked = []
    while top(m)["k"] == "window":
        who = seat(m)
        asked.append(who)
        prompts.add(m.view(who)["decision"]["prompt"])
        passes(m)
    assert asked == [1, 2, 3, 4, 5] and len(prompts) == 1


def test_window_asks_in_round_order() -> None:
    m = new(6, seed=11, detective_seat=0)
    run_until(m, lambda m: top(m)["k"] == "window" and top(m)["mode"] == "detective")
    s = st(m)
    assert top(m)["seats"] == [x for x in round_order(s) if s.seats[x].hand]


def test_ryuk_action_takes_pawn() -> None:
    m = new(6, seed=12, detective_seat=0)
    run_until(m, at_turn_window(1))
    n = give(m, 1, "apples")
    play(m, 1, n)
    assert st(m).pawn == 1
    passes(m)
    run_until(m, at_turn_window(2))
    k = give(m, 2, "interrogation")
    play(m, 2, k)
    choose(m, 3)
    assert st(m).pawn == 1  # not a Ryuk Action


def test_detective_never_a_target() -> None:
    m = new(6, seed=13, detective_seat=0)
    run_until(m, at_turn_window(1))
    for cid, fn in [
        ("death_note", "dn_target"),
        ("eyes", "eyes_target"),
        ("interrogation", "susp_target"),
        ("theft", "theft_target"),
        ("alibi", "alibi_target"),
        ("page", "page_ref"),
    ]:
        for x in st(m).seats[2:]:
            x.hand = x.hand or [46]
        n = give(m, 1, cid)
        play(m, 1, n)
        assert top(m)["fn"] == fn
        values = [a.get("v") for a in m.legal(1)]
        assert 0 not in values and "p0" not in values
        st(m).stack.pop()
        st(m).seats[1].hand.append(n)
        poke(m)


def test_kill_opens_reaction_window_for_everyone() -> None:
    m = new(6, seed=14, detective_seat=0)
    run_until(m, at_turn_window(1))
    s = st(m)
    for x in s.seats[1:]:
        x.hand = [46]
    events: list[Event] = []
    kill(Ctx(s, random.Random(0), events), "p3", 1, {"card": 1})
    poke(m)
    asked = []
    while top(m)["k"] == "window" and top(m)["mode"] == "death":
        asked.append(seat(m))
        passes(m)
    assert asked == [1, 2, 3, 4, 5]
    assert s.seats[3].dead


def test_windows_are_bounded_pile_refills_between_rounds() -> None:
    m = new(6, seed=15, detective_seat=0)
    run_until(m, at_turn_window(1))
    s = st(m)
    n = give(m, 1, "apples")
    s.discard.extend(s.deck)
    s.deck = []
    hand = len(s.seats[1].hand)
    play(m, 1, n)
    assert len(s.seats[1].hand) == hand - 1 and s.deck == []  # no reshuffle mid-round
    run_until(m, lambda m: st(m).round == 2)
    assert s.deck and s.reshuffles == 1


def test_dead_unrevealed_players_receive_suspicions() -> None:
    # "A dead and revealed character can no longer receive Suspicions": a dead player whose
    # Role stayed face down (Top Secret) still may, and is revealed at the limit.
    m = new(6, seed=2, detective_seat=0)
    set_roles(m, {1: "matsuda", 2: "misa"})
    s = st(m)
    s.seats[1].dead = True
    poke(m)
    from deathnote.games.enquete.cards import _suspectable
    from deathnote.games.enquete.rounds import eligible

    c = ctx_of(m)
    assert 1 in eligible(c) and 1 in _suspectable(s, 2)
    give_suspicions(c, {1: 2}, "test")
    assert s.seats[1].suspicions == 2 and not s.seats[1].revealed
    give_suspicions(c, {1: 4}, "test")
    assert s.seats[1].revealed and s.seats[1].suspicions == 0
    assert not eligible(c).count(1) and 1 not in _suspectable(s, 2)
    give_suspicions(c, {1: 1}, "test")
    assert s.seats[1].suspicions == 0


def test_detective_may_give_suspicions_to_a_dead_unrevealed_player() -> None:
    m = new(6, seed=4, detective_seat=0)
    run_until(m, lambda m: top(m)["k"] == "pick" and top(m)["fn"] == "give_susp")
    s = st(m)
    victim = next(x for x in range(1, 6) if not s.seats[x].revealed)
    s.seats[victim].dead = True
    s.seats[victim].hand = []
    poke(m)
    from deathnote.games.enquete.rounds import give_one

    s.stack[-1] = give_one(ctx_of(m), 1, 1)
    poke(m)
    assert victim in [a["v"] for a in m.legal(0)]


def test_a_pass_reads_the_end_conditions_as_the_plain_loop() -> None:
    """``advance`` after a pass in a window reads the end conditions again only if the
    table changed since they were last found unmet (``EnqState.end_read``): at every window
    of random games, and of worlds sampled from them, where it would skip them and the
    plain loop would read them (no ending begun, no hold), they are not met."""
    checked = 0
    for players, seed in ((4, 11), (5, 12), (6, 13), (7, 14), (8, 15), (5, 16), (6, 17)):
        m = Match.create("enquete", players, seed)
        agents = [RandomAgent(x) for x in range(players)]
        rng = random.Random(seed)
        while m.outcome() is None:
            mover = min(m.pending())
            for state in (st(m), m.sample_world(mover, rng).state):
                if (
                    state.stack[-1]["k"] == "window"
                    and state.ending is None
                    and not state.holds
                    and state.end_read == state.table_version
                ):
                    assert end_condition(state) is None
                    checked += 1
            m.submit(mover, agents[mover].choose(observe(m, mover, rng)))
    assert checked > 500
