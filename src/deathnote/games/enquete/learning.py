"""Stable action numbers and observation tensors (the rules doc has the tables).

The observation is encoded from the viewer's own view (``EnqueteGame.view``) and the seat
being asked (public in this game), so it can hold nothing the viewer may not see.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from deathnote.engine.actions import Action

from .content import ROLE_IDS
from .flow import SUSPICION_LIMIT

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
