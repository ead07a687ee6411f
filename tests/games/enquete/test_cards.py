"""Every Action card's effect."""

from __future__ import annotations

from deathnote.games.enquete.flow import card

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


def ready(roles: dict[int, str] | None = None, seed: int = 20, players: int = 6):  # type: ignore[no-untyped-def]
    """Player 2 (seat 1) at the start of their turn; the Detective is seat 0."""
    m = new(players, seed=seed, detective_seat=0)
    run_until(m, at_turn_window(1))
    if roles:
        set_roles(m, roles)
    return m


def pass_window(m) -> None:  # type: ignore[no-untyped-def]
    while top(m)["k"] == "window":
        passes(m)


def test_death_note_plays_from_hand_then_kills() -> None:
    m = ready({1: "misa", 2: "matsuda", 3: "light"})
    s = st(m)
    dn = give(m, 1, "death_note")
    s.seats[2].hand = []
    inter = give(m, 2, "interrogation")
    play(m, 1, dn)
    assert s.pawn == 1
    choose(m, 2)
    assert s.holds == 1
    assert any(e["data"].get("cards") == [inter] for e in m.log(1))
    assert not any(e["data"].get("cards") == [inter] for e in m.log(3))
    choose(m, inter)  # play their Interrogation as if it were ours
    choose(m, 4)
    assert s.seats[4].suspicions == 1 and not s.seats[2].dead
    pass_window(m)  # the death reaction window
    assert s.seats[2].dead and s.seats[2].revealed and s.holds == 0
    assert {"role": "matsuda", "by": 1} in s.kills


def test_death_note_holds_the_end_until_resolved() -> None:
    m = ready({1: "misa", 2: "matsuda", 3: "yagami", 4: "light"})
    s = st(m)
    s.inactive[0].dead = s.inactive[0].revealed = True
    s.seats[5].dead = s.seats[5].revealed = True
    dn = give(m, 1, "death_note")
    s.seats[2].hand = []
    dn2 = give(m, 2, "death_note")
    play(m, 1, dn)
    choose(m, 2)
    choose(m, dn2)  # the borrowed Death Note kills Yagami: a third death...
    choose(m, 3)
    choose(m, 0)
    while not s.seats[3].dead:
        passes(m)
    assert m.outcome() is None and not s.seats[2].dead  # ...but the first one resolves on
    while m.outcome() is None:
        passes(m)
    assert s.seats[2].dead
    out = m.outcome()
    assert out is not None and out.condition == "three_dead"


def test_page_of_death_note_right_and_wrong() -> None:
    m = ready({1: "higuchi", 2: "matsuda", 3: "light"})
    s = st(m)
    page = give(m, 1, "page")
    play(m, 1, page)
    choose(m, "p2")
    choose(m, "matsuda")
    assert s.seats[1].known_roles["p2"] == "matsuda"
    pass_window(m)
    assert s.seats[2].dead
    m2 = ready({1: "higuchi", 2: "watari", 3: "light"}, seed=21)
    s2 = st(m2)
    page = give(m2, 1, "page")
    play(m2, 1, page)
    choose(m2, "p2")
    choose(m2, "matsuda")
    pass_window(m2)
    assert s2.seats[1].dead and not s2.seats[2].dead


def test_rem_spares_kira() -> None:
    m = ready({1: "misa", 2: "light", 3: "mogi"})
    s = st(m)
    r = give(m, 1, "rem")
    play(m, 1, r)
    choose(m, "p2")
    assert not s.seats[2].dead
    r2 = give(m, 1, "rem")
    play(m, 1, r2)
    choose(m, "p3")
    pass_window(m)
    assert s.seats[3].dead
    s.seats[1].revealed = True
    give(m, 1, "rem")
    poke(m)
    assert not any(a.kind == "play" and card(s, a.get("card"))["id"] == "rem" for a in m.legal(1))


