"""Numbers for learning: the stable action table (TCG-NUM-01) and the observation tensor
(TCG-NUM-02). Both are laid out over a card pool: its card ids, its Specials and the names of
its Characters (the Character File)."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from deathnote.engine.actions import OMNISCIENT, Action, Viewer
from deathnote.engine.spaces import TableSpace
from deathnote.games.tcg.cards import Card, default_content, parse_pool, per_pool
from deathnote.games.tcg.effects import EFFECTS
from deathnote.games.tcg.state import ACTION, CHARACTER, MULLIGAN, OVER, TcgState

PHASES = (MULLIGAN, CHARACTER, ACTION, OVER)
STEPS = ("attach", "act", "event")
MULLIGANS = ("pending", "kept", "redrawn")
GLOBAL = 5 + len(PHASES) + len(STEPS)
SIDE = 12
PER_NAME = 8


class Layout:
    """The pool's indexes: card ids, Special ids, Character names."""

    def __init__(self, ids: tuple[str, ...], specials: tuple[str, ...], names: tuple[str, ...]):
        self.ids, self.specials, self.names = ids, specials, names
        self.id_at = {n: i for i, n in enumerate(ids)}
        self.special_at = {n: i for i, n in enumerate(specials)}
        self.name_at = {n: i for i, n in enumerate(names)}
        # Offsets within a side, after its SIDE scalars (read at every observation).
        self.specials_from = PER_NAME * len(names)
        self.discard_from = self.specials_from + len(specials)
        self.hand_from = self.discard_from + len(ids)
        self.side = self.side_size
        self.total = self.size
        #: an observation's zeros, copied for each one (cheaper than ``np.zeros``)
        self.zeros = np.zeros(self.total, dtype=np.float32)
        self.zeros.flags.writeable = False
        #: a Character card's first slot within its side's Character File and its points
        #: / 3, by card number (filled by ``layout_of``)
        self.field_slot: dict[str, tuple[int, float]] = {}

    @property
    def side_size(self) -> int:
        """Floats per player."""
        n, s, p = len(self.names), len(self.specials), len(self.ids)
        return SIDE + PER_NAME * n + s + 2 * p + n

    @property
    def size(self) -> int:
        """Floats in all."""
        return GLOBAL + 2 * self.side_size


def layout_of(cards: Mapping[str, Card]) -> Layout:
    """The layout of a pool."""
    ids = tuple(sorted(cards))
    lay = Layout(
        ids=ids,
        specials=tuple(n for n in ids if cards[n].kind == "special"),
        names=tuple(sorted({c.name for c in cards.values() if c.kind == "character"})),
    )
    lay.field_slot = {
        n: (PER_NAME * lay.name_at[c.name], c.points / 3)
        for n, c in cards.items()
        if c.kind == "character"
    }
    return lay


@cache
def default_pool() -> dict[str, Card]:
    """The packaged sample pool (the numbering's pool; see TCG-NUM-01)."""
    return parse_pool(default_content()["pool"])


def all_actions(cards: Mapping[str, Card]) -> list[Action]:
    """Every action of the game over a pool, in table order."""
    lay = layout_of(cards)
    out = [Action.make(k) for k in ("keep", "mulligan", "next", "end", "cancel")]
    out += [Action.make("place", card=n) for n in lay.ids if cards[n].kind == "character"]
    out += [Action.make("attach", card=n) for n in lay.specials]
    out += [Action.make("event", card=n) for n in lay.ids if cards[n].kind == "event"]
    for kind in ("reveal", "hide", "show", "work"):
        out += [Action.make(kind, character=name) for name in lay.names]
    for n in lay.ids:
        card = cards[n]
        if card.kind == "event":
            continue
        bearers = [card.name] if card.kind == "character" or not card.shinigami else list(lay.names)
        effect = EFFECTS.get(card.printed)
        for ability in effect.abilities if effect is not None else ():
            out += [
                Action.make("act", character=name, ability=ability.key, source=n)
                for name in bearers
            ]
    out += [Action.make("target", target=name) for name in lay.names]
    return out


@cache
def default_space() -> TableSpace:
    """The action table of the sample pool."""
    return TableSpace(all_actions(default_pool()))


def layout(state: TcgState) -> Layout:
    """The state's pool layout, made once per pool."""
    cards = state.cards
    last = _LAST_LAYOUT
    if last and last[0] is cards:
        return last[1]
    lay = per_pool(cards, "layout", layout_of)
    _LAST_LAYOUT[:] = [cards, lay]
    return lay


