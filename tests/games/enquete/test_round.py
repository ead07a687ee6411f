"""Rounds: the Detective's gift, player turns, the Detective's turn."""

from __future__ import annotations

from deathnote.engine import Action
from deathnote.games.enquete.flow import round_order, tile

from .helpers import (
    at_pick,
    at_turn_window,
    choose,
    give,
    new,
    passes,
    play,
    poke,
    run_until,
    seat,
    st,
    top,
)


def test_detective_gives_action() -> None:
    m = new(6, seed=5, detective_seat=0)
    run_until(m, at_pick("give_card"))
    s = st(m)
    card_n = s.seats[0].hand[0]
    choose(m, card_n)
    assert seat(m) == 0
    choose(m, 3)
    assert card_n in s.seats[3].hand and len(s.seats[0].hand) == 4
    assert any("gives an Action to Player 4" in e["text"] for e in m.log(2))
    assert not any(str(card_n) in str(e["data"].get("card", "")) for e in m.log(2))
    assert any(e["data"].get("card") == card_n for e in m.log(3))


def test_detective_without_actions_gives_nothing() -> None:
    m = new(6, seed=5, detective_seat=0)
    run_until(m, at_pick("investigate"))
    st(m).seats[0].hand = []
    run_until(m, lambda m: st(m).round == 2)
    assert top(m).get("fn") != "give_card"
    assert top(m)["k"] == "window" and top(m)["mode"] == "turn"


def test_turn_order_follows_direction() -> None:
    m = new(6, seed=6, detective_seat=2)
    run_until(m, lambda m: top(m)["k"] == "call" or top(m).get("fn") == "investigate")
    s = st(m)
    assert s.direction == "clockwise" and round_order(s) == [3, 4, 5, 0, 1]
    order = []
    while s.round == 1:
        if top(m).get("fn") == "investigate":
            order.append(top(m)["seat"])
        run_until(m, lambda m: True)
        m.submit(seat(m), _default_keep(m))
    assert order == [3, 4, 5, 0, 1]
    run_until(m, at_pick("investigate"))
    assert s.direction == "counterclockwise" and top(m)["seat"] == 1


def _default_keep(m):  # type: ignore[no-untyped-def]
    from .helpers import default

    return default(m)


def test_keep_draws_discard_does_not() -> None:
    m = new(6, seed=7, detective_seat=0)
    run_until(m, at_pick("investigate"))
    s = st(m)
    first = top(m)["seat"]
    before = len(s.seats[first].hand)
    choose(m, "keep")
    assert len(s.seats[first].hand) == before + 1
    run_until(m, at_pick("investigate"))
    second = top(m)["seat"]
    before = len(s.seats[second].hand)
    tiles = len(s.tiles)
    choose(m, "discard")
    assert len(s.seats[second].hand) == before and len(s.tiles) == tiles - 1


def test_last_tile_cannot_be_discarded() -> None:
    m = new(8, seed=8, detective_seat=0)
    s = st(m)
    for _ in range(4):
        run_until(m, at_pick("investigate"))
        choose(m, "discard")
    run_until(m, at_pick("investigate"))
    assert sum(1 for t in s.tiles if tile(s, t)["pile"] == 1) == 1
    assert [a.get("v") for a in m.legal(seat(m))] == ["keep"]


def test_look_is_private() -> None:
    m = new(6, seed=9, detective_seat=0)
    run_until(m, at_pick("investigate"))
    looker = top(m)["seat"]
    t = st(m).tiles[0]
    assert m.view(looker)["state"]["me"]["looking"]["number"] == t
    for other in range(6):
        if other != looker:
            assert m.view(other)["state"]["me"]["looking"] is None
            assert not any(e["data"].get("tile") == t for e in m.log(other))
    assert any(e["data"].get("tile") == t for e in m.log(looker))


def test_pawn_holder_draws_on_discard() -> None:
    m = new(6, seed=10, detective_seat=0)
    run_until(m, at_pick("investigate"))
    s = st(m)
    looker = top(m)["seat"]
    s.pawn = looker
    before = len(s.seats[looker].hand)
    choose(m, "discard")
    assert len(s.seats[looker].hand) == before + 1


def test_detective_turn_order_of_steps() -> None:
    m = new(6, seed=11, detective_seat=0)
    s = st(m)
    run_until(
        m,
        lambda m: (
            top(m).get("fn") == "reveal"
            or (top(m)["k"] == "window" and top(m)["mode"] == "detective")
        ),
    )
    s.tiles.remove(23)
    s.tiles.insert(0, 23)  # Frenzy: Ryuk icon, 3 Suspicions
    s.pawn = 2
    for x in s.seats:
        x.hand = []
    poke(m)
    run_until(m, at_pick("give_susp"))
    assert s.seats[2].suspicions == 1  # the Ryuk icon first
    assert seat(m) == 0
    choose(m, 4)
    assert s.seats[4].suspicions == 3
    log = [e["text"] for e in m.log("spectator")]
    ryuk = next(i for i, t in enumerate(log) if t.startswith("Ryuk icon"))
    given = next(i for i, t in enumerate(log) if t.startswith("The Detective's Suspicions"))
    assert ryuk < given


def test_round_discards_remaining_tiles() -> None:
    m = new(6, seed=12, detective_seat=0)
    run_until(m, at_pick("investigate"))
    run_until(m, lambda m: st(m).round == 2)
    s = st(m)
    assert all(tile(s, t)["pile"] >= 2 for t in s.tiles)
    assert len(s.tiles) == 20
    assert len(s.tile_discard) == 4


def test_several_actions_in_one_turn() -> None:
    m = new(6, seed=13, detective_seat=0)
    run_until(m, at_turn_window(1))
    a = give(m, 1, "interrogation")
    b = give(m, 1, "apples")
    play(m, 1, a)
    choose(m, 2)
    assert seat(m) == 1
    play(m, 1, b)
    assert seat(m) == 1
    passes(m)
    assert st(m).seats[2].suspicions == 1
    assert m.submit is not None and Action.make("pass")
