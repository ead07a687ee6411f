"""The state of one game of Death Note Werewolf: plain dataclasses, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deathnote.engine.actions import Event

from .tables import Tables

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

    def copy(self) -> SeatState:
        """An independent copy."""
        return SeatState(
            self.role,
            list(self.hand),
            self.alive,
            dict(self.known_roles),
            {k: list(v) for k, v in self.seen_hands.items()},
        )


@dataclass
class WwState:
    """Everything about one game; the view lists what each viewer may see of it."""

    players: int
    seats: list[SeatState]
    content: dict[str, Any]
    options: dict[str, Any]
    first: int
    #: Look-ups derived from ``content`` (never changed; shared by every copy of the state).
    tables: Tables = field(repr=False, compare=False)
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
    #: Every event so far (set-up included), in order: ``sample_state`` reads from it what
    #: a viewer has seen. Copies of the Match's events whose lists are tuples (``remember``),
    #: so that no view's log shares a list with the state.
    history: list[Event] = field(default_factory=list, repr=False, compare=False)

    def remember(self, events: list[Event]) -> None:
        """Add the events of one action (or of the set-up) to the history."""
        for e in events:
            for v in e.data.values():
                if type(v) is list or type(v) is dict:
                    e = Event(e.text, {k: _frozen(x) for k, x in e.data.items()}, e.audience)
                    break
            self.history.append(e)

    def fork(self) -> WwState:
        """An independent copy; content, options and tables are shared, never copied."""
        twin = object.__new__(WwState)
        d = dict(self.__dict__)
        d["seats"] = [x.copy() for x in self.seats]
        d["deck"] = list(self.deck)
        d["discard"] = list(self.discard)
        d["removed"] = list(self.removed)
        d["order"] = list(self.order)
        d["history"] = list(self.history)
        d["step"] = copy_step(self.step)
        twin.__dict__.update(d)
        return twin


def _frozen(value: Any) -> Any:
    """A list as a tuple, a dict as a tuple of its items (event data are flat)."""
    if type(value) is list:
        return tuple(value)
    if type(value) is dict:
        return tuple(value.items())
    return value


def copy_step(step: Step | None) -> Step | None:
    """An independent copy of a step (its values are scalars, lists and dicts of scalars)."""
    if step is None:
        return None
    out: Step = {}
    for k, v in step.items():
        if type(v) is list:
            v = list(v)
        elif type(v) is dict:
            v = dict(v)
        out[k] = v
    return out