#: the pool and layout ``layout`` gave last (a match asks for the same one at every step)
_LAST_LAYOUT: list[Any] = []


def observation(state: TcgState, viewer: Viewer) -> np.ndarray:
    """The viewer's float32 observation: globals, then the viewer's side, then the other
    (seat 0 first for a spectator or omniscient viewer); only what the viewer may see."""
    last = _LAST_LAYOUT  # ``layout(state)``, its usual case written out
    lay: Layout = last[1] if last and last[0] is state.cards else layout(state)
    array = lay.zeros.copy()
    # Written through a memoryview: item by item (far cheaper per item than numpy's own
    # item and slice assignment), flags only when set; a side's scalars and each field
    # Character's slots in one struct write each.
    out: Any = array.data
    me = viewer if isinstance(viewer, int) else 0
    out[0] = state.turn / 50
    if state.current == me:
        out[1] = 1.0
    if state.first == me:
        out[2] = 1.0
    if state.winner is not None:
        out[3 if state.winner == me else 4] = 1.0
    out[5 + _PHASE_AT[state.phase]] = 1.0
    if state.choice is not None and viewer in (OMNISCIENT, state.current):
        out[5 + len(PHASES) + _STEP_AT[state.choice["step"]]] = 1.0
    side = lay.side
    _side(state, lay, me, viewer in (OMNISCIENT, me), out, GLOBAL)
    _side(state, lay, 1 - me, viewer in (OMNISCIENT, 1 - me), out, GLOBAL + side)
    return array


#: writes a side's SIDE scalars at a byte offset
_SIDE_SLOTS = struct.Struct(f"{SIDE}f").pack_into
#: writes a field Character's PER_NAME floats (present, face up, upright, Special, Special
#: face up, flipped this turn, Special attached this turn, points / 3) at a byte offset
_FIELD_SLOTS = struct.Struct(f"{PER_NAME}f").pack_into
_PHASE_AT = {phase: i for i, phase in enumerate(PHASES)}
_STEP_AT = {step: i for i, step in enumerate(STEPS)}


def _side(state: TcgState, lay: Layout, seat: int, own: bool, out: Any, at: int) -> None:
    player = state.players[seat]
    turn = state.turn
    mulligan = player.mulligan
    current = seat == state.current
    _SIDE_SLOTS(
        out,
        4 * at,
        player.points / 13,
        len(player.deck) / 40,
        len(player.hand) / 40,
        1.0 if mulligan == "pending" else 0.0,
        1.0 if mulligan == "kept" else 0.0,
        1.0 if mulligan == "redrawn" else 0.0,
        1.0 if player.mark is not None else 0.0,
        1.0 if player.protected else 0.0,
        1.0 if player.deathnote_turn == turn and turn > 0 else 0.0,
        player.placed if current else 0.0,
        player.allowance if current else 0.0,
        player.turns_taken / 25,
    )
    at += SIDE
    specials_at = at + lay.specials_from
    discard_at = at + lay.discard_from
    hand_at = at + lay.hand_from
    name_at, by_number = lay.name_at, lay.field_slot
    for fc in player.field:
        slot, third = by_number[fc.number]
        # A Character's PER_NAME slots (its name's, unique on a side) in one write.
        special = fc.special
        _FIELD_SLOTS(
            out,
            4 * (at + slot),
            1.0,
            1.0 if fc.face_up else 0.0,
            1.0 if fc.upright else 0.0,
            0.0 if special is None else 1.0,
            1.0 if special is not None and fc.special_face_up else 0.0,
            1.0 if fc.flipped_turn == turn else 0.0,
            1.0 if special is not None and fc.special_turn == turn else 0.0,
            third,
        )
        if special is not None and (fc.special_face_up or own):
            out[specials_at + lay.special_at[special]] += 1.0
    id_at = lay.id_at
    for n in player.discard:
        out[discard_at + id_at[n]] += 0.25
    if own:
        for n in player.hand:
            out[hand_at + id_at[n]] += 0.25
        if player.mark is not None:
            out[hand_at + len(lay.ids) + name_at[player.mark.target]] = 1.0


def shape(players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The observation's shape over the sample pool."""
    return (layout_of(default_pool()).size,)
