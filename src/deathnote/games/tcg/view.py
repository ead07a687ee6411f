"""What a viewer may see: built by listing public facts, plus the viewer's own secrets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from deathnote.engine.actions import OMNISCIENT, Viewer
from deathnote.games.tcg.cards import Card, per_pool
from deathnote.games.tcg.effects import EFFECTS
from deathnote.games.tcg.state import WIN_POINTS, FieldCharacter, TcgState

# Our own short summary of the rules, for a screen's rules panel (player-facing words).
RULES_SUMMARY = (
    "Two players. You win at 13 victory points, or when your opponent must draw from an "
    "empty deck.",
    "A turn: Recovery (sideways cards stand up), Draw, Character phase, Action phase. The"
    " first player draws nothing in turn 1, and nobody has a Recovery or Action phase in "
    "their first turn.",
    "Costs are paid with victory points.",
    "Character phase: place one Character (two when your opponent has more), at most six "
    "and one of each name on your side; attach a Special face down to a Character of its "
    "name (a Shinigami to any), turn it face up in a later turn; turn Characters face "
    "down or up.",
    "Action phase: each upright face-up Character may act once (Work: turn it sideways "
    "and gain its points; or an ability it has), and Events are played, paying their "
    "cost.",
    "Death Note (added by some Specials): secretly mark a name from the Character File. "
    "At the start of your next turn it is announced, and if that Character is face up on "
    "your opponent's field it is destroyed. A face-down Character escapes it.",
)

# Words the view carries for screens (display only: no rule reads them).
PHASE_NAMES = {
    "mulligan": "Mulligan",
    "character": "Character phase",
    "action": "Action phase",
    "over": "Game over",
}
KIND_NAMES = {"character": "Character", "special": "Special", "event": "Event"}


def faces(state: TcgState) -> dict[str, dict[str, Any]]:
    """Each card's printed face, made once per pool (never handed out: views get copies,
    ``face_copy``; shared views read them, ``shared_view``)."""
    return per_pool(state.cards, "faces", lambda cards: {n: card_view(c) for n, c in cards.items()})


def face_copy(state: TcgState, number: str) -> dict[str, Any]:
    """A fresh copy of a card's face: its abilities list too (shared, the cached face
    would change when a view is changed)."""
    face = faces(state)[number]
    return {**face, "abilities": list(face["abilities"])}


def _copy_face(face: dict[str, Any]) -> dict[str, Any]:
    return {**face, "abilities": list(face["abilities"])}


def _shorts(state: TcgState) -> dict[str, dict[str, Any]]:
    """Each card as it shows in a pile (``short_view``), made once per pool: plain values
    only, so a ``dict.copy`` of one is a fresh view of it."""
    return per_pool(
        state.cards, "shorts", lambda cards: {n: short_view(c) for n, c in cards.items()}
    )


def short_view(card: Card) -> dict[str, Any]:
    """A card in a pile: its name, and its printed text for a screen to show on a tap."""
    return {
        "id": card.number,
        "number": card.printed,
        "name": card.name,
        "kind": card.kind,
        "text": card.text,
    }


def card_view(card: Card) -> dict[str, Any]:
    """The printed face of a card."""
    out: dict[str, Any] = {
        "id": card.number,
        "number": card.printed,
        "name": card.name,
        "kind": card.kind,
        "kind_name": KIND_NAMES.get(card.kind, card.kind),
        "cost": card.cost,
        "text": card.text,
    }
    effect = EFFECTS.get(card.printed)
    out["abilities"] = [a.key for a in effect.abilities] if effect is not None else []
    if card.kind == "character":
        out["points"] = card.points
    if card.print:  # a parallel printing: its printed number differs from its id
        out["print"] = card.print
    if card.kind == "special":
        out["title"] = card.title
        out["shinigami"] = card.shinigami
    return out


def field_view(state: TcgState, fc: FieldCharacter, own: bool) -> dict[str, Any]:
    """A Character on a field. Its face was shown when placed, so it stays public face down;
    a face-down Special is known only to its owner (TCG-SPEC-02)."""
    return _field_view(faces(state), fc, own, _copy_face)


def _field_view(
    known: dict[str, dict[str, Any]],
    fc: FieldCharacter,
    own: bool,
    face_of: Callable[[dict[str, Any]], dict[str, Any]],
) -> dict[str, Any]:
    out = face_of(known[fc.number])
    out["face_up"] = fc.face_up
    out["upright"] = fc.upright
    out["special"] = None
    if fc.special is not None:
        special: dict[str, Any] = {"face_up": fc.special_face_up, "attached_turn": fc.special_turn}
        if fc.special_face_up or own:
            special["card"] = face_of(known[fc.special])
        out["special"] = special
    return out


def file_cards(state: TcgState) -> list[dict[str, Any]]:
    """The Character File as cards: the printed face of each Character of the pool (a
    parallel printing shows its base card's face once), by name. The pool is public."""
    return [_copy_face(face) for face in _file_faces(state)]


def _file_faces(state: TcgState) -> list[dict[str, Any]]:
    """``file_cards`` made once per pool (never handed out)."""

    def make(cards: Mapping[str, Card]) -> list[dict[str, Any]]:
        printed: dict[str, str] = {}
        for number, card in cards.items():
            if card.kind == "character" and (card.printed not in printed or number == card.printed):
                printed[card.printed] = number
        known = faces(state)
        return sorted((known[n] for n in printed.values()), key=lambda c: (c["name"], c["number"]))

    return per_pool(state.cards, "file", make)


def _shared(face: dict[str, Any]) -> dict[str, Any]:
    return {**face}


def player_view(state: TcgState, seat: int, viewer: Viewer, shared: bool = False) -> dict[str, Any]:
    """One player's side as the viewer sees it (``shared``: as ``shared_view`` builds it)."""
    player = state.players[seat]
    own = viewer in (OMNISCIENT, seat)
    known = faces(state)
    shorts = _shorts(state)
    if shared:
        discard = [shorts[n] for n in player.discard]
        field = [_field_view(known, fc, own, _shared) for fc in player.field]
    else:
        discard = [shorts[n].copy() for n in player.discard]
        field = [_field_view(known, fc, own, _copy_face) for fc in player.field]
    out: dict[str, Any] = {
        "seat": seat,
        "deck": player.deck_label,
        "points": player.points,
        "deck_count": len(player.deck),
        "hand_count": len(player.hand),
        "discard": discard,
        "field": field,
        "kira_card": "in the Character File" if player.mark else "kept apart",
        "deathnote_used_this_turn": player.deathnote_turn == state.turn and state.turn > 0,
        "protected": player.protected,
        "mulligan": player.mulligan,
        "placed_this_turn": player.placed if seat == state.current else 0,
        "may_place": player.allowance if seat == state.current else 0,
        "turns_taken": player.turns_taken,
    }
    if own:
        if shared:
            out["hand"] = [known[n] for n in sorted(player.hand)]
        else:
            out["hand"] = [_copy_face(known[n]) for n in sorted(player.hand)]
        out["mark"] = player.mark.target if player.mark else None
    return out


def build_view(state: TcgState, viewer: Viewer, shared: bool = False) -> dict[str, Any]:
    """The whole table for one viewer: fresh lists and dicts throughout (``shared``: see
    ``shared_view``)."""
    out: dict[str, Any] = {
        "turn": state.turn,
        "phase": state.phase,
        "phase_name": PHASE_NAMES.get(state.phase, state.phase),
        "current": state.current,
        "first": state.first,
        "win_points": WIN_POINTS,
        "character_file": list(state.file_names),
        "character_file_cards": _file_faces(state) if shared else file_cards(state),
        "players": [player_view(state, s, viewer, shared) for s in (0, 1)],
    }
    if viewer == OMNISCIENT or viewer == state.current:
        out["choice"] = dict(state.choice) if state.choice else None
    return out


def shared_view(state: TcgState, viewer: Viewer) -> dict[str, Any]:
    """``build_view``'s view (equal, the same JSON), whose card faces and pile entries are
    the per-pool ones, shared with every other shared view and never with the state: for
    the match to keep and diff (the base of state patches), never to hand out or change.
    Building it copies nothing per card, and a patch against an earlier one compares the
    unchanged cards by identity, so neither grows much with the piles."""
    return build_view(state, viewer, shared=True)
