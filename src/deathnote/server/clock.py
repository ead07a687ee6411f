"""Turn clocks: seconds per decision plus a reserve per player; a bot moves on a timeout.

A room's ``clock`` is ``none``, ``relaxed``, ``normal`` or ``fast`` (``PRESETS``). When a
person's seat is asked, its deadline is the decision's seconds plus what is left of the
seat's reserve; time spent beyond the decision's seconds comes off the reserve. When the
deadline passes, a bot makes the seat's move, the seat's reserve is spent and its timeout
counted; after ``Limits.clock_timeouts`` timeouts the seat is handed to a bot until its
person comes back with their link and takes it back.

Covert decisions time out identically for every seat asked: only the decision's seconds,
never the reserve, and they neither use the reserve nor count as timeouts (both are shown
to everyone, so they would tell the table who was asked). A covert deadline is shown only
to the seat it belongs to.

Deadlines are wall-clock times stored with the room, so a restart keeps every clock. The
time source is injectable (``Clock``); tests use ``FakeClock`` and never sleep long.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from deathnote.engine.errors import OptionsError

NONE = "none"


@dataclass(frozen=True)
class Preset:
    """Seconds per decision and the reserve each player starts with."""

    name: str
    decision: float
    reserve: float
    label: str


PRESETS: dict[str, Preset | None] = {
    NONE: None,
    "relaxed": Preset("relaxed", 120.0, 600.0, "relaxed: 2 min a decision, 10 min in reserve"),
    "normal": Preset("normal", 45.0, 180.0, "normal: 45 s a decision, 3 min in reserve"),
    "fast": Preset("fast", 15.0, 60.0, "fast: 15 s a decision, 1 min in reserve"),
}


def check_clock(name: str | None) -> str:
    """A room's clock name (default none); raises OptionsError naming the choices."""
    if name is None:
        return NONE
    if name not in PRESETS:
        raise OptionsError(f"unknown clock {name[:20]!r}; choose one of {', '.join(PRESETS)}")
    return name


class Clock:
    """Wall-clock time and sleeping (the server's)."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    async def sleep_until(self, when: float) -> None:
        """Return once ``now()`` has reached ``when``."""
        await asyncio.sleep(max(0.0, when - self.now()))


class FakeClock(Clock):
    """A clock the test moves by hand (thread-safe enough: one float)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move time on."""
        self.t += seconds

    async def sleep_until(self, when: float) -> None:
        while self.t < when:
            await asyncio.sleep(0.01)


@dataclass
class SeatClock:
    """One seat's clock: its reserve, timeouts, and the current deadline if asked."""

    reserve: float
    timeouts: int = 0
    deadline: float | None = None
    asked_at: float | None = None
    asked_step: int | None = None
    covert: bool = False

    def to_json(self) -> dict[str, Any]:
        """As stored."""
        return {
            "reserve": round(self.reserve, 3),
            "timeouts": self.timeouts,
            "deadline": self.deadline,
            "asked_at": self.asked_at,
            "asked_step": self.asked_step,
            "covert": self.covert,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], reserve: float) -> SeatClock:
        """From storage (a missing or broken entry starts afresh)."""
        try:
            return cls(
                reserve=float(data.get("reserve", reserve)),
                timeouts=int(data.get("timeouts", 0)),
                deadline=None if data.get("deadline") is None else float(data["deadline"]),
                asked_at=None if data.get("asked_at") is None else float(data["asked_at"]),
                asked_step=None if data.get("asked_step") is None else int(data["asked_step"]),
                covert=bool(data.get("covert", False)),
            )
        except (TypeError, ValueError, AttributeError):
            return cls(reserve=reserve)


class RoomClocks:
    """The clocks of one room's seats (people's seats only; bots are never timed)."""

    def __init__(self, preset: Preset, scale: float, seats: int, stored: Any) -> None:
        self.preset = preset
        self.decision = preset.decision * scale
        self.start_reserve = preset.reserve * scale
        data = stored.get("seats", {}) if isinstance(stored, dict) else {}
        self.seats = [
            SeatClock.from_json(data.get(str(s), {}), self.start_reserve)
            if isinstance(data.get(str(s)), dict)
            else SeatClock(self.start_reserve)
            for s in range(seats)
        ]

    def to_json(self) -> dict[str, Any]:
        """As stored with the room."""
        return {"seats": {str(s): c.to_json() for s, c in enumerate(self.seats)}}

    def ask(self, seat: int, step: int, covert: bool, now: float) -> None:
        """The seat is asked (from ``step``): its deadline starts now."""
        clock = self.seats[seat]
        clock.asked_at = now
        clock.asked_step = step
        clock.covert = covert
        clock.deadline = now + self.decision + (0.0 if covert else clock.reserve)

    def done(self, seat: int, now: float) -> None:
        """The seat answered (or is no longer asked): time beyond the decision's seconds
        comes off its reserve (never for a covert decision)."""
        clock = self.seats[seat]
        if clock.deadline is not None and clock.asked_at is not None and not clock.covert:
            over = now - clock.asked_at - self.decision
            if over > 0:
                clock.reserve = max(0.0, clock.reserve - over)
        clock.deadline = clock.asked_at = clock.asked_step = None
        clock.covert = False

    def timed_out(self, seat: int) -> bool:
        """A timeout: the reserve is spent and the timeout counted (overt decisions only).
        Returns whether it counted."""
        clock = self.seats[seat]
        counted = not clock.covert
        if counted:
            clock.reserve = 0.0
            clock.timeouts += 1
        clock.deadline = clock.asked_at = clock.asked_step = None
        clock.covert = False
        return counted

    def next_deadline(self) -> tuple[float, int] | None:
        """The earliest deadline and its seat."""
        due = [(c.deadline, s) for s, c in enumerate(self.seats) if c.deadline is not None]
        return min(due) if due else None

    def shown(self, seat: int, visible: bool, now: float, due: bool = False) -> dict[str, Any]:
        """What a viewer is told of a seat's clock: the reserve and timeouts always, the
        time left only when the viewer sees the seat as asked (0 when ``due``: its time
        ran out and a bot is choosing its move)."""
        clock = self.seats[seat]
        out: dict[str, Any] = {"reserve": round(clock.reserve, 1), "timeouts": clock.timeouts}
        if visible and clock.deadline is not None:
            out["left"] = round(max(0.0, clock.deadline - now), 1)
        elif visible and due:
            out["left"] = 0.0
        return out
