"""The Game object of Le Jeu d'Enquête: options, set-up, decisions, views, outcome."""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from deathnote.engine.actions import OMNISCIENT, Action, Decision, Event, Outcome, Seat, Viewer
from deathnote.engine.errors import OptionsError
from deathnote.engine.game import Game
from deathnote.engine.options import GameOptions, lobby
from deathnote.engine.rng import shuffle as rng_shuffle
from deathnote.engine.spaces import ActionSpace, TableSpace

from . import cards, rounds, tiles  # noqa: F401  (registers the step functions)
from .cards import play_label, window_cards, window_play, window_prompt
from .content import ROLE_IDS, load
from .flow import FN, SUSPICION_LIMIT, Ctx, QuietCtx, advance, card, role_info, tile
from .learning import action_table, encode_state, observation_size
from .sampling import fork_state, sample_state
from .series import MAX_SERIES, next_options, series_facts, series_length, series_totals
from .state import EnqState, InactiveRole, SeatState, Step, new_version
from .value import evaluate as estimate
from .value import rewards as scaled_apples

if TYPE_CHECKING:
    import numpy as np

    from deathnote.agents.base import Agent


# Our own short summary of the rules, for a screen's rules panel (player-facing words).
RULES_SUMMARY = (
    "One player is the Detective (face up). Every other player has a secret Role: Light "
    "and the Kira Roles, or the Investigators. Each Role has objectives worth Apples.",
    "Five rounds. At the start of a round the Detective gives one of their Actions to a player.",
    "Then each player in turn, from the Detective's neighbour in the round's direction, "
    "secretly looks at the Investigation on top of the pile: put it back and draw an "
    "Action, or discard it face down and draw nothing (not the round's last one). The "
    "Ryuk pawn holder always draws.",
    "Then the Detective reveals the top Investigation: a Ryuk icon gives the Ryuk pawn "
    "holder a Suspicion, its effect is applied, and the Detective shares its Suspicions "
    "among the unrevealed players.",
    "A player who reaches the table's Suspicion limit (7 at 4 players, 6 at 5 to 7, 5 at "
    "8) reveals their Role.",
    "Actions are played at the start of your turn, at any time or as a reaction, as each "
    "card says; a Ryuk Action takes the Ryuk pawn.",
    "The game ends at once when Light is revealed, when three Roles are dead and "
    "revealed, or after the fifth round. Everyone, the dead too, earns Apples for each "
    "objective met.",
)


class EnqueteOptions(GameOptions):
    """The options of Le Jeu d'Enquête (ENQ-OPT-01, ENQ-OPT-02, ENQ-OPT-03)."""

    first_games: bool = Field(
        False, description="First games: remove Action cards no. 28 to 36 from the deck."
    )
    series_apples: list[Annotated[int, Field(ge=0)]] | None = Field(
        None,
        description="Apples each seat carries from the earlier games of a series "
        "(one non-negative integer per seat, in seat order).",
        json_schema_extra=lobby(hidden=True),
    )
    series_games: Annotated[int, Field(ge=1, le=MAX_SERIES)] | None = Field(
        None,
        title="Games in the series",
        description="Games in the series, scored by Apples over all of them (1: a single "
        "game); none: as many games as players, the Detective passed on clockwise.",
        json_schema_extra=lobby(
            help="The Apples add up over the series; its winner has the most. Empty: one "
            "game per player, each player the Detective once.",
            empty="one per player",
        ),
    )
    series_game: Annotated[int, Field(ge=1, le=MAX_SERIES)] = Field(
        1,
        description="Which game of the series this is (1 = the first).",
        json_schema_extra=lobby(hidden=True),
    )
    detective_seat: Annotated[int, Field(ge=0)] | None = Field(
        None,
        description="Give the Detective to this seat (0 = Player 1) instead of dealing it.",
        json_schema_extra=lobby(
            seat=True, help="Give the Detective to this player instead of dealing it."
        ),
    )


