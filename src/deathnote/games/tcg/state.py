"""The game state: plain dataclasses, the full truth (views list what a seat may see)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from deathnote.games.tcg.cards import Card

WIN_POINTS = 13
HAND_SIZE = 6
MAX_CHARACTERS = 6

# Phases of the game; a turn runs Start -> Recovery -> Draw -> Character -> Action -> End.
MULLIGAN = "mulligan"
CHARACTER = "character"
ACTION = "action"
OVER = "over"


@dataclass
class FieldCharacter:
    """A Character on a field, with its Special (if any)."""

    number: str
    name: str
    face_up: bool = True
    upright: bool = True
    special: str | None = None
    special_face_up: bool = False
    special_turn: int = 0
    flipped_turn: int = 0


@dataclass
class Mark:
    """A secret Death Note mark: the Kira card placed at a Character's page."""

    target: str
    turn: int
    source: str  # the card number whose Death Note action made it
    character: str  # the acting Character's name (public)
    #: the marked side's face-up Characters when the mark was made, most valuable first
    #: (public: what any player saw then); a search's sampled pages favour them (TCG-SEC-02)
    exposed: tuple[str, ...] = ()


@dataclass
class Player:
    """One player's cards, points and Kira card."""

    deck_label: str
    deck_key: str
    deck: list[str]
    hand: list[str] = dataclasses.field(default_factory=list)
    field: list[FieldCharacter] = dataclasses.field(default_factory=list)
    discard: list[str] = dataclasses.field(default_factory=list)
    points: int = 0
    turns_taken: int = 0
    mulligan: str = "pending"  # "pending", "kept", "redrawn"
    mark: Mark | None = None
    deathnote_turn: int = 0  # the turn number of this player's last Death Note action
    placed: int = 0  # Characters placed this turn
    allowance: int = 1  # Characters that may be placed this turn
    protected: bool = False  # The Thirteen-Day Rule
    shown: set[str] = dataclasses.field(
        default_factory=set
    )  # numbers an effect showed the opponent

    def character(self, name: str) -> FieldCharacter | None:
        """The Character of this name on the field, if any."""
        for fc in self.field:
            if fc.name == name:
                return fc
        return None


@dataclass
class TcgState:
    """The whole game."""

    cards: dict[str, Card]
    file_names: list[str]  # the Character File: every Character name of the pool
    players: list[Player]
    first: int
    current: int
    turn: int = 0  # turns begun so far (both players)
    phase: str = MULLIGAN
    choice: dict[str, Any] | None = None  # a two-step choice in progress
    winner: int | None = None
    condition: str = ""
    reason: str = ""
    #: Whether the current player has taken no action yet this turn (set as a turn starts,
    #: cleared by any action): where a search bot's estimate applies (TCG-BOT-01).
    fresh: bool = False

    def me(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.current]

    def opponent(self, seat: int) -> Player:
        """The other player."""
        return self.players[1 - seat]
