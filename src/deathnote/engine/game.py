"""The contract every game module fulfils; the Match supplies everything shared."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from deathnote.engine.actions import Action, Decision, Event, Outcome, Seat, Viewer
from deathnote.engine.errors import IllegalAction

if TYPE_CHECKING:
    from deathnote.agents.base import Agent


def not_legal(action: Action) -> IllegalAction:
    """The error for an action that is well-formed but not among the legal ones."""
    return IllegalAction(f"{action.label or action.kind!r} is not a legal move now")


class Game(ABC):
    """Rules of one game. Stateless: every method takes the game state it works on.

    A game module exposes one instance as ``GAME`` in ``deathnote.games.<id>``.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str] = "1"
    #: "count": simulate counts Outcome.winners; "mean": it averages Outcome.scores.
    wins_mode: ClassVar[str] = "count"

    # -- set-up ---------------------------------------------------------------------
    def parse_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate options and fill defaults; raise OptionsError naming a bad option."""
        from deathnote.engine.errors import OptionsError

        if options:
            raise OptionsError(f"{self.id} takes no options, got {sorted(options)}")
        return {}

    def load_content(self, path: str | None, options: Mapping[str, Any]) -> Any:
        """Load and validate the content (maps, decks, roles). ``path`` None: the default.

        Raise ContentError naming the file and field on a broken file.
        """
        return None

    def seat_names(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """Public names of the seats, in seat order."""
        return [f"Player {i + 1}" for i in range(players)]

    @abstractmethod
    def new_state(
        self, players: int, options: Mapping[str, Any], content: Any, rng: random.Random
    ) -> Any:
        """A fresh game state; all randomness from ``rng``."""

    # -- play -------------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: Any) -> dict[Seat, Decision]:
        """The seats that must decide now, each with its decision (empty when over)."""

    @abstractmethod
    def legal(self, state: Any, seat: Seat) -> Sequence[Action]:
        """The legal actions of a seat now (empty when it is not asked)."""

    @abstractmethod
    def apply(self, state: Any, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
        """Carry out a legal action (already checked) and return the new events."""

    def check(self, state: Any, seat: Seat, action: Action) -> None:
        """Raise IllegalAction with a clear reason if the action is not legal.

        The default tests membership in ``legal``; games with huge action spaces override.
        """
        if action not in self.legal(state, seat):
            raise not_legal(action)

    @abstractmethod
    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """What the viewer may see of the state, JSON-ready; built by listing, not deleting."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The outcome once the game is over, else None."""

    # -- extras -----------------------------------------------------------------------
    def agents(self) -> Mapping[str, type[Agent]]:
        """The game's own agents by name (e.g. {"heuristic": ...})."""
        return {}

    def turn_count(self, state: Any) -> int:
        """Rounds or turns played so far (for summaries); 0 when not tracked."""
        return 0
