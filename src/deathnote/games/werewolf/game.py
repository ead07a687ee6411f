"""The Game object of Death Note Werewolf: options, set-up, decisions, views, outcome."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from deathnote.engine.actions import Action, Decision, Event, Outcome, Seat, Viewer
from deathnote.engine.errors import OptionsError
from deathnote.engine.game import Game

from . import rules as R
from .content import load
from .state import SeatState, WwState
from .view import build_view

if TYPE_CHECKING:
    from deathnote.agents.base import Agent

OPTION_NAMES = ("first_player", "handgun_reveal")
HANDGUN_REVEALS = ("table", "shooter")


class WerewolfGame(Game):
    """Death Note 人狼 (Death Note Werewolf), 4-7 players: Kira's team against L's."""

    id = "werewolf"
    name = "Death Note Werewolf"
    min_players = 4
    max_players = 7
    rules_version = "2"

    # -- set-up ------------------------------------------------------------------------------
    def parse_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """``first_player`` (seat number; random when absent): who starts each Investigation
        Phase. ``handgun_reveal``: "table" (default, everyone sees the revealed card) or
        "shooter" (only the shooter and the named player)."""
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise OptionsError(f"unknown option(s) {unknown}; werewolf takes {list(OPTION_NAMES)}")
        first = options.get("first_player")
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
        ):
            raise OptionsError(f"option first_player must be a seat from 0 to {players - 1}")
        reveal = options.get("handgun_reveal", "table")
        if reveal not in HANDGUN_REVEALS:
            raise OptionsError(f"option handgun_reveal must be one of {list(HANDGUN_REVEALS)}")
        return {"first_player": first, "handgun_reveal": reveal}

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """Roles, cards and set-ups (package data, or a JSON file)."""
        return load(path)

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> WwState:
        """Deal Roles, deal hands with DEATH NOTE and one Arrest guaranteed, pick the first
        player, let Watari see the L players."""
        table = content["setups"][str(players)]
        roles = list(table["roles"])
        rng.shuffle(roles)
        cards = [cid for cid, k in sorted(table["cards"].items()) for _ in range(k)]
        cards.remove("death_note")
        cards.remove("arrest")
        rng.shuffle(cards)
        dealt = [*cards[: 2 * players - 2], "death_note", "arrest"]
        deck = cards[2 * players - 2 :]
        rng.shuffle(dealt)
        first = options.get("first_player")
        if first is None:
            first = rng.randrange(players)
        st = WwState(
            players=players,
            seats=[SeatState(role=r, hand=dealt[2 * s : 2 * s + 2]) for s, r in enumerate(roles)],
            content=content,
            options=dict(options),
            first=first,
            deck=deck,
        )
        events: list[Event] = []
        ctx = R.Ctx(st, rng, events)
        for s, x in enumerate(st.seats):
            info = R.role_info(st, x.role)
            hand = ", ".join(R.cname(st, c) for c in R.sort_cards(st, x.hand))
            ctx.tell(
                [s],
                f"Your Role is {info['name']} ({'Kira' if info['team'] == 'kira' else 'L'} team). "
                f"Your hand: {hand}.",
                type="deal",
                seat=s,
                role=x.role,
                hand=R.sort_cards(st, x.hand),
            )
        for w, x in enumerate(st.seats):
            if x.role == "watari":
                ls = [s for s, y in enumerate(st.seats) if y.role == "l"]
                for s in ls:
                    x.known_roles[s] = "l"
                ctx.tell(
                    [w],
                    "Watari opens their eyes; the L players raise their thumbs: "
                    + ", ".join(R.pname(s) for s in ls)
                    + ".",
                    type="watari",
                    seat=w,
                    ls=ls,
                )
        ctx.say(f"{R.pname(first)} is the first player.", type="first", seat=first)
        R.start_investigation(ctx)
        st.setup_events = events
        return st

    # -- play --------------------------------------------------------------------------------
    def pending(self, state: WwState) -> dict[Seat, Decision]:
        """Who decides now: one seat, or every living player at once, each in secret (Vote,
        Interrogation, and the eyes-closed Judgment and Shinigami, where everyone is asked
        alike)."""
        step = state.step
        if state.winner or step is None:
            return {}
        k = step["k"]
        if k == "vote":
            return {
                s: Decision("vote", "Vote: point at the player you believe is Kira.")
                for s in R.alive(state)
                if str(s) not in step["votes"]
            }
        if k == "interrogate":
            return {
                s: Decision(
                    "give_lowest",
                    f"Interrogation: pass your lowest-numbered card to the {step['dir']}.",
                )
                for s in R.alive(state)
                if str(s) not in step["picks"]
            }
        if k == "judgment":
            return {
                s: Decision("judgment", "Judgment: everyone's eyes are closed.")
                for s in R.alive(state)
                if s not in step["done"]
            }
        if k == "shinigami":
            return {
                s: Decision("shinigami", "Shinigami: everyone's eyes are closed.")
                for s in R.alive(state)
                if s not in step["done"]
            }
        seat = step["seat"]
        prompts = {
            "turn": ("turn", "Your turn: play a card, or pass by discarding one."),
            "target": ("target", f"Name a player for {R.cname(state, step.get('card', 'vote'))}."),
            "direction": ("direction", "Interrogation: pass cards to the left or to the right?"),
            "give_lowest": (
                "give_lowest",
                f"Exchange: give {R.pname(step.get('to', 0))} your lowest-numbered card.",
            ),
            "give_back": ("give_back", f"Exchange: give {R.pname(step.get('to', 0))} one card."),
        }
        kind, prompt = prompts[k]
        return {seat: Decision(kind, prompt)}

    def legal(self, state: WwState, seat: Seat) -> Sequence[Action]:
        """The choices of a pending seat."""
        if seat not in self.pending(state):
            return []
        st, step = state, state.step
        assert step is not None
        k = step["k"]
        if k == "turn":
            return R.turn_actions(st, seat)
        if k == "target":
            return [
                Action.make("target", f"Name {R.pname(t)}", seat=t) for t in R.targets(st, seat)
            ]
        if k == "direction":
            return [
                Action.make("direction", "Pass to the left", dir="left"),
                Action.make("direction", "Pass to the right", dir="right"),
            ]
        if k in ("give_lowest", "interrogate"):
            return [
                Action.make("give", f"Give {R.cname(st, c)}", card=c)
                for c in R.lowest_choices(st, seat)
            ]
        if k == "give_back":
            return [
                Action.make(
                    "give",
                    f"Give {R.cname(st, c)}"
                    + (" (the card you took)" if c == step["took"] else ""),
                    card=c,
                )
                for c in R.sort_cards(st, set(st.seats[seat].hand))
            ]
        if k == "vote":
            return [
                Action.make("vote", f"Point at {R.pname(t)}", seat=t) for t in R.targets(st, seat)
            ]
        if k in ("judgment", "shinigami"):
            if (k == "shinigami" or step["stage"] == "suggest") and seat == step["worshipper"]:
                return [
                    Action.make("suggest", "Point Kira at no one", seat=R.NO_SUGGESTION),
                    *(
                        Action.make("suggest", f"Point Kira at {R.pname(t)}", seat=t)
                        for t in R.suggest_targets(st, seat)
                    ),
                ]
            if k == "shinigami":
                return [Action.make("wait", "Keep your eyes closed and tap the table")]
            if step["stage"] == "write" and seat == step["kira"]:
                return [
                    Action.make(
                        "write",
                        f"Write {R.pname(t)}" + (" (yourself)" if t == seat else ""),
                        seat=t,
                    )
                    for t in R.write_targets(st, seat)
                ]
            return [Action.make("wait", "Keep your eyes closed and tap the table")]
        return []  # pragma: no cover

    def apply(self, state: WwState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out the choice, then play on until the next decision."""
        events: list[Event] = list(state.setup_events)
        state.setup_events = []
        ctx = R.Ctx(state, rng, events)
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
            step["picks"][str(seat)] = action["card"]
            if len(step["picks"]) == len(R.alive(state)):
                R.interrogate(ctx, step["dir"])
        elif k == "give_lowest":
            R.give_lowest(ctx, seat, step["to"], action["card"])
        elif k == "give_back":
            R.give_back(ctx, seat, step["to"], action["card"])
        elif k == "vote":
            step["votes"][str(seat)] = action["seat"]
            if len(step["votes"]) == len(R.alive(state)):
                R.vote(ctx)
        elif k == "judgment":
            R.judgment_done(ctx, seat, action.get("seat"))
        elif k == "shinigami":
            R.shinigami_done(ctx, seat, action.get("seat"))
        return events

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

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot (every Role)."""
        from .agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def turn_count(self, state: WwState) -> int:
        """Judgment Phases played."""
        return state.judgments
