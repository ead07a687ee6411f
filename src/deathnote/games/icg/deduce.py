"""What one seat can deduce from its view: who may hold which Identity and Mission.

Used by the heuristic bot; it reads only the view (what a person in that seat knows).
For every other seat it keeps, per Mission, the Identities still consistent with the table:
covered Clues (Light rules), revealed Clue triples (Kira rules: at least one card is true),
Death Note misses, revealed Missions, the X-Kiras' announcements (believed where the table
allows them, since they may be bluffs), and the fact that each Identity is held by one
player at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .content import MISSION_IDS

UNIQUE = ("kira", "l")


@dataclass
class Beliefs:
    """One seat's beliefs about the others (living or not)."""

    #: seat -> mission -> Identities consistent with that seat holding that Mission.
    options: dict[int, dict[str, set[str]]]
    #: seat -> mission -> probability (each seat's row sums to 1).
    mission: dict[int, dict[str, float]]

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

    def identities(self, seat: int, mission: str | None = None) -> set[str]:
        """The Identities this seat may hold (given a Mission, or any)."""
        table = self.options[seat]
        if mission is not None:
            return set(table.get(mission, set()))
        out: set[str] = set()
        for ids in table.values():
            out |= ids
        return out


def beliefs(state: dict[str, Any]) -> Beliefs:
    """The beliefs of the viewing seat (``state`` is the game part of its view)."""
    me = state["me"]
    mine = me["seat"]
    all_ids = [c["id"] for c in state["identities"]]
    seats = state["seats"]
    others: list[int] = []
    known_id: dict[int, str] = {}
    known_mission: dict[int, str] = {}
    for x in seats:
        seat = x["seat"]
        if seat != mine:
            others.append(seat)
        if x["identity"] is not None:
            known_id[seat] = x["identity"]
        if x["mission"] is not None:
            known_mission[seat] = x["mission"]
    for k, v in me["looks"].items():
        known_id[int(k)] = v
    # An X-Kira's announcement may be a bluff: it narrows a player's Identity only where the
    # table still allows it (the latest claim about each player counts).
    claimed = {c["seat"]: c["identity"] for c in state["claims"]}
    taken_missions = {m for s, m in known_mission.items() if s != mine and m in UNIQUE}
    if me["mission"] in UNIQUE:
        taken_missions.add(me["mission"])
    misses: dict[int, set[str]] = {}
    for d in state["death_notes"]:
        if d["seat"] != mine and not d["hit"] and d["identity"]:
            misses.setdefault(d["seat"], set()).add(d["identity"])

    options: dict[int, dict[str, set[str]]] = {}
    pool = set(all_ids) - {me["identity"]}
    open_missions = [m for m in MISSION_IDS if m not in taken_missions]
    if state["mission_box"]["x_kira"] == 0:
        open_missions = [m for m in open_missions if m != "x_kira"]
    if state["mission_box"]["team_member"] == 0:
        open_missions = [m for m in open_missions if m != "team_member"]
    light = state["rules"] == "light"
    for s in others:
        base = pool - misses[s] if s in misses else set(pool)
        if s in known_id:
            base = {known_id[s]}
        else:
            base -= {v for k, v in known_id.items() if k != s}
        missions = [known_mission[s]] if s in known_mission else open_missions
        x = seats[s]
        if light:
            covered = set(x["covered"])
            row = {m: base - covered for m in missions if m not in covered}
        else:
            row = {m: set(base) for m in missions}
            for h in state["history"]:
                if h["seat"] != s or not h.get("revealed"):
                    continue
                shown = set(h["revealed"])
                for m in row:
                    if m not in shown:
                        row[m] &= shown
        options[s] = {m: ids for m, ids in row.items() if ids}
        if not options[s]:  # the table contradicts itself only if we misread; stay safe
            options[s] = {m: set(base) for m in missions}
        if s not in known_id and s in claimed:
            narrowed = {m: ids & {claimed[s]} for m, ids in options[s].items()}
            narrowed = {m: ids for m, ids in narrowed.items() if ids}
            if narrowed:
                options[s] = narrowed
    _propagate(options)
    return Beliefs(options, _mission_odds(state, options, mine))


def _propagate(options: dict[int, dict[str, set[str]]]) -> None:
    """An Identity certainly held by one seat is held by no other."""
    changed = True
    while changed:
        changed = False
        for s, row in options.items():
            if not row or len(next(iter(row.values()))) > 1:
                continue  # no row, or two Identities or more: nothing certain
            ids = set().union(*row.values())
            if len(ids) != 1:
                continue
            (only,) = ids
            for t, other in options.items():
                if t == s:
                    continue
                for m in list(other):
                    if only in other[m] and len(set().union(*other.values())) > 1:
                        other[m].discard(only)
                        changed = True
                        if not other[m]:
                            del other[m]


def _mission_odds(
    state: dict[str, Any], options: dict[int, dict[str, set[str]]], mine: int
) -> dict[int, dict[str, float]]:
    players = len(state["seats"])
    box = state["mission_box"]
    revealed = [x["mission"] for x in state["seats"] if x["mission"] and x["seat"] != mine]
    dealt_others = players - 2
    prior = {
        "kira": 1.0,
        "l": 1.0,
        "x_kira": max(0.0, dealt_others * box["x_kira"] / 6 - revealed.count("x_kira")),
        "team_member": max(
            0.0, dealt_others * box["team_member"] / 6 - revealed.count("team_member")
        ),
    }
    if state["me"]["mission"] in ("x_kira", "team_member"):
        prior[state["me"]["mission"]] = max(0.0, prior[state["me"]["mission"]] - 1)
    n_ids = len(state["identities"])
    floor = {m: max(p, 0.05) for m, p in prior.items()}
    out: dict[int, dict[str, float]] = {}
    for s, row in options.items():
        weights = {m: floor[m] * len(ids) / n_ids for m, ids in row.items()}
        total = sum(weights.values())
        out[s] = {m: w / total for m, w in weights.items()} if total else {}
    return out
