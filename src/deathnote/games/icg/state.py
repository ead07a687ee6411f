"""The state of one Investigation Card Game: plain dataclasses, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import Tables


@dataclass
class SeatState:
    """One player. Seat ``s`` holds Placement card ``s + 1``."""

    identity: str
    mission: str
    out: bool = False
    mission_revealed: bool = False
    #: Light rules: the Clues turned face down (by Clue id).
    covered: list[str] = field(default_factory=list)
    #: Kira rules: the Clues in hand and the Clues face up on the table.
    hand: list[str] = field(default_factory=list)
    table: list[str] = field(default_factory=list)
    #: Shinigami Eyes: Identities this seat has seen (seat -> Identity id).
    looks: dict[int, str] = field(default_factory=dict)


@dataclass
class IcgState:
    """Everything about one game; the view lists what each viewer may see of it."""

    players: int
    rules: str  # "light" or "kira"
    eyes: bool  # the Shinigami Eyes option
    turn_limit: int
    content: dict[str, Any]
    seats: list[SeatState]
    clue_ids: list[str]  # the 12 Clue ids of a set, in their printed order
    unused_missions: list[str]  # face down in the box (nobody sees them)
    mission_box: list[str]  # the 6 Mission cards besides Kira and L (a public fact)
    tables: Tables  # every action of this match, labelled (shared by forks, never changed)
    turn: int = 1
    red: int = 0
    #: "investigate", "cover", "return", "reveal", "eyes", "announce", "arrest", "dn_identity",
    #: "dn_placement" or "over".
    phase: str = "investigate"
    order: list[int] = field(default_factory=list)  # investigators still to act this turn
    done: list[int] = field(default_factory=list)  # seats that investigated this turn
    chased: list[int] = field(default_factory=list)  # revealed X-Kiras that must pass
    current: int | None = None  # the investigator
    target: int | None = None
    inv_type: str | None = None  # Kira rules: "identity" or "mission"
    picks: list[str] = field(default_factory=list)  # partial choice of the asked seat
    asked: list[int] = field(default_factory=list)  # seats still to answer (arrest, Death Note)
    dn_identity: str | None = None  # Kira's secret choice until resolved
    dn_placement: int | None = None
    #: Public record of every investigation (what the table saw).
    history: list[dict[str, Any]] = field(default_factory=list)
    death_notes: list[dict[str, Any]] = field(default_factory=list)  # resolved, public
    claims: list[dict[str, Any]] = field(default_factory=list)  # X-Kira's announcements
    ending: str | None = None
    winners: tuple[str, ...] = ()
    reason: str = ""
