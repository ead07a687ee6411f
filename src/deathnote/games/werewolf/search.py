"""The search bot's play-out policy (WW-BOT-02): random play without the L team's blunders.

A uniformly random play-out loses the L team its Arrests on random accusations and points
the Kira team's votes and names at its own members, so nearly every play-out is a Kira team
win whatever the search tried before it. This policy plays at random except where the
seat to move knows better from what it alone knows in that world (its Role, its hand, the
Roles it has learnt for certain: ``SeatState.known_roles``) and what is public (who is
alive): L plays Arrest only on a player he knows is Kira (and then at once), nobody
discards the cards their Role keeps (Kira the Alibi and Alias), the Kira team never names,
points at or writes one of its own, the L team never points at a player it knows is on
its side, and Kira never gives the DEATH NOTE away.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from deathnote.engine.actions import Action
from deathnote.engine.rng import below

from .state import WwState

KIRA_TEAM = ("kira", "worshipper")


def _pick(options: Sequence[Action], rng: random.Random) -> Action:
    return options[below(rng, len(options))]


def playout(state: WwState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """The play-out's choice for ``seat`` (module docstring)."""
    if len(legal) == 1:
        return legal[0]
    step = state.step
    assert step is not None
    k = step["k"]
    me = state.seats[seat]
    role = me.role
    seats = state.seats
    known = {s: r for s, r in me.known_roles.items() if s != seat and seats[s].alive}
    kira_team = role in KIRA_TEAM
    kiras = [s for s, r in known.items() if r == "kira"]
    if kira_team:
        # Its own team, as far as this seat knows: never a target.
        friends = {s for s, r in known.items() if r in KIRA_TEAM}
    else:
        friends = {s for s, r in known.items() if r not in KIRA_TEAM}
    if k == "turn":
        if role == "l" and kiras:
            for a in legal:
                if a.kind == "play" and a["card"] == "arrest":
                    return a
        keep = {"alibi", "alias"} if role == "kira" else set()
        options = [a for a in legal if not (a.kind == "discard" and a["card"] in keep)]
        return _pick(options or legal, rng)
    if k in ("target", "vote") or (
        k in ("judgment", "shinigami") and legal[0].kind in ("suggest", "write")
    ):
        named = [a for a in legal if a.get("seat") is not None and a["seat"] >= 0]
        if not kira_team and kiras:
            hits = [a for a in named if a["seat"] in kiras]
            if hits:
                return hits[0]
        others = [a for a in named if a["seat"] not in friends and a["seat"] != seat]
        return _pick(others or named or legal, rng)
    if k in ("give_lowest", "give_back", "interrogate") and role == "kira":
        options = [a for a in legal if a.get("card") != "death_note"]
        return _pick(options or legal, rng)
    return _pick(legal, rng)


#: ``evaluate``'s logistic model of the L team's chance at the start of a turn: intercept,
#: then weights of the living L-team players, the living Kira-team players, the living
#: L players, the Arrests in living L players' hands, the Arrests not yet used (hands, deck
#: and discard), Judgments done, and whether Kira holds the DEATH NOTE. Fitted by maximum
#: likelihood on the turn starts of heuristic games (docs/rules/werewolf.md WW-BOT-02).
VALUE_MODEL = (-0.245, -0.034, -1.211, 0.695, 0.374, 0.6, 0.009, -0.287)


def features(state: WwState) -> tuple[float, ...]:
    """The model's features (``VALUE_MODEL``)."""
    team = state.tables.team
    l_team = kira_team = ls = arrests_held = 0
    kira_holds = 0.0
    for x in state.seats:
        if not x.alive:
            continue
        if team[x.role] == "l":
            l_team += 1
        else:
            kira_team += 1
        if x.role == "l":
            ls += 1
            arrests_held += x.hand.count("arrest")
        elif x.role == "kira" and "death_note" in x.hand:
            kira_holds = 1.0
    arrests = sum(x.hand.count("arrest") for x in state.seats if x.alive)
    arrests += state.deck.count("arrest") + state.discard.count("arrest")
    return (
        1.0,
        float(l_team),
        float(kira_team),
        float(ls),
        float(arrests_held),
        float(arrests),
        float(state.judgments),
        kira_holds,
    )


def evaluate(state: WwState) -> tuple[float, ...] | None:
    """Each seat's chance from the start of a turn (``Game.evaluate``; None at any other
    point: the play-out goes on to the next turn), from the L team's chance by
    ``VALUE_MODEL``."""
    if state.winner is not None:
        return tuple(1.0 if state.tables.team[x.role] == state.winner else 0.0 for x in state.seats)
    step = state.step
    if step is None or step["k"] != "turn":
        return None
    z = sum(w * f for w, f in zip(VALUE_MODEL, features(state), strict=True))
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    team = state.tables.team
    return tuple(p if team[x.role] == "l" else 1.0 - p for x in state.seats)
