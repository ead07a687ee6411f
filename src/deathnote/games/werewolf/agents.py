"""Heuristic bot for Death Note Werewolf: it deduces only from its own seat's view.

The bot reads the log entries it may see (incrementally, one pass per game) and keeps:
- who is certainly Kira / certainly not Kira (Witness, Watari, the Kira team's eyes, who
  played Arrest or Handgun, a denied Arrest when the Alibi is elsewhere, the dead);
- where the DEATH NOTE is, as far as this seat can follow it (its own hand, cards passed to
  or from it, Surveillance, Handgun reveals, Interrogations of a known holder, a Judgment);
- a suspicion score per player (renumbering seen in a pass, votes, looks aimed at it).

Kira hides the DEATH NOTE (renumbers it, never gives it away) and kills the players who
know or threaten him; L keeps Arrest until a confident accusation (or until the L team is
about to lose); Police shoot to find the notebook; the Worshipper feeds Kira the notebook.
"""

from __future__ import annotations

from typing import Any

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action
from deathnote.engine.rng import choice

#: How much a card is worth keeping, by Role (higher = keep).
KEEP: dict[str, dict[str, float]] = {
    "kira": {"alibi": 6, "alias": 5, "witness": 3, "surveillance": 3, "exchange": 2.5},
    "worshipper": {"alias": 2, "witness": 3, "surveillance": 3, "exchange": 3},
    "l": {"alias": 5, "witness": 4, "surveillance": 3.5, "exchange": 2, "handgun": 0.5},
    "police": {"handgun": 5, "alias": 4, "witness": 4, "surveillance": 3.5, "exchange": 2},
    "watari": {"alias": 4, "witness": 4, "surveillance": 3.5, "exchange": 2.5},
}
#: Confidence L needs to spend an Arrest while the L team is not in danger.
ACCUSE_CONFIDENCE = 0.75
#: How much a vote by a known L-team player raises its target's suspicion.
TRUSTED_VOTE = 1.5
#: Whether Kira counts a player who passed him the notebook as a threat.
GIVER_THREAT = False


