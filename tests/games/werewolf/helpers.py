"""Scenario helpers: build a table, arrange Roles and hands, submit choices."""

from __future__ import annotations

from typing import Any

from deathnote.engine import Action, Match
from deathnote.games.werewolf.state import WwState


def new(players: int = 4, seed: int = 0, first: int | None = 0, **options: Any) -> Match:
    """A fresh match (seat 0 starts unless told otherwise)."""
    if first is not None:
        options["first_player"] = first
    return Match.create("werewolf", players, seed, options or None)


def st(m: Match) -> WwState:
    """The match state (for set-up and asserts only)."""
    state: WwState = m.state
    return state


def poke(m: Match) -> None:
    """Forget the match's caches after a test edits the state."""
    m._legal.clear()
    m._pending = None


def set_roles(m: Match, roles: dict[int, str]) -> None:
    """Give seats these Roles, swapping with whoever holds them."""
    state = st(m)
    for s, role in roles.items():
        holder = next((x for x in state.seats if x.role == role), None)
        if holder is not None:
            holder.role, state.seats[s].role = state.seats[s].role, role
        else:
            state.seats[s].role = role
    for x in state.seats:
        x.known_roles.clear()
    poke(m)


def set_hand(m: Match, seat: int, cards: list[str]) -> None:
    """Give a seat exactly these cards (the old ones go to the deck's bottom)."""
    state = st(m)
    state.deck.extend(state.seats[seat].hand)
    state.seats[seat].hand = list(cards)
    poke(m)


def seat_of(m: Match, role: str) -> int:
    """The (first) seat of a Role."""
    return next(s for s, x in enumerate(st(m).seats) if x.role == role)


def asked(m: Match) -> int:
    """The single seat asked now."""
    pending = m.pending()
    assert len(pending) == 1, pending
    return next(iter(pending))


def act(m: Match, kind: str, by: int | None = None, **args: Any) -> None:
    """Submit an action for seat ``by`` (default: the only seat asked)."""
    m.submit(asked(m) if by is None else by, Action.make(kind, **args))


def kinds(m: Match, seat: int | None = None) -> set[tuple[str, Any]]:
    """The legal actions of a seat as (kind, main argument) pairs."""
    s = asked(m) if seat is None else seat
    out = set()
    for a in m.legal(s):
        args = dict(a.args)
        out.add((a.kind, args.get("card", args.get("seat", args.get("dir")))))
    return out


def log_types(m: Match, viewer: int | str) -> list[str]:
    """The ``type`` of every log entry this viewer sees."""
    return [e["data"].get("type", "") for e in m.log(viewer)]


def finish_turn_discarding(m: Match) -> None:
    """The asked seat passes by discarding its first discardable card (when everyone is
    asked, as after a Shinigami, the lowest seat gives its first answer)."""
    if len(m.pending()) > 1:
        s = min(m.pending())
        m.submit(s, m.legal(s)[0])
        return
    s = asked(m)
    legal = [a for a in m.legal(s) if a.kind == "discard"]
    m.submit(s, legal[0] if legal else m.legal(s)[0])
