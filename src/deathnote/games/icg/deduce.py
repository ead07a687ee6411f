"""What one seat can deduce from its view: who may hold which Identity and Mission.

Used by the heuristic bot; it reads only the view (what a person in that seat knows).
For every other seat it keeps, per Mission, the Identities still consistent with the table:
covered Clues (Light rules), revealed Clue triples (Kira rules: at least one card is true),
Death Note misses, revealed Missions, the X-Kiras' announcements (believed where the table
allows them, since they may be bluffs), and the fact that each Identity is held by one
player at most.

The Identities are kept as bit sets (bit ``k``: the view's ``k``-th Identity): the play-outs
of the search bot ask for beliefs at nearly every choice, and integer masks do in one
operation what sets of names do with a new set each time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .content import MISSION_IDS

UNIQUE = ("kira", "l")


@dataclass
class Beliefs:
    """One seat's beliefs about the others (living or not)."""

    #: seat -> mission -> the Identities consistent with that seat holding that Mission, as
    #: a bit set over ``names`` (never empty: a Mission with none is left out).
    masks: dict[int, dict[str, int]]
    #: seat -> mission -> probability (each seat's row sums to 1).
    mission: dict[int, dict[str, float]]
    #: the Identities in the view's order (bit ``k`` of a mask is ``names[k]``).
    names: tuple[str, ...]

    @property
    def options(self) -> dict[int, dict[str, set[str]]]:
        """seat -> mission -> Identities consistent with that seat holding that Mission."""
        return {
            s: {m: set(self._named(mask)) for m, mask in row.items()}
            for s, row in self.masks.items()
        }

    def team_probability(self, seat: int, mission: str, seats: list[int]) -> float:
        """P(``seat`` holds ``mission``) when exactly one of ``seats`` holds it (Kira, L)."""
        return self.team_probabilities(mission, seats, [seat])[seat]

    def team_probabilities(
        self, mission: str, seats: list[int], asked: list[int]
    ) -> dict[int, float]:
        """P(each seat of ``asked`` holds ``mission``) when exactly one of ``seats`` holds it
        (Kira, L): each seat's odds of its Mission, over the sum of the seats' odds (a seat
        certain of it: 1 for that seat, 0 for the others), worked out once for all."""
        odds = {}
        for s in seats:
            p = self.mission[s].get(mission, 0.0)
            if p >= 1.0:
                return {t: 1.0 if s == t else 0.0 for t in asked}
            odds[s] = p / (1.0 - p)
        total = sum(odds.values())
        if total > 0:
            return {t: odds.get(t, 0.0) / total for t in asked}
        return dict.fromkeys(asked, 0.0)

    def identities(self, seat: int, mission: str | None = None) -> frozenset[str]:
        """The Identities this seat may hold (given a Mission, or any)."""
        row = self.masks[seat]
        if mission is not None:
            return self._named(row.get(mission, 0))
        mask = 0
        for ids in row.values():
            mask |= ids
        return self._named(mask)

    def _named(self, mask: int) -> frozenset[str]:
        return _sets(self.names)[mask]


#: The names of every bit set over one tuple of Identities (at most a few tuples).
_SETS: dict[tuple[str, ...], list[frozenset[str]]] = {}


def _sets(names: tuple[str, ...]) -> list[frozenset[str]]:
    """Mask -> the names of its bits, for every mask over ``names``."""
    table = _SETS.get(names)
    if table is None:
        if len(_SETS) > 16:
            _SETS.clear()
        table = [
            frozenset(n for k, n in enumerate(names) if mask >> k & 1)
            for mask in range(1 << len(names))
        ]
        _SETS[names] = table
    return table


#: The view's Identity list -> (that list, its names, each name's bit): a play-out's views
#: share one list (kept here so its id is not reused while it is a key).
_BITS: dict[int, tuple[Sequence[Any], tuple[str, ...], dict[str, int]]] = {}


