"""The Game object of Death Note Werewolf: options, set-up, decisions, views, outcome."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from deathnote.engine.actions import Action, Decision, Event, Outcome, Seat, Viewer
from deathnote.engine.errors import OptionsError
from deathnote.engine.game import Game, PlayoutPolicy
from deathnote.engine.options import GameOptions, lobby
from deathnote.engine.rng import below, shuffle
from deathnote.engine.spaces import ActionSpace, TableSpace

from . import rules as R
from .content import load
from .observe import observation_size, state_observation
from .sample import sample
from .search import evaluate as estimate
from .state import SeatState, WwState
from .tables import Tables
from .view import RULES_SUMMARY, TEAM_NAMES, build_view

if TYPE_CHECKING:
    import numpy as np

    from deathnote.agents.base import Agent


class WerewolfOptions(GameOptions):
    """The options of Death Note Werewolf."""

    first_player: int | None = Field(
        default=None,
        description="The seat (0 = Player 1) that starts each Investigation Phase; "
        "drawn at random and announced when absent.",
        json_schema_extra=lobby(
            seat=True, help="Who starts each Investigation Phase (drawn at random if nobody)."
        ),
    )
    handgun_reveal: Literal["table", "shooter"] = Field(
        default="table",
        description='Who sees the card a Handgun reveals: "table" (everyone) or '
        '"shooter" (only the shooter and the named player).',
        json_schema_extra=lobby(
            labels={"table": "Everyone", "shooter": "Only the shooter and the named player"},
            help="Who sees the card a Handgun reveals.",
        ),
    )


#: The eyes-closed and "lowest-numbered card" decisions: nobody is shown who is still
#: deciding (waiting lists, idle times), as whether a seat has a real choice is its secret.
COVERT_STEPS = ("judgment", "shinigami", "interrogate", "give_lowest")
#: The search levels' settings in every seat (``search_mode``, WW-BOT-07).
PAIRED_MODE: Mapping[str, Any] = {"paired": True, "anchor": 0.05}


class WerewolfGame(Game):
    """Death Note 人狼 (Death Note Werewolf), 4-7 players: Kira's team against L's."""

    id = "werewolf"
    name = "Death Note Werewolf"
    rules_summary = RULES_SUMMARY
    min_players = 4
    max_players = 7
    rules_version = "3"
    options_model = WerewolfOptions

    # -- set-up ------------------------------------------------------------------------------
    def check_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """``first_player`` must be one of the seats."""
        first = options.get("first_player")
        if first is not None and not 0 <= first < players:
            raise OptionsError(f"option first_player must be a seat from 0 to {players - 1}")
        return options

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """Roles, cards and set-ups (package data, or a JSON file)."""
        return load(path)

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> WwState:
        """``setup``'s state without the set-up events (none is made; the history, which
        only ``sample_state`` reads, starts empty, as after ``apply_quiet``)."""
        st = _deal(players, options, content, rng)
        ctx = R.QuietCtx(st, rng, [])
        _watari_looks(ctx)
        R.start_investigation(ctx)
        return st

    def setup(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> tuple[WwState, list[Event]]:
        """Deal Roles, deal hands with DEATH NOTE and one Arrest guaranteed, pick the first
        player, let Watari see the L players; the first turn begins. The events say each
        player's Role and hand, Watari's look and who starts."""
        st = _deal(players, options, content, rng)
        tables = st.tables
        events: list[Event] = []
        ctx = R.Ctx(st, rng, events)
        for s, x in enumerate(st.seats):
            hand = ", ".join(R.cname(st, c) for c in R.sort_cards(st, x.hand))
            team = "Kira" if tables.team[x.role] == "kira" else "L"
            ctx.tell(
                [s],
                f"Your Role is {tables.role_name[x.role]} ({team} team). Your hand: {hand}.",
                type="deal",
                seat=s,
                role=x.role,
                hand=R.sort_cards(st, x.hand),
            )
        _watari_looks(ctx)
        first = st.first
        ctx.say(f"{R.pname(first)} is the first player.", type="first", seat=first)
        R.start_investigation(ctx)
        st.remember(events)
        return st, events

    # -- play --------------------------------------------------------------------------------
    def pending(self, state: WwState) -> dict[Seat, Decision]:
        """Who decides now: one seat, or every living player at once, each in secret (Vote,
        Interrogation, and the eyes-closed Judgment and Shinigami, where everyone is asked
        alike). The eyes-closed and lowest-card decisions are covert (see COVERT_STEPS)."""
        step = state.step
        if state.winner or step is None:
            return {}
        k = step["k"]
        if k == "vote":
            votes = step["votes"]
            d = _decision(state, "vote")
            return {s: d for s, x in enumerate(state.seats) if x.alive and s not in votes}
        if k == "interrogate":
            picks = step["picks"]
            way = 1 if step["dir"] == "left" else -1
            return {
                s: _decision(state, "interrogate", step["dir"], R.neighbour(state, s, way))
                for s, x in enumerate(state.seats)
                if x.alive and s not in picks
            }
        if k == "judgment" or k == "shinigami":
            done = step["done"]
            d = _decision(state, k)
            return {s: d for s, x in enumerate(state.seats) if x.alive and s not in done}
        seat = step["seat"]
        if k == "target":
            return {seat: _decision(state, k, step["card"])}
        if k == "give_lowest":
            return {seat: _decision(state, k, step["to"])}
        if k == "give_back":
            return {seat: _decision(state, k, step["to"], step["took"])}
        return {seat: _decision(state, k)}

    def mover(self, state: WwState) -> Seat | None:
        """The lowest seat ``pending`` asks, read from the step (no decisions made)."""
        step = state.step
        if state.winner or step is None:
            return None
        k = step["k"]
        if k == "vote" or k == "interrogate" or k == "judgment" or k == "shinigami":
            answered = step["votes" if k == "vote" else "picks" if k == "interrogate" else "done"]
            for s, x in enumerate(state.seats):
                if x.alive and s not in answered:
                    return s
            return None
        seat: Seat = step["seat"]
        return seat

    def legal(self, state: WwState, seat: Seat) -> Sequence[Action]:
        """The choices of a pending seat (empty for a seat not asked)."""
        st, step = state, state.step
        if st.winner or step is None or not 0 <= seat < st.players or not st.seats[seat].alive:
            return []
        t = st.tables
        k = step["k"]
        if k == "turn":
            return R.turn_actions(st, seat) if seat == step["seat"] else []
        if k == "target":
            return [t.target[s] for s in R.targets(st, seat)] if seat == step["seat"] else []
        if k == "direction":
            return list(t.direction) if seat == step["seat"] else []
        if k == "give_lowest":
            return [t.give[c] for c in R.lowest_choices(st, seat)] if seat == step["seat"] else []
        if k == "interrogate":
            if seat in step["picks"]:
                return []
            return [t.give[c] for c in R.lowest_choices(st, seat)]
        if k == "give_back":
            if seat != step["seat"]:
                return []
            took = step["took"]
            return [
                (t.give_took if c == took else t.give)[c]
                for c in R.sort_cards(st, set(st.seats[seat].hand))
            ]
        if k == "vote":
            return [] if seat in step["votes"] else [t.vote[s] for s in R.targets(st, seat)]
        if k in ("judgment", "shinigami"):
            if seat in step["done"]:
                return []
            if (k == "shinigami" or step["stage"] == "suggest") and seat == step["worshipper"]:
                return [
                    t.suggest[R.NO_SUGGESTION],
                    *(t.suggest[s] for s in R.suggest_targets(st, seat)),
                ]
            if k == "judgment" and step["stage"] == "write" and seat == step["kira"]:
                return [
                    (t.write_self if s == seat else t.write)[s] for s in R.write_targets(st, seat)
                ]
            return list(t.wait)
        return []  # pragma: no cover

    def apply(self, state: WwState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out the choice, then play on until the next decision."""
        events: list[Event] = []
        _carry_out(R.Ctx(state, rng, events), seat, action)
        state.remember(events)
        return events

    def apply_quiet(self, state: WwState, seat: Seat, action: Action, rng: random.Random) -> None:
        """``apply`` without making the events (``Game.apply_quiet``): the history, which
        only ``sample_state`` reads, does not grow."""
        _carry_out(R.QuietCtx(state, rng, []), seat, action)

    # -- views -------------------------------------------------------------------------------
    def view(self, state: WwState, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see: the table, plus their own Role, hand and private looks."""
        return build_view(state, viewer)

    def outcome(self, state: WwState) -> Outcome | None:
        """The winning team once a victory condition is met."""
        if state.winner is None:
            return None
        seats = tuple(s for s in range(state.players) if R.team_of(state, s) == state.winner)
        return Outcome(
            (state.winner,),
            state.condition or "",
            state.reason,
            winning_seats=seats,
        )

    def seat_teams(self, state: WwState) -> list[str] | None:
        """Each seat's team, from its Role."""
        return [TEAM_NAMES[R.team_of(state, s)] for s in range(state.players)]

    # -- copies and hidden worlds --------------------------------------------------------------
    def fork_state(self, state: WwState) -> WwState:
        """An independent copy; content and the look-up tables are shared."""
        return state.fork()

    def sample_state(self, state: WwState, viewer: Viewer, rng: random.Random) -> WwState:
        """Roles, hands and the deck redrawn among the deals consistent with what ``viewer``
        saw (WW-SAMPLE-01 in the rules doc says what is exact and what is approximated)."""
        return sample(state, viewer, rng)

    # -- numbers for learning --------------------------------------------------------------------
    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        """Every action of the game for this table size, numbered (WW-NUM-ACTIONS table)."""
        return TableSpace(_space_tables(players).all_actions())

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """One flat float32 vector (layout in the rules doc, WW-OBS-01)."""
        return (observation_size(players),)

    def observation_tensor(self, state: WwState, viewer: Viewer) -> np.ndarray:
        """The viewer's observation: what its view shows (read from the state without
        building the view; equal to ``observe.observation`` of the view, tested)."""
        asked = isinstance(viewer, int) and is_asked(state, viewer)
        return state_observation(state, viewer, asked)

    # -- extras --------------------------------------------------------------------------------
    def playout_policy(self) -> PlayoutPolicy:
        """The search bot's play-outs: random, without the L team's blind Arrests and
        without the Kira team naming its own (``search.playout``, WW-BOT-02)."""
        from .search import playout

        return playout

    def evaluate(self, state: WwState) -> tuple[float, ...] | None:
        """Each seat's chance from the start of a turn, for a search bot's play-outs
        (``search.evaluate``; None at any other point)."""
        # Imported at the top: an import statement here (some 4 us in CPython 3.11) ran at
        # every step of every play-out.
        return estimate(state)

    def search_mode(self, view: Mapping[str, Any], seat: Seat) -> Mapping[str, Any]:
        """Every seat searches by the paired search with a margin of 0.05 (WW-BOT-07): the
        only search that has not played a team worse than the heuristic bot (WW-BOT-06)."""
        return PAIRED_MODE

    def search_belief(
        self, view: Mapping[str, Any], seat: Seat
    ) -> Callable[[WwState], float] | None:
        """A sampled world's log-likelihood of the others' public plays and discards under
        its Roles, read from ``seat``'s view only (``belief.world_weight``, WW-BOT-05)."""
        from .belief import world_weight

        return world_weight(view, seat)

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot (every Role)."""
        from .agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def turn_count(self, state: WwState) -> int:
        """Judgment Phases played."""
        return state.judgments


def _carry_out(ctx: R.Ctx, seat: Seat, action: Action) -> None:
    """Carry out the choice, then play on until the next decision."""
    state = ctx.st
    step = state.step
    assert step is not None
    k = step["k"]
    if k == "turn":
        if action.kind == "play":
            R.play_card(ctx, seat, action["card"])
        else:
            R.discard_card(ctx, seat, action["card"])
    elif k == "target":
        R.resolve_target(ctx, seat, step["card"], action["seat"])
    elif k == "direction":
        ctx.say(
            f"{R.pname(seat)} chooses to pass to the {action['dir']}.",
            type="direction",
            seat=seat,
            dir=action["dir"],
        )
        state.step = {"k": "interrogate", "seat": seat, "dir": action["dir"], "picks": {}}
    elif k == "interrogate":
        step["picks"][seat] = action["card"]
        if len(step["picks"]) == len(R.alive(state)):
            R.interrogate(ctx, step["dir"])
    elif k == "give_lowest":
        R.give_lowest(ctx, seat, step["to"], action["card"])
    elif k == "give_back":
        R.give_back(ctx, seat, step["to"], action["card"])
    elif k == "vote":
        step["votes"][seat] = action["seat"]
        if len(step["votes"]) == len(R.alive(state)):
            R.vote(ctx)
    elif k == "judgment":
        R.judgment_done(ctx, seat, action.get("seat"))
    elif k == "shinigami":
        R.shinigami_done(ctx, seat, action.get("seat"))


def is_asked(state: WwState, seat: Seat) -> bool:
    """Whether ``pending`` asks ``seat`` (without making the decisions)."""
    step = state.step
    if state.winner or step is None:
        return False
    k = step["k"]
    if k == "vote" or k == "interrogate" or k == "judgment" or k == "shinigami":
        answered = step["votes" if k == "vote" else "picks" if k == "interrogate" else "done"]
        return state.seats[seat].alive and seat not in answered
    return bool(seat == step["seat"])


def _space_tables(players: int) -> Tables:
    """Tables for the default content (action labels only; numbering uses card ids)."""
    from .content import default_content

    return Tables.of(default_content(), players)


def _decision(st: WwState, k: str, *args: Any) -> Decision:
    """The decision of a step kind (built once per table and arguments)."""
    cache = st.tables.decisions
    key = (k, *args)
    d = cache.get(key)
    if d is None:
        d = cache[key] = _make_decision(st, k, *args)
    return d


def _make_decision(st: WwState, k: str, *args: Any) -> Decision:
    covert = k in COVERT_STEPS
    if k == "vote":
        return Decision("vote", "Vote: point at the player you believe is Kira.", data={"step": k})
    if k == "interrogate":
        direction, to = args
        return Decision(
            "give_lowest",
            f"Interrogation: pass your lowest-numbered card to the {direction}.",
            covert,
            data={"step": "interrogation", "dir": direction, "to": to},
        )
    if k == "judgment":
        return Decision("judgment", "Judgment: everyone's eyes are closed.", covert, {"step": k})
    if k == "shinigami":
        return Decision("shinigami", "Shinigami: everyone's eyes are closed.", covert, {"step": k})
    if k == "turn":
        return Decision(
            "turn", "Your turn: play a card, or pass by discarding one.", data={"step": k}
        )
    if k == "target":
        (card,) = args
        return Decision(
            "target",
            f"Name a player for {R.cname(st, card)}.",
            data={"step": k, "card": card},
        )
    if k == "direction":
        return Decision(
            "direction",
            "Interrogation: pass cards to the left or to the right?",
            data={"step": k, "card": "interrogation"},
        )
    if k == "give_lowest":
        (to,) = args
        return Decision(
            "give_lowest",
            f"Exchange: give {R.pname(to)} your lowest-numbered card.",
            covert,
            data={"step": "exchange", "to": to},
        )
    if k == "give_back":
        to, took = args
        return Decision(
            "give_back",
            f"Exchange: give {R.pname(to)} one card.",
            data={"step": "exchange", "to": to, "took": took},
        )
    raise AssertionError(k)  # pragma: no cover


def _deal(players: int, options: Mapping[str, Any], content: Any, rng: random.Random) -> WwState:
    """The dealt state (``setup`` and ``new_state``): Roles, hands with DEATH NOTE and one
    Arrest, the deck and the first player."""
    tables = Tables.of(content, players)
    table = tables.setup
    roles = list(table["roles"])
    shuffle(rng, roles)
    cards = [cid for cid, k in sorted(table["cards"].items()) for _ in range(k)]
    cards.remove("death_note")
    cards.remove("arrest")
    shuffle(rng, cards)
    dealt = [*cards[: 2 * players - 2], "death_note", "arrest"]
    deck = cards[2 * players - 2 :]
    shuffle(rng, dealt)
    first = options.get("first_player")
    if first is None:
        first = below(rng, players)
    return WwState(
        players=players,
        seats=[SeatState(role=r, hand=dealt[2 * s : 2 * s + 2]) for s, r in enumerate(roles)],
        content=content,
        options=dict(options),
        first=first,
        tables=tables,
        deck=deck,
    )


def _watari_looks(ctx: R.Ctx) -> None:
    """Watari sees the L players (told to Watari alone)."""
    st = ctx.st
    for w, x in enumerate(st.seats):
        if x.role == "watari":
            ls = [s for s, y in enumerate(st.seats) if y.role == "l"]
            for s in ls:
                x.known_roles[s] = "l"
            if ctx.loud:
                ctx.tell(
                    [w],
                    "Watari opens their eyes; the L players raise their thumbs: "
                    + ", ".join(R.pname(s) for s in ls)
                    + ".",
                    type="watari",
                    seat=w,
                    ls=ls,
                )
