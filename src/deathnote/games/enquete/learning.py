"""Stable action numbers and observation tensors (the rules doc has the tables).

The observation is encoded from the viewer's own view (``EnqueteGame.view``) and the seat
being asked (public in this game), so it can hold nothing the viewer may not see.
"""

from __future__ import annotations

import struct
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
_ENDING = {e: k for k, e in enumerate(ENDINGS)}


def encode_state(st: EnqState, viewer: Viewer, asked: int | None) -> np.ndarray:
    """``encode(view, players, asked)`` read from the state without building the view (the
    learning adapters ask for it at every step). It reads only what ``EnqueteGame.view``
    shows this viewer, by the view's own rules (a Role revealed, the Detective's, the
    viewer's own, all at the end; the viewer's hand, looks and the tile it looks at); a
    test checks it equals the view's vector for every viewer at every step of random
    games.

    The slots every viewer sees alike (``_public``) are remembered by the state's
    ``table_version``, which stays the same while only the resolution stack changes: the
    passes of a window ask one seat after another over the same table (about a quarter of
    the observations in random play), and each one's vector is that copy plus what only it
    sees."""
    players = st.players
    detective = st.detective
    template = _TEMPLATES.get((players, detective))
    if template is None:
        template = _TEMPLATES[players, detective] = _template(players, detective)
    array = template.copy()
    # Written item by item through a memoryview (far cheaper per item than numpy's own item
    # assignment, nothing to convert at the end); zeros are never written.
    out: Any = array.data
    public = _PUBLIC.get(st.table_version)
    if public is None:
        _public(st, out)
        if len(_PUBLIC) >= 256:
            _PUBLIC.clear()  # start again (the running games' tables come back first)
        _PUBLIC[st.table_version] = array.tobytes()
    else:
        _bytes_writer(len(public))(out, 0, public)
    everything = st.over or viewer == OMNISCIENT
    mine = viewer if isinstance(viewer, int) else -1  # the viewer's seat, if it has one
    me = st.seats[mine] if mine >= 0 else None
    known = me.known_roles if me is not None else None
    if me is not None:
        out[GLOBAL + mine * PER_SEAT + 1] = 1.0
    if asked is not None:
        out[GLOBAL + asked * PER_SEAT + 14] = 1.0
    # The Roles this viewer sees that not everyone does (revealed ones and the Detective's
    # are in ``_public``): its own, all of them at the end, the ones it knows.
    if everything or known:
        row = GLOBAL
        for s, seat in zip(_SEATS[players], st.seats, strict=True):
            if not seat.revealed and s != detective:
                role = seat.role if everything or s == mine else None
                if not role and known:
                    role = known.get(_SEAT_KEY[s])
                if role:
                    out[row + 15 + _ROLE[role]] = 1.0
            row += PER_SEAT
        if everything:
            for r in st.inactive:
                if not r.revealed:
                    out[row + 2 + _ROLE[r.role]] = 1.0
                row += PER_INACTIVE
        elif known:
            # the inactive Roles the viewer knows (its known refs are few; "p" ones are above)
            inactive = st.inactive
            for ref, role in known.items():
                if ref[0] == "i":
                    i = int(ref[1:])
                    if not inactive[i].revealed:
                        out[row + i * PER_INACTIVE + 2 + _ROLE[role]] = 1.0
    elif me is not None and mine != detective and not me.revealed:
        out[GLOBAL + mine * PER_SEAT + 15 + _ROLE[me.role]] = 1.0
    if me is not None:
        # An Action card is one of its number (content: number i + 1 is the i-th), in one
        # place at a time: a hand, and a look at one, never lists a number twice, so its
        # slot is set, not added to (a memoryview ``+=`` reads the item back first).
        base = GLOBAL + players * PER_SEAT + MAX_INACTIVE * PER_INACTIVE - 1
        for n in me.hand:
            out[base + n] = 1.0
        if st.looking is not None and st.current == mine:
            out[base + CARDS + tile(st, st.looking)["number"]] = 1.0
        if me.known_hands:
            hands = base + CARDS + TILES
            for target, cards in me.known_hands.items():
                at = hands + int(target) * CARDS
                for n in cards:
                    out[at + n] = 1.0
    return array


