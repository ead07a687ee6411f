"""Stable action numbers and observation tensors (the rules doc has the tables).

The observation is encoded from the viewer's own view (``EnqueteGame.view``) and the seat
being asked (public in this game), so it can hold nothing the viewer may not see.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from deathnote.engine.actions import OMNISCIENT, Action, Viewer

from .content import ROLE_IDS
from .flow import SUSPICION_LIMIT, piles_of, tile
from .state import EnqState

CARDS = 46
TILES = 25
MAX_INACTIVE = 5  # 9 Roles, at least 4 players
OPTION_WORDS = (
    *("keep", "discard", "reveal", "look", "exchange"),
    *("silent", "suspicions", "no", "draw"),
)
NAMED_ROLES = ("light", "misa", "higuchi", "yagami", "matsuda", "aizawa", "mogi", "watari")
ENDINGS = ("light_revealed", "three_dead", "round5")


def action_table(players: int) -> list[Action]:
    """Every action of a game of ``players`` seats, in number order."""
    values: list[Any] = list(range(CARDS + 1))  # seats, cards (0: none), inactive indexes
    values += OPTION_WORDS
    values += [f"p{s}" for s in range(players)] + [f"i{i}" for i in range(9 - players)]
    values += NAMED_ROLES
    values += [f"{a}-{b}" for a in range(players) for b in range(a + 1, players)]
    return [
        Action.make("pass"),
        *(Action.make("play", card=n) for n in range(1, CARDS + 1)),
        *(Action.make("pick", v=v) for v in values),
    ]


GLOBAL = 14 + len(ENDINGS) + TILES
PER_SEAT = 15 + len(ROLE_IDS)
PER_INACTIVE = 2 + len(ROLE_IDS)


@cache
def observation_size(players: int) -> int:
    """Length of the flat observation vector."""
    me = CARDS + TILES + players * CARDS
    return GLOBAL + players * PER_SEAT + MAX_INACTIVE * PER_INACTIVE + me


def encode(view: dict[str, Any], players: int, asked: int | None) -> np.ndarray:
    """The flat float32 observation of one view (layout: rules doc, ENQ-LEARN-02)."""
    out = np.zeros(observation_size(players), dtype=np.float32)
    limit = SUSPICION_LIMIT[players]
    me = view.get("me")
    known = me["known_roles"] if me else {}
    g = [
        view["round"] / 5,
        float(view["direction"] == "clockwise"),
        view["deck"] / CARDS,
        view["discard"] / CARDS,
        view["tiles_left"] / TILES,
        view["tiles_left_this_round"] / 5,
        limit / 7,
        view["extra_suspicions"] / 5,
        float(view["light_silenced"]),
        float(view["friend"]),
        float(view["pursuit"]),
        float(view["pawn"] is None),
        float(view["current"] is not None),
        float("apples" in view),
    ]
    out[: len(g)] = g
    if view["ending"] is not None:
        out[14 + ENDINGS.index(view["ending"])] = 1
    if view["revealed_tile"] is not None:
        out[14 + len(ENDINGS) + view["revealed_tile"]["number"] - 1] = 1
    base = GLOBAL
    for seat in view["seats"]:
        s = seat["seat"]
        row = base + s * PER_SEAT
        out[row : row + 15] = [
            float(seat["detective"]),
            float(me is not None and me["seat"] == s),
            float(seat["revealed"]),
            float(seat["dead"]),
            seat["suspicions"] / limit,
            seat["hand_size"] / 10,
            float(seat["alibi"]),
            float(seat["no_draw"]),
            float(seat["pawn"]),
            seat["keeps"] / 5,
            seat["discards"] / 5,
            seat["plays"] / 10,
            seat["ryuk_plays"] / 10,
            float(view["current"] == s),
            float(asked == s),
        ]
        role = seat["role"] or known.get(f"p{s}")
        if role is not None:
            out[row + 15 + ROLE_IDS.index(role)] = 1
    base += players * PER_SEAT
    for r in view["inactive"]:
        row = base + r["index"] * PER_INACTIVE
        out[row] = float(r["revealed"])
        out[row + 1] = float(r["dead"])
        role = r["role"] or known.get(f"i{r['index']}")
        if role is not None:
            out[row + 2 + ROLE_IDS.index(role)] = 1
    base += MAX_INACTIVE * PER_INACTIVE
    if me is not None:
        for c in me["hand"]:
            out[base + c["number"] - 1] += 1
        if me["looking"] is not None:
            out[base + CARDS + me["looking"]["number"] - 1] = 1
        hands = base + CARDS + TILES
        for target, cards in me["known_hands"].items():
            for n in cards:
                out[hands + int(target) * CARDS + n - 1] += 1
    return out


_ROLE = {r: k for k, r in enumerate(ROLE_IDS)}
#: the keys of ``known_roles``: "p<seat>" and "i<inactive index>" (9 Roles at most)
_SEAT_KEY = tuple(f"p{s}" for s in range(len(ROLE_IDS)))
_INACTIVE_KEY = tuple(f"i{i}" for i in range(len(ROLE_IDS)))
_ENDING = {e: k for k, e in enumerate(ENDINGS)}


def encode_state(st: EnqState, viewer: Viewer, asked: int | None) -> np.ndarray:
    """``encode(view, players, asked)`` read from the state without building the view (the
    learning adapters ask for it at every step). It reads only what ``EnqueteGame.view``
    shows this viewer, by the view's own rules (a Role revealed, the Detective's, the
    viewer's own, all at the end; the viewer's hand, looks and the tile it looks at); a
    test checks it equals the view's vector for every viewer at every step of random
    games."""
    players = st.players
    array = np.zeros(observation_size(players), dtype=np.float32)
    # Written item by item through a memoryview (as cheap per item as a list, nothing to
    # convert at the end); flags are written only when set.
    out: Any = array.data
    limit = SUSPICION_LIMIT[players]
    everything = viewer == OMNISCIENT or st.over
    me = st.seats[viewer] if isinstance(viewer, int) else None
    known = me.known_roles if me is not None else {}
    this_round = st.round
    piles = piles_of(st.content)
    current = st.current
    out[0] = st.round / 5
    if st.direction == "clockwise":
        out[1] = 1.0
    out[2] = len(st.deck) / CARDS
    out[3] = len(st.discard) / CARDS
    out[4] = len(st.tiles) / TILES
    out[5] = len(piles[this_round].intersection(st.tiles)) / 5 if this_round in piles else 0.0
    out[6] = limit / 7
    out[7] = st.extra_susp / 5
    if st.light_silenced:
        out[8] = 1.0
    if st.friend:
        out[9] = 1.0
    if st.pursuit:
        out[10] = 1.0
    if st.pawn is None:
        out[11] = 1.0
    if current is not None:
        out[12] = 1.0
    if st.over:
        out[13] = 1.0
    if st.ending is not None:
        out[14 + _ENDING[st.ending]] = 1.0
    if st.revealed_tile is not None:
        out[14 + len(ENDINGS) + tile(st, st.revealed_tile)["number"] - 1] = 1.0
    base = GLOBAL
    detective, pawn = st.detective, st.pawn
    alibi, no_draw = st.alibi, st.no_draw
    for s, seat in enumerate(st.seats):
        row = base + s * PER_SEAT
        stats = st.stats[s]
        if s == detective:
            out[row] = 1.0
        if viewer == s:
            out[row + 1] = 1.0
        if seat.revealed or s == detective:
            out[row + 2] = 1.0
        if seat.dead:
            out[row + 3] = 1.0
        out[row + 4] = seat.suspicions / limit
        out[row + 5] = len(seat.hand) / 10
        if s in alibi:
            out[row + 6] = 1.0
        if s in no_draw:
            out[row + 7] = 1.0
        if pawn == s:
            out[row + 8] = 1.0
        out[row + 9] = stats["keeps"] / 5
        out[row + 10] = stats["discards"] / 5
        out[row + 11] = stats["plays"] / 10
        out[row + 12] = stats["ryuk_plays"] / 10
        if current == s:
            out[row + 13] = 1.0
        if asked == s:
            out[row + 14] = 1.0
        shown = seat.revealed or s == detective or everything or viewer == s
        role = seat.role if shown else None
        if not role:
            role = known.get(_SEAT_KEY[s]) if known else None
        if role is not None:
            out[row + 15 + _ROLE[role]] = 1.0
    base += players * PER_SEAT
    for i, r in enumerate(st.inactive):
        row = base + i * PER_INACTIVE
        if r.revealed:
            out[row] = 1.0
        if r.dead:
            out[row + 1] = 1.0
        role = r.role if (r.revealed or everything) else None
        if not role:
            role = known.get(_INACTIVE_KEY[i]) if known else None
        if role is not None:
            out[row + 2 + _ROLE[role]] = 1.0
    base += MAX_INACTIVE * PER_INACTIVE
    if me is not None:
        for n in me.hand:
            out[base + n - 1] += 1.0
        if st.looking is not None and current == viewer:
            out[base + CARDS + tile(st, st.looking)["number"] - 1] = 1.0
        hands = base + CARDS + TILES
        for target, cards in me.known_hands.items():
            for n in cards:
                out[hands + int(target) * CARDS + n - 1] += 1.0
    return array
