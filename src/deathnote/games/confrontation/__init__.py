"""Death Note: Confrontation (Chapters 1 and 2): Kira (seat 0) against L (seat 1)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from deathnote.engine.actions import Event, Viewer
from deathnote.engine.errors import OptionsError
from deathnote.engine.game import Game, PlayoutPolicy
from deathnote.engine.options import GameOptions, lobby
from deathnote.games.confrontation import content, numbers, rules, sample
from deathnote.games.confrontation.agents import evaluate as estimate
from deathnote.games.confrontation.state import ConfState
from deathnote.games.confrontation.view import (
    RULES_SUMMARY,
    build_view,
    public_view,
    shared_view,
)

if TYPE_CHECKING:
    from deathnote.agents.base import Agent
    from deathnote.engine.spaces import ActionSpace

SEAT_NAMES = ["Kira", "L"]


class ConfOptions(GameOptions):
    """The options of Confrontation."""

    chapter: int = Field(
        1,
        ge=1,
        le=2,
        description="1: the basic game (15 points); 2: Apples, Stars and special abilities "
        "on the Chapter 2 Map (20 points)",
        json_schema_extra=lobby(
            labels={
                "1": "Chapter 1: the basic game (15 points)",
                "2": "Chapter 2: Apples, Stars and special abilities (20 points)",
            },
            help="Chapter 2 plays on its own Map with Ryuk's and L's trackers.",
        ),
    )
    variant: Literal["standard", "tiny"] = Field(
        "standard",
        description="standard: the printed game; tiny: Chapter 1 on a 3-Suspect Map with 2 "
        "criminals and 2 Lead cards, where L must accuse after Day 2 (small enough to solve)",
        json_schema_extra=lobby(
            labels={
                "standard": "The printed game",
                "tiny": "Tiny: Chapter 1 on a 3-Suspect Map (small enough to solve)",
            },
            help="The tiny game has 2 criminals and 2 Lead cards; L must accuse after Day 2.",
        ),
    )


class Confrontation(Game):
    """The two-player game of Kira against L."""

    id = "confrontation"
    name = "Death Note: Confrontation"
    rules_summary = RULES_SUMMARY
    min_players = 2
    max_players = 2
    rules_version = "4"
    options_model = ConfOptions

    def parse_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """``ConfOptions`` validated (the default); the two common cases without pydantic's
        round trip, since a simulation creates a match per game."""
        if not options:
            return {"chapter": 1}
        chapter = options.get("chapter")
        if len(options) == 1 and type(chapter) is int and chapter in (1, 2):
            return {"chapter": chapter}
        return super().parse_options(players, options)

    def check_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """The tiny variant plays Chapter 1's rules; the default variant is not written
        into the options (records made before the option existed stay the same)."""
        if options.get("variant") == "tiny" and options.get("chapter") != 1:
            raise OptionsError("the tiny variant plays Chapter 1: option chapter must be 1")
        if options.get("variant") == "standard":
            options = {k: v for k, v in options.items() if k != "variant"}
        return options

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """The chapter's Map and decks: the packaged file (of the variant), or ``path``."""
        return content.load(path, int(options.get("chapter", 1)), _variant(options))

    def seat_names(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """Kira is seat 0, L seat 1."""
        return list(SEAT_NAMES)

    def new_state(
        self, players: int, options: Mapping[str, Any], content_data: Any, rng: random.Random
    ) -> ConfState:
        """Kira draws his identity; the Lead and Suspect decks are shuffled."""
        chapter = int(options.get("chapter", 1))
        return rules.new_state(content.tables(content_data, chapter, _variant(options)), rng)

    def setup(
        self, players: int, options: Mapping[str, Any], content_data: Any, rng: random.Random
    ) -> tuple[ConfState, list[Event]]:
        """The deal, and what each player learns before the first Day: Kira his identity."""
        last = self._last_tables
        if last is not None and last[0] is content_data and last[1] is options:
            tables = last[2]  # the same content and options as the match before (a batch)
        else:
            chapter = int(options.get("chapter", 1))
            tables = content.tables(content_data, chapter, _variant(options))
            self._last_tables = (content_data, options, tables)
        state = rules.new_state(tables, rng)
        return state, rules.setup_events(state)

    #: the content, options and tables of the latest ``setup`` (content is never changed,
    #: and the engine never changes a match's options once parsed)
    _last_tables: tuple[Any, Mapping[str, Any], content.Tables] | None = None

    # The calls made for every action go straight to the rules (one Python call fewer).
    pending = staticmethod(rules.pending)  # who must decide now
    mover = staticmethod(rules.mover)  # the lowest seat ``pending`` asks
    moves = staticmethod(rules.moves)  # that seat and its legal actions
    legal = staticmethod(rules.legal)  # the legal actions of a seat now
    apply = staticmethod(rules.apply)  # carry out a legal action, then every automatic step
    apply_quiet = staticmethod(rules.apply_quiet)  # the same without the events (play-outs)

    def fork_state(self, state: ConfState) -> ConfState:
        """An independent copy; the content tables are shared (frozen)."""
        return state.fork()

    def sample_state(self, state: ConfState, viewer: Viewer, rng: random.Random) -> ConfState:
        """A copy with all ``viewer`` cannot see drawn anew (rules doc CONF-SAMPLE-01)."""
        return sample.sample(state, viewer, rng)

    def action_space(self, players: int, options: Mapping[str, Any]) -> ActionSpace:
        """Every action of the chapter, numbered (the table: rules doc CONF-NUM-01)."""
        return numbers.action_table(int(options.get("chapter", 1)), _variant(options))

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """One float32 vector per viewer (layout: rules doc CONF-NUM-02)."""
        return numbers.shape(int(options.get("chapter", 1)), _variant(options))

    #: The viewer's observation, built from what that viewer's view shows alone (called
    #: at every step of the research adapters: straight to ``numbers.observation``).
    observation_tensor = staticmethod(numbers.observation)
    #: A search tree's key of the viewer's information set: equal exactly when the
    #: observations are (``numbers.search_key``: the same fields, no array built).
    search_key = staticmethod(numbers.search_key)

    def view(self, state: ConfState, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see."""
        return build_view(state, viewer)

    def shared_view(
        self, state: ConfState, viewer: Viewer, public: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The same view, its Map and other content-made parts shared with every other
        (the base of state patches: kept without encoding it, diffed by identity); with
        ``public``, made from that public table and the seat's own notebook."""
        return shared_view(state, viewer, public)

    def public_view(self, state: ConfState) -> dict[str, Any]:
        """The table every seat and the spectator see (the spectator's shared view)."""
        return public_view(state)

    #: The outcome once the game is over: the state's ``result`` (read after every action
    #: of a simulated game, so without a Python call).
    outcome = staticmethod(attrgetter("result"))  # type: ignore[assignment]

    def turn_count(self, state: ConfState) -> int:
        """Days played."""
        return state.day

    def playout_policy(self) -> PlayoutPolicy:
        """The search bot's play-outs: random, but L accuses only when certain and Kira
        kills locally when he can (``agents.playout``)."""
        from deathnote.games.confrontation.agents import playout

        return playout

    #: Kira's and L's chance from the start of a day, for a search bot's play-outs
    #: (``agents.evaluate``; None at any other point). Straight to it (asked at every step
    #: of every play-out: one Python call fewer).
    evaluate = staticmethod(estimate)

    def search_prior(self, seat: int) -> Agent:
        """The search bot's prior: the heuristic bot whose L also expects Kira to read his
        Chases (``agents.SearchPriorAgent``)."""
        from deathnote.games.confrontation.agents import SearchPriorAgent

        return SearchPriorAgent(seat)

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot plays either side; ``cautious`` is it with an L who accuses only
        when certain."""
        from deathnote.games.confrontation.agents import CautiousAgent, HeuristicAgent

        return {"heuristic": HeuristicAgent, "cautious": CautiousAgent}


def _variant(options: Mapping[str, Any]) -> str:
    return str(options.get("variant", "standard"))


GAME = Confrontation()
