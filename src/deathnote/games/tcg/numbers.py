"""Numbers for learning: the stable action table (TCG-NUM-01) and the observation tensor
(TCG-NUM-02). Both are laid out over a card pool: its card ids, its Specials and the names of
its Characters (the Character File)."""

from __future__ import annotations

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
    return Layout(
        ids=ids,
        specials=tuple(n for n in ids if cards[n].kind == "special"),
        names=tuple(sorted({c.name for c in cards.values() if c.kind == "character"})),
    )


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
    return per_pool(state.cards, "layout", layout_of)


def observation(state: TcgState, viewer: Viewer) -> np.ndarray:
    """The viewer's float32 observation: globals, then the viewer's side, then the other
    (seat 0 first for a spectator or omniscient viewer); only what the viewer may see."""
    lay = layout(state)
    out = np.zeros(lay.size, dtype=np.float32)
    me = viewer if isinstance(viewer, int) else 0
    out[0] = state.turn / 50
    out[1] = state.current == me
    out[2] = state.first == me
    out[3] = state.winner is not None and state.winner == me
    out[4] = state.winner is not None and state.winner != me
    out[5 + PHASES.index(state.phase)] = 1
    if state.choice is not None and viewer in (OMNISCIENT, state.current):
        out[5 + len(PHASES) + STEPS.index(state.choice["step"])] = 1
    for k, seat in enumerate((me, 1 - me)):
        _side(state, lay, seat, viewer in (OMNISCIENT, seat), out, GLOBAL + k * lay.side_size)
    return out


def _side(state: TcgState, lay: Layout, seat: int, own: bool, out: np.ndarray, at: int) -> None:
    player = state.players[seat]
    current = seat == state.current
    out[at : at + SIDE] = (
        player.points / 13,
        len(player.deck) / 40,
        len(player.hand) / 40,
        player.mulligan == "pending",
        player.mulligan == "kept",
        player.mulligan == "redrawn",
        player.mark is not None,
        player.protected,
        player.deathnote_turn == state.turn and state.turn > 0,
        player.placed if current else 0,
        player.allowance if current else 0,
        player.turns_taken / 25,
    )
    at += SIDE
    names = len(lay.names)
    specials_at = at + PER_NAME * names
    discard_at = specials_at + len(lay.specials)
    hand_at = discard_at + len(lay.ids)
    mark_at = hand_at + len(lay.ids)
    for fc in player.field:
        base = at + PER_NAME * lay.name_at[fc.name]
        out[base : base + PER_NAME] = (
            1,
            fc.face_up,
            fc.upright,
            fc.special is not None,
            fc.special is not None and fc.special_face_up,
            fc.flipped_turn == state.turn,
            fc.special is not None and fc.special_turn == state.turn,
            state.cards[fc.number].points / 3,
        )
        if fc.special is not None and (fc.special_face_up or own):
            out[specials_at + lay.special_at[fc.special]] += 1
    for n in player.discard:
        out[discard_at + lay.id_at[n]] += 0.25
    if own:
        for n in player.hand:
            out[hand_at + lay.id_at[n]] += 0.25
        if player.mark is not None:
            out[mark_at + lay.name_at[player.mark.target]] = 1


def shape(players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The observation's shape over the sample pool."""
    return (layout_of(default_pool()).size,)
