"""The heuristic bot for Confrontation: one class plays either side.

It reads only ``obs.view`` (exactly what a person in its seat sees), ``obs.legal`` and
``obs.rng``. Its reasoning is the Search Grid arithmetic a careful player does on paper.

- The Chase is a matching game: each side mixes A and B with the probabilities that leave
  the other side indifferent (the mixed equilibrium of the scene values), so neither can be
  read.
- L picks the Nightly News to maximise the Suspects the coming kill must eliminate, covers
  the Suspects that could be forced into a Quiet Night when he cannot afford one, and
  accuses only when one Suspect remains.
- Kira kills to keep as many other Suspects plausible as he can (hiding among them), saves
  his Regional Kills, and scores when that costs no cover.
"""

from __future__ import annotations

from typing import Any

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action

LOCAL_RADIUS = 2
#: what one Suspect card is worth to L, in Kira's points (tuned by simulation)
CARD_VALUE = 2.5
APPLE_VALUE = 0.7
QUIET_LAST = 25.0
QUIET_EARLY = 2.0
KIRA_ADVERSARY = 0.5
POINTS_WEIGHT = 0.3
PUSH = 0.0
KILL_POINTS = 1.2
KILL_PUSHED = 1.0
KILL_REGIONAL = 2.0
STAR_ROW_ORDER = ("extra_suspect", "extra_quiet_night", "switch", "change_dice")
APPLE_ROW_ORDER = ("points_3", "points_2", "switch", "change_dice")


class Geometry:
    """Which criminals lie in which Suspect's Local Area, from the public Map."""

    def __init__(self, board: dict[str, Any]) -> None:
        self.letters = [s["letter"] for s in board["suspects"]]
        self.types = {k["number"]: k["type"] for k in board["criminals"]}
        self.local: dict[int, frozenset[str]] = {}
        for k in board["criminals"]:
            self.local[k["number"]] = frozenset(
                s["letter"]
                for s in board["suspects"]
                if abs(s["x"] - k["x"]) <= LOCAL_RADIUS and abs(s["y"] - k["y"]) <= LOCAL_RADIUS
            )

    def outside_counts(self, kills: list[int]) -> dict[str, int]:
        """Kills outside each Suspect's Local Area."""
        counts = dict.fromkeys(self.letters, 0)
        for number in kills:
            near = self.local[number]
            for letter in self.letters:
                if letter not in near:
                    counts[letter] += 1
        return counts

    def plausible(self, state: dict[str, Any]) -> set[str]:
        """Suspects the public record (kills and Quiet Nights) does not rule out."""
        limit = state["regional_limit"]
        alive = set(self.letters)
        kills: list[int] = []
        for night in state["history"]:
            if night["killed"] is None:
                counts = self.outside_counts(kills)
                for number in night["news"]:
                    alive -= self.local[number]
                alive = {s for s in alive if counts[s] >= limit}
            else:
                kills.append(night["killed"])
        counts = self.outside_counts(kills)
        return {s for s in alive if counts[s] <= limit}


