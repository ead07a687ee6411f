"""Small helpers to build TCG positions and act in them through the game's own rules."""

from __future__ import annotations

import random
from typing import Any

from deathnote.engine import Action, Event
from deathnote.games.tcg import GAME
from deathnote.games.tcg.state import FieldCharacter, TcgState

LIGHT, MISA, MIKAMI, TAKADA, HIGUCHI = "DN-S01", "DN-S02", "DN-S03", "DN-S04", "DN-S05"
SOICHIRO, L_CHAR, NEAR, WATARI, MATSUDA = "DN-S08", "DN-S09", "DN-S10", "DN-S12", "DN-S13"
AIZAWA, MOGI, IDE, NAOMI, HALLE = "DN-S14", "DN-S15", "DN-S16", "DN-S17", "DN-S20"
RYUK, REM, LIGHT_KIRA, L_SPECIAL, NEAR_SPECIAL = "DN-S23", "DN-S24", "DN-S27", "DN-S32", "DN-S33"
MATSUDA_SPECIAL = "DN-S38"
THIRTEEN_DAY, ARREST, RAID, PROFITS, HOSTAGE = "DN-S41", "DN-S42", "DN-S43", "DN-S46", "DN-S47"


def fresh(first: int = 0, seed: int = 0, **options: Any) -> tuple[TcgState, random.Random]:
    """A new game (Kira deck in seat 0, L deck in seat 1) before the mulligans."""
    opts = GAME.parse_options(2, {"first": first, **options})
    content = GAME.load_content(None, opts)
    rng = random.Random(seed)
    return GAME.new_state(2, opts, content, rng), rng


def legal_of(state: TcgState, seat: int, kind: str, **args: Any) -> list[Action]:
    """The legal actions of a kind whose arguments include ``args``."""
    return [
        a
        for a in GAME.legal(state, seat)
        if a.kind == kind and all(a.get(k) == v for k, v in args.items())
    ]


def act(state: TcgState, rng: random.Random, seat: int, kind: str, **args: Any) -> list[Event]:
    """Take the one legal action matching kind and args (fails if it is not legal)."""
    found = legal_of(state, seat, kind, **args)
    assert found, f"{kind} {args} is not legal; legal: {[a.label for a in GAME.legal(state, seat)]}"
    return GAME.apply(state, seat, found[0], rng)


def started(first: int = 0, seed: int = 0) -> tuple[TcgState, random.Random]:
    """A game after both players kept their hands: the first player's Character phase."""
    state, rng = fresh(first, seed)
    act(state, rng, first, "keep")
    act(state, rng, 1 - first, "keep")
    return state, rng


def put(
    state: TcgState,
    seat: int,
    number: str,
    *,
    face_up: bool = True,
    upright: bool = True,
    special: str | None = None,
    special_up: bool = False,
) -> FieldCharacter:
    """Put a Character (and a Special) straight onto a field, for setting up positions."""
    card = state.cards[number]
    fc = FieldCharacter(number=number, name=card.name, face_up=face_up, upright=upright)
    if special is not None:
        fc.special, fc.special_face_up, fc.special_turn = special, special_up, 0
    state.players[seat].field.append(fc)
    return fc


def to_action_phase(state: TcgState, rng: random.Random) -> None:
    """End the current Character phase (must not be a first turn)."""
    act(state, rng, state.current, "next")


def pass_turns(state: TcgState, rng: random.Random, count: int) -> None:
    """End the current turn ``count`` times (from either phase)."""
    for _ in range(count):
        seat = state.current
        if legal_of(state, seat, "next"):
            act(state, rng, seat, "next")
        if state.current == seat and legal_of(state, seat, "end"):
            act(state, rng, seat, "end")


def texts(events: list[Event]) -> str:
    """All event texts, joined."""
    return "\n".join(e.text for e in events)
