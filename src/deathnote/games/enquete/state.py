"""The state of one game of Le Jeu d'Enquête: plain dataclasses, no rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count
from typing import Any

Step = dict[str, Any]
"""One pending piece of resolution on the stack (``k``: "pick", "window" or "call")."""

#: where ``EnqState.table_version`` numbers come from: none is ever given twice
_VERSIONS = count(1)


#: A ``table_version`` no state has had (the counter's own ``__next__``: no Python call
#: around it, as it runs at nearly every step of a play-out).
new_version: Callable[[], int] = _VERSIONS.__next__


@dataclass
class SeatState:
    """One seat: the Detective's or a player's."""

    role: str
    hand: list[int] = field(default_factory=list)
    suspicions: int = 0
    revealed: bool = False
    dead: bool = False
    #: Additional objectives: {"kind": "love", "partner": seat} or {"kind": "pursuit"}.
    extra: list[dict[str, Any]] = field(default_factory=list)
    #: What this seat privately knows: role refs ("p3", "i0") -> role id, seat -> hand seen.
    known_roles: dict[str, str] = field(default_factory=dict)
    known_hands: dict[int, list[int]] = field(default_factory=dict)


@dataclass
class InactiveRole:
    """A Role card in the centre of the table, played by nobody."""

    role: str
    revealed: bool = False
    dead: bool = False


@dataclass
class EnqState:
    """Everything about one game; the view lists what each viewer may see of it."""

    players: int
    detective: int
    seats: list[SeatState]
    inactive: list[InactiveRole]
    content: dict[str, Any]
    options: dict[str, Any]
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    tiles: list[int] = field(default_factory=list)  # index 0 is the top of the pile
    tile_discard: list[int] = field(default_factory=list)
    round: int = 0
    direction: str = "clockwise"
    pawn: int | None = None
    current: int | None = None
    looking: int | None = None  # the tile the current player is looking at
    revealed_tile: int | None = None
    search_bonus: dict[int, int] = field(default_factory=dict)
    alibi: list[int] = field(default_factory=list)
    extra_susp: int = 0
    preset: dict[int, int] = field(default_factory=dict)  # Suspicions given with the base ones
    given: dict[int, int] = field(default_factory=dict)
    no_draw: list[int] = field(default_factory=list)
    no_draw_next: list[int] = field(default_factory=list)
    lying: list[int] = field(default_factory=list)
    light_silenced: bool = False
    silence_exempt: list[int] = field(default_factory=list)  # a Lie at Decision (private)
    friend: bool = False
    pursuit: bool = False
    tile_flags: list[str] = field(default_factory=list)  # "contact", "frenzy", "wager"
    kills: list[dict[str, Any]] = field(default_factory=list)  # {"role", "by"}
    revealed_by: dict[str, Any] = field(default_factory=dict)
    stats: list[dict[str, int]] = field(default_factory=list)
    stack: list[Step] = field(default_factory=list)
    next_id: int = 0
    holds: int = 0
    reshuffles: int = 0
    ending: str | None = None
    over: bool = False
    apples: list[int] = field(default_factory=list)
    apple_lines: list[list[str]] = field(default_factory=list)
    # -- what each viewer knows for certain (index ``players`` is the public), kept as the
    # cards and tiles move, so that a sampled world keeps exactly these fixed (sampling.py).
    #: card number -> its holder's seat (a hand, or the set-up pair being chosen) or -1
    #: (the discard pile).
    pins: list[dict[int, int]] = field(default_factory=list)
    #: the Investigation a seat knows to be on top of the pile (it looked, nobody moved it).
    tile_top: list[int | None] = field(default_factory=list)
    #: Investigations a seat knows to be in the face-down discard.
    tile_known: list[list[int]] = field(default_factory=list)
    #: public facts about Roles, e.g. ["kira", "p3"] after Rem spared Player 4.
    facts: list[list[Any]] = field(default_factory=list)
    #: the players who had played a Lie when Decision was revealed (public).
    decision_liars: list[int] = field(default_factory=list)
    #: A number no other state or position has had, taken anew whenever anything but the
    #: resolution stack may change (every carried-out choice except a pass in a window,
    #: every step function, the ending; a copy gets its own, so a copy changed by hand never
    #: shares it): the observation's slots every viewer shares are remembered by it
    #: (``learning.encode_state``). Not part of the game: never compared, never shown.
    table_version: int = field(default_factory=new_version, compare=False, repr=False)
    #: The ``table_version`` at which ``advance`` last found no end condition met (0:
    #: none): a pass in a window, which changes nothing they read, reads them again only
    #: if the table has changed since (a copy or a test's edit takes a new version). Not
    #: part of the game: never compared, never shown.
    end_read: int = field(default=0, compare=False, repr=False)
    #: What ``sampling.sample_state`` last worked out this position hides from one viewer
    #: (a ``sampling.SamplePlan``, keyed by ``table_version``, stack length and viewer; a
    #: copy keeps it, and its own version tells it is not its own). Not part of the game:
    #: never compared, never shown.
    sample_plan: Any = field(default=None, compare=False, repr=False)
