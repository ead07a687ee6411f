"""Belief-weighted worlds for the search bot (WW-BOT-05): how likely the others' play is.

The sampler (``sample.py``) deals every Role its viewer cannot rule out with equal odds,
but the table's card choices say more: Kira plays an Interrogation to pull the DEATH NOTE
back and discards a Handgun he cannot use; L keeps his Arrest. ``world_weight`` reads the
cards each other seat has played or discarded in the viewer's log (public events) and
gives a sampled world the log-likelihood of those choices under the Roles that world
deals, by a table of how often each Role played or discarded each card
(``BEHAVIOUR_COUNTS``), so a search bot can resample its worlds by it (``ismcts``
``belief``).

The table was counted in heuristic games (WW-BOT-01: 400 per player count 4-7, seeds
100000-100399, every seat's public plays and discards by its Role), so it says how the
heuristic bot plays. Each count is raised by one (Laplace), so no consistent world gets
zero weight, however unlike the heuristic bot its seats played.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from .state import WwState

BEHAVIOUR_COUNTS: dict[str, dict[str, int]] = {
    "kira": {
        "discard:alias": 60,
        "discard:alibi": 25,
        "discard:handgun": 173,
        "discard:interrogation": 278,
        "discard:vote": 423,
        "play:arrest": 0,
        "play:exchange": 1495,
        "play:handgun": 0,
        "play:interrogation": 2255,
        "play:shinigami": 263,
        "play:surveillance": 900,
        "play:vote": 57,
        "play:witness": 289,
    },
    "l": {
        "discard:alias": 30,
        "discard:alibi": 237,
        "discard:handgun": 662,
        "discard:interrogation": 645,
        "discard:vote": 644,
        "play:arrest": 1452,
        "play:exchange": 2885,
        "play:handgun": 0,
        "play:interrogation": 995,
        "play:shinigami": 509,
        "play:surveillance": 1186,
        "play:vote": 55,
        "play:witness": 434,
    },
    "police": {
        "discard:alias": 6,
        "discard:alibi": 298,
        "discard:handgun": 0,
        "discard:interrogation": 728,
        "discard:vote": 747,
        "play:arrest": 0,
        "play:exchange": 4000,
        "play:handgun": 1849,
        "play:interrogation": 1370,
        "play:shinigami": 510,
        "play:surveillance": 1601,
        "play:vote": 61,
        "play:witness": 518,
    },
    "watari": {
        "discard:alias": 5,
        "discard:alibi": 54,
        "discard:handgun": 112,
        "discard:interrogation": 156,
        "discard:vote": 161,
        "play:arrest": 0,
        "play:exchange": 622,
        "play:handgun": 0,
        "play:interrogation": 302,
        "play:shinigami": 142,
        "play:surveillance": 255,
        "play:vote": 11,
        "play:witness": 118,
    },
    "worshipper": {
        "discard:alias": 3,
        "discard:alibi": 156,
        "discard:handgun": 185,
        "discard:interrogation": 335,
        "discard:vote": 365,
        "play:arrest": 0,
        "play:exchange": 1797,
        "play:handgun": 0,
        "play:interrogation": 854,
        "play:shinigami": 260,
        "play:surveillance": 790,
        "play:vote": 20,
        "play:witness": 269,
    },
}


def _log_odds() -> dict[str, dict[str, float]]:
    """log P(a public play or discard of a card | the player's Role), each count plus one."""
    out: dict[str, dict[str, float]] = {}
    for role, counts in BEHAVIOUR_COUNTS.items():
        total = sum(counts.values()) + len(counts)
        out[role] = {f: math.log((n + 1) / total) for f, n in counts.items()}
    return out


#: Role -> "play:<card>" or "discard:<card>" -> log-probability (``BEHAVIOUR_COUNTS``).
BEHAVIOUR = _log_odds()


def choices_seen(view: Mapping[str, Any]) -> dict[int, list[str]]:
    """The cards each seat was seen to play or discard, in the order of the view's log."""
    out: dict[int, list[str]] = {}
    for entry in view["log"]:
        data = entry["data"]
        kind = data.get("type")
        if kind == "play" or kind == "discard":
            out.setdefault(data["seat"], []).append(f"{kind}:{data['card']}")
    return out


def world_weight(view: Mapping[str, Any], seat: int) -> Callable[[WwState], float]:
    """From ``seat``'s view only: a world's log-weight, the log-likelihood of the other
    seats' public plays and discards under the Roles that world deals (``BEHAVIOUR``);
    the same for every world where all Roles agree."""
    table: dict[int, dict[str, float]] = {}
    for other, features in choices_seen(view).items():
        if other == seat:
            continue
        table[other] = {
            role: sum(odds[f] for f in features if f in odds) for role, odds in BEHAVIOUR.items()
        }
    items = list(table.items())

    def weight(state: WwState) -> float:
        seats = state.seats
        return sum(by_role[seats[s].role] for s, by_role in items)

    return weight
