"""The Game object of the Investigation Card Game: options, set-up, views, outcome."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from deathnote.engine import rng as rand
from deathnote.engine.actions import (
    OMNISCIENT,
    QUIET,
    Action,
    Decision,
    Event,
    Outcome,
    Seat,
    Viewer,
)
from deathnote.engine.game import Game, PlayoutPolicy
from deathnote.engine.options import GameOptions, lobby
from deathnote.engine.spaces import TableSpace

from . import observe, rules, tables, worlds
from .content import OTHER_MISSIONS, default_content, load
from .state import IcgState, SeatState

if TYPE_CHECKING:
    import numpy as np

    from deathnote.agents.base import Agent, Observation
    from deathnote.engine.spaces import ActionSpace

DEFAULT_TURN_LIMIT = 100


class IcgOptions(GameOptions):
    """Options of the Investigation Card Game."""

    rules: Literal["light", "kira"] = Field(
        "light",
        description="Light rules (covered Clues) or Kira rules (Clues in hand).",
        json_schema_extra=lobby(
            labels={"light": "Light rules (covered Clues)", "kira": "Kira rules (Clues in hand)"}
        ),
    )
    shinigami_eyes: bool = Field(
        False, description="The optional Shinigami Eyes rule for X-Kira, and chasing X-Kira."
    )
    turn_limit: int = Field(
        DEFAULT_TURN_LIMIT, ge=1, description="Turns played before the game ends in a draw."
    )
    x_kira: int | None = Field(
        None,
        ge=0,
        le=OTHER_MISSIONS,
        title="X-Kira cards",
        description="X-Kira cards among the 6 Mission cards besides Kira and L "
        "(the rest are Team Members); none: the content's mix.",
        json_schema_extra=lobby(
            help="How many of the 6 Mission cards besides Kira and L are X-Kira (the rest "
            "are Investigation Team Members).",
            empty="the usual mix",
        ),
    )


class IcgGame(Game):
    """Death Note Investigation Card Game (4-8 players; Light or Kira rules)."""

    id = "icg"
    name = "Death Note Investigation Card Game"
    rules_summary = rules.RULES_SUMMARY
    min_players = 4
    max_players = 8
    #: 2: the audit (Shinigami Eyes decided after the answer, no question without an X-Kira
    #: in the box, Kira free to bluff with his own Placement or Identity). 3: the X-Kira
    #: announces any Identity (a lie too), set-up events logged.
    rules_version = "3"
    wins_mode = "count"
    options_model = IcgOptions
    #: Belief-weighted worlds by default: Kira's team gains with them (ICG-BOT-05).
    search_belief_worlds = 8

    # -- set-up ------------------------------------------------------------------------------
    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """The Identity characters and the Mission mix (package data, or a JSON file)."""
        return load(path)

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> IcgState:
        """Deal Identities and Missions, hand out the Clue sets, start turn 1 (``setup``
        without its events: no texts are made for them)."""
        st = _deal(players, options, content, rng)
        rules.start_turn(st, [])
        return st

    def setup(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> tuple[IcgState, list[Event]]:
        """Deal, tell each seat its cards (private events), and start turn 1."""
        st = _deal(players, options, content, rng)
        tab = st.tables
        events = [
            Event.private(
                [s],
                f"You are {rules.player(s)}. Your Identity is {tab.names[x.identity]}; "
                f"your Mission is {tab.names[x.mission]}.",
                seat=s,
                identity=x.identity,
                mission=x.mission,
            )
            for s, x in enumerate(st.seats)
        ]
        rules.start_turn(st, events)
        return st, events

    def fork_state(self, state: IcgState) -> IcgState:
        """An independent copy (content and action tables shared)."""
        return worlds.fork(state)

    def sample_state(self, state: IcgState, viewer: Viewer, rng: random.Random) -> IcgState:
        """The unseen cards and secret choices dealt anew (docs/rules/icg.md, ICG-SAMPLE-01)."""
        return worlds.sample(state, viewer, rng)

    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        """Every action in a stable order (the table in docs/rules/icg.md, ICG-NUM-01)."""
        return _space(players, options["rules"], bool(options["shinigami_eyes"]))

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """One float vector per viewer (layout in docs/rules/icg.md, ICG-OBS-01)."""
        return (observe.size(players),)

    def observation_tensor(self, state: IcgState, viewer: Viewer) -> np.ndarray:
        """The viewer's vector: what its view shows (read from the state without building
        the view; equal to ``observe.encode`` of the view, tested)."""
        asked = isinstance(viewer, int) and state.phase != "over" and rules.is_asked(state, viewer)
        return observe.encode_state(state, viewer, asked)

    # -- play --------------------------------------------------------------------------------
    def pending(self, state: IcgState) -> dict[Seat, Decision]:
        """The seats asked now (every living seat alike in the Arrest and Death Note phases)."""
        return rules.pending(state)

    def mover(self, state: IcgState) -> Seat | None:
        """The lowest pending seat, read from the phase (no decisions built)."""
        return rules.mover(state)

    def legal(self, state: IcgState, seat: Seat) -> Sequence[Action]:
        """The legal actions of a pending seat."""
        if not rules.is_asked(state, seat):
            return []
        return rules.legal(state, seat)

    def apply(self, state: IcgState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out the choice and run on to the next decision."""
        events: list[Event] = []
        rules.apply(state, seat, action, events)
        return events

    def apply_quiet(self, state: IcgState, seat: Seat, action: Action, rng: random.Random) -> None:
        """``apply`` without making the events (``Game.apply_quiet``)."""
        rules.apply(state, seat, action, QUIET)

    # -- views -------------------------------------------------------------------------------
    def view(self, state: IcgState, viewer: Viewer) -> dict[str, Any]:
        """The table as this viewer sees it; the viewer's own cards under ``me``."""
        st = state
        over = st.phase == "over"
        everything = over or viewer == OMNISCIENT
        seats = seat_rows(st, everything)
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
            "missions": [
                {"id": c["id"], "name": c["name"], "text": rules.MISSION_TEXTS[c["id"]]}
                for c in st.content["missions"]
            ],
            "card_texts": dict(rules.CARD_KIND_TEXTS),
            "clues": list(st.clue_ids),
            "mission_box": {k: st.mission_box.count(k) for k in ("x_kira", "team_member")},
            "seats": seats,
            "history": [
                {k: list(v) if isinstance(v, list) else v for k, v in h.items()} for h in st.history
            ],
            "death_notes": [dict(d) for d in st.death_notes],
            "claims": [dict(c) for c in st.claims],
            "ending": st.ending,
            "phase_name": rules.PHASE_NAMES[st.phase],
            "rules_name": ("Kira rules" if st.rules == "kira" else "Light rules")
            + (" with the Shinigami Eyes" if st.eyes else ""),
            "eyes_closed": st.phase in ("dn_identity", "dn_placement"),
            "team_names": dict(rules.TEAM_NAMES),
            "investigation_names": dict(rules.INVESTIGATION_NAMES),
        }
        if isinstance(viewer, int):
            out["me"] = own_cards(st, viewer)
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

    def seat_teams(self, state: IcgState) -> list[str] | None:
        """Each seat's team, from its Mission (X-Kira plays on Kira's team)."""
        return [rules.TEAM_NAMES[rules.TEAM[x.mission]] for x in state.seats]

    def playout_policy(self) -> PlayoutPolicy:
        """The search bot's play-outs: the heuristic bot shown the mover's view of the
        sampled world (``search.playout``, ICG-BOT-02)."""
        from .search import playout

        return playout

    def search_answer(self, seat: Seat) -> Callable[[Observation], Action | None]:
        """Kira's Death Note for the search bot: L's likeliest pair in the worlds sampled
        from his view (``search.death_note``, ICG-BOT-04)."""
        from .search import death_note

        return death_note

    def search_belief(
        self, view: Mapping[str, Any], seat: Seat
    ) -> Callable[[IcgState], float] | None:
        """A sampled world's log-likelihood of the other players' Mission-Clue covers under
        the Missions it deals, read from ``seat``'s view only (``search.world_weight``,
        ICG-BOT-05)."""
        from .search import world_weight

        return world_weight(view, seat)

    def sample_weighted_state(
        self,
        state: IcgState,
        viewer: Viewer,
        rng: random.Random,
        count: int,
        weigh: Callable[[IcgState], float],
    ) -> IcgState:
        """The belief's weight reads only the Missions (``search.CoverWeight``): under the
        Light rules, only each candidate's Missions are drawn and the one picked is made a
        world, with the same odds as ``count`` whole worlds (``worlds.sample_weighted``,
        ICG-BOT-05); otherwise as every game does."""
        from .search import CoverWeight

        if isinstance(weigh, CoverWeight):
            world = worlds.sample_weighted(state, viewer, rng, count, weigh.of_missions)
            if world is not None:
                return world
        return super().sample_weighted_state(state, viewer, rng, count, weigh)

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot (every Mission)."""
        from .agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def turn_count(self, state: IcgState) -> int:
        """Game turns started."""
        return state.turn


def seat_rows(st: IcgState, everything: bool) -> list[dict[str, Any]]:
    """The view's row of each seat (``everything``: every card face up, as at the end)."""
    seats = []
    light = st.rules == "light"
    # The Identity the Death Note hit of each player it put out (the first hit, in public).
    dead: dict[int, str] = {}
    for d in st.death_notes:
        if d["hit"] and d["seat"] not in dead:
            dead[d["seat"]] = d["identity"]
    eyes, red = st.eyes, st.red
    for s, x in enumerate(st.seats):
        row: dict[str, Any] = {
            "seat": s,
            "placement": s + 1,
            "red": red == s,
            "out": x.out,
            "mission": x.mission if (x.mission_revealed or everything) else None,
            "mission_revealed": x.mission_revealed,
            "identity": x.identity if everything else dead.get(s),
            # (no Shinigami Eyes in the game: nobody has them, ``has_eyes`` says the same)
            "eyes": eyes and rules.has_eyes(st, s),
        }
        if light:
            row["covered"] = list(x.covered)
        else:
            row["table"] = list(x.table)
            row["hand_size"] = len(x.hand)
            if everything:
                row["hand"] = [c for c in st.clue_ids if c in x.hand]
        seats.append(row)
    return seats