def test_kira_supporter_reveal_or_look() -> None:
    m = ready()
    s = st(m)
    ks = give(m, 1, "kira_supporter")
    play(m, 1, ks)
    choose(m, "look")
    choose(m, 0)
    assert s.seats[1].known_roles["i0"] == s.inactive[0].role and not s.inactive[0].revealed
    ks = give(m, 1, "kira_supporter")
    play(m, 1, ks)
    choose(m, "reveal")
    choose(m, 1)
    assert s.inactive[1].revealed


def test_alibi_blocks_suspicions_and_adds_one() -> None:
    m = ready()
    s = st(m)
    a = give(m, 1, "alibi")
    play(m, 1, a)
    choose(m, 2)
    assert 2 in s.alibi and s.extra_susp == 1
    i = give(m, 1, "interrogation")
    play(m, 1, i)
    assert 2 not in [x.get("v") for x in m.legal(1)]


def test_search_draws_on_discard() -> None:
    m = ready()
    s = st(m)
    n = give(m, 1, "search")
    play(m, 1, n)
    assert s.pawn == 1
    passes(m)
    pass_window(m)
    before = len(s.seats[1].hand)
    choose(m, "discard")
    assert len(s.seats[1].hand) == before + 2  # Search + the Ryuk pawn


def test_two_searches_stack() -> None:
    m = ready()
    s = st(m)
    a, b = give(m, 1, "search"), give(m, 1, "search")
    play(m, 1, a)
    play(m, 1, b)
    s.pawn = 3  # someone else took the pawn meanwhile
    pass_window(m)
    before = len(s.seats[1].hand)
    choose(m, "discard")
    assert len(s.seats[1].hand) == before + 2


def test_shinigami_eyes_look_at_role() -> None:
    m = ready({3: "light"})
    s = st(m)
    e = give(m, 1, "eyes")
    play(m, 1, e)
    choose(m, 3)
    assert s.seats[1].known_roles["p3"] == "light"
    assert any("Light" in e["text"] for e in m.log(1))
    assert not any("is Light" in e["text"] for e in m.log(2))


def test_interrogation_and_denunciation() -> None:
    m = ready()
    s = st(m)
    play(m, 1, give(m, 1, "interrogation"))
    choose(m, 2)
    play(m, 1, give(m, 1, "denunciation"))
    choose(m, 3)
    assert s.seats[2].suspicions == 1 and s.seats[3].suspicions == 2


def test_wiretap_looks_at_hand() -> None:
    m = ready()
    s = st(m)
    s.seats[2].hand = [46]
    play(m, 1, give(m, 1, "wiretap"))
    choose(m, 2)
    assert s.seats[1].known_hands[2] == [46]


def test_ryuks_apples_draw_two() -> None:
    m = ready()
    s = st(m)
    n = give(m, 1, "apples")
    before = len(s.seats[1].hand)
    play(m, 1, n)
    assert len(s.seats[1].hand) == before - 1 + 2


def test_theft_takes_a_card() -> None:
    m = ready()
    s = st(m)
    s.seats[2].hand = [45]
    play(m, 1, give(m, 1, "theft"))
    choose(m, 2)
    assert 45 in s.seats[1].hand and s.seats[2].hand == []


def test_fake_death_note_cancels_symbol_death() -> None:
    m = ready({1: "misa", 2: "matsuda"})
    s = st(m)
    dn = give(m, 1, "death_note")
    s.seats[3].hand = []
    fake = give(m, 3, "fake_dn")
    play(m, 1, dn)
    choose(m, 2)
    choose(m, 0)
    while seat(m) != 3:
        passes(m)
    play(m, 3, fake)
    assert not s.seats[2].dead and m.outcome() is None