_SEAT, _CARD, _OPTION, _REF, _ROLE = "seat", "card", "option", "role_ref", "role"
#: What each choice step chooses (``Decision.data["choose"]``): a seat, an Action card by
#: number (0 = none), an option word, a Role reference ("p3", "i0"), a Role id, an inactive
#: Role's index or a pair of seats ("2-3").
CHOOSES: dict[str, str] = {
    **dict.fromkeys(("setup_keep", "give_card", "dn_play", "bm_force", "hostage_give"), _CARD),
    **dict.fromkeys(("tactic_choice", "discard_one", "gaze_discard"), _CARD),
    **dict.fromkeys(("investigate", "ks_mode", "rebirth_choice", "overcast_choice"), _OPTION),
    **dict.fromkeys(("confession_choice", "matsuda_choice", "expedient_choice"), _OPTION),
    **dict.fromkeys(("page_ref", "rem_ref", "silence_target"), _REF),
    **dict.fromkeys(("page_name", "ally_first", "ally_second"), _ROLE),
    **dict.fromkeys(("ks_target", "overcast_inactive"), "inactive"),
    "performance_pair": "pair",
    **dict.fromkeys(
        [
            "give_to",
            "give_susp",
            "wager_chosen",
            "wager_target",
            "dn_target",
            "alibi_target",
            "eyes_target",
            "susp_target",
            "wiretap_target",
            "theft_target",
            "bm_target",
            "hostage_target",
            "rebirth_target",
            "pact_add",
            "rift_first",
            "rift_second",
            "rift_ballot",
            "overcast_player",
            "gaze_target",
            "assault_target",
            "love_first",
            "love_second",
            "confession_target",
            "execution_target",
            "resurrection_pick",
            "silence_player",
            "doubt_target",
        ],
        _SEAT,
    ),
}
#: Step fields the deciding seat may read in ``Decision.data`` (never a secret of others:
#: e.g. a Rift ballot's step holds the earlier votes, which stay out).
_DATA_FIELDS = ("target", "ref", "to", "a", "player", "mode", "left", "total", "all")


PASS = Action.make("pass", "Pass")


@lru_cache(maxsize=8)
def _space(players: int) -> TableSpace:
    return TableSpace(action_table(players))


@lru_cache(maxsize=4096)
def _pick_action(value: Any, label: str) -> Action:
    """The (immutable) action choosing ``value``: built once, not on every step."""
    return Action.make("pick", label, v=value)


@lru_cache(maxsize=1024)
def _play_action(number: int, label: str) -> Action:
    return Action.make("play", label, card=number)


#: each thread's ``QuietCtx`` for ``apply_quiet`` (attribute ``ctx``, made on first use)
_QUIET = threading.local()

#: per content (by id, the content kept alive): the action playing each card number
_PLAYS: dict[int, tuple[Any, dict[int, Action]]] = {}


def _window_actions(st: EnqState, window: Step, seat: int) -> list[Action]:
    """Pass, then the action playing each card ``seat`` may play in this window (each
    card's action looked up by number: no label built on every step)."""
    content = st.content
    hit = _PLAYS.get(id(content))
    if hit is None or hit[0] is not content:
        if len(_PLAYS) > 64:
            _PLAYS.clear()
        hit = _PLAYS[id(content)] = (content, {})
    plays = hit[1]
    out = [PASS]
    for n in window_cards(st, window, seat):
        action = plays.get(n)
        if action is None:
            action = plays[n] = _play_action(n, play_label(st, n))
        out.append(action)
    return out


def decision_data(st: EnqState, top: Step) -> dict[str, Any]:
    """The structured data of a pending step: what is chosen, the step, its card or tile."""
    if top["k"] == "window":
        data: dict[str, Any] = {"step": "window", "window": top["mode"], "choose": "play"}
        if "owner" in top:
            data["owner"] = top["owner"]
        if st.revealed_tile is not None:
            data["tile"] = tile(st, st.revealed_tile)["id"]
        return data
    fn_name = top["fn"]
    choose = CHOOSES[fn_name]
    data = {"step": fn_name, "choose": choose}
    if "card" in top:
        data["card"] = card(st, top["card"])["id"]
        data["card_number"] = top["card"]
    if st.revealed_tile is not None:
        data["tile"] = tile(st, st.revealed_tile)["id"]
    for key in _DATA_FIELDS:
        if key in top:
            data[key] = top[key]
    if choose == _CARD:
        data["cards"] = {str(v): card(st, v)["id"] for v, _ in top["options"] if v}
    return data


def role_key(st: EnqState, role: str) -> str:
    """The key of a Role in Outcome.scores ("Detective", "Light", ...)."""
    return str(role_info(st, role)["name"]).removeprefix("The ")


