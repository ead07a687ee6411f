"""The search bot's estimate of a position (``Game.evaluate``), TCG-BOT-02."""

from __future__ import annotations

import math

from deathnote.games.tcg.effects import effect_of
from deathnote.games.tcg.state import CHARACTER, Player, TcgState

#: The logistic model of the current player's chance to win from the start of a turn (its
#: Character phase before any Character is placed), heuristic against heuristic: weights of
#: (1, victory points ahead, Work of the face-up Characters ahead, Characters on the field
#: ahead, cards in hand ahead, Specials attached ahead). Fitted by maximum likelihood on the
#: turn starts of 1,500 games (seeds 50000-51499, 20,476 turn starts); on a held-out half
#: the log loss per turn start is 0.462 (0.693 for an even guess).
VALUE_MODEL = (0.438, 0.321, 0.117, 0.936, 0.088, 0.177)


def _work(state: TcgState, player: Player) -> int:
    """What the player's face-up Characters' Work would earn (``rules.work_points``)."""
    cards = state.cards
    total = 0
    for fc in player.field:
        if not fc.face_up:
            continue
        total += cards[fc.number].points
        if fc.special and fc.special_face_up:
            total += (
                effect_of(state, fc.special).work_bonus
                + effect_of(state, fc.number).work_bonus_with_special
            )
    return total


def _specials(player: Player) -> int:
    """The Specials attached on the player's field, face up or down."""
    return sum(1 for fc in player.field if fc.special)


def evaluate(state: TcgState) -> tuple[float, float] | None:
    """Each seat's chance to win: 1/0 once the game is over; at the start of a turn (the
    Character phase before a Character is placed, no two-step choice open) the logistic
    model ``VALUE_MODEL`` for the player whose turn it is, the rest for the other; None at
    any other point (the play-out goes on to the next turn's start)."""
    winner = state.winner
    if winner is not None:
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)
    if state.phase != CHARACTER or state.choice is not None:
        return None
    seat = state.current
    me, other = state.players[seat], state.players[1 - seat]
    if me.placed:
        return None
    b0, b1, b2, b3, b4, b5 = VALUE_MODEL
    z = (
        b0
        + b1 * (me.points - other.points)
        + b2 * (_work(state, me) - _work(state, other))
        + b3 * (len(me.field) - len(other.field))
        + b4 * (len(me.hand) - len(other.hand))
        + b5 * (_specials(me) - _specials(other))
    )
    p = 1.0 / (1.0 + math.exp(-z))
    return (p, 1.0 - p) if seat == 0 else (1.0 - p, p)
