"""Death Note: Confrontation (Chapters 1 and 2): Kira (seat 0) against L (seat 1)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deathnote.engine.actions import Outcome, Viewer
from deathnote.engine.errors import OptionsError
from deathnote.engine.game import Game
from deathnote.games.confrontation import content, rules
from deathnote.games.confrontation.state import ConfState
from deathnote.games.confrontation.view import build_view

if TYPE_CHECKING:
    from deathnote.agents.base import Agent

SEAT_NAMES = ["Kira", "L"]


class Confrontation(Game):
    """The two-player game of Kira against L."""

    id = "confrontation"
    name = "Death Note: Confrontation"
    min_players = 2
    max_players = 2
    rules_version = "1"

    def parse_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options: ``chapter`` 1 (default) or 2."""
        unknown = sorted(set(options) - {"chapter"})
        if unknown:
            raise OptionsError(f"confrontation has no option {unknown[0]!r} (only 'chapter')")
        chapter = options.get("chapter", 1)
        if isinstance(chapter, str) and chapter.strip().isdigit():
            chapter = int(chapter)
        if chapter not in (1, 2) or isinstance(chapter, bool):
            raise OptionsError(f"option 'chapter' must be 1 or 2, not {chapter!r}")
        return {"chapter": chapter}

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """The chapter's Map and decks: the packaged file, or ``path``."""
        return content.load(path, int(options.get("chapter", 1)))

    def seat_names(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """Kira is seat 0, L seat 1."""
        return list(SEAT_NAMES)

    def new_state(
        self, players: int, options: Mapping[str, Any], content_data: Any, rng: random.Random
    ) -> ConfState:
        """Kira draws his identity; the Lead and Suspect decks are shuffled."""
        chapter = int(options.get("chapter", 1))
        return rules.new_state(content.tables(content_data, chapter), rng)

    # The calls made for every action go straight to the rules (one Python call fewer).
    pending = staticmethod(rules.pending)  # who must decide now
    legal = staticmethod(rules.legal)  # the legal actions of a seat now
    apply = staticmethod(rules.apply)  # carry out a legal action, then every automatic step

    def view(self, state: ConfState, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see."""
        return build_view(state, viewer)

    def outcome(self, state: ConfState) -> Outcome | None:
        """The outcome once the game is over."""
        return state.result

    def turn_count(self, state: ConfState) -> int:
        """Days played."""
        return state.day

    def agents(self) -> Mapping[str, type[Agent]]:
        """The heuristic bot plays either side; ``cautious`` is it with an L who accuses only
        when certain."""
        from deathnote.games.confrontation.agents import CautiousAgent, HeuristicAgent

        return {"heuristic": HeuristicAgent, "cautious": CautiousAgent}


GAME = Confrontation()