def _bits(cards: Sequence[Any]) -> tuple[tuple[str, ...], dict[str, int]]:
    entry = _BITS.get(id(cards))
    if entry is None or entry[0] is not cards:
        if len(_BITS) > 64:
            _BITS.clear()
        names = tuple(c["id"] for c in cards)
        entry = _BITS[id(cards)] = (cards, names, {n: 1 << k for k, n in enumerate(names)})
    return entry[1], entry[2]


def beliefs(state: dict[str, Any]) -> Beliefs:
    """The beliefs of the viewing seat (``state`` is the game part of its view)."""
    me = state["me"]
    mine = me["seat"]
    names, bit = _bits(state["identities"])
    seats = state["seats"]
    others: list[int] = []
    known_id: dict[int, int] = {}
    known_mission: dict[int, str] = {}
    # Kira and L where the table (or my own card) shows who holds them.
    taken_kira = taken_l = False
    own = me["mission"]
    if own == "kira":
        taken_kira = True
    elif own == "l":
        taken_l = True
    for x in seats:
        seat = x["seat"]
        if seat != mine:
            others.append(seat)
        if x["identity"] is not None:
            known_id[seat] = bit[x["identity"]]
        shown = x["mission"]
        if shown is not None:
            known_mission[seat] = shown
            if seat != mine:
                if shown == "kira":
                    taken_kira = True
                elif shown == "l":
                    taken_l = True
    looks = me["looks"]
    if looks:
        for k, v in looks.items():
            known_id[int(k)] = bit[v]
    # An X-Kira's announcement may be a bluff: it narrows a player's Identity only where the
    # table still allows it (the latest claim about each player counts).
    claims = state["claims"]
    claimed = {c["seat"]: c["identity"] for c in claims} if claims else {}
    misses: dict[int, int] = {}
    notes = state["death_notes"]
    if notes:
        for d in notes:
            if d["seat"] != mine and not d["hit"] and d["identity"]:
                misses[d["seat"]] = misses.get(d["seat"], 0) | bit.get(d["identity"], 0)

    options: dict[int, dict[str, int]] = {}
    pool = ((1 << len(names)) - 1) & ~bit.get(me["identity"], 0)
    box = state["mission_box"]
    open_missions = _open_missions(taken_kira, taken_l, box["x_kira"] == 0, box["team_member"] == 0)
    light = state["rules"] == "light"
    # Every Identity known to be another player's (``base`` below, for a seat not in it).
    known_any = 0
    for v in known_id.values():
        known_any |= v
    for s in others:
        base = known_id[s] if s in known_id else pool & ~misses.get(s, 0) & ~known_any
        missions = [known_mission[s]] if s in known_mission else open_missions
        x = seats[s]
        if light:
            covered = x["covered"]
            hidden = base
            if not covered:  # nothing covered yet: every Mission with every Identity
                row = dict.fromkeys(missions, hidden) if hidden else {}
            else:
                for c in covered:
                    hidden &= ~bit.get(c, 0)
                row = {m: hidden for m in missions if m not in covered} if hidden else {}
        else:
            row = dict.fromkeys(missions, base)
            for h in state["history"]:
                if h["seat"] != s or not h.get("revealed"):
                    continue
                shown_cards = h["revealed"]
                shown = 0
                for c in shown_cards:
                    shown |= bit.get(c, 0)
                for m in row:
                    if m not in shown_cards:
                        row[m] &= shown
            row = {m: ids for m, ids in row.items() if ids}
        if not row:  # the table contradicts itself only if we misread; stay safe
            row = dict.fromkeys(missions, base)
        if s not in known_id and s in claimed:
            said = bit.get(claimed[s], 0)
            narrowed = {m: ids & said for m, ids in row.items() if ids & said}
            if narrowed:
                row = narrowed
        options[s] = row
    _propagate(options)
    odds = _mission_odds(state, options, known_mission, mine, len(names))
    return Beliefs(options, odds, names)


@cache
def _open_missions(
    taken_kira: bool, taken_l: bool, no_x_kira: bool, no_team_member: bool
) -> list[str]:
    """The Missions a seat not known to hold one may hold (in ``MISSION_IDS`` order; the
    list is shared: nobody changes it)."""
    shut = {
        "kira": taken_kira,
        "l": taken_l,
        "x_kira": no_x_kira,
        "team_member": no_team_member,
    }
    return [m for m in MISSION_IDS if not shut[m]]


