"""The state of one game of Death Note Werewolf: plain dataclasses, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deathnote.engine.actions import Event

Step = dict[str, Any]
"""The piece of play waiting for decisions (``k`` names it: "turn", "target", ...)."""


@dataclass
class SeatState:
    """One player: Role, hand and what this player privately knows."""

    role: str
    hand: list[str] = field(default_factory=list)
    alive: bool = True
    #: Roles this seat knows for certain (seat -> Role id), from set-up, Witness, Judgment.
    known_roles: dict[int, str] = field(default_factory=dict)
    #: The last hand this seat saw of another (seat -> card ids), from Surveillance.
    seen_hands: dict[int, list[str]] = field(default_factory=dict)


@dataclass
class WwState:
    """Everything about one game; the view lists what each viewer may see of it."""

    players: int
    seats: list[SeatState]
    content: dict[str, Any]
    options: dict[str, Any]
    first: int
    deck: list[str] = field(default_factory=list)  # index 0 is the top
    discard: list[str] = field(default_factory=list)  # face up, last is the top
    removed: list[str] = field(default_factory=list)  # out of the game (used Arrests)
    phase: str = "investigation"
    judgments: int = 0  # Judgment Phases completed
    order: list[int] = field(default_factory=list)  # turns still to play before Judgment
    current: int | None = None
    drawn: str | None = None  # the card the current player drew this turn
    step: Step | None = None
    winner: str | None = None
    condition: str | None = None
    reason: str = ""
    turns: int = 0
    reshuffles: int = 0
    setup_events: list[Event] = field(default_factory=list)
    #: the content's cards and Roles by id (derived from ``content``, never changed)
    cards_by_id: dict[str, dict[str, Any]] = field(init=False, repr=False, compare=False)
    roles_by_id: dict[str, dict[str, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.cards_by_id = {c["id"]: c for c in self.content["cards"]}
        self.roles_by_id = {r["id"]: r for r in self.content["roles"]}
