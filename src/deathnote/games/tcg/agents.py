"""The heuristic bot: reads only its view, its legal actions and its own generator."""

from __future__ import annotations

from typing import Any

from deathnote.agents.base import Agent, Observation
from deathnote.engine import rng as engine_rng
from deathnote.engine.actions import Action

DESTROYERS = ("deduce", "shoot")
DRAWERS = ("announce", "puzzle", "supply", "drop")
#: Specials whose bearer strikes back at once (a Death Note, Shoot, Switch the Notebook).
STRIKERS = frozenset({"deathnote", "shoot", "switch"})


def _value(fc: dict[str, Any]) -> float:
    """How much a Character on a field is worth: its Work, more with a face-up Special."""
    special = fc.get("special")
    bonus = 0.0
    if special:
        bonus = 2.0 if special.get("face_up") else 1.0
    return fc.get("points", 0) + fc.get("cost", 0) * 0.5 + bonus


class HeuristicAgent(Agent):
    """Plays a sensible game: develop cheap Characters, work, write names, hide when marked."""

    name = "heuristic"
    data: dict[str, Any]  # the data of the decision being made

    def choose(self, obs: Observation) -> Action:
        """One of ``obs.legal``."""
        asked = obs.view.get("decision") or {}
        decision = asked.get("kind")
        self.data = asked.get("data") or {}
        state = obs.view["state"]
        me = state["players"][self.seat]
        them = state["players"][1 - self.seat]
        by_kind: dict[str, list[Action]] = {}
        for action in obs.legal:
            by_kind.setdefault(action.kind, []).append(action)
        if decision == "mulligan":
            cheap = [c for c in me["hand"] if c["kind"] == "character" and c["cost"] == 0]
            return by_kind["keep"][0] if cheap else by_kind["mulligan"][0]
        if decision == "target":
            return self.target(obs, state, me, them, by_kind)
        if decision == "character":
            return self.character_phase(obs, me, them, by_kind)
        return self.action_phase(obs, me, them, by_kind)

    # -- two-step choices ----------------------------------------------------------------
    def target(
        self,
        obs: Observation,
        state: dict[str, Any],
        me: dict[str, Any],
        them: dict[str, Any],
        by_kind: dict[str, list[Action]],
    ) -> Action:
        options = by_kind.get("target", [])
        if not options:
            return by_kind["cancel"][0]
        names = {a["target"]: a for a in options}
        if self.data["step"] == "attach":
            own = sorted(
                (fc for fc in me["field"] if fc["name"] in names), key=_value, reverse=True
            )
            return names[own[0]["name"]] if own else options[0]
        mine = {fc["name"] for fc in me["field"]}
        theirs_names = {fc["name"] for fc in them["field"]}
        if set(names) <= mine and not set(names) & theirs_names:  # a choice among my own
            acted = [fc for fc in me["field"] if fc["name"] in names and not fc["upright"]]
            pick = max(acted or [fc for fc in me["field"] if fc["name"] in names], key=_value)
            return names[pick["name"]]
        theirs = sorted(
            (fc for fc in them["field"] if fc["name"] in names),
            key=lambda fc: (fc["face_up"], _value(fc)),
            reverse=True,
        )
        if theirs:
            return names[theirs[0]["name"]]
        return engine_rng.choice(obs.rng, options)

    # -- Character phase -------------------------------------------------------------------
    def character_phase(
        self,
        obs: Observation,
        me: dict[str, Any],
        them: dict[str, Any],
        by_kind: dict[str, list[Action]],
    ) -> Action:
        if "reveal" in by_kind:
            return by_kind["reveal"][0]
        hand = {c["id"]: c for c in me["hand"]}
        places = sorted(
            by_kind.get("place", []),
            key=lambda a: (
                hand[a["card"]]["points"] - hand[a["card"]]["cost"],
                -hand[a["card"]]["cost"],
            ),
            reverse=True,
        )
        for action in places:
            card = hand[action["card"]]
            if card["cost"] == 0 or (
                card["points"] > card["cost"] and me["points"] - card["cost"] >= 1
            ):
                return action
        attaches = by_kind.get("attach", [])
        if attaches:
            return attaches[0]
        # A marked page most likely names the most valuable Character the opponent saw face
        # up: hide that one (it skips its action) unless it must strike back; every other
        # one comes back face up.
        marked = them["kira_card"] != "kept apart"
        keep_hidden = ""
        if marked and len(me["field"]) >= 2:
            candidates = [fc for fc in me["field"] if fc["face_up"] and not self.striker(fc, them)]
            best = max(candidates, key=_value) if candidates else None
            if best is not None and _value(best) >= 4:
                keep_hidden = best["name"]
                for action in by_kind.get("hide", []):
                    if action["character"] == keep_hidden:
                        return action
        for action in by_kind.get("show", []):
            if action["character"] != keep_hidden:
                return action
        return by_kind["next"][0]

    @staticmethod
    def striker(fc: dict[str, Any], them: dict[str, Any]) -> bool:
        """Whether a Character carries a face-up Special that can destroy something now."""
        special = fc.get("special") or {}
        card = special.get("card") or {}
        if not special.get("face_up"):
            return False
        abilities = set(card["abilities"])
        if abilities & STRIKERS:
            return True
        if "deduce" in abilities:
            return any(
                t["face_up"] and t["special"] and t["special"]["face_up"] for t in them["field"]
            )
        return False

    # -- Action phase ----------------------------------------------------------------------
    def action_phase(
        self,
        obs: Observation,
        me: dict[str, Any],
        them: dict[str, Any],
        by_kind: dict[str, list[Action]],
    ) -> Action:
        work = self.data["work"]
        works = sorted(by_kind.get("work", []), key=lambda a: work[a["character"]], reverse=True)
        gains = sum(work[a["character"]] for a in works)
        if works and me["points"] + gains >= 13:
            return works[0]
        acts = by_kind.get("act", [])
        for key in ("deathnote", *DESTROYERS, "ransom"):
            for action in acts:
                if action["ability"] == key:
                    return action
        marked = them["kira_card"] != "kept apart"
        for action in acts:
            if action["ability"] == "switch" and marked:
                return action
            if action["ability"] == "expose":
                return action
            if action["ability"] == "track":
                return action
        hand = {c["id"]: c for c in me["hand"]}
        events = by_kind.get("event", [])
        for action in events:
            if self.good_event(hand[action["card"]], me, them, marked, len(works)):
                return action
        broadcast = [a for a in acts if a["ability"] == "broadcast"]
        faceup_specials = sum(1 for fc in me["field"] if fc["special"] and fc["special"]["face_up"])
        if broadcast and faceup_specials >= 2:
            return broadcast[0]
        if works:
            return works[0]
        drawers = [a for a in acts if a["ability"] in DRAWERS]
        if drawers and me["deck_count"] > 8:
            return drawers[0]
        return by_kind["end"][0]

    def good_event(
        self,
        card: dict[str, Any],
        me: dict[str, Any],
        them: dict[str, Any],
        marked: bool,
        workers_left: int,
    ) -> bool:
        number = card["number"]  # the printed number (a parallel printing's is its base's)
        deck = me["deck_count"]
        specials_up = sum(
            1 for fc in me["field"] if fc["face_up"] and fc["special"] and fc["special"]["face_up"]
        )
        acted = sum(1 for fc in me["field"] if fc["face_up"] and not fc["upright"])
        table = {
            "DN-S39": deck > 12,
            "DN-S41": marked,
            "DN-S42": True,
            "DN-S43": True,
            "DN-S44": specials_up >= 2,
            "DN-S45": workers_left == 0 and acted >= 3,
            "DN-S46": True,
            "DN-S47": them["points"] >= 3,
            "DN-S48": deck > 10,
        }
        if number in table:
            return table[number]
        return bool(card["cost"] == 0 or me["points"] >= card["cost"] + 2)  # not a sample card