def _propagate(options: dict[int, dict[str, int]]) -> None:
    """An Identity certainly held by one seat is held by no other.

    Seat by seat in ``options`` order, each seat down to one Identity takes it from every
    other seat still holding two or more (row by row, each seat's union of Identities kept
    up to date), pass after pass. Another pass is run only when one made a new seat certain:
    rows only lose Identities, so a pass after one that made none would change nothing."""
    unions: dict[int, int] = {}
    single = False
    for s, row in options.items():
        ids = 0
        for v in row.values():
            ids |= v
        unions[s] = ids
        if ids and not ids & (ids - 1):
            single = True
    if not single:
        return  # no seat is down to one Identity (the usual case): nothing to pass on
    changed = True
    while changed:
        changed = False
        for s, ids in unions.items():
            ids = unions[s]
            if not ids or ids & (ids - 1):
                continue  # no Identity, or two or more: nothing certain
            for t, other in options.items():
                held = unions[t]
                if t == s or not held & ids:
                    continue
                for m in list(other):
                    if not other[m] & ids or not held & (held - 1):
                        continue
                    left = other[m] & ~ids
                    if left:
                        other[m] = left
                    else:
                        del other[m]
                    held = 0
                    for v in other.values():
                        held |= v
                    unions[t] = held
                    if not held & (held - 1):
                        changed = True  # a seat made certain: pass it on too


def _mission_odds(
    state: dict[str, Any],
    options: dict[int, dict[str, int]],
    known_mission: dict[int, str],
    mine: int,
    n_ids: int,
) -> dict[int, dict[str, float]]:
    box = state["mission_box"]
    x_kiras = team_members = 0
    for s, m in known_mission.items():
        if s != mine:
            if m == "x_kira":
                x_kiras += 1
            elif m == "team_member":
                team_members += 1
    key = (
        len(state["seats"]),
        box["x_kira"],
        box["team_member"],
        x_kiras,
        team_members,
        state["me"]["mission"],
    )
    entry = _FLOORS.get((key, n_ids))
    if entry is None:
        if len(_FLOORS) > 1024:
            _FLOORS.clear()
        entry = _FLOORS[key, n_ids] = (_floor(*key), {})
    floor, rows = entry
    out: dict[int, dict[str, float]] = {}
    for s, row in options.items():
        # A row's odds depend only on the floor and its masks' sizes: worked out once
        # (the returned rows are shared, and nobody changes them).
        masks = tuple(row.items())
        odds = rows.get(masks)
        if odds is None:
            if len(rows) > 4096:
                rows.clear()
            weights = {m: floor[m] * ids.bit_count() / n_ids for m, ids in row.items()}
            total = sum(weights.values())
            odds = rows[masks] = {m: w / total for m, w in weights.items()} if total else {}
        out[s] = odds
    return out


#: ``_floor`` by its arguments and the number of Identities (a few per game), with the
#: odds of each row of masks under that floor (by the row's items).
_FLOORS: dict[
    tuple[tuple[int, int, int, int, int, str], int],
    tuple[dict[str, float], dict[tuple[tuple[str, int], ...], dict[str, float]]],
] = {}


def _floor(
    players: int, box_x_kira: int, box_team: int, x_kiras: int, team_members: int, own: str
) -> dict[str, float]:
    """Each Mission's prior weight for a seat (at least 0.05): Kira and L 1, the others as
    many as the box is expected to have dealt to the other players and not yet revealed."""
    dealt_others = players - 2
    prior = {
        "kira": 1.0,
        "l": 1.0,
        "x_kira": max(0.0, dealt_others * box_x_kira / 6 - x_kiras),
        "team_member": max(0.0, dealt_others * box_team / 6 - team_members),
    }
    if own in ("x_kira", "team_member"):
        prior[own] = max(0.0, prior[own] - 1)
    return {m: max(p, 0.05) for m, p in prior.items()}