class HeuristicAgent(Agent):
    """Deduces from its own view only."""

    name = "heuristic"

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seen = 0
        self.kira: int | None = None
        self.worshipper: int | None = None
        self.not_kira: set[int] = {seat}
        self.l_team: set[int] = set()
        self.roles: dict[int, str] = {}
        self.susp: dict[int, float] = {}
        self.dn: int | None = None  # seat holding the DEATH NOTE, when this seat can follow it
        self.dn_moved = False  # this seat saw the notebook pass in the current Interrogation
        self.alibi_elsewhere = False
        self.threats: set[int] = set()  # seats that looked at this seat (for Kira)
        self.players = 0
        self.l_total = 1
        self.alive: list[bool] = []

    # -- reading the view ------------------------------------------------------------------
    def update(self, view: dict[str, Any]) -> None:
        """Fold the new log entries and the table into what this seat knows."""
        st = view["state"]
        me = st["me"]
        self.players = st["players"]
        self.l_total = sum(1 for r in st["roles_in_game"] if r == "l")
        self.alive = [x["alive"] for x in st["seats"]]
        self.role = me["role"]
        for k, v in me["known_roles"].items():
            self.learn_role(int(k), v)
        for x in st["seats"]:
            if x["role"] is not None and x["seat"] != self.seat:
                self.learn_role(x["seat"], x["role"])
        self.learn_role(self.seat, self.role)
        hand = [c["id"] for c in me["hand"]]
        if "death_note" in hand:
            self.dn = self.seat
        elif self.dn == self.seat:
            self.dn = None
        if "alibi" in hand or "alibi" in st["discard"]:
            self.alibi_elsewhere = self.role != "kira"
        log = view["log"]
        for entry in log[self.seen :]:
            self.read(entry["data"], hand)
        self.seen = len(log)

    def learn_role(self, seat: int, role: str) -> None:
        """A Role known for certain."""
        self.roles[seat] = role
        if role == "kira":
            self.kira = seat
        else:
            self.not_kira.add(seat)
            if role == "worshipper":
                self.worshipper = seat
            else:
                self.l_team.add(seat)

    def bump(self, seat: int, amount: float) -> None:
        """Raise (or lower) the suspicion of a seat."""
        self.susp[seat] = self.susp.get(seat, 1.0) + amount

    def read(self, d: dict[str, Any], hand: list[str]) -> None:
        """One log entry."""
        t = d.get("type")
        me = self.seat
        if t == "target":
            seat, card, target = d["seat"], d["card"], d["target"]
            if card == "arrest":
                self.learn_role(seat, "l")
            elif card == "handgun":
                self.learn_role(seat, "police")
            if target == me and card in ("witness", "surveillance"):
                self.threats.add(seat)
            if card == "exchange" and me not in (seat, target) and self.dn in (seat, target):
                self.dn = None  # two other players swap a card each: it may have moved
        elif t == "denied":
            if self.alibi_elsewhere:
                self.not_kira.add(d["target"])
            else:
                self.bump(d["target"], -0.5)
        elif t == "handgun":
            if d["card"] == "death_note":
                self.dn = d["target"]
            elif self.dn == d["target"]:
                self.dn = None
        elif t == "surveillance" and d["seat"] == me:
            if "death_note" in d["hand"]:
                self.dn = d["target"]
            elif self.dn == d["target"]:
                self.dn = None
            if "alibi" in d["hand"]:
                self.alibi_elsewhere = False
        elif t == "pass":
            self.read_pass(d)
        elif t == "direction":
            self.dn_moved = False
        elif t == "interrogated":
            # A known holder who is not Kira had to pass the notebook on.
            holder = self.dn
            if self.dn_moved:
                pass  # this seat saw the notebook pass (to or from it)
            elif holder is not None and holder != me and holder in self.not_kira:
                self.dn = self.neighbour(holder, 1 if d["dir"] == "left" else -1)
                if self.dn == me and "death_note" not in hand:
                    self.dn = None
            elif holder is not None and holder != me:
                self.dn = None
        elif t == "written":
            if self.dn is not None and self.dn != me and self.dn not in self.not_kira:
                self.learn_role(self.dn, "kira")
            self.not_kira.add(d["target"])
        elif t == "no_name":
            if self.dn is not None:
                self.not_kira.add(self.dn)
        elif t == "death":
            self.learn_role(d["target"], d["role"])
            if self.dn == d["target"]:
                self.dn = None
        elif t == "vote":
            for voter, target in d["votes"].items():
                v = int(voter)
                if target == me and self.role != "kira":
                    self.bump(v, 0.3)
                if target in self.l_team:
                    self.bump(v, 0.4)
                if v in self.l_team and v != me and self.role not in ("kira", "worshipper"):
                    self.bump(target, TRUSTED_VOTE)  # a teammate shares its deduction
        elif t == "kira_team":
            self.learn_role(d["kira"], "kira")
            self.learn_role(d["worshipper"], "worshipper")

    def read_pass(self, d: dict[str, Any]) -> None:
        """A card passed to or from this seat (the only passes it sees)."""
        me, giver, to, card = self.seat, d["seat"], d["to"], d["card"]
        if card == "death_note":
            self.dn_moved = True
        if to == me and giver != me:
            if card == "death_note":
                self.dn = me
                self.bump(giver, -0.5)
                if self.role == "kira" and giver != self.worshipper and GIVER_THREAT:
                    self.threats.add(giver)  # it knows where the notebook went
            elif self.dn == giver and d.get("lowest"):
                # It held the notebook (number 0) and gave something else: renumbered.
                self.learn_role(giver, "kira")
            if card == "arrest" and d.get("lowest"):
                self.bump(giver, -0.3)
        elif giver == me and card == "death_note":
            self.dn = to

    def neighbour(self, seat: int, step: int) -> int:
        """The next living seat in a direction."""
        s = seat
        for _ in range(self.players):
            s = (s + step) % self.players
            if self.alive[s]:
                return s
        return seat

    # -- judging ---------------------------------------------------------------------------
    def others(self) -> list[int]:
        """Living seats other than this one."""
        return [s for s in range(self.players) if self.alive[s] and s != self.seat]

    def kira_odds(self) -> dict[int, float]:
        """Probability-like weights that each other living seat is Kira."""
        if self.kira is not None and self.alive[self.kira]:
            return {s: (1.0 if s == self.kira else 0.0) for s in self.others()}
        w = {
            s: 0.0 if s in self.not_kira else max(0.05, self.susp.get(s, 1.0))
            for s in self.others()
        }
        total = sum(w.values()) or 1.0
        return {s: v / total for s, v in w.items()}

    def suspect(self, obs: Observation) -> int:
        """The most likely Kira among the other living seats."""
        odds = self.kira_odds()
        best = max(odds.values())
        return choice(obs.rng, sorted(s for s, v in odds.items() if v == best))

    def probe_target(self) -> int | None:
        """For the L team: a player known to hold the notebook who may be Kira. An Exchange
        takes the notebook from anyone else, and shows Kira up if he renumbers it."""
        if self.role in ("kira", "worshipper") or self.dn is None:
            return None
        if self.dn in self.others() and self.dn not in self.not_kira:
            return self.dn
        return None

    def known_l(self) -> list[int]:
        """Living seats known to be L."""
        return [s for s in self.others() if self.roles.get(s) == "l"]

    def victim_rank(self, s: int) -> float:
        """How much the Kira team wants this seat dead: the chance that it is L (every L dead
        wins), then any L-team player (the team down to one wins), and whoever looked at Kira."""
        if s == self.kira or s == self.worshipper:
            return -10.0
        role = self.roles.get(s)
        if role == "l":
            score = 3.0
        elif role is not None:
            score = 0.3
        else:
            unknown = [x for x in self.others() if x not in self.roles]
            hidden_l = max(0, self.l_total - sum(1 for r in self.roles.values() if r == "l"))
            score = min(1.0, hidden_l / max(1, len(unknown))) + 0.4
        if s in self.threats and role in (None, "l"):
            score += 1.5  # it knows about Kira and may hold the Arrest
        return score

    def in_danger(self, view: dict[str, Any]) -> bool:
        """Whether the next death may lose the game for the L team."""
        st = view["state"]
        seats = st["seats"]
        kira_team = sum(1 for r in st["roles_in_game"] if r in ("kira", "worshipper"))
        kira_team -= sum(1 for x in seats if not x["alive"] and x["role"] in ("kira", "worshipper"))
        l_team_alive = sum(1 for x in seats if x["alive"]) - kira_team
        return l_team_alive <= 2

    def accuse_threshold(self, view: dict[str, Any]) -> float:
        """The confidence L wants before spending an Arrest."""
        st = view["state"]
        if self.in_danger(view):
            return 0.0
        spare = st["cards_in_game"].get("arrest", 1) - len(st["removed"]) - 1
        base = ACCUSE_CONFIDENCE - (0.2 if spare > 0 else 0.0)
        return max(0.34, base - 0.1 * st["judgments"])

    # -- choosing --------------------------------------------------------------------------
    def choose(self, obs: Observation) -> Action:
        """A reasoned choice among the legal actions."""
        legal = obs.legal
        if len(legal) == 1 and legal[0].kind != "give":
            return legal[0]
        view = obs.view
        self.update(view)
        decision = view["decision"]
        kind, data = decision["kind"], decision["data"]
        hand = [c["id"] for c in view["state"]["me"]["hand"]]
        if kind == "turn":
            return self.turn(obs, view, hand)
        if kind == "target":
            return self.pick_seat(obs, self.target_for(data["card"], obs, view))
        if kind == "direction":
            return self.direction(obs)
        if kind == "give_lowest":
            return self.give(obs, hand, lowest=True)
        if kind == "give_back":
            return self.give(obs, hand, lowest=False, to=data["to"])
        if kind == "vote":
            if self.role in ("kira", "worshipper"):
                return self.pick_seat(obs, self.kill_choice(obs, allow_self=False))
            return self.pick_seat(obs, self.suspect(obs))
        if kind in ("judgment", "shinigami"):
            if legal[0].kind in ("suggest", "write"):
                return self.pick_seat(obs, self.kill_choice(obs, allow_self=False))
            return legal[0]
        raise ValueError(f"the Werewolf bot has no play for a {kind!r} decision")

    def pick_seat(self, obs: Observation, seat: int) -> Action:
        """The legal action naming ``seat`` (a bug if there is none: the bot fails loudly)."""
        for a in obs.legal:
            if a.get("seat") == seat:
                return a
        raise ValueError(f"the Werewolf bot picked {seat}, which is not a legal choice")

    def kill_choice(self, obs: Observation, allow_self: bool) -> int:
        """The name the Kira team writes (or points at)."""
        legal = {a.get("seat") for a in obs.legal}
        best, pick = -99.0, None
        for s in self.others():
            if s not in legal:
                continue
            score = self.victim_rank(s) + obs.rng.random()
            if score > best:
                best, pick = score, s
        if pick is None:
            return next(iter(sorted(x for x in legal if x is not None)))
        return pick

    def keep_value(self, card: str) -> float:
        """How much this seat wants to keep a card."""
        if card == "death_note":
            return 100.0 if self.role == "kira" else 8.0
        if card == "arrest":
            return 50.0 if self.role == "l" else 1.0
        return KEEP.get(self.role, {}).get(card, 1.0)

    def target_for(self, card: str, obs: Observation, view: dict[str, Any]) -> int:
        """Whom to name with a card."""
        others = self.others()
        kira_team = self.role in ("kira", "worshipper")
        if card == "arrest":
            return self.suspect(obs)
        if card == "exchange":
            if self.role == "worshipper" and self.kira in others and self.dn == self.seat:
                return self.kira
            if self.role == "kira" and self.dn in others:
                return self.dn
            if self.role in ("police", "watari") and self.dn == self.seat:
                ls = [s for s in others if self.roles.get(s) == "l"]
                if ls:
                    return choice(obs.rng, ls)
            probe = self.probe_target()
            if probe is not None:
                return probe
        if kira_team:
            pool = [s for s in others if s not in (self.kira, self.worshipper)]
            unknown = [s for s in pool if s not in self.roles]
            return choice(obs.rng, unknown or pool or others)
        if card == "witness":
            unknown = [s for s in others if s not in self.roles and s not in self.not_kira]
            if unknown:
                return max(unknown, key=lambda s: (self.susp.get(s, 1.0), obs.rng.random()))
        pool = [s for s in others if s not in self.not_kira] or others
        return max(pool, key=lambda s: (self.susp.get(s, 1.0), obs.rng.random()))

    def turn(self, obs: Observation, view: dict[str, Any], hand: list[str]) -> Action:
        """Play the most useful card, or discard the least useful one."""
        best: tuple[float, float] = (-1e9, 0.0)
        choice = obs.legal[0]
        for a in obs.legal:
            score = self.score_turn(a, view, hand) + 0.01 * obs.rng.random()
            key = (score, obs.rng.random())
            if key > best:
                best, choice = key, a
        return choice

    def score_turn(self, a: Action, view: dict[str, Any], hand: list[str]) -> float:
        """How good one turn option looks."""
        card = a["card"]
        if a.kind == "discard":
            return 2.0 - self.keep_value(card) - (0.5 if hand.count(card) > 1 else 0)
        kira_team = self.role in ("kira", "worshipper")
        if card == "shinigami":
            return 10.0
        if card == "arrest":
            odds = self.kira_odds()
            top = max(odds.values()) if odds else 0.0
            if top >= 0.999 or top >= self.accuse_threshold(view):
                return 20.0
            return -5.0
        if card == "handgun":
            return 4.0 if self.dn is None or self.dn not in self.others() else 1.5
        if card == "witness":
            return 5.0
        if card == "surveillance":
            return 3.5 if self.dn is None else 2.5
        if card == "exchange":
            if self.role == "kira" and self.dn in self.others():
                return 9.0
            if self.role == "worshipper" and self.dn == self.seat and self.kira in self.others():
                return 9.0
            if self.role in ("police", "watari") and "arrest" in hand and self.known_l():
                return 6.0
            if self.probe_target() is not None:
                return 7.0
            return 2.0
        if card == "interrogation":
            if self.dn == self.seat and not kira_team:
                return -1.0  # the notebook is safe here; an Interrogation would pass it on
            if self.role == "kira" and self.dn != self.seat:
                return 3.0
            return 1.0
        if card == "vote":
            return 0.5
        return 0.0

    def direction(self, obs: Observation) -> Action:
        """Kira pulls the notebook from a neighbour; others push it to a trusted one."""
        left, right = (Action.make("direction", dir=d) for d in ("left", "right"))
        if self.role == "kira" and self.dn is not None and self.dn != self.seat:
            if self.neighbour(self.dn, 1) == self.seat:
                return left
            if self.neighbour(self.dn, -1) == self.seat:
                return right
        if self.dn == self.seat and self.role != "kira":
            good = self.kira if self.role == "worshipper" else None
            for step, act in ((1, left), (-1, right)):
                n = self.neighbour(self.seat, step)
                if n == good or (good is None and n in self.l_team):
                    return act
        return choice(obs.rng, [left, right])

    def give(
        self, obs: Observation, hand: list[str], lowest: bool, to: int | None = None
    ) -> Action:
        """Give away the card this seat least wants to keep (or feed an ally)."""
        options = {a["card"]: a for a in obs.legal}
        if not lowest and to is not None:
            if self.role == "worshipper" and to == self.kira and "death_note" in options:
                return options["death_note"]
            if self.roles.get(to) == "l" and "arrest" in options and self.role != "kira":
                return options["arrest"]
        card = min(options, key=lambda c: (self.keep_value(c), obs.rng.random()))
        return options[card]
