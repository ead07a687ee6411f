"""The search bot's play-out policy (ICG-BOT-02): the heuristic bot shown the mover's view.

A uniformly random play-out says nothing here: a random L arrests someone on the first turn
most of the time (nearly always the wrong player), so almost every play-out is a win of
Kira's team whatever the search tried before it. The play-out instead asks the heuristic bot
(``agents.HeuristicAgent``) what the seat to move would do, shown only that seat's view of
the sampled world (its state view and decision, no log: the bot reads neither), so it reads
nothing the seat could not see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deathnote.agents.base import Observation
from deathnote.engine.actions import Action

from . import rules
from .agents import HeuristicAgent, cover_first
from .content import MISSION_IDS
from .state import IcgState


def playout(state: IcgState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """The heuristic bot's choice for ``seat`` from its view of ``state``."""
    if len(legal) == 1:
        return legal[0]
    from deathnote.games.icg import GAME

    def view() -> dict[str, Any]:
        return {
            "viewer": seat,
            "state": GAME.view(state, seat),
            "decision": rules.pending(state)[seat].to_json(),
            "log": [],
        }

    return HeuristicAgent(seat).choose(Observation(seat, legal, view, rng))


#: Worlds the search bot's Death Note rule samples from Kira's view (``death_note``).
DEATH_NOTE_WORLDS = 200
#: What a Team Member's Identity and Placement count beside L's: a hit puts him out of the
#: game, only L's ends it.
TEAM_MEMBER_WEIGHT = 0.1


def death_note(obs: Observation) -> Action | None:
    """Kira's Death Note for the search bot (ICG-BOT-04): the pair of an Identity and a
    Placement that L holds in most of ``DEATH_NOTE_WORLDS`` worlds sampled from Kira's own
    view (a Team Member's counting ``TEAM_MEMBER_WEIGHT``): first the Identity whose best
    Placement scores most, then the best Placement for the Identity written. None at any
    other decision (the search decides)."""
    legal = obs.legal
    step = legal[-1].kind
    if step not in ("write", "place"):
        return None
    me = obs.seat
    rng = obs.rng
    score: dict[tuple[str, int], float] = {}
    written: str | None = None
    for _ in range(DEATH_NOTE_WORLDS):
        state: IcgState = obs.sample_world(rng, False, rng).state
        written = state.dn_identity
        for s, x in enumerate(state.seats):
            if x.out or s == me:
                continue
            weight = (
                1.0
                if x.mission == "l"
                else TEAM_MEMBER_WEIGHT
                if x.mission == "team_member"
                else 0.0
            )
            if weight:
                key = (x.identity, s)
                score[key] = score.get(key, 0.0) + weight
    if step == "write":
        best: dict[str, float] = {}
        for (identity, _seat), value in score.items():
            best[identity] = max(best.get(identity, 0.0), value)
        writes = [a for a in legal if a.kind == "write"]
        return max(writes, key=lambda a: best.get(a["identity"], 0.0))
    places = [a for a in legal if a.kind == "place"]
    return max(places, key=lambda a: score.get((written or "", a["placement"]), 0.0))


#: The odds the belief (``world_weight``) gives a Mission-Clue covered otherwise than the
#: heuristic bot with that Mission would (the table may not play like it).
COVER_MISS = 0.05


def world_weight(view: Mapping[str, Any], seat: int) -> Callable[[IcgState], float] | None:
    """From ``seat``'s view only (ICG-BOT-05): a sampled world's log-weight, how likely
    each other player's Mission-Clues were covered in that order by the heuristic bot with
    the Mission that world deals it (``agents.cover_first``: every Mission covers the
    three others in its own order), each cover the bot would not make counting
    ``COVER_MISS``. None under the Kira rules (no cover to read)."""
    state = view["state"]
    if state["rules"] != "light":
        return None
    miss = math.log(COVER_MISS)
    table: dict[int, dict[str, float]] = {}
    for x in state["seats"]:
        covers = [c for c in x["covered"] if c in MISSION_IDS]
        if x["seat"] == seat or not covers:
            continue
        row = {}
        for mission in MISSION_IDS:
            value, done = 0.0, []
            for clue in covers:
                options = [m for m in MISSION_IDS if m not in done and m != mission]
                if clue != cover_first(mission, options):
                    value += miss
                done.append(clue)
            row[mission] = value
        table[x["seat"]] = row
    items = list(table.items())

    def weight(world: IcgState) -> float:
        seats = world.seats
        return sum(row[seats[s].mission] for s, row in items)

    return weight
