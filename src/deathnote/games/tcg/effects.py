"""What cards do: code registered by card number (names, costs and texts are data).

A Character always has the basic action Work (gain its printed points). A registered
Character may add actions; a face-up Special adds its actions to its Character; an Event
has one effect. Targets are chosen in a second step from a short list (``TARGETS``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deathnote.engine.actions import Event
from deathnote.games.tcg import ops
from deathnote.games.tcg.state import FieldCharacter, Mark, TcgState

#: A target kind lists (value, label) pairs for the acting seat.
TargetFn = Callable[[TcgState, int], list[tuple[str, str]]]
#: resolve(state, seat, acting Character name or "", card number, target or "") -> events
ResolveFn = Callable[[TcgState, int, str, str, str], list[Event]]


@dataclass(frozen=True, slots=True)
class Ability:
    """An action a card gives (a Character action, or an Event's effect)."""

    key: str
    name: str
    resolve: ResolveFn
    target: str | None = None
    deathnote: bool = False


@dataclass(frozen=True, slots=True)
class Effect:
    """Everything a card number does beyond its data."""

    abilities: tuple[Ability, ...] = ()
    work_bonus: int = 0  # as a face-up Special: its Character's Work gains this much
    work_bonus_with_special: int = 0  # as a Character: Work gains this while its Special is up
    dn_points: int = 0  # as a Death Note Special: points when its mark destroys
    dn_draw: int = 0  # as a Death Note Special: cards drawn when its mark destroys
    dn_kill_bonus: int = 0  # as a face-up Character: your Death Note kills give this more


EFFECTS: dict[str, Effect] = {}


def register(number: str, effect: Effect) -> None:
    """Register the effect of a card number."""
    EFFECTS[number] = effect


NO_EFFECT = Effect()


def effect_of(state: TcgState, card: str | None) -> Effect:
    """The effect registered for a card's printed number (a parallel printing does what its
    number does); an empty one when nothing is registered."""
    if not card:
        return NO_EFFECT
    return EFFECTS.get(state.cards[card].printed, NO_EFFECT)


def adds_deathnote(state: TcgState, card: str | None) -> bool:
    """Whether a Special adds a Death Note action."""
    return any(a.deathnote for a in effect_of(state, card).abilities)


# -- target kinds ----------------------------------------------------------------------------


def _file(state: TcgState, seat: int) -> list[tuple[str, str]]:
    return [(name, name) for name in state.file_names]


def _opp_face_down(state: TcgState, seat: int) -> list[tuple[str, str]]:
    return [(fc.name, fc.name) for fc in state.opponent(seat).field if not fc.face_up]


def _opp_bearing(test: Callable[[TcgState, str], bool]) -> TargetFn:
    def targets(state: TcgState, seat: int) -> list[tuple[str, str]]:
        return [
            (fc.name, f"{fc.name} ({state.cards[fc.special].label})")
            for fc in state.opponent(seat).field
            if fc.face_up and fc.special and fc.special_face_up and test(state, fc.special)
        ]

    return targets


def _opp_hidden_special(state: TcgState, seat: int) -> list[tuple[str, str]]:
    return [
        (fc.name, f"the Special on {fc.name}")
        for fc in state.opponent(seat).field
        if fc.special and not fc.special_face_up
    ]


def _own_face_up(state: TcgState, seat: int) -> list[tuple[str, str]]:
    return [(fc.name, fc.name) for fc in state.players[seat].field if fc.face_up]


TARGETS: dict[str, TargetFn] = {
    "file": _file,
    "opp_face_down": _opp_face_down,
    "opp_special_up": _opp_bearing(lambda s, n: True),
    "opp_shinigami_up": _opp_bearing(lambda s, n: s.cards[n].shinigami),
    "opp_deathnote_up": _opp_bearing(adds_deathnote),
    "opp_hidden_special": _opp_hidden_special,
    "own_face_up": _own_face_up,
}


def targets(state: TcgState, seat: int, ability: Ability) -> list[tuple[str, str]]:
    """The (value, label) targets of an ability now; [] when it needs none."""
    return TARGETS[ability.target](state, seat) if ability.target else []


# -- resolutions -----------------------------------------------------------------------------


def exposed(state: TcgState, seat: int) -> tuple[str, ...]:
    """The names of the opponent's face-up Characters, most valuable first (points, half
    the cost, a Special's bonus: as the heuristic bot rates them); all public."""
    cards = state.cards

    def worth(fc: FieldCharacter) -> float:
        card = cards[fc.number]
        bonus = (2.0 if fc.special_face_up else 1.0) if fc.special else 0.0
        return card.points + card.cost * 0.5 + bonus

    field = [fc for fc in state.players[1 - seat].field if fc.face_up]
    return tuple(fc.name for fc in sorted(field, key=worth, reverse=True))


def write_name(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    """The Death Note action: the Kira card marks a page of the Character File, secretly."""
    player = state.players[seat]
    player.mark = Mark(
        target=target, turn=state.turn, source=card, character=actor, exposed=exposed(state, seat)
    )
    player.deathnote_turn = state.turn
    return [
        Event.public(
            f"{ops.who(state, seat)}'s {actor} performs a Death Note action: the Kira card "
            "now marks a page of the Character File.",
            seat=seat,
            character=actor,
        ),
        Event.private([seat], f"You wrote {target} in the Death Note.", seat=seat, target=target),
    ]


def _draw(count: int) -> ResolveFn:
    def resolve(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
        return ops.draw(state, seat, count)

    return resolve


def _gain(amount: int) -> ResolveFn:
    def resolve(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
        return ops.gain(state, seat, amount, state.cards[card].name)

    return resolve


def _drain(amount: int) -> ResolveFn:
    def resolve(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
        return ops.lose_points(state, 1 - seat, amount, state.cards[card].name)

    return resolve


def _destroy(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    return ops.destroy(state, 1 - seat, target, state.cards[card].name)


def _track(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    fc = state.opponent(seat).character(target)
    assert fc is not None
    fc.face_up = True
    return [
        Event.public(
            f"{ops.who(state, 1 - seat)}'s {target} is turned face up ({state.cards[card].name}).",
            seat=1 - seat,
            character=target,
        )
    ]


def _expose(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    fc = state.opponent(seat).character(target)
    assert fc is not None
    return ops.reveal_special(state, 1 - seat, fc, state.cards[card].name)


def _erase(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    other = state.opponent(seat)
    if other.mark is None:
        return [Event.public(f"{state.cards[card].name}: there was no mark to erase.")]
    other.mark = None
    return [
        Event.public(
            f"{ops.who(state, 1 - seat)}'s Death Note mark is erased and the Kira card "
            f"returns unread ({state.cards[card].name}).",
            seat=1 - seat,
        )
    ]


def _broadcast(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    count = sum(1 for fc in state.players[seat].field if fc.special and fc.special_face_up)
    return ops.gain(state, seat, count, state.cards[card].name)


def _followers(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    count = sum(
        1 for fc in state.players[seat].field if fc.face_up and fc.special and fc.special_face_up
    )
    return ops.gain(state, seat, count, state.cards[card].name)


def _surveil(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    other = state.opponent(seat)
    hand = sorted(other.hand)
    specials = [
        (fc.name, fc.special) for fc in other.field if fc.special and not fc.special_face_up
    ]
    other.shown.update(hand)
    other.shown.update(n for _, n in specials if n)
    hand_text = ", ".join(state.cards[n].label for n in hand) or "nothing"
    spec_text = "; ".join(f"{c}: {state.cards[n].label}" for c, n in specials if n) or "none"
    return [
        Event.public(f"{ops.who(state, seat)} looks at the opponent's hand and hidden Specials."),
        Event.private(
            [seat],
            f"Their hand: {hand_text}. Their face-down Specials: {spec_text}.",
            hand=hand,
            specials=[[c, n] for c, n in specials],
        ),
    ]


def _protect(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    state.players[seat].protected = True
    return [
        Event.public(
            f"{ops.who(state, seat)}'s Characters are safe from the next Death Note reveal.",
            seat=seat,
        )
    ]


def _rally(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    for fc in state.players[seat].field:
        if fc.face_up:
            fc.upright = True
    return [Event.public(f"{ops.who(state, seat)}'s face-up Characters stand upright again.")]


def _hide(state: TcgState, seat: int, actor: str, card: str, target: str) -> list[Event]:
    fc = state.players[seat].character(target)
    assert fc is not None
    fc.face_up = False
    return [
        Event.public(
            f"{ops.who(state, seat)} turns {target} face down.", seat=seat, character=target
        )
    ]


DEATH_NOTE = Ability("deathnote", "Death Note", write_name, target="file", deathnote=True)


def _deathnote_special(number: str, points: int = 0, draw: int = 0, work: int = 0) -> None:
    register(number, Effect((DEATH_NOTE,), work_bonus=work, dn_points=points, dn_draw=draw))


# -- the sample pool ("sample (not the printed card)") ----------------------------------------

register("DN-S01", Effect(work_bonus_with_special=1))  # Light Yagami
register("DN-S03", Effect(dn_kill_bonus=1))  # Teru Mikami
register("DN-S04", Effect((Ability("announce", "Announcement", _draw(1)),)))  # Kiyomi Takada
register("DN-S06", Effect((Ability("broadcast", "Kira Broadcast", _broadcast),)))  # Demegawa
register("DN-S10", Effect((Ability("puzzle", "Puzzle", _draw(1)),)))  # Near
register("DN-S12", Effect((Ability("supply", "Supply", _draw(1)),)))  # Watari
register("DN-S17", Effect((Ability("track", "Track", _track, "opp_face_down"),)))  # Naomi
_deathnote_special("DN-S23")  # Ryuk
_deathnote_special("DN-S24", points=1, draw=1)  # Rem
_deathnote_special("DN-S25", work=1)  # Sidoh
_deathnote_special("DN-S26", draw=1)  # Gelus
_deathnote_special("DN-S27", points=1)  # Light Yagami: Kira
_deathnote_special("DN-S28")  # Misa Amane: Second Kira
_deathnote_special("DN-S29")  # Teru Mikami: X-Kira
_deathnote_special("DN-S30")  # Kiyomi Takada: Kira's Spokeswoman
_deathnote_special("DN-S31")  # Kyosuke Higuchi: Yotsuba Kira
register("DN-S32", Effect((Ability("deduce", "Deduction", _destroy, "opp_shinigami_up"),)))
register("DN-S33", Effect((Ability("switch", "Switch the Notebook", _erase),)))
register("DN-S34", Effect((Ability("ransom", "Ransom", _drain(2)),)))
register("DN-S35", Effect(work_bonus=1))  # Soichiro Yagami: Chief's Resolve
register("DN-S36", Effect((Ability("drop", "Supply Drop", _draw(2)),)))
register("DN-S37", Effect((Ability("expose", "Expose", _expose, "opp_hidden_special"),)))
register("DN-S38", Effect((Ability("shoot", "Shoot", _destroy, "opp_deathnote_up"),)))
register("DN-S39", Effect((Ability("event", "Press Conference", _draw(2)),)))
register("DN-S40", Effect((Ability("event", "Surveillance Cameras", _surveil),)))
register("DN-S41", Effect((Ability("event", "The Thirteen-Day Rule", _protect),)))
register("DN-S42", Effect((Ability("event", "Arrest Warrant", _destroy, "opp_special_up"),)))
register("DN-S43", Effect((Ability("event", "Raid", _destroy, "opp_face_down"),)))
register("DN-S44", Effect((Ability("event", "Kira's Followers", _followers),)))
register("DN-S45", Effect((Ability("event", "Task Force Meeting", _rally),)))
register("DN-S46", Effect((Ability("event", "Yotsuba Profits", _gain(1)),)))
register("DN-S47", Effect((Ability("event", "Hostage", _drain(3)),)))
register("DN-S48", Effect((Ability("event", "An Apple for Ryuk", _draw(1)),)))
register("DN-S49", Effect((Ability("event", "Lind L. Tailor", _hide, "own_face_up"),)))
