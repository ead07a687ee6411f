"""The Death Note trading card game (Konami, 2008), 2 players, with a sample card pool."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from deathnote.engine.actions import Action, Decision, Event, Seat, Viewer
from deathnote.engine.game import Game, PlayoutPolicy
from deathnote.games.tcg import numbers, rules, search, worlds
from deathnote.games.tcg.state import ACTION, CHARACTER, MULLIGAN, TcgState
from deathnote.games.tcg.view import RULES_SUMMARY, build_view, shared_view

if TYPE_CHECKING:
    from deathnote.agents.base import Agent
    from deathnote.engine.spaces import ActionSpace

PROMPTS = {
    MULLIGAN: "Keep your opening hand or take your one mulligan?",
    CHARACTER: "Character phase: place Characters, attach or reveal Specials.",
    ACTION: "Action phase: each upright face-up Character may act once; Events.",
}


class TcgGame(Game):
    """The rules framework of the printed game, played with an original sample pool."""

    id = "tcg"
    name = "Death Note Trading Card Game"
    rules_summary = RULES_SUMMARY
    min_players = 2
    max_players = 2
    rules_version = "4"

    options_model = rules.TcgOptions

    def check_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Decks checked and normalized: ``{"decks": [two decks], "first": ...}``."""
        return rules.check_options(options)

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """The card pool and sample decks, validated together with the chosen decks."""
        return rules.load_content(path, options)

    def seat_names(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """Seats are named after their decks."""
        return rules.seat_names(options)

    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> TcgState:
        """Shuffle, decide the first player, deal."""
        return rules.new_state(options, content, rng)

    def setup(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> tuple[TcgState, list[Event]]:
        """The new state, with who goes first and each opening hand logged."""
        return rules.setup(options, content, rng)

    def fork_state(self, state: TcgState) -> TcgState:
        """An independent copy; the pool is shared."""
        return worlds.fork(state)

    def sample_state(self, state: TcgState, viewer: Viewer, rng: random.Random) -> TcgState:
        """A copy with the viewer's unseen cards and the hidden Death Note page redrawn."""
        return worlds.sample(state, viewer, rng)

    def pending(self, state: TcgState) -> dict[Seat, Decision]:
        """Only the player whose turn (or mulligan) it is decides; ``data`` says what
        (TCG-TURN-05)."""
        if state.winner is not None:
            return {}
        return {state.current: rules.decision(state, PROMPTS)}

    def mover(self, state: TcgState) -> Seat | None:
        """The player ``pending`` asks (no decision made)."""
        return None if state.winner is not None else state.current

    def moves(self, state: TcgState) -> tuple[Seat | None, Sequence[Action]]:
        """The player ``pending`` asks and its legal actions."""
        if state.winner is not None:
            return None, ()
        seat = state.current
        return seat, rules.legal_actions(state, seat)

    # The calls made for every action go straight to the rules (one Python call fewer).
    legal = staticmethod(rules.legal_actions)  # every legal action of the seat
    apply = staticmethod(rules.apply_action)  # carry out a legal action

    def view(self, state: TcgState, viewer: Viewer) -> dict[str, Any]:
        """The table as the viewer sees it."""
        return build_view(state, viewer)

    def shared_view(self, state: TcgState, viewer: Viewer, public: Any = None) -> dict[str, Any]:
        """The same view, built from the per-pool card faces without copying them (the
        base of state patches: a long game's piles cost little to build and diff)."""
        return shared_view(state, viewer)

    #: Winner by turn order, with each deck's result in scores (asked after every action).
    outcome = staticmethod(rules.outcome)

    def turn_count(self, state: TcgState) -> int:
        """Turns begun (each player's turn counts once)."""
        return state.turn

    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        """Every action over the sample pool, numbered (TCG-NUM-01)."""
        return numbers.default_space()

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """One flat vector (TCG-NUM-02)."""
        return numbers.shape(players, options)

    #: What the viewer may see, as float32 (TCG-NUM-02; asked at every step of the
    #: research adapters: straight to ``numbers.observation``).
    observation_tensor = staticmethod(numbers.observation)

    def playout_policy(self) -> PlayoutPolicy:
        """The search bot's play-outs: the heuristic bot's quick choices on the state
        (``search.playout``, TCG-BOT-01)."""
        return search.playout

    def search_actions(
        self, state: TcgState, seat: Seat, legal: Sequence[Action]
    ) -> Sequence[Action]:
        """The search bot's tree writes only pages that can hit (``search.pages``)."""
        return search.pages(state, seat, legal)

    def evaluate(self, state: TcgState) -> tuple[float, float] | None:
        """Each seat's chance from the start of a turn, for a search bot's play-outs
        (``search.evaluate``; None at any other point)."""
        return search.evaluate(state)

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot."""
        from deathnote.games.tcg.agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}


GAME = TcgGame()
