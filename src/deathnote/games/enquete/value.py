"""The search bot's estimate of a position (``Game.evaluate``), ENQ-BOT-02."""

from __future__ import annotations

import math

from .objectives import score
from .state import EnqState

#: Per Role: the logistic model of a seat's chance to end the game with at least one Apple
#: (the search's reward), from the start of a round (the Detective choosing the Action he
#: gives), heuristic against heuristic at 5 players: weights of (1, the seat would score
#: if the game ended now, the round / 5, both of these multiplied, the seat is dead).
#: Fitted by maximum likelihood (ridge 1) on the round starts of 600 games (seeds
#: 70000-70599, 12,290 seat-round starts); on a held-out half the log loss is 0.391 per
#: seat (0.418 for each Role's base rate). A Role not listed: its base rate is not known,
#: an even guess.
VALUE_MODEL: dict[str, tuple[float, float, float, float, float]] = {
    "aizawa": (2.668, 2.097, -1.621, 1.361, -0.72),
    "detective": (1.694, 1.945, -1.786, 0.185, 0.0),
    "higuchi": (-1.654, 2.125, -0.605, 1.87, 0.289),
    "light": (0.763, 0.763, 0.284, 0.284, 0.911),
    "matsuda": (1.936, 0.178, -0.169, 0.782, -1.079),
    "misa": (0.446, 0.446, 0.804, 0.804, -1.263),
    "mogi": (0.604, 2.035, -0.791, 1.216, -0.574),
    "watari": (2.536, 2.536, 1.039, 1.039, 0.178),
    "yagami": (-0.031, 1.003, 0.097, 1.13, -0.741),
}
_EVEN = (0.0, 0.0, 0.0, 0.0, 0.0)


def evaluate(state: EnqState) -> list[float] | None:
    """Each seat's chance to end with at least one Apple: 1/0 once the game is over; at
    the start of a round (the Detective's choice of the Action he gives) ``VALUE_MODEL``
    for the Role each seat holds in that world; None at any other point (the play-out goes
    on to the next round's start or the end)."""
    if state.over:
        return [1.0 if a > 0 else 0.0 for a in state.apples]
    stack = state.stack
    if not stack:
        return None
    top = stack[-1]
    if top["k"] != "pick" or top["fn"] != "give_card":
        return None
    apples, _lines = score(state)
    x = state.round / 5
    out = []
    for seat, apple in zip(state.seats, apples, strict=True):
        b0, b1, b2, b3, b4 = VALUE_MODEL.get(seat.role, _EVEN)
        now = 1.0 if apple > 0 else 0.0
        z = b0 + b1 * now + b2 * x + b3 * now * x + (b4 if seat.dead else 0.0)
        out.append(1.0 / (1.0 + math.exp(-z)))
    return out
