"""The Game object of the Investigation Card Game: options, set-up, views, outcome."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from deathnote.engine.actions import OMNISCIENT, Action, Decision, Event, Outcome, Seat, Viewer
from deathnote.engine.errors import OptionsError
from deathnote.engine.game import Game

from . import rules
from .content import MISSION_IDS, OTHER_MISSIONS, load
from .state import IcgState, SeatState

if TYPE_CHECKING:
    from deathnote.agents.base import Agent

OPTION_NAMES = ("rules", "shinigami_eyes", "turn_limit", "x_kira")
DEFAULT_TURN_LIMIT = 100


class IcgGame(Game):
    """Death Note Investigation Card Game (4-8 players; Light or Kira rules)."""

    id = "icg"
    name = "Death Note Investigation Card Game"
    min_players = 4
    max_players = 8
    rules_version = "1"
    wins_mode = "count"

    # -- set-up ------------------------------------------------------------------------------
    def parse_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """``rules``: "light" (default) or "kira"; ``shinigami_eyes`` (bool); ``turn_limit``
        (turns before a draw, default 100); ``x_kira``: X-Kira cards among the 6 other
        Mission cards (default from the content, 2)."""
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise OptionsError(f"unknown option(s) {unknown}; icg takes {list(OPTION_NAMES)}")
        which = options.get("rules", "light")
        if which not in ("light", "kira"):
            raise OptionsError(f"option rules must be 'light' or 'kira', not {which!r}")
        eyes = options.get("shinigami_eyes", False)
        if not isinstance(eyes, bool):
            raise OptionsError(f"option shinigami_eyes must be true or false, not {eyes!r}")
        limit = options.get("turn_limit", DEFAULT_TURN_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise OptionsError(f"option turn_limit must be a positive integer, not {limit!r}")
        x_kira = options.get("x_kira")
        if x_kira is not None and (
            not isinstance(x_kira, int)
            or isinstance(x_kira, bool)
            or not 0 <= x_kira <= OTHER_MISSIONS
        ):
            raise OptionsError(f"option x_kira must be an integer from 0 to {OTHER_MISSIONS}")
        return {"rules": which, "shinigami_eyes": eyes, "turn_limit": limit, "x_kira": x_kira}

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """The Identity characters and the Mission mix (package data, or a JSON file)."""
        return load(path)

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> IcgState:
        """Deal Identities and Missions, hand out the Clue sets, start turn 1."""
        identities = [c["id"] for c in content["identities"]]
        rng.shuffle(identities)
        box = mission_box(content, options)
        rng.shuffle(box)
        dealt = ["kira", "l", *box[: players - 2]]
        rng.shuffle(dealt)
        clue_ids = [c["id"] for c in content["identities"]] + list(MISSION_IDS)
        seats = [SeatState(identity=identities[s], mission=dealt[s]) for s in range(players)]
        if options["rules"] == "kira":
            for x in seats:
                x.hand = list(clue_ids)
        st = IcgState(
            players=players,
            rules=options["rules"],
            eyes=options["shinigami_eyes"],
            turn_limit=options["turn_limit"],
            content=content,
            seats=seats,
            clue_ids=clue_ids,
            unused_missions=box[players - 2 :],
            mission_box=sorted(box),
        )
        rules.start_turn(st, [])
        return st

    # -- play --------------------------------------------------------------------------------
    def pending(self, state: IcgState) -> dict[Seat, Decision]:
        """The seats asked now (every living seat alike in the Arrest and Death Note phases)."""
        return rules.pending(state)

    def legal(self, state: IcgState, seat: Seat) -> Sequence[Action]:
        """The legal actions of a pending seat."""
        if seat not in rules.pending(state):
            return []
        return rules.legal(state, seat)

    def apply(self, state: IcgState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out the choice and run on to the next decision."""
        events: list[Event] = []
        rules.apply(state, seat, action, events)
        return events

    # -- views -------------------------------------------------------------------------------
    def view(self, state: IcgState, viewer: Viewer) -> dict[str, Any]:
        """The table as this viewer sees it; the viewer's own cards under ``me``."""
        st = state
        over = st.phase == "over"
        everything = over or viewer == OMNISCIENT
        seats = []
        for s, x in enumerate(st.seats):
            dead_identity = next(
                (d["identity"] for d in st.death_notes if d["hit"] and d["seat"] == s), None
            )
            row: dict[str, Any] = {
                "seat": s,
                "placement": s + 1,
                "red": st.red == s,
                "out": x.out,
                "mission": x.mission if (x.mission_revealed or everything) else None,
                "mission_revealed": x.mission_revealed,
                "identity": x.identity if everything else dead_identity,
                "eyes": rules.has_eyes(st, s),
            }
            if st.rules == "light":
                row["covered"] = list(x.covered)
            else:
                row["table"] = list(x.table)
                row["hand_size"] = len(x.hand)
                if everything:
                    row["hand"] = sorted(x.hand, key=st.clue_ids.index)
            seats.append(row)
        out: dict[str, Any] = {
            "rules": st.rules,
            "shinigami_eyes": st.eyes,
            "turn": st.turn,
            "turn_limit": st.turn_limit,
            "phase": st.phase,
            "red": st.red,
            "current": st.current,
            "target": st.target,
            "type": st.inv_type,
            "to_investigate": list(st.order),
            "chased": list(st.chased),
            "identities": [{"id": c["id"], "name": c["name"]} for c in st.content["identities"]],
            "missions": [{"id": c["id"], "name": c["name"]} for c in st.content["missions"]],
            "clues": list(st.clue_ids),
            "mission_box": {k: st.mission_box.count(k) for k in ("x_kira", "team_member")},
            "seats": seats,
            "history": [dict(h) for h in st.history],
            "death_notes": [dict(d) for d in st.death_notes],
            "claims": [dict(c) for c in st.claims],
            "ending": st.ending,
        }
        if isinstance(viewer, int):
            me = st.seats[viewer]
            mine: dict[str, Any] = {
                "seat": viewer,
                "identity": me.identity,
                "mission": me.mission,
                "team": rules.TEAM[me.mission],
                "looks": {str(k): v for k, v in me.looks.items()},
                "picks": list(st.picks) if viewer in rules.pending(st) else [],
            }
            if st.rules == "kira":
                mine["hand"] = sorted(me.hand, key=st.clue_ids.index)
            if me.mission == "kira" and st.phase == "dn_placement":
                mine["death_note"] = st.dn_identity
            out["me"] = mine
        if viewer == OMNISCIENT:
            out["death_note_choice"] = {"identity": st.dn_identity, "placement": st.dn_placement}
            out["picks"] = list(st.picks)
            out["unused_missions"] = list(st.unused_missions)
        return out

    def outcome(self, state: IcgState) -> Outcome | None:
        """The winning team once a Mission is fulfilled (or the turn limit is reached)."""
        if state.phase != "over":
            return None
        seats = tuple(
            s for s, x in enumerate(state.seats) if rules.TEAM[x.mission] in state.winners
        )
        return Outcome(state.winners, state.ending or "", state.reason, {}, seats)

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot (every Mission)."""
        from .agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def turn_count(self, state: IcgState) -> int:
        """Game turns started."""
        return state.turn


def mission_box(content: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    """The 6 Mission cards besides Kira and L (the ``x_kira`` option overrides the mix)."""
    x_kira = options.get("x_kira")
    if x_kira is None:
        x_kira = int(content["other_missions"]["x_kira"])
    return ["x_kira"] * x_kira + ["team_member"] * (OTHER_MISSIONS - x_kira)
