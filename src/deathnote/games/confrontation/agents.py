"""The heuristic bot for Confrontation: one class plays either side.

It reads only ``obs.view`` (exactly what a person in its seat sees), ``obs.legal`` and
``obs.rng``. Its reasoning is the Search Grid arithmetic a careful player does on paper.

- The Chase is a matching game. L goes to the scene worth more to Kira (his best answer
  to a Kira who picks either scene alike); Kira, who knows this habit, takes the other
  scene (always in Chapter 1, one Chase in ten in Chapter 2) and otherwise mixes A and B
  with the probabilities that leave L indifferent (the mixed equilibrium of the values).
- L picks the Nightly News to maximise the Suspects the coming kill must eliminate, covers
  the Suspects that could be forced into a Quiet Night when he cannot afford one, weighs
  the Suspects by how well each explains the kills, and accuses when his best guess is
  worth more than playing on (certainly when one Suspect remains).
- Kira kills to keep as many other Suspects plausible as he can (hiding among them), saves
  his Regional Kills, and scores when that costs no cover.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import product
from operator import add, is_, truediv
from typing import Any, ClassVar

from deathnote.agents.base import Agent, Observation
from deathnote.engine import rng as draw
from deathnote.engine.actions import Action
from deathnote.games.confrontation.content import Tables
from deathnote.games.confrontation.rules import REGIONAL_LIMIT, TARGET_POINTS
from deathnote.games.confrontation.state import DAY, KILL, ConfState

LOCAL_RADIUS = 2
#: what one Suspect card is worth to L, in Kira's points (tuned by simulation)
CARD_VALUE = 2.5
#: the same, as Kira's bot reckons it
KIRA_CARD_VALUE = 2.5
APPLE_VALUE = 0.7
QUIET_LAST = 25.0
QUIET_EARLY = 0.0
#: L counts the Suspects a kill leaves to this power (below 1: every Suspect fewer counts
#: more when few are left)
SIZE_POWER = 1.0
#: L weighs each Suspect by how likely it is Kira when he picks the news
WEIGH_NEWS = True
#: L searches the whole news (every way to fill the faces left), not one pick at a time
JOINT_NEWS = False
#: a Quiet Night that uses L's last spare one
QUIET_SPARE = 0.0
KIRA_ADVERSARY = 0.5
POINTS_WEIGHT = 0.3
#: per chapter: how much L values a kill that brings Suspects closer to their limit
PUSH = {1: 1.0, 2: 0.0}
KILL_POINTS = 1.2
KILL_PUSHED = 1.0
KILL_REGIONAL = 2.0
#: how much Kira's bot fears the share of L's suspicion a kill leaves on him (reckoned as
#: L's bot reckons it: see ``Geometry.posterior``)
KILL_SHARE = 20.0
#: per chapter: how much likelier Kira is taken to kill a criminal of his own Local Area
#: than another one. 1 is exact against a Kira who kills at random (an earlier Chapter 1
#: setting of 0.1 traded 3 points of L's wins against random for balance: no longer needed
#: since Kira's Chase dodges L's cover, see CONF-BOT-01)
LOCAL_PREFERENCE = {1: 1.0, 2: 1.0}
#: L's chance to win in the end if he plays on instead of guessing now, by the Suspects left
#: (2, 3-4, 5 or more) and the points Kira still needs (1, 2, ... 8 or more); measured by
#: letting the bot play on from such days against both bots (both chapters alike)
PLAY_ON = (
    (0.05, 0.38, 0.55, 0.7, 0.77, 0.84, 0.84, 0.85),
    (0.1, 0.35, 0.5, 0.65, 0.72, 0.75, 0.8, 0.8),
    (0.1, 0.12, 0.3, 0.45, 0.55, 0.6, 0.68, 0.75),
)
#: the most exposed Suspects L searches every news for (beyond: the greedy choice alone)
MAX_COVER_SEARCH = 12
#: once one more Quiet Night would close the case, every night risks it: playing on is
#: discounted by the chance to get through this many nights
DANGER_NIGHTS = 1.0
#: per chapter: scales PLAY_ON (above 1: L guesses later, below 1: earlier)
CONTINUE_VALUE = {1: 1.0, 2: 1.0}
#: per chapter: L goes to the scene worth more to Kira (his best answer to a Kira who picks
#: each scene alike) instead of mixing; worth about 6 points of L's wins against a random
#: Kira in Chapter 1 (84.0% instead of 78.2%)
CHASE_COVER = {1: True, 2: True}
#: per chapter: how often Kira takes the scene worth less, where a covering L is not (a
#: sure kill for fewer points); sets the bot-against-bot balance (CONF-BOT-01)
KIRA_DODGE = {1: 1.0, 2: 0.1}
#: per seat: how much likelier the other side's past Chases must be under his habit than
#: at random before the bot plays against that habit (``HeuristicAgent.other_habit``).
#: Kira (1.0) dodges until L is seen not covering the richer scene; L (10.0) stops covering
#: once Kira took the scene worth less in four Chases more than he took the richer one, so
#: a person who keeps dodging (or keeps mixing) is not read forever
HABIT_EVIDENCE = {0: 1.0, 1: 10.0}
STAR_ROW_ORDER = ("extra_quiet_night", "extra_suspect", "change_dice", "switch")
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

    def cover_tables(
        self, state: dict[str, Any], post: dict[str, float], exposed: list[str]
    ) -> tuple[dict[int, float], dict[str, set[int]], dict[str, int]]:
        """For the ``exposed`` Suspects (as bits in list order): the likelihood covered by
        each set of them, each living criminal type's distinct covers, living counts."""
        bit = {letter: 1 << i for i, letter in enumerate(exposed)}
        mass = {0: 0.0}
        for m in range(1, 1 << len(exposed)):
            low = m & -m
            mass[m] = mass[m ^ low] + post[exposed[low.bit_length() - 1]]
        masks: dict[str, set[int]] = {"knife": set(), "gun": set(), "bomb": set()}
        living = dict.fromkeys(masks, 0)
        for k in state["map"]["criminals"]:
            if k["killed"] or k["number"] in state["news"]:
                continue
            living[k["type"]] += 1
            near = self.local[k["number"]]
            masks[k["type"]].add(sum(b for x, b in bit.items() if x in near))
        masks["any"] = masks["knife"] | masks["gun"] | masks["bomb"]
        living["any"] = sum(living.values())
        return mass, masks, living

    @staticmethod
    def best_cover(mass: dict[int, float], options: list[set[int]], start: int = 0) -> float:
        """The most likelihood one news can cover: one cover from each face's options."""
        full = mass[len(mass) - 1]
        best = mass[start]
        for combo in product(*options):
            covered = start
            for m in combo:
                covered |= m
            if mass[covered] > best:
                best = mass[covered]
                if best >= full - 1e-12:
                    break
        return best

    def quiet_risk(
        self, state: dict[str, Any], post: dict[str, float], exposed: list[str]
    ) -> float:
        """The chance that tonight is a Quiet Night, over the dice L may roll.

        Only an ``exposed`` Suspect (no Regional Kill left) can be forced into one; for
        each roll L picks the news that covers the most of their likelihood. The dice are
        taken as fair over the three crime types (each die shows each type twice).
        """
        if not exposed:
            return 0.0
        mass, masks, living = self.cover_tables(state, post, exposed)
        full = mass[len(mass) - 1]
        risk = 0.0
        rolls = 0
        for roll in product(("knife", "gun", "bomb"), repeat=3):
            rolls += 1
            options = [masks[t] if living[t] >= roll.count(t) else masks["any"] for t in roll]
            risk += full - self.best_cover(mass, options)
        return risk / rolls

    def outside_counts(self, kills: list[int]) -> dict[str, int]:
        """Kills outside each Suspect's Local Area."""
        counts = dict.fromkeys(self.letters, 0)
        for number in kills:
            near = self.local[number]
            for letter in self.letters:
                if letter not in near:
                    counts[letter] += 1
        return counts

    def posterior(self, state: dict[str, Any], remaining: list[str]) -> dict[str, float]:
        """How likely each remaining Suspect is Kira, from the kills he chose.

        Kira is taken to pick among the criminals he could kill, a criminal of his own
        Local Area ``LOCAL_PREFERENCE[chapter]`` times likelier than another; once his
        Regional Kills are spent he could only kill local ones. Quiet Nights are already in
        the notebook.
        """
        limit = state["regional_limit"]
        pref = LOCAL_PREFERENCE[state["chapter"]]
        weight = dict.fromkeys(remaining, 1.0)
        outside = dict.fromkeys(remaining, 0)
        for night in state["history"]:
            killed = night["killed"]
            if killed is None:
                continue
            news = night["news"]
            for s in remaining:
                local = [n for n in news if s in self.local[n]]
                if outside[s] >= limit:
                    weight[s] /= max(1, len(local))
                else:
                    total = len(news) + (pref - 1) * len(local)
                    mine = pref if s in self.local[killed] else 1.0
                    weight[s] *= mine / total
                if s not in self.local[killed]:
                    outside[s] += 1
        norm = sum(weight.values()) or 1.0
        return {s: w / norm for s, w in weight.items()}

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

    #: the handler of each decision kind (``Decision.kind``, never the prompt's words)
    HANDLERS: ClassVar[dict[str, str]] = {
        "day": "_follow",
        "accuse": "_name",
        "chase": "_chase",
        "switch": "_switch",
        "apples": "_apple",
        "stars": "_star",
        "dice": "_dice",
        "news": "_news",
        "kill": "_kill",
    }

    def choose(self, obs: Observation) -> Action:
        """One legal action (a decision of an unknown kind is a bug: it raises)."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        view = obs.view
        handler = getattr(self, self.HANDLERS[view["decision"]["kind"]])
        result: Action = handler(obs, view["state"])
        return result

    @staticmethod
    def _switch(obs: Observation, state: dict[str, Any]) -> Action:
        """Use it: the loser of the Chase as it stands is the one asked."""
        return next(a for a in obs.legal if a["use"])

    # -- L -------------------------------------------------------------------------------
    def _follow(self, obs: Observation, state: dict[str, Any]) -> Action:
        want = "accuse" if self.should_accuse(state) else "follow"
        return next(a for a in obs.legal if a.kind == want)

    def should_accuse(self, state: dict[str, Any]) -> bool:
        """Accuse when the best guess is worth more than playing one more day.

        A guess wins with the best Suspect's chance; going on is worth the chance of
        surviving the day (Kira may reach his points, or a Quiet Night may close the case)
        times ``CONTINUE_VALUE[chapter]``. With one Suspect left the guess is certain.
        """
        nb = state["notebook"]
        remaining = nb["remaining"]
        if len(remaining) <= 1:
            return True
        geo = self.geometry(state)
        post = geo.posterior(state, remaining)
        best = max(post.values())
        need = max(1, state["target_points"] - state["kira_points"])
        k = len(remaining)
        row = PLAY_ON[0 if k == 2 else 1 if k <= 4 else 2]
        survive = row[min(need, len(row)) - 1]
        limit = state["regional_limit"]
        if state["quiet_nights"] >= state["quiet_allowed"]:
            exposed = [
                s["letter"]
                for s in nb["suspects"]
                if s["status"] == "remaining" and s["outside_kills"] >= limit
            ]
            survive *= (1.0 - geo.quiet_risk(state, post, exposed)) ** DANGER_NIGHTS
        return best >= survive * CONTINUE_VALUE[state["chapter"]]

    def _name(self, obs: Observation, state: dict[str, Any]) -> Action:
        remaining = state["notebook"]["remaining"]
        post = self.geometry(state).posterior(state, remaining)
        best = max(post.values())
        top = {s for s, p in post.items() if p >= best - 1e-12}
        choices = [a for a in obs.legal if a["suspect"] in top]
        return draw.choice(obs.rng, choices) if choices else obs.legal[0]

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
        spare = state["quiet_allowed"] - state["quiet_nights"] - 1
        quiet_cost = QUIET_LAST if last_quiet else QUIET_EARLY if spare > 0 else QUIET_SPARE
        points = {n: state["crime_types"][t]["points"] for n, t in geo.types.items()}
        suspects = [bit[x] for x in nb["remaining"]]
        picked = list(state["news"])
        push = PUSH[state["chapter"]]

        free_total = (rem & ~at_limit).bit_count()

        exposed_bits = [k for k in suspects if k & at_limit]
        if WEIGH_NEWS:
            post = geo.posterior(state, nb["remaining"])
            weight = {bit[x]: p * len(suspects) for x, p in post.items()}
        else:
            weight = dict.fromkeys(suspects, 1.0)
        free_count = sum(weight[k] for k in suspects if not k & at_limit)
        count = max(1, len(suspects))
        adv = KIRA_ADVERSARY

        def value(news: list[int]) -> float:
            """Minus the Suspects expected to remain after tonight (news as Local masks)."""
            sizes = {
                m: (rem & (m | ~at_limit)).bit_count() ** SIZE_POWER
                - push * (free_total - (m >> 32).bit_count())
                for m in news
            }
            every = [sizes[m] for m in news]
            # A Suspect with Regional Kills left may kill any criminal of the news.
            total = free_count * (adv * max(every) + (1 - adv) * sum(every) / len(every))
            quiet = 0.0
            covered = 0
            for m in news:
                covered |= m
            for k in exposed_bits:
                options = [sizes[m] for m in news if m & k]
                if not options:
                    quiet += weight[k]
                    total += weight[k] * (rem & at_limit & ~covered).bit_count() ** SIZE_POWER
                    continue
                total += weight[k] * (adv * max(options) + (1 - adv) * sum(options) / len(options))
            return -total / count - quiet_cost * quiet / count

        legal = obs.legal
        exposed = [x for x in nb["remaining"] if bit[x] & at_limit]
        if last_quiet and exposed and len(exposed) <= MAX_COVER_SEARCH:
            legal = self._covering(state, geo, exposed, legal)
        # Criminals that differ neither in crime type nor in the remaining Suspects they
        # are local to are alike for this choice: search the news over such groups.
        groups: dict[tuple[str, int], int] = {}
        taken = set(picked)
        free_bits = rem & ~at_limit

        def alike(m: int) -> int:
            """A stand-in Local mask: which exposed Suspects, and how many others."""
            return (m & rem & at_limit) | ((1 << (m & free_bits).bit_count()) - 1) << 32

        for k in state["map"]["criminals"]:
            if not k["killed"] and k["number"] not in taken:
                key = (k["type"], alike(near[k["number"]]))
                groups[key] = groups.get(key, 0) + 1
        have = [alike(near[n]) for n in picked]
        by_face: dict[str, list[tuple[str, int]]] = {
            t: [g for g in groups if g[0] == t] for t in ("knife", "gun", "bomb")
        }
        by_face["any"] = list(groups)
        faces = list(state["news_faces_left"])
        pts_of = {t: state["crime_types"][t]["points"] for t in ("knife", "gun", "bomb")}
        cache: dict[tuple[str, int], float] = {}

        def best_completion(first: tuple[str, int]) -> float:
            rest = list(faces)
            rest.remove(first[0] if first[0] in rest else "any")
            used = {first: 1}
            best = -1e18

            def walk(i: int, masks: list[int], pts: float) -> None:
                nonlocal best
                if i == len(rest):
                    v = value(masks) - POINTS_WEIGHT * pts
                    if v > best:
                        best = v
                    return
                for g in by_face[rest[i]]:
                    if used.get(g, 0) >= groups[g]:
                        continue
                    used[g] = used.get(g, 0) + 1
                    walk(i + 1, [*masks, g[1]], pts + pts_of[g[0]])
                    used[g] -= 1

            walk(0, [*have, first[1]], pts_of[first[0]])
            return best

        scored = []
        for action in legal:
            n = action["criminal"]
            key = (geo.types[n], alike(near[n]))
            if key not in cache:
                cache[key] = (
                    best_completion(key)
                    if JOINT_NEWS
                    else (value([*have, key[1]]) - POINTS_WEIGHT * points[n])
                )
            scored.append((cache[key], action))
        best = max(v for v, _ in scored)
        return draw.choice(obs.rng, [a for v, a in scored if v >= best - 1e-9])

    def _covering(
        self, state: dict[str, Any], geo: Geometry, exposed: list[str], legal: Any
    ) -> list[Action]:
        """The picks that keep the best cover of the exposed Suspects within reach."""
        post = geo.posterior(state, state["notebook"]["remaining"])
        mass, masks, _living = geo.cover_tables(state, post, exposed)
        ebit = {x: 1 << i for i, x in enumerate(exposed)}
        have = 0
        for n in state["news"]:
            have |= sum(b for x, b in ebit.items() if x in geo.local[n])
        faces = list(state["news_faces_left"])
        reach: list[tuple[float, Action]] = []
        for action in legal:
            n = action["criminal"]
            kind = geo.types[n]
            rest = list(faces)
            rest.remove(kind if kind in rest else "any")
            mine = have | sum(b for x, b in ebit.items() if x in geo.local[n])
            options = [masks[f] for f in rest]
            reach.append((geo.best_cover(mass, options, mine), action))
        top = max(v for v, _ in reach)
        return [a for v, a in reach if v >= top - 1e-9]

    def _star(self, obs: Observation, state: dict[str, Any]) -> Action:
        """Each Star in turn goes to the first row in ``STAR_ROW_ORDER`` with room."""
        rows = state["notebook"]["intel"]["rows"]
        count = len(obs.legal[0]["rows"])  # every choice places the same number of Stars
        room = [r["cost"] - r["filled"] for r in rows]
        chosen: list[int] = []
        for _ in range(count):
            for ability in STAR_ROW_ORDER:
                i = next(
                    (i for i, r in enumerate(rows) if r["ability"] == ability and room[i] > 0), -1
                )
                if i >= 0:
                    room[i] -= 1
                    chosen.append(i)
                    break
        wanted = tuple(sorted(chosen))
        return next(a for a in obs.legal if tuple(a["rows"]) == wanted)

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
            if KILL_SHARE:
                score -= KILL_SHARE * self._share_after(geo, state, me, number)
            return score

        return max(obs.legal, key=value)

    @staticmethod
    def _share_after(geo: Geometry, state: dict[str, Any], me: str, number: int) -> float:
        """How likely L would find Kira's own Suspect after this kill (L's reckoning from
        the public record; the Suspect cards L drew are unknown and left out)."""
        night = {"day": state["day"], "news": list(state["news"]), "killed": number}
        after = dict(state, history=[*state["history"], night])
        plausible = sorted(geo.plausible(after) | {me})
        return geo.posterior(after, plausible)[me]

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
            cover = self._dice_cover(obs, state, geo)
            if cover is not None:
                return cover
            # L: the type with the fewest points, unless few of them are left.
            counts: dict[str, int] = {"knife": 0, "gun": 0, "bomb": 0}
            for k in living:
                counts[k["type"]] += 1
            target = "knife" if counts["knife"] >= 6 else max(counts, key=counts.__getitem__)
            wanted = (target,) * 3
        for action in obs.legal:
            if tuple(action["faces"]) == wanted:
                return action
        return obs.legal[0]

    @staticmethod
    def _dice_cover(obs: Observation, state: dict[str, Any], geo: Geometry) -> Action | None:
        """L, when one more Quiet Night would close the case: the dice that let the news
        cover the most of the exposed Suspects (keep the roll unless a change does better)."""
        nb = state["notebook"]
        if state["quiet_nights"] < state["quiet_allowed"]:
            return None
        limit = state["regional_limit"]
        exposed = [
            s["letter"]
            for s in nb["suspects"]
            if s["status"] == "remaining" and s["outside_kills"] >= limit
        ]
        if not exposed or len(exposed) > MAX_COVER_SEARCH:
            return None
        post = geo.posterior(state, nb["remaining"])
        mass, masks, living = geo.cover_tables(state, post, exposed)

        def reach(faces: tuple[str, ...]) -> float:
            options = [masks[t] if living[t] >= faces.count(t) else masks["any"] for t in faces]
            return geo.best_cover(mass, options)

        keep = next(a for a in obs.legal if not a["faces"])
        best, choice = reach(tuple(state["dice"])), keep
        for action in obs.legal:
            if action["faces"]:
                value = reach(tuple(action["faces"]))
                if value > best + 1e-9:
                    best, choice = value, action
        return choice

    # -- both --------------------------------------------------------------------------------
    def _chase(self, obs: Observation, state: dict[str, Any]) -> Action:
        lead = state["lead"]
        a = lead["A"]["points"] + APPLE_VALUE * lead["A"]["apples"]
        b = lead["B"]["points"] + APPLE_VALUE * lead["B"]["apples"]
        v = CARD_VALUE if self.seat == 1 else KIRA_CARD_VALUE
        if abs(a - b) > 1e-9:
            richer, poorer = ("A", "B") if a > b else ("B", "A")
            habit = self.other_habit(obs.view.get("log", []))
            chapter = state["chapter"]
            if self.seat == 1 and CHASE_COVER[chapter] and habit < HABIT_EVIDENCE[1]:
                return next(x for x in obs.legal if x["side"] == richer)
            dodge = self.seat == 0 and habit >= HABIT_EVIDENCE[0]
            if dodge and obs.rng.random() < KIRA_DODGE[chapter]:
                return next(x for x in obs.legal if x["side"] == poorer)
        p_a = (v + b) / (a + b + 2 * v) if self.seat == 0 else (v + a) / (a + b + 2 * v)
        side = "A" if obs.rng.random() < p_a else "B"
        return next(x for x in obs.legal if x["side"] == side)

    def other_habit(self, log: list[dict[str, Any]]) -> float:
        """How much likelier the other side's past Chases (in the log) are if he keeps to a
        habit (Kira: the scene worth less; L: the scene worth more, nine times in ten) than
        if he picks either scene alike."""
        ratio = 1.0
        scenes: dict[str, Any] | None = None
        for entry in log:
            data = entry.get("data") or {}
            if "scenes" in data:
                scenes = data["scenes"]
            elif "kira" in data and "l" in data and scenes is not None:
                a = scenes["A"][0] + APPLE_VALUE * scenes["A"][1]
                b = scenes["B"][0] + APPLE_VALUE * scenes["B"][1]
                if abs(a - b) > 1e-9:
                    richer = "A" if a > b else "B"
                    if self.seat == 1:
                        ratio *= 0.2 if data["kira"] == richer else 1.8
                    else:
                        ratio *= 1.8 if data["l"] == richer else 0.2
                scenes = None
        return ratio

    def _row(self, obs: Observation, rows: list[dict[str, Any]], order: tuple[str, ...]) -> Action:
        by_row = {a["row"]: a for a in obs.legal}
        for ability in order:
            for i, row in enumerate(rows):
                if row["ability"] == ability and i in by_row:
                    return by_row[i]
        return obs.legal[0]


class CautiousAgent(HeuristicAgent):
    """The heuristic bot, but as L it accuses only when certain (one Suspect left)."""

    name = "cautious"

    def should_accuse(self, state: dict[str, Any]) -> bool:
        """Only a certain accusation: the Suspects left are down to one."""
        return len(state["notebook"]["remaining"]) <= 1


class SearchPriorAgent(HeuristicAgent):
    """The heuristic bot as the search bot's prior (``Game.search_prior``): the same, except
    that each side expects the other to read its Chases as the other side's bot does
    (``other_habit``). L: while L looks like he covers the richer scene, Kira takes the
    poorer one (``KIRA_DODGE``) or mixes at the equilibrium otherwise; L goes to the scene
    that costs him least against that expectation (a Suspect card worth ``CARD_VALUE``
    points to him). Kira: while L has not seen him dodge often enough, L covers the richer
    scene; Kira then takes the poorer one in both chapters (the heuristic Kira dodges only
    one Chase in ten in Chapter 2, for bot-against-bot balance)."""

    name = "search-prior"

    def _chase(self, obs: Observation, state: dict[str, Any]) -> Action:
        lead = state["lead"]
        a = lead["A"]["points"] + APPLE_VALUE * lead["A"]["apples"]
        b = lead["B"]["points"] + APPLE_VALUE * lead["B"]["apples"]
        if abs(a - b) <= 1e-9:
            return super()._chase(obs, state)
        hi, lo = max(a, b), min(a, b)
        poorer = "B" if a > b else "A"
        if self.seat == 0:
            # Kira: L covers the richer scene until he has seen Kira dodge it often enough
            # (as L's bot reads the log), then mixes at the equilibrium, against which
            # either scene is worth the same: while L covers, take the poorer scene.
            read = HeuristicAgent(1).other_habit(obs.view.get("log", []))
            if CHASE_COVER[state["chapter"]] and read < HABIT_EVIDENCE[1]:
                return next(x for x in obs.legal if x["side"] == poorer)
            return super()._chase(obs, state)
        watched = HeuristicAgent(0).other_habit(obs.view.get("log", []))
        dodge = KIRA_DODGE[state["chapter"]] if watched >= HABIT_EVIDENCE[0] else 0.0
        v = KIRA_CARD_VALUE
        # Kira's chance to take the poorer scene: his dodge, else his equilibrium mix.
        q = dodge + (1.0 - dodge) * (v + hi) / (hi + lo + 2 * v)
        # What each choice costs L: Kira's points when he escapes, less the card's worth.
        at_poorer = (1.0 - q) * hi - q * CARD_VALUE
        at_richer = q * lo - (1.0 - q) * CARD_VALUE
        if at_poorer < at_richer - 1e-9:
            return next(x for x in obs.legal if x["side"] == poorer)
        return super()._chase(obs, state)


# -- the play-out policy of the search bot -----------------------------------------------
def playout(state: ConfState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """A cheap policy for the search bot's play-outs (``Game.playout_policy``), reading only
    what ``seat`` sees of the state: random, except that L accuses only when one Suspect is
    left in his notebook (a random L accuses on half his days, so a random play-out is a
    Kira win whatever was played before it), and Kira kills in his own Local Area when the
    news allows (a random Kira spends his Regional Kills at once and is soon found)."""
    phase = state.phase
    if phase == DAY and len(legal) > 1:
        left = len(state.tables.letters) - len(state.eliminated)
        want = "accuse" if left <= 1 else "follow"
        return next(a for a in legal if a.kind == want)
    if phase == KILL and len(legal) > 1:
        t = state.tables
        me = state.identity
        local = [c for c in state.news if t.local_mask[c] >> me & 1]
        if local:
            return t.kill_actions[local[draw.below(rng, len(local))]]
    return legal[draw.below(rng, len(legal))]


#: per chapter: the logistic model of L's chance to win from a day's start, heuristic
#: against heuristic: weights of (1, ln Suspects left, share of the target Kira still
#: needs, no spare Quiet Night left, ln Suspects left times that share, Kira's share of L's
#: suspicion (``suspicion``), no Regional Kill left to Kira). Fitted by maximum likelihood
#: on the day starts of 2,000 games per chapter (seeds 100000-101999); on a held-out half
#: the last two terms lower the log loss per day from 0.670 to 0.646 (Chapter 1) and from
#: 0.654 to 0.632 (Chapter 2).
VALUE_MODEL = {
    1: (-6.641, 1.751, 12.515, -0.77, -3.677, 6.67, 0.785),
    2: (-7.266, 1.825, 16.926, -0.713, -5.052, 6.901, 1.002),
}


def suspicion(state: ConfState) -> float:
    """Kira's Suspect's share of L's suspicion among the Suspects left in L's notebook, as
    L's bot reckons it (``Geometry.posterior``: Kira kills any allowed criminal of the news
    alike), from the kills of the public record."""
    t = state.tables
    limit = REGIONAL_LIMIT[t.chapter]
    history = state.history
    # Each Suspect's weight and count of kills outside its Local Area before the last
    # night, remembered (``_start_of``: a search's worlds share that much of the history
    # and add a night or so); then the last night divided in, for the Suspects left in
    # L's notebook only (each weight is divided night by night, in the same order as ever).
    before = _start_of(t, history, len(history) - 1) if history else None
    news: list[int] = []
    if history and history[-1]["killed"] is not None:
        masks = t.local_mask
        index = t.index_of_number
        news = [masks[index[k]] for k in history[-1]["news"]]  # type: ignore[attr-defined]
    count = len(news)
    eliminated = state.eliminated
    me = state.identity
    total = 0.0
    mine = 0.0
    n = len(t.letters)
    if before is None or not count or max(before[1]) < limit:
        # The common case, in a shorter loop: every weight (1 before any night) divided
        # alike by the last night's news (or not at all: by 1, which changes no float),
        # with the same divisions and additions in order.
        weights = [1.0] * n if before is None else before[0]
        alike = count or 1
        for s in range(n):
            if s not in eliminated:
                total += weights[s] / alike
        mine = weights[me] / alike
        return (0.0 if me in eliminated else mine) / total if total else 0.0
    for s in range(n):
        if s in eliminated:
            continue
        if before is None:
            weight = 1.0
            outside = 0
        else:
            weight = before[0][s]
            outside = before[1][s]
        if count:
            if outside >= limit:
                local = 0
                for m in news:
                    local += m >> s & 1
                weight /= max(1, local)
            else:
                weight /= count
        total += weight
        if s == me:
            mine = weight
    return mine / total if total else 0.0


#: ``_start_of`` the last few histories, by (tables, length, last note): (the tables, the
#: notes, the answer). As ``sample._ELIMINATED``: the notes are never changed once written
#: and forks share them, so the same notes (the same objects, kept alive here) give the
#: same answer.
_STARTS: dict[
    tuple[int, int, int], tuple[object, tuple[object, ...], tuple[list[float], list[int]]]
] = {}
STARTS_KEPT = 256


def _start_of(
    t: Tables, history: list[dict[str, object]], m: int
) -> tuple[list[float], list[int]] | None:
    """Each Suspect's weight in ``suspicion`` (before L's notebook is read) and its count
    of kills outside its Local Area after the nights ``history[:m]`` (None: before any
    night), remembered (``_STARTS``). The answer is not to be changed."""
    if not m:
        return None
    key = (id(t), m, id(history[m - 1]))
    kept = _STARTS.get(key)
    if kept is not None and kept[0] is t and all(map(is_, kept[1], history)):
        return kept[2]
    out = _divide(t, history, m - 1, _start_of(t, history, m - 1), m)
    if len(_STARTS) >= STARTS_KEPT:
        _STARTS.clear()
    _STARTS[key] = (t, tuple(history[:m]), out)
    return out


def _divide(
    t: Tables,
    history: list[dict[str, object]],
    start: int,
    before: tuple[list[float], list[int]] | None,
    end: int | None = None,
) -> tuple[list[float], list[int]]:
    """The weights and outside counts ``before`` (None: 1 and 0 for every Suspect) carried
    through the nights ``history[start:end]``, each Suspect's night by night in order."""
    limit = REGIONAL_LIMIT[t.chapter]
    index = t.index_of_number
    outside_add = t.outside_add
    if before is None:
        weights = [1.0] * len(t.letters)
        outsides = [0] * len(t.letters)
    else:
        weights, outsides = before
    changed = False
    for night in history[start:end]:
        killed = night["killed"]
        if killed is None:
            continue
        # Each Suspect's divisor tonight: the news criminals while its Regional Kills
        # last, else those in its Local Area (at least 1); every Suspect's in one list.
        rows = [outside_add[index[n]] for n in night["news"]]  # type: ignore[attr-defined]
        count = len(rows)
        if max(outsides) < limit:
            weights = [w / count for w in weights]
        else:
            away = map(sum, zip(*rows, strict=True))  # per Suspect: the criminals outside
            divisors = [
                count if o < limit else max(1, count - x)
                for o, x in zip(outsides, away, strict=True)
            ]
            weights = list(map(truediv, weights, divisors))
        outsides = list(map(add, outsides, outside_add[index[killed]]))  # type: ignore[index]
        changed = True
    if not changed and before is not None:
        return before  # (not changed: no copy)
    return weights, outsides