class HeuristicAgent(Agent):
    """Plays Kira (seat 0) or L (seat 1) from its own view."""

    name = "heuristic"

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self._geo: Geometry | None = None
        self._geo_key: tuple[int, ...] = ()

    def geometry(self, state: dict[str, Any]) -> Geometry:
        """The Map's Local Areas (computed once per Map)."""
        board = state["map"]
        key = (state["chapter"], board["width"], board["height"], len(board["criminals"]))
        if self._geo is None or key != self._geo_key:
            self._geo, self._geo_key = Geometry(board), key
        return self._geo

    def choose(self, obs: Observation) -> Action:
        """One legal action."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        kind = legal[0].kind
        if kind == "switch":
            return next(a for a in legal if a["use"])  # asked only while losing the Chase
        state = obs.view["state"]
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return obs.rng.choice(legal)
        result: Action = handler(obs, state)
        return result

    # -- L -------------------------------------------------------------------------------
    def _follow(self, obs: Observation, state: dict[str, Any]) -> Action:
        remaining = state["notebook"]["remaining"]
        want = "accuse" if len(remaining) == 1 else "follow"
        return next(a for a in obs.legal if a.kind == want)

    def _name(self, obs: Observation, state: dict[str, Any]) -> Action:
        remaining = state["notebook"]["remaining"]
        for action in obs.legal:
            if action["suspect"] == remaining[0]:
                return action
        return obs.legal[0]

    def _news(self, obs: Observation, state: dict[str, Any]) -> Action:
        geo = self.geometry(state)
        nb = state["notebook"]
        bit = {letter: 1 << i for i, letter in enumerate(geo.letters)}
        rem = 0
        for letter in nb["remaining"]:
            rem |= bit[letter]
        limit = state["regional_limit"]
        at_limit = 0
        for s in nb["suspects"]:
            if s["outside_kills"] >= limit:
                at_limit |= bit[s["letter"]]
        near = {n: sum(bit[x] for x in letters) for n, letters in geo.local.items()}
        last_quiet = state["quiet_nights"] >= state["quiet_allowed"]
        quiet_cost = QUIET_LAST if last_quiet else QUIET_EARLY
        points = {n: state["crime_types"][t]["points"] for n, t in geo.types.items()}
        suspects = [bit[x] for x in nb["remaining"]]
        picked = list(state["news"])

        def value(action: Action) -> float:
            news = [*picked, action["criminal"]]
            covered = 0
            for n in news:
                covered |= near[n]
            total = 0.0
            quiet = 0
            for k in suspects:
                options = [n for n in news if near[n] & k] if k & at_limit else news
                if not options:
                    quiet += 1
                    total += (rem & at_limit & ~covered).bit_count()
                    continue
                sizes = [
                    (rem & (near[n] | ~at_limit)).bit_count()
                    - PUSH * (rem & ~near[n] & ~at_limit).bit_count()
                    for n in options
                ]
                total += KIRA_ADVERSARY * max(sizes) + (1 - KIRA_ADVERSARY) * sum(sizes) / len(
                    sizes
                )
            count = max(1, len(suspects))
            score = -total / count - quiet_cost * quiet / count
            return score - POINTS_WEIGHT * points[action["criminal"]]

        scored = [(value(a), a) for a in obs.legal]
        best = max(v for v, _ in scored)
        return obs.rng.choice([a for v, a in scored if v >= best - 1e-9])

    def _star(self, obs: Observation, state: dict[str, Any]) -> Action:
        rows = state["notebook"]["intel"]["rows"]
        return self._row(obs, rows, STAR_ROW_ORDER)

    # -- Kira ------------------------------------------------------------------------------
    def _kill(self, obs: Observation, state: dict[str, Any]) -> Action:
        geo = self.geometry(state)
        nb = state["notebook"]
        me = nb["identity"]
        limit = state["regional_limit"]
        decoys = geo.plausible(state) - {me}
        counts = geo.outside_counts(state["kills"])
        local = set(nb["local_criminals"])
        need = state["target_points"] - state["kira_points"]

        def value(action: Action) -> float:
            number = action["criminal"]
            pts = state["crime_types"][geo.types[number]]["points"]
            if pts >= need:
                return 1000.0
            near = geo.local[number]
            safe = sum(1 for s in decoys if s in near)
            pushed = sum(1 for s in decoys if s not in near and counts[s] < limit)
            score = KILL_POINTS * pts + safe + KILL_PUSHED * pushed
            if number not in local:
                score -= KILL_REGIONAL * (nb["regional_used"] + 1)
            return score

        return max(obs.legal, key=value)

    def _apple(self, obs: Observation, state: dict[str, Any]) -> Action:
        rows = state["notebook"]["ryuk"]["rows"]
        return self._row(obs, rows, APPLE_ROW_ORDER)

    def _dice(self, obs: Observation, state: dict[str, Any]) -> Action:
        geo = self.geometry(state)
        living = [k for k in state["map"]["criminals"] if not k["killed"]]
        if self.seat == 0:
            nb = state["notebook"]
            local = set(nb["local_criminals"])
            mine: dict[str, int] = {"knife": 0, "gun": 0, "bomb": 0}
            for k in living:
                if k["number"] in local:
                    mine[k["type"]] += 1
            if nb["regional_left"] > 0:
                target = "bomb"
            else:
                target = max(mine, key=lambda t: (mine[t], t == "bomb"))
            wanted = (target,) * 3
        else:
            # L: the type with the fewest points, unless few of them are left.
            counts: dict[str, int] = {"knife": 0, "gun": 0, "bomb": 0}
            for k in living:
                counts[k["type"]] += 1
            target = "knife" if counts["knife"] >= 6 else max(counts, key=counts.__getitem__)
            wanted = (target,) * 3
            del geo
        for action in obs.legal:
            if tuple(action["faces"]) == wanted:
                return action
        return obs.legal[0]

    # -- both --------------------------------------------------------------------------------
    def _chase(self, obs: Observation, state: dict[str, Any]) -> Action:
        lead = state["lead"]
        a = lead["A"]["points"] + APPLE_VALUE * lead["A"]["apples"]
        b = lead["B"]["points"] + APPLE_VALUE * lead["B"]["apples"]
        v = CARD_VALUE
        p_a = (v + b) / (a + b + 2 * v) if self.seat == 0 else (v + a) / (a + b + 2 * v)
        side = "A" if obs.rng.random() < p_a else "B"
        return next(x for x in obs.legal if x["side"] == side)

    def _row(self, obs: Observation, rows: list[dict[str, Any]], order: tuple[str, ...]) -> Action:
        by_row = {a["row"]: a for a in obs.legal}
        for ability in order:
            for i, row in enumerate(rows):
                if row["ability"] == ability and i in by_row:
                    return by_row[i]
        return obs.legal[0]

    _accuse = _follow