def test_false_identity_kills_an_inactive_role_instead() -> None:
    m = ready({1: "misa", 2: "matsuda"})
    s = st(m)
    dn = give(m, 1, "death_note")
    fi = give(m, 2, "false_identity")
    play(m, 1, dn)
    choose(m, 2)
    choose(m, 0)
    while seat(m) != 2:
        passes(m)
    play(m, 2, fi)
    assert not s.seats[2].dead
    assert sum(r.dead and r.revealed for r in s.inactive) == 1


def test_staging_turns_death_back() -> None:
    m = ready({1: "misa", 2: "matsuda"})
    s = st(m)
    dn = give(m, 1, "death_note")
    stg = give(m, 2, "staging")
    play(m, 1, dn)
    choose(m, 2)
    choose(m, 0)
    while seat(m) != 2:
        passes(m)
    play(m, 2, stg)
    pass_window(m)
    assert s.seats[1].dead and not s.seats[2].dead


def test_top_secret_dies_unrevealed() -> None:
    m = ready({1: "misa", 2: "matsuda"})
    s = st(m)
    dn = give(m, 1, "death_note")
    ts = give(m, 2, "top_secret")
    play(m, 1, dn)
    choose(m, 2)
    choose(m, 0)
    while seat(m) != 2:
        passes(m)
    play(m, 2, ts)
    assert s.seats[2].dead and not s.seats[2].revealed
    assert m.view(3)["state"]["seats"][2]["role"] is None


def test_blackmail_forces_a_play() -> None:
    m = ready({1: "aizawa", 2: "light", 3: "mogi"})
    s = st(m)
    bm = give(m, 1, "blackmail")
    s.seats[2].hand = []
    inter = give(m, 2, "interrogation")
    s.light_silenced = True  # Decision: Light may still play when blackmailed
    play(m, 1, bm)
    choose(m, 2)
    choose(m, inter)
    assert seat(m) == 2  # Light chooses the target
    choose(m, 3)
    assert s.seats[3].suspicions == 1 and inter not in s.seats[2].hand


def test_lie_shields_from_decision() -> None:
    m = ready({1: "light", 2: "matsuda"})
    s = st(m)
    lie = give(m, 1, "lie")
    run_until(m, lambda m: top(m).get("fn") == "reveal" or top(m).get("mode") == "detective")
    s.tiles.insert(0, s.tiles.pop(s.tiles.index(16)) if 16 in s.tiles else 16)
    poke(m)
    run_until(m, lambda m: top(m).get("mode") == "lie")
    while seat(m) != 1:
        passes(m)
    play(m, 1, lie)
    run_until(m, lambda m: st(m).light_silenced)
    assert s.light_silenced and 1 in s.silence_exempt
    run_until(m, at_turn_window(1))
    give(m, 1, "interrogation")
    assert any(a.kind == "play" for a in m.legal(1))


def test_cover_up_and_ransom() -> None:
    m = ready()
    s = st(m)
    s.seats[1].suspicions = 2
    play(m, 1, give(m, 1, "cover_up"))
    assert s.seats[1].suspicions == 1
    s.seats[2].hand = [45, 44]
    play(m, 1, give(m, 1, "hostage"))
    choose(m, 2)
    assert seat(m) == 2
    choose(m, 44)
    assert 44 in s.seats[1].hand and s.seats[2].hand == [45]


def test_cover_up_after_friend_never_goes_below_zero() -> None:
    # Friend (Investigation 14) is pending: the announcement of the next Action takes away
    # up to 2 Suspicions; Cover-up then has nothing left to discard (issue 11 §7).
    for before in (1, 2):
        m = ready()
        s = st(m)
        s.friend = True
        s.seats[1].suspicions = before
        play(m, 1, give(m, 1, "cover_up"))
        assert s.seats[1].suspicions == 0 and not s.friend
        assert any("no Suspicion left" in e["text"] for e in m.log(2))
    m = ready()
    s = st(m)
    s.friend = True
    s.seats[1].suspicions = 3
    play(m, 1, give(m, 1, "cover_up"))
    assert s.seats[1].suspicions == 0