def evaluate(state: ConfState) -> tuple[float, float] | None:
    """Kira's and L's chance to win from the start of a day (``Game.evaluate``; None at
    any other point: the play-out goes on to the next day), from that world
    (``VALUE_MODEL``): the Suspects left in L's notebook, the points Kira still needs,
    whether L can afford another Quiet Night, how much of L's suspicion falls on Kira's
    Suspect and whether Kira has a Regional Kill left. One Suspect left: L wins."""
    result = state.result
    if result is not None:
        won = result.winning_seats
        return (1.0 if 0 in won else 0.0, 1.0 if 1 in won else 0.0)
    if state.phase != DAY:
        return None
    t = state.tables
    left = len(t.letters) - len(state.eliminated)
    if left <= 1:
        return (0.0, 1.0)
    target = TARGET_POINTS[t.chapter]
    need = min(max(target - state.points, 0), target) / target
    b0, b1, b2, b3, b4, b5, b6 = VALUE_MODEL.get(t.chapter, VALUE_MODEL[1])
    ln = math.log(left)
    z = b0 + b1 * ln + b2 * need + b4 * ln * need + b5 * suspicion(state)
    if state.quiet_nights >= state.quiet_allowed:
        z += b3
    if state.regional_used >= REGIONAL_LIMIT[t.chapter]:
        z += b6
    p = 1.0 / (1.0 + math.exp(-z))
    return (1.0 - p, p)