def _public(st: EnqState, out: Any) -> None:
    """Writes the slots of ``encode_state`` every viewer sees alike (into ``out``, a
    memoryview of the template's copy): the table, each seat's and inactive Role's public
    flags and counts, and the Roles shown to all (revealed ones, the Detective's)."""
    players = st.players
    detective = st.detective
    limit = SUSPICION_LIMIT[players]
    this_round = st.round
    content = st.content
    last = _LAST_PILES  # ``piles_of(content)``, its usual case written out
    piles = last[1] if last[0] is content else _piles(content)
    current, pawn = st.current, st.pawn
    tiles = st.tiles
    out[0] = this_round / 5
    if st.direction == "clockwise":
        out[1] = 1.0
    out[2] = len(st.deck) / CARDS
    out[3] = len(st.discard) / CARDS
    out[4] = len(tiles) / TILES
    pile = piles.get(this_round)
    if pile is not None:
        out[5] = len(pile.intersection(tiles)) / 5
    extra = st.extra_susp
    if extra:
        out[7] = extra / 5
    if st.light_silenced:
        out[8] = 1.0
    if st.friend:
        out[9] = 1.0
    if st.pursuit:
        out[10] = 1.0
    if pawn is None:
        out[11] = 1.0
    if current is not None:
        out[12] = 1.0
    if st.over:
        out[13] = 1.0
    if st.ending is not None:
        out[14 + _ENDING[st.ending]] = 1.0
    if st.revealed_tile is not None:
        out[14 + len(ENDINGS) + tile(st, st.revealed_tile)["number"] - 1] = 1.0
    # One seat's flags are written at its row (the Detective's are in the template); then
    # each seat's counts and public Role. Zeros are not written.
    for s in st.alibi:
        out[GLOBAL + s * PER_SEAT + 6] = 1.0
    for s in st.no_draw:
        out[GLOBAL + s * PER_SEAT + 7] = 1.0
    if pawn is not None:
        out[GLOBAL + pawn * PER_SEAT + 8] = 1.0
    if current is not None:
        out[GLOBAL + current * PER_SEAT + 13] = 1.0
    row = GLOBAL
    for s, seat, stats in zip(_SEATS[players], st.seats, st.stats, strict=True):
        revealed = seat.revealed
        if revealed:
            out[row + 2] = 1.0
        if seat.dead:
            out[row + 3] = 1.0
        n = seat.suspicions
        if n:
            out[row + 4] = n / limit
        hand = seat.hand
        if hand:
            out[row + 5] = len(hand) / 10
        n = stats["keeps"]
        if n:
            out[row + 9] = n / 5
        n = stats["discards"]
        if n:
            out[row + 10] = n / 5
        n = stats["plays"]
        if n:
            out[row + 11] = n / 10
        n = stats["ryuk_plays"]
        if n:
            out[row + 12] = n / 10
        if revealed or s == detective:
            out[row + 15 + _ROLE[seat.role]] = 1.0
        row += PER_SEAT
    for r in st.inactive:
        if r.revealed:
            out[row] = 1.0
            out[row + 2 + _ROLE[r.role]] = 1.0
        if r.dead:
            out[row + 1] = 1.0
        row += PER_INACTIVE


#: the seat numbers of a game of each size
_SEATS = {n: range(n) for n in range(len(ROLE_IDS) + 1)}
#: the content and its piles ``piles_of`` gave last (a match asks with the same content)
_LAST_PILES: list[Any] = [None, None]
#: the start of ``_public``'s array by (players, the Detective's seat): the slots that stay
#: the same all game set, the rest zero (read-only, copied)
_TEMPLATES: dict[tuple[Any, ...], np.ndarray] = {}
#: the bytes of the array ``_public`` wrote (the template's slots included), by the state's
#: ``table_version``
_PUBLIC: dict[int, bytes] = {}


@cache
def _bytes_writer(size: int) -> Any:
    """``pack_into(buffer, offset, data)`` of ``size`` bytes (one copy, in C)."""
    return struct.Struct(f"{size}s").pack_into


def _piles(content: dict[str, Any]) -> dict[int, frozenset[int]]:
    """``piles_of(content)``, remembered as the last content asked for."""
    piles = piles_of(content)
    _LAST_PILES[:] = [content, piles]
    return piles


def _template(players: int, detective: int) -> np.ndarray:
    """The slots of ``_public`` fixed all game (see ``_TEMPLATES``)."""
    array = np.zeros(observation_size(players), dtype=np.float32)
    array[6] = SUSPICION_LIMIT[players] / 7
    row = GLOBAL + detective * PER_SEAT
    array[row] = 1.0  # the Detective's seat
    array[row + 2] = 1.0  # shown as revealed
    if len(_TEMPLATES) >= 512:
        _TEMPLATES.clear()
    array.flags.writeable = False
    return array
