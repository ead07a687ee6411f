"""Scenario helpers: drive a match with default choices and set up situations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deathnote.engine import Action, Match
from deathnote.games.enquete.flow import card
from deathnote.games.enquete.state import EnqState, new_version


def new(players: int = 6, seed: int = 0, **options: Any) -> Match:
    """A fresh match."""
    return Match.create("enquete", players, seed, options or None)


def st(m: Match) -> EnqState:
    """The match state (for set-up and asserts only)."""
    state: EnqState = m.state
    return state


def poke(m: Match) -> None:
    """Forget the match's caches after a test edits the state (and the state's own: a
    new ``table_version``)."""
    m._legal.clear()
    m._pending = None
    m.state.table_version = new_version()


def top(m: Match) -> dict[str, Any]:
    """The step waiting for a decision."""
    return st(m).stack[-1]


def seat(m: Match) -> int:
    """The seat asked now."""
    return min(m.pending())


def default(m: Match) -> Action:
    """Pass in windows, keep Investigations, otherwise the first option."""
    legal = m.legal(seat(m))
    for a in legal:
        if a.kind == "pass" or a.get("v") == "keep":
            return a
    return legal[0]


def run_until(m: Match, cond: Callable[[Match], bool], limit: int = 3000) -> None:
    """Submit default choices until ``cond`` holds (checked before each choice)."""
    for _ in range(limit):
        if m.outcome() is not None or cond(m):
            return
        m.submit(seat(m), default(m))
    raise AssertionError("condition never met")


def at_turn_window(s: int) -> Callable[[Match], bool]:
    """The start-of-turn window of seat ``s``, with ``s`` asked."""

    def cond(m: Match) -> bool:
        t = top(m)
        return t["k"] == "window" and t["mode"] == "turn" and t["owner"] == s and t["seats"][0] == s

    return cond


def at_pick(fn_name: str) -> Callable[[Match], bool]:
    """A pick step running ``fn_name``."""

    def cond(m: Match) -> bool:
        t = top(m)
        return t["k"] == "pick" and t["fn"] == fn_name

    return cond


def give(m: Match, s: int, card_id: str) -> int:
    """Put a card of this id into seat ``s``'s hand (from the piles first, else a hand)."""
    state = st(m)
    others = [x.hand for i, x in enumerate(state.seats) if i != s]
    for place in [state.deck, state.discard, *others]:
        for n in list(place):
            if card(state, n)["id"] == card_id:
                place.remove(n)
                state.seats[s].hand.append(n)
                poke(m)
                return n
    raise AssertionError(f"no {card_id} card left")


def set_roles(m: Match, roles: dict[int, str]) -> None:
    """Give seats these Roles, swapping with whoever (or whichever inactive card) holds them."""
    state = st(m)
    for s, role in roles.items():
        holder = next((x for x in state.seats if x.role == role), None)
        slot = next((r for r in state.inactive if r.role == role), None)
        if holder is not None:
            holder.role, state.seats[s].role = state.seats[s].role, role
        elif slot is not None:
            slot.role, state.seats[s].role = state.seats[s].role, role
    state.detective = next(i for i, x in enumerate(state.seats) if x.role == "detective")
    poke(m)


def play(m: Match, s: int, number: int) -> None:
    """Seat ``s`` plays card ``number`` in the window asking it."""
    m.submit(s, Action.make("play", card=number))


def choose(m: Match, value: Any) -> None:
    """The asked seat picks ``value``."""
    m.submit(seat(m), Action.make("pick", v=value))


def passes(m: Match) -> None:
    """The asked seat passes."""
    m.submit(seat(m), Action.make("pass"))


def players_of(m: Match) -> list[int]:
    """Seats other than the Detective's."""
    return [s for s in range(m.players) if s != st(m).detective]


def first_turn(m: Match) -> int:
    """The seat that plays first this round."""
    from deathnote.games.enquete.flow import round_order

    return round_order(st(m))[0]
