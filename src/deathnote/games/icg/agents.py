"""The heuristic bot of the Investigation Card Game, for every Mission.

It reads only its own view. L (and the Team Members) look for Kira by deduction and L
arrests only at high confidence; Kira (and the X-Kiras) hunt L the same way, and Kira writes
the likeliest Identity of the likeliest L in the Death Note. In the Arrest and Death Note
phases every seat is asked alike; the bot's answer depends only on its own cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Any

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action
from deathnote.engine.rng import choice

from .deduce import Beliefs, beliefs

#: Light rules: the order in which each Mission covers Mission-Clues (keeps the last one).
COVER_ORDER = {
    "kira": ("l", "x_kira", "team_member"),  # ends looking like a Team Member
    "x_kira": ("l", "team_member", "kira"),  # keeps the Kira Clue up to draw a wrong arrest
    "team_member": ("kira", "x_kira", "l"),  # keeps the L Clue up as a decoy for Kira
    "l": ("kira", "x_kira", "team_member"),  # looks like a Team Member as long as it can
}
#: Kira rules: decoy Mission-Clues each Mission likes to show besides its one true card.
DECOYS = {
    "kira": ("team_member", "l", "x_kira"),
    "x_kira": ("kira", "team_member", "l"),
    "team_member": ("l", "x_kira", "kira"),
    "l": ("team_member", "x_kira", "kira"),
}
#: L arrests once P(Kira) reaches this, lowered turn by turn (the longer L waits, the likelier
#: Kira finds L), down to the floor.
ARREST_CONFIDENCE = 0.9
ARREST_FLOOR = 0.6
ARREST_DECAY = 0.02
#: Investigation targets: weight of the investigations a player already received.
FOCUS = 0.03
#: X-Kira opens the Shinigami Eyes on a target at least this likely to be L.
EYES_CONFIDENCE = 0.8
#: X-Kira's announcements: a bluff with this probability, only about a player less likely
#: than this to be L (the truth about a likely L is what Kira needs).
LIE_RATE = 0.25
LIE_BELOW_L = 0.25


def cover_first(mission: str, clues: Collection[str]) -> str | None:
    """The Mission-Clue the bot covers first among ``clues`` (``COVER_ORDER``); None: no
    Mission-Clue among them (it covers ID-Clues at random)."""
    return next((m for m in COVER_ORDER[mission] if m in clues), None)


def cover_choice(mission: str, legal: Sequence[Action], rng: random.Random) -> Action:
    """The bot's cover (Light rules): the first Mission-Clue of its Mission's
    ``COVER_ORDER`` among ``legal``, else a Clue at random. It reads only the seat's own
    Mission (the play-outs call it without building the view)."""
    clues = {a["clue"]: a for a in legal}
    first = cover_first(mission, clues)
    return clues[first] if first is not None else choice(rng, legal)


class HeuristicAgent(Agent):
    """Plays any Mission from its view."""

    name = "heuristic"

    def choose(self, obs: Observation) -> Action:
        """Pick one legal action (dispatched on the decision's kind; never a random fallback)."""
        legal = list(obs.legal)
        if len(legal) == 1:
            return legal[0]
        view = obs.view
        return HANDLERS[view["decision"]["kind"]](self, view["state"], legal, obs.rng)

    # -- helpers -------------------------------------------------------------------------------
    def _hunted(self, st: dict[str, Any], b: Beliefs) -> dict[int, float]:
        """P(seat holds the Mission my team hunts): Kira for L's team, L for Kira's."""
        me = st["me"]
        goal = "kira" if me["team"] == "l" else "l"
        mine = me["seat"]
        seats: list[int] = []
        living: list[int] = []  # the others still in the game
        for x in st["seats"]:
            s = x["seat"]
            if s != mine:
                seats.append(s)
                if not x["out"]:
                    living.append(s)
        return b.team_probabilities(goal, seats, living)

    # -- decisions -----------------------------------------------------------------------------
    def _investigate(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        me = st["me"]
        chases = [a for a in legal if a.kind == "chase"]
        if chases and me["team"] == "l" and not st["chased"]:
            return chases[0]
        b = beliefs(st)
        hunted = self._hunted(st, b)
        hunt_l = me["team"] == "kira"

        looked = dict.fromkeys(hunted, 0)  # investigations each hunted seat received
        for h in st["history"]:
            if h["seat"] in looked:
                looked[h["seat"]] += 1

        def score(s: int) -> float:
            p = hunted[s]
            if p >= 0.999:
                # Found: Kira's team still needs L's Identity; L's team needs nothing more.
                return 1.0 + len(b.identities(s, "l")) if hunt_l else -1.0
            if p <= 0.0:
                return -0.5
            # Finish what the table started: a player already investigated is closer to
            # showing their Mission.
            return p + FOCUS * looked[s] + rng.random() * 0.05

        target = max(hunted, key=score)
        kind = None
        if st["rules"] == "kira":
            kind = "identity" if hunt_l and hunted[target] > 0.5 else "mission"
        return next(
            a
            for a in legal
            if a.kind == "investigate"
            and a["target"] == target
            and (kind is None or a.get("type") == kind)
        )

    def _eyes(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        # An X-Kira opens the eyes only to see a likely L whose Identity is still in doubt
        # (weighed after the answer): once open he is no decoy any more and can be chased.
        b = beliefs(st)
        target = st["target"]
        p_l = self._hunted(st, b).get(target, 0.0)
        if p_l >= EYES_CONFIDENCE and len(b.identities(target, "l")) > 1:
            return next(a for a in legal if a.kind == "open_eyes")
        return next(a for a in legal if a.kind == "done")

    def _cover(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return cover_choice(st["me"]["mission"], legal, rng)

    def _return(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        me = st["me"]
        for a in legal:  # take back the true cards, so the table shows decoys
            if a["clue"] in (me["identity"], me["mission"]):
                return a
        return choice(rng, legal)

    def _reveal(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        me = st["me"]
        clues = {a["clue"]: a for a in legal}
        true_first = (me["identity"], me["mission"])
        if me["mission"] in ("l", "team_member") and rng.random() < 0.3:
            true_first = (me["mission"], me["identity"])
        if not any(c in me["picks"] for c in (me["identity"], me["mission"])):
            for c in true_first:
                if c in clues:
                    return clues[c]
        for m in DECOYS[me["mission"]]:
            if m in clues:
                return clues[m]
        plain = [a for c, a in clues.items() if c not in true_first]
        return choice(rng, plain or legal)

    def _announce(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        # Mostly the truth (Kira needs L's true Identity for the Death Note): always on a
        # player who may well be L, else a bluff one time in LIE_RATE, naming an Identity the
        # table cannot rule out for that player.
        target = st["target"]
        seen = st["me"]["looks"][str(target)]
        said = {a["identity"]: a for a in legal if a.kind == "announce"}
        b = beliefs(st)
        if self._hunted(st, b).get(target, 0.0) < LIE_BELOW_L and rng.random() < LIE_RATE:
            public = dict(st, claims=[], me=dict(st["me"], looks={}))
            cover = sorted(beliefs(public).identities(target) - {seen})
            if cover:
                return said[choice(rng, cover)]
        return said[seen]

    def _arrest(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        arrests = [a for a in legal if a.kind == "arrest"]
        if not arrests:
            return legal[0]
        hunted = self._hunted(st, beliefs(st))
        best = max(hunted, key=lambda s: hunted[s])
        bar = max(ARREST_FLOOR, ARREST_CONFIDENCE - ARREST_DECAY * (st["turn"] - 1))
        if hunted[best] >= bar:
            return next(a for a in arrests if a["target"] == best)
        return next(a for a in legal if a.kind == "pass")

    def _death_note(self, st: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        writes = [a for a in legal if a.kind in ("write", "place")]
        if not writes:
            return legal[0]
        b = beliefs(st)
        hunted = self._hunted(st, b)
        spare = {x["seat"] for x in st["seats"] if x["mission"] == "x_kira"}
        best: tuple[float, int, str] | None = None
        draw = rng.random
        for s, p_l in hunted.items():
            if s in spare:
                continue
            anyone = b.identities(s)
            as_l = b.identities(s, "l")
            other = anyone - as_l
            # an Identity's share of the seat's odds as L, and of a miss that still hits
            l_share = p_l / max(1, len(as_l))
            any_share = 0.1 / max(1, len(anyone))
            for ident in sorted(anyone):  # sorted: the same draws every run
                hit_l = l_share if ident in as_l else 0
                hit_any = any_share if ident in other else 0
                value = hit_l + hit_any + draw() * 1e-6
                if best is None or value > best[0]:
                    best = (value, s, ident)
        if best is None:
            return choice(rng, writes)
        _, seat, ident = best
        if writes[0].kind == "write":
            return next((a for a in writes if a["identity"] == ident), choice(rng, writes))
        chosen = st["me"].get("death_note")
        target = seat
        if chosen is not None and chosen != ident:
            # Place the token on the seat likeliest to hold the chosen Identity as L.
            def fit(s: int) -> float:
                ids = b.identities(s, "l")
                return hunted.get(s, 0.0) / len(ids) if chosen in ids else 0.0

            target = max(hunted, key=fit)
        return next((a for a in writes if a["placement"] == target), choice(rng, writes))


Handler = Callable[["HeuristicAgent", dict[str, Any], list[Action], random.Random], Action]
"""A decision's answer from the table part of the seat's view, its legal actions and the
bot's generator (the only things the bot reads)."""

HANDLERS: dict[str, Handler] = {
    "investigate": HeuristicAgent._investigate,
    "cover": HeuristicAgent._cover,
    "return": HeuristicAgent._return,
    "reveal": HeuristicAgent._reveal,
    "eyes": HeuristicAgent._eyes,
    "announce": HeuristicAgent._announce,
    "arrest": HeuristicAgent._arrest,
    "death_note": HeuristicAgent._death_note,
}
"""The bot's answer to each kind of decision."""