def own_cards(st: IcgState, seat: Seat) -> dict[str, Any]:
    """The view's ``me``: a seat's own cards, looks and answer under way."""
    me = st.seats[seat]
    mine: dict[str, Any] = {
        "seat": seat,
        "identity": me.identity,
        "mission": me.mission,
        "team": rules.TEAM[me.mission],
        "looks": {str(k): v for k, v in me.looks.items()},
        "picks": list(st.picks) if rules.is_asked(st, seat) else [],
    }
    if st.rules == "kira":
        mine["hand"] = [c for c in st.clue_ids if c in me.hand]
    if me.mission == "kira" and st.phase == "dn_placement":
        mine["death_note"] = st.dn_identity
    return mine


def mission_box(content: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    """The 6 Mission cards besides Kira and L (the ``x_kira`` option overrides the mix)."""
    x_kira = options.get("x_kira")
    if x_kira is None:
        x_kira = int(content["other_missions"]["x_kira"])
    return ["x_kira"] * x_kira + ["team_member"] * (OTHER_MISSIONS - x_kira)


@cache
def _space(players: int, which: str, eyes: bool) -> TableSpace:
    # Numbered with the default content's Identity ids (the engine builds action spaces
    # from players and options only).
    return TableSpace(tables.build(players, which, eyes, default_content()).space)


def _deal(players: int, options: Mapping[str, Any], content: Any, rng: random.Random) -> IcgState:
    """The dealt state before turn 1 (``setup`` and ``new_state``): Identities, Missions
    and the Clue sets."""
    identities = [c["id"] for c in content["identities"]]
    rand.shuffle(rng, identities)
    box = mission_box(content, options)
    rand.shuffle(rng, box)
    dealt = ["kira", "l", *box[: players - 2]]
    rand.shuffle(rng, dealt)
    tab = tables.for_match(players, options["rules"], options["shinigami_eyes"], content)
    clue_ids = list(tab.clue_ids)
    seats = [SeatState(identity=identities[s], mission=dealt[s]) for s in range(players)]
    if options["rules"] == "kira":
        for x in seats:
            x.hand = list(clue_ids)
    return IcgState(
        players=players,
        rules=options["rules"],
        eyes=options["shinigami_eyes"],
        turn_limit=options["turn_limit"],
        content=content,
        seats=seats,
        clue_ids=clue_ids,
        unused_missions=box[players - 2 :],
        mission_box=sorted(box),
        tables=tab,
    )