def _carry_out(ctx: Ctx, seat: Seat, action: Action) -> None:
    """Carry out the choice, then resolve until the next decision."""
    st = ctx.st
    stack = st.stack
    top = stack[-1]
    if top["k"] == "window":
        if action.kind == "pass":
            # only the window's seats change (``EnqState.table_version`` is kept), and
            # the end conditions were read on the same table when the window asked
            top["seats"].pop(0)
            if ctx.loud:
                ctx.say(f"Player {seat + 1} passes.", seat=seat)
            advance(ctx, False)
            return
        st.table_version = new_version()
        window_play(ctx, top, seat, action["card"])
    else:
        st.table_version = new_version()
        stack.pop()
        # A legal choice's only argument is ``v`` (read without ``Action.__getitem__``'s call)
        first = action.args[0] if action.args else ("", None)
        top["value"] = first[1] if first[0] == "v" else action["v"]
        FN[top["fn"]](ctx, top)
    advance(ctx)


class EnqueteGame(Game):
    """Death Note: Le Jeu d'Enquête (4-8 players, one of them the Detective)."""

    id = "enquete"
    name = "Death Note: Le Jeu d'Enquête"
    rules_summary = RULES_SUMMARY
    min_players = 4
    max_players = 8
    #: 3: a series of games by default (ENQ-OPT-03), its end and winner in the log.
    rules_version = "3"
    #: The heuristic bot reads no log: the paired search's play-outs build none for it.
    bot_reads_log = False
    wins_mode = "mean"
    options_model = EnqueteOptions

    # -- set-up ------------------------------------------------------------------------------
    def check_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """The checks that depend on the player count (one Apple total per seat, a seat)."""
        series = options.get("series_apples")
        if series is not None and len(series) != players:
            raise OptionsError(
                f"option series_apples must list {players} non-negative integers (one per seat)"
            )
        if options.get("series_game", 1) > series_length(options, players):
            raise OptionsError(
                "option series_game is past the series' last game "
                f"({series_length(options, players)})"
            )
        det = options.get("detective_seat")
        if det is not None and not 0 <= det < players:
            raise OptionsError(f"option detective_seat must be a seat from 0 to {players - 1}")
        return options

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """The Roles, Actions and Investigations (package data, or a JSON file)."""
        return load(path)

    def seat_names(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """Player 1..N (the Detective's seat is known once Roles are dealt)."""
        return [f"Player {i + 1}" for i in range(players)]

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> EnqState:
        """``setup``'s state without the set-up events (none is made)."""
        st, dealt = _deal(players, options, content, rng)
        _begin(QuietCtx(st, rng, []), dealt)
        return st

    def setup(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> tuple[EnqState, list[Event]]:
        """Deal Roles, build the Investigation pile and the Action deck, start set-up; the
        set-up events ("Your Role is ...", the first draws) are logged before any action."""
        st, dealt = _deal(players, options, content, rng)
        events: list[Event] = []
        _begin(Ctx(st, rng, events), dealt)
        return st, events

    # -- play --------------------------------------------------------------------------------
    def pending(self, state: EnqState) -> dict[Seat, Decision]:
        """One seat at a time: the top of the resolution stack."""
        if state.over or not state.stack:
            return {}
        top = state.stack[-1]
        data = decision_data(state, top)
        if top["k"] == "window":
            return {top["seats"][0]: Decision("respond", window_prompt(top), data=data)}
        return {top["seat"]: Decision(top["dk"], top["prompt"], data=data)}

    def mover(self, state: EnqState) -> Seat | None:
        """The seat ``pending`` asks, read from the top of the stack (no decision made)."""
        if state.over or not state.stack:
            return None
        top = state.stack[-1]
        seat: Seat = top["seats"][0] if top["k"] == "window" else top["seat"]
        return seat

    def moves(self, state: EnqState) -> tuple[Seat | None, Sequence[Action]]:
        """``mover`` and its ``legal`` actions in one read of the top of the stack."""
        if state.over or not state.stack:
            return None, ()
        top = state.stack[-1]
        if top["k"] == "window":
            seat: Seat = top["seats"][0]
            return seat, _window_actions(state, top, seat)
        return top["seat"], [_pick_action(value, label) for value, label in top["options"]]

    def legal(self, state: EnqState, seat: Seat) -> Sequence[Action]:
        """Pass or a playable card in a window; one of the offered values otherwise (the
        mover's actions of ``moves``; none for any other seat)."""
        # (``moves`` written out: this runs at every step of every play-out)
        if state.over or not state.stack:
            return []
        top = state.stack[-1]
        if top["k"] == "window":
            return _window_actions(state, top, seat) if top["seats"][0] == seat else []
        if top["seat"] != seat:
            return []
        return [_pick_action(value, label) for value, label in top["options"]]

    def apply(self, state: EnqState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out the choice, then resolve until the next decision."""
        events: list[Event] = []
        _carry_out(Ctx(state, rng, events), seat, action)
        return events

    def apply_quiet(self, state: EnqState, seat: Seat, action: Action, rng: random.Random) -> None:
        """``apply`` without making the events (``Game.apply_quiet``)."""
        # One context per thread, pointed at this state and generator (a ``QuietCtx``
        # keeps no events), rather than a new one at every step of a play-out.
        ctx: QuietCtx | None = getattr(_QUIET, "ctx", None)
        if ctx is None:
            ctx = _QUIET.ctx = QuietCtx(state, rng, [])
        else:
            ctx.st, ctx.rng = state, rng
        _carry_out(ctx, seat, action)

    # -- views -------------------------------------------------------------------------------
    def view(self, state: EnqState, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see: the table, plus their own Role, hand and private looks."""
        st = state
        over = st.over
        everything = viewer == OMNISCIENT or over
        seats_view = []
        for s, seat in enumerate(st.seats):
            shown = seat.revealed or s == st.detective or everything or viewer == s
            seats_view.append(
                {
                    "seat": s,
                    "detective": s == st.detective,
                    "role": seat.role if shown else None,
                    "revealed": seat.revealed or s == st.detective,
                    "dead": seat.dead,
                    "suspicions": seat.suspicions,
                    "hand_size": len(seat.hand),
                    "alibi": s in st.alibi,
                    "no_draw": s in st.no_draw,
                    "pawn": st.pawn == s,
                    "loves": [e["partner"] for e in seat.extra if e["kind"] == "love"],
                    **st.stats[s],
                }
            )
        inactive = [
            {
                "index": i,
                "role": r.role if (r.revealed or everything) else None,
                "revealed": r.revealed,
                "dead": r.dead,
            }
            for i, r in enumerate(st.inactive)
        ]
        tokens = []
        for r in ROLE_IDS[1:]:
            where = [x for x in st.seats if x.role == r] + [x for x in st.inactive if x.role == r]
            status = "hidden"
            if where and where[0].revealed:
                status = "dead" if where[0].dead else "revealed"
            tokens.append({"role": r, "status": status})
        top_tile = None
        if st.revealed_tile is not None:
            top_tile = dict(tile(st, st.revealed_tile))
        out: dict[str, Any] = {
            "round": st.round,
            "direction": st.direction,
            "detective": st.detective,
            "pawn": st.pawn,
            "current": st.current,
            "deck": len(st.deck),
            "discard": len(st.discard),
            "tiles_left": len(st.tiles),
            "tiles_left_this_round": sum(1 for t in st.tiles if tile(st, t)["pile"] == st.round),
            "revealed_tile": top_tile,
            "suspicion_limit": SUSPICION_LIMIT[st.players],
            "extra_suspicions": st.extra_susp,
            "light_silenced": st.light_silenced,
            "friend": st.friend,
            "pursuit": st.pursuit,
            "seats": seats_view,
            "inactive": inactive,
            "role_tokens": tokens,
            "ending": st.ending,
            **_display(st),
        }
        if isinstance(viewer, int):
            me = st.seats[viewer]
            info = role_info(st, me.role)
            out["me"] = {
                "seat": viewer,
                "role": me.role,
                "role_name": info["name"],
                "faction": info["faction"],
                "faction_name": FACTION_NAMES[info["faction"]],
                "objectives": [o["text"] for o in info["objectives"]],
                "hand": [_card_view(st, n) for n in sorted(me.hand)],
                "known_roles": dict(me.known_roles),
                "known_hands": {str(k): list(v) for k, v in me.known_hands.items()},
                "looking": dict(tile(st, st.looking))
                if st.looking is not None and st.current == viewer
                else None,
            }
        if viewer == OMNISCIENT:
            out["hands"] = [sorted(s.hand) for s in st.seats]
            out["tiles"] = list(st.tiles)
        if over:
            out["apples"] = list(st.apples)
            out["apple_lines"] = [list(x) for x in st.apple_lines]
            out["series_apples"] = series_totals(st)
        series = series_facts(st)
        if series is not None:
            out["series"] = series
        return out

    def next_in_series(self, state: EnqState, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """The next game of the series (ENQ-OPT-03): Apples carried, the Detective passed on."""
        return next_options(state)

    def outcome(self, state: EnqState) -> Outcome | None:
        """Apples per Role once the game is over."""
        if not state.over:
            return None
        scores = {
            role_key(state, s.role): float(state.apples[i]) for i, s in enumerate(state.seats)
        }
        winners = tuple(sorted(k for k, v in scores.items() if v > 0))
        reason = {
            "light_revealed": "Light is revealed: the investigation is solved.",
            "three_dead": "Three Roles are dead and revealed: the team is dissolved.",
            "round5": "After the fifth round the Detective dies without Light unmasked.",
        }[state.ending or "round5"]
        seats = tuple(i for i in range(len(state.seats)) if state.apples[i] > 0)
        return Outcome(winners, state.ending or "round5", reason, scores, seats)

    #: Each seat's expected Apples (scaled as ``search_rewards``) from the start of a
    #: round, for a search bot's play-outs (``value.evaluate``, ENQ-BOT-02; None at any
    #: other point). The function itself, not a method calling it: the search asks at
    #: every step of every play-out.
    evaluate = staticmethod(estimate)

    def search_rewards(self, state: EnqState) -> list[float] | None:
        """A search bot's reward per seat once over: its Apples, scaled to 0..1
        (``value.rewards``, ENQ-BOT-02)."""
        return scaled_apples(state)

    def search_mode(self, view: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
        """Kira's faction searches by the paired search (ENQ-BOT-04, ENQ-BOT-05); the
        others by the tree, read from the seat's own faction in its view."""
        me = view["state"].get("me") or {}
        return PAIRED_MODE if me.get("faction") == "kira" else {}

    def seat_scores(self, state: EnqState) -> list[float] | None:
        """Each seat's Apples once the game is over."""
        return [float(a) for a in state.apples] if state.over else None

    def seat_teams(self, state: EnqState) -> list[str] | None:
        """Each seat's faction (the Detective, Kira, the Investigators)."""
        return [FACTION_NAMES[role_info(state, s.role)["faction"]] for s in state.seats]

    # -- numbers for learning ------------------------------------------------------------------
    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        """Pass, play each card, pick each value (rules doc: ENQ-LEARN-01)."""
        return _space(players)

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """One flat vector (rules doc: ENQ-LEARN-02)."""
        return (observation_size(players),)

    def observation_tensor(self, state: EnqState, viewer: Viewer) -> np.ndarray:
        """What the viewer's own view shows and the seat asked (public here): read from the
        state without building the view (equal to ``learning.encode`` of the view, tested)."""
        asked = None
        if not state.over and state.stack:
            top = state.stack[-1]  # the seat ``pending`` asks, without its decision
            asked = top["seats"][0] if top["k"] == "window" else top["seat"]
        return encode_state(state, viewer, asked)

    # -- copies and hidden worlds -----------------------------------------------------------
    def fork_state(self, state: EnqState) -> EnqState:
        """A copy by hand; the content is shared (see ``sampling.py``)."""
        return fork_state(state)

    def sample_state(self, state: EnqState, viewer: Viewer, rng: random.Random) -> EnqState:
        """A world ``viewer`` cannot tell from this one (rules doc: "How a world is sampled")."""
        return sample_state(state, viewer, rng)

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot (every Role, the Detective included)."""
        from .agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def turn_count(self, state: EnqState) -> int:
        """Rounds played."""
        return state.round


#: The search levels' settings on Kira's side: the paired search's margin (ENQ-BOT-05).
PAIRED_MODE: Mapping[str, Any] = {"paired": True, "anchor": 0.05}

# Words the view carries for screens (display only: no rule reads them).
FACTION_NAMES = {"detective": "The Detective", "kira": "Kira", "investigator": "Investigators"}
DIRECTION_NAMES = {"clockwise": "clockwise", "counterclockwise": "counter-clockwise"}
TOKEN_STATUS_NAMES = {"hidden": "not revealed", "revealed": "revealed", "dead": "dead"}
TIMING_NAMES = {"turn": "Start of your turn", "anytime": "Any time", "reaction": "Reaction"}


def _display(st: EnqState) -> dict[str, Any]:
    """Names of the Roles, factions and Action cards, for screens."""
    return {
        "role_list": [
            {
                "id": r["id"],
                "name": r["name"],
                "faction": r["faction"],
                "faction_name": FACTION_NAMES[r["faction"]],
                "objectives": [
                    o["text"]
                    if "Apple" in o["text"]  # "1 Apple per ..." says its own worth
                    else f"{o['text']} (+{o['apples']} Apple{'' if o['apples'] == 1 else 's'})"
                    for o in r["objectives"]
                ],
            }
            for r in st.content["roles"]
        ],
        "faction_names": dict(FACTION_NAMES),
        "action_names": {str(c["number"]): c["name"] for c in st.content["actions"]},
        "action_texts": {str(c["number"]): c["text"] for c in st.content["actions"]},
        "direction_name": DIRECTION_NAMES.get(st.direction, st.direction),
        "token_status_names": dict(TOKEN_STATUS_NAMES),
        "table_notes": [
            text
            for on, text in (
                (st.light_silenced, "Decision: Light cannot play Actions."),
                (st.friend, "Friend: the next player to play loses 2 Suspicions."),
                (st.pursuit, "Pursuit resolves at the end."),
            )
            if on
        ],
    }


def _card_view(st: EnqState, n: int) -> dict[str, Any]:
    c = card(st, n)
    return {
        "number": n,
        "id": c["id"],
        "name": c["name"],
        "ryuk": c["ryuk"],
        "timing": c["timing"],
        "timing_name": TIMING_NAMES.get(c["timing"], c["timing"]),
        "text": c["text"],
    }


def _deal(
    players: int, options: Mapping[str, Any], content: Any, rng: random.Random
) -> tuple[EnqState, list[str]]:
    """The dealt state (``setup`` and ``new_state``) and the Role of each seat: Roles,
    the Investigation piles and the Action deck shuffled."""
    others = [r for r in ROLE_IDS if r not in ("detective", "light")]
    rng_shuffle(rng, others)
    dealt = ["detective", "light", *others[: players - 2]]
    rng_shuffle(rng, dealt)
    det = options.get("detective_seat")
    if det is not None:
        i = dealt.index("detective")
        dealt[i], dealt[det] = dealt[det], dealt[i]
    inactive = others[players - 2 :]
    rng_shuffle(rng, inactive)
    deck = [
        c["number"]
        for c in content["actions"]
        if not (players < 6 and c["six_plus"])
        and not (options.get("first_games") and c["first_games_removable"])
    ]
    rng_shuffle(rng, deck)
    piles: list[int] = []
    for p in range(1, 6):
        group = [t["number"] for t in content["investigations"] if t["pile"] == p]
        rng_shuffle(rng, group)
        piles += group
    st = EnqState(
        players=players,
        detective=dealt.index("detective"),
        seats=[SeatState(role=r) for r in dealt],
        inactive=[InactiveRole(role=r) for r in inactive],
        content=content,
        options=dict(options),
        deck=deck,
        tiles=piles,
        stats=[{"keeps": 0, "discards": 0, "plays": 0, "ryuk_plays": 0} for _ in dealt],
        pins=[{} for _ in range(players + 1)],
        tile_top=[None] * (players + 1),
        tile_known=[[] for _ in range(players + 1)],
    )
    return st, dealt


def _begin(ctx: Ctx, dealt: list[str]) -> None:
    """Set-up: the Detective named, each seat told its Role, then the set-up steps up to
    the first decision."""
    st = ctx.st
    if ctx.loud:
        ctx.say(f"Player {st.detective + 1} is the Detective.", detective=st.detective)
        for s in range(st.players):
            ctx.tell([s], f"Your Role is {role_info(st, dealt[s])['name']}.", role=dealt[s])
    rounds.setup_steps(ctx)
    advance(ctx)
