"""Primitive operations every rule and card effect uses (one place for each rule)."""

from __future__ import annotations

from deathnote.engine.actions import Event
from deathnote.games.tcg.state import OVER, WIN_POINTS, FieldCharacter, TcgState

#: Public seat names by seat and deck label (every event names a seat).
_NAMES: dict[tuple[int, str], str] = {}


def who(state: TcgState, seat: int) -> str:
    """A public name for a seat, from its deck label."""
    label = state.players[seat].deck_label
    found = _NAMES.get((seat, label))
    if found is None:
        if len(_NAMES) >= 1000:
            _NAMES.clear()
        found = _NAMES[seat, label] = f"Player {seat + 1} ({label})"
    return found


def end_game(state: TcgState, winner: int, condition: str, reason: str) -> list[Event]:
    """Finish the game (only the first end counts)."""
    if state.winner is not None:
        return []
    state.winner, state.condition, state.reason = winner, condition, reason
    state.phase = OVER
    state.choice = None
    return [Event.public(reason, winner=winner, condition=condition)]


def draw(state: TcgState, seat: int, count: int = 1) -> list[Event]:
    """Draw cards; a draw from an empty deck loses the game (TCG-WIN-02)."""
    player = state.players[seat]
    events: list[Event] = []
    for _ in range(count):
        if state.winner is not None:
            break
        if not player.deck:
            events += end_game(
                state,
                1 - seat,
                "deck_out",
                f"{who(state, seat)} must draw from an empty deck: {who(state, 1 - seat)} wins.",
            )
            break
        card = player.deck.pop()
        player.hand.append(card)
        events.append(Event.public(f"{who(state, seat)} draws a card.", seat=seat))
        events.append(
            Event.private([seat], f"You draw {state.cards[card].label}.", seat=seat, card=card)
        )
    return events


def gain(state: TcgState, seat: int, amount: int, why: str) -> list[Event]:
    """Gain victory points; 13 or more wins at once (TCG-WIN-01)."""
    if amount <= 0 or state.winner is not None:
        return []
    player = state.players[seat]
    player.points += amount
    events = [
        Event.public(
            f"{who(state, seat)} gains {amount} victory point{'s' * (amount != 1)} ({why}): "
            f"{player.points}.",
            seat=seat,
            points=player.points,
        )
    ]
    if player.points >= WIN_POINTS:
        events += end_game(
            state,
            seat,
            "points",
            f"{who(state, seat)} reaches {player.points} victory points and wins.",
        )
    return events


def lose_points(state: TcgState, seat: int, amount: int, why: str) -> list[Event]:
    """Lose victory points (never below 0)."""
    player = state.players[seat]
    lost = min(amount, player.points)
    player.points -= lost
    return [
        Event.public(
            f"{who(state, seat)} loses {lost} victory point{'s' * (lost != 1)} ({why}): "
            f"{player.points}.",
            seat=seat,
            points=player.points,
        )
    ]


def pay(state: TcgState, seat: int, cost: int) -> None:
    """Pay a cost from victory points (the caller has checked it is affordable)."""
    player = state.players[seat]
    assert cost <= player.points, "a cost above the victory points is never legal"
    player.points -= cost


def destroy(state: TcgState, owner: int, name: str, why: str) -> list[Event]:
    """Destroy a Character: it and its Special go to the discard pile together."""
    player = state.players[owner]
    fc = player.character(name)
    if fc is None:
        return []
    player.field.remove(fc)
    player.discard.append(fc.number)
    text = f"{who(state, owner)}'s {name} is destroyed ({why})"
    if fc.special is not None:
        player.discard.append(fc.special)
        text += f", with the Special {state.cards[fc.special].label}"
    return [Event.public(text + ".", seat=owner, character=name)]


def reveal_special(state: TcgState, owner: int, fc: FieldCharacter, why: str) -> list[Event]:
    """Turn a Special face up: it becomes public."""
    assert fc.special is not None
    fc.special_face_up = True
    return [
        Event.public(
            f"{who(state, owner)} turns the Special on {fc.name} face up: "
            f"{state.cards[fc.special].label} ({why}).",
            seat=owner,
            character=fc.name,
            card=fc.special,
        )
    ]
