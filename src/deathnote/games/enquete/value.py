"""The search bot's reward and its estimate of a position (``Game.search_rewards``,
``Game.evaluate``), ENQ-BOT-02."""

from __future__ import annotations

from .objectives import apples_now
from .state import EnqState

#: A seat's reward in the search is its Apples divided by this, at most 1: issue 14 counts
#: a seat's Apples, so the search maximises their number, not the chance of at least one.
#: Heuristic games at 5 players end with 5 Apples or more for 2% of the seats (7 at most).
APPLE_SCALE = 5.0

#: Per Role: the least-squares model of the Apples a seat ends the game with, from the
#: start of a round (the Detective choosing the Action he gives), heuristic against
#: heuristic at 5 players: weights of (1, the Apples the seat would score if the game
#: ended now, the round / 5, both of these multiplied, the seat is dead). Fitted (ridge 1
#: on all but the intercept) on the round starts of 2,000 games (seeds 70000-71999, 40,410
#: seat-round starts); fitted on the even seeds, its mean squared error on the odd ones is
#: 1.64 Apples² (1.83 for each Role's mean). A Role not listed: two Apples.
VALUE_MODEL: dict[str, tuple[float, float, float, float, float]] = {
    "aizawa": (1.584, 0.924, -0.949, 0.007, -0.099),
    "detective": (2.39, 1.344, -1.234, -0.823, 0.0),
    "higuchi": (0.434, 0.539, -0.26, 0.254, -0.104),
    "light": (3.818, -0.509, -1.977, 0.836, 0.154),
    "matsuda": (1.506, 0.624, -0.215, -0.002, -0.727),
    "misa": (0.555, 0.436, -0.119, 0.245, -0.575),
    "mogi": (0.708, 0.721, -0.443, 0.182, -0.086),
    "watari": (2.856, -0.099, -1.517, 0.561, -0.261),
    "yagami": (0.537, 0.784, -0.051, -0.087, -0.102),
}
_UNKNOWN = (2.0, 0.0, 0.0, 0.0, 0.0)


def rewards(state: EnqState) -> list[float] | None:
    """Each seat's reward once the game is over: its Apples / ``APPLE_SCALE``, at most 1."""
    if not state.over:
        return None
    return [min(1.0, a / APPLE_SCALE) for a in state.apples]


def evaluate(state: EnqState) -> list[float] | None:
    """Each seat's expected reward: ``rewards`` once the game is over; at the start of a
    round (the Detective's choice of the Action he gives) ``VALUE_MODEL`` for the Role each
    seat holds in that world, scaled as ``rewards``; None at any other point (the play-out
    goes on to the next round's start or the end)."""
    if state.over:
        return rewards(state)
    stack = state.stack
    if not stack:
        return None
    top = stack[-1]
    if top["k"] != "pick" or top["fn"] != "give_card":
        return None
    apples = apples_now(state)
    x = state.round / 5
    out = []
    for seat, now in zip(state.seats, apples, strict=True):
        b0, b1, b2, b3, b4 = VALUE_MODEL.get(seat.role, _UNKNOWN)
        expected = b0 + b1 * now + b2 * x + b3 * now * x + (b4 if seat.dead else 0.0)
        out.append(min(1.0, max(0.0, expected / APPLE_SCALE)))
    return out
