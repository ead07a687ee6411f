"""The search bot's hooks (TCG-BOT-01): a cheap play-out policy on the state and an estimate
of each seat's chance at the start of a turn.

Both run on a sampled world's state (the search's own copy, drawn from the searching seat's
view), so they may read that world's state; the play-out policy reads only what the seat
to move sees of it (its own hand and field, the public fields, whether a Kira card is out).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from deathnote.engine.actions import Action
from deathnote.engine.rng import below
from deathnote.games.tcg.effects import effect_of
from deathnote.games.tcg.rules import work_points
from deathnote.games.tcg.state import (
    ACTION,
    CHARACTER,
    MULLIGAN,
    WIN_POINTS,
    FieldCharacter,
    Player,
)
from deathnote.games.tcg.state import TcgState as State

#: Abilities the play-out uses as soon as it can, in this order (destroy or drain the
#: opponent); the rest of the action phase is Work.
STRIKES = ("deathnote", "deduce", "shoot", "ransom", "expose", "track")
#: The Events the play-out plays when it can pay for them (the heuristic bot's sure ones).
#: Abilities whose bearer a marked play-out keeps face up (it strikes back).
STRIKERS_KEYS = frozenset({"deathnote", "shoot", "switch", "deduce"})
GOOD_EVENTS = frozenset({"DN-S42", "DN-S43", "DN-S46", "DN-S47"})
#: A play-out picks a uniformly random legal action this often (1 in ``EXPLORE``), so play-outs
#: from one world still differ.
EXPLORE = 10


def _worth(state: State, fc: FieldCharacter) -> float:
    """How much a Character on a field is worth (as the heuristic bot's ``_value``)."""
    card = state.cards[fc.number]
    bonus = (2.0 if fc.special_face_up else 1.0) if fc.special else 0.0
    return card.points + card.cost * 0.5 + bonus


def _keep_hidden(state: State, me: Player) -> str | None:
    """The Character a marked seat keeps face down (near the heuristic bot's rule): with 2
    or more on its field, its most valuable one worth at least 4 that bears no face-up
    striking Special; None when there is none."""
    if len(me.field) < 2:
        return None
    best: FieldCharacter | None = None
    best_worth = 4.0
    for fc in me.field:
        if fc.special is not None and fc.special_face_up and _strikes(state, fc.special):
            continue
        worth = _worth(state, fc)
        if worth >= best_worth:
            best, best_worth = fc, worth
    return best.name if best is not None else None


def _strikes(state: State, special: str) -> bool:
    """Whether a face-up Special lets its bearer destroy at once (the heuristic's strikers,
    Deduction included)."""
    return any(a.key in STRIKERS_KEYS for a in effect_of(state, special).abilities)


def playout(state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """The play-out's choice for ``seat``: the heuristic bot's quick choices on the state.

    Keep the opening hand; place the Character that earns most for its cost, attach and
    reveal Specials, keep Characters face up; in the action phase Work to reach 13 at once,
    else strike (Death Note, Deduction, Shoot, Ransom, Expose, Track), play a sure Event,
    Work, and end. Targets: the opponent's most valuable face-up Character (its Death Note
    page too), else the first. One choice in ``EXPLORE`` is uniformly random."""
    if below(rng, EXPLORE) == 0:
        return legal[below(rng, len(legal))]
    phase = state.phase
    if phase == MULLIGAN:
        return legal[0]  # keep
    me = state.players[seat]
    other = state.players[1 - seat]
    if state.choice is not None:
        names = {a["target"]: a for a in legal if a.kind == "target"}
        if not names:
            return legal[0]
        if state.choice["step"] == "attach":
            own = [fc for fc in me.field if fc.name in names]
            return names[max(own, key=lambda fc: _worth(state, fc)).name] if own else legal[0]
        theirs = [fc for fc in other.field if fc.name in names]
        if theirs:
            pick = max(theirs, key=lambda fc: (fc.face_up, _worth(state, fc)))
            return names[pick.name]
        return next(iter(names.values()))
    cards = state.cards
    if phase == CHARACTER:
        best: Action | None = None
        best_key = (-99, 0)
        attach: Action | None = None
        show: Action | None = None
        for action in legal:
            kind = action.kind
            if kind == "reveal":
                return action
            if kind == "place":
                card = cards[action["card"]]
                if card.cost == 0 or (card.points > card.cost and me.points - card.cost >= 1):
                    key = (card.points - card.cost, -card.cost)
                    if key > best_key:
                        best, best_key = action, key
            elif kind == "attach" and attach is None:
                attach = action
            elif kind == "show" and show is None:
                show = action
        if other.mark is not None:
            # Marked: hide the most valuable face-up Character unless it can strike back
            # (as the heuristic bot does), and leave it hidden.
            keep = _keep_hidden(state, me)
            if keep is not None:
                for action in legal:
                    if action.kind == "hide" and action["character"] == keep:
                        return best or attach or action
                if show is not None and show["character"] == keep:
                    show = next(
                        (a for a in legal if a.kind == "show" and a["character"] != keep), None
                    )
        return best or attach or show or legal[-1]  # the last is always "next"
    if phase == ACTION:
        works = [a for a in legal if a.kind == "work"]
        if works:
            gains = {
                fc.name: work_points(state, fc) for fc in me.field if fc.face_up and fc.upright
            }
            works.sort(key=lambda a: gains.get(a["character"], 0), reverse=True)
            if me.points + sum(gains.values()) >= WIN_POINTS:
                return works[0]
        acts = {a["ability"]: a for a in legal if a.kind == "act"}
        for ability in STRIKES:
            if ability in acts:
                return acts[ability]
        for action in legal:
            if action.kind == "event":
                card = cards[action["card"]]
                if card.printed in GOOD_EVENTS or (card.printed == "DN-S41" and other.mark):
                    return action
        if works:
            return works[0]
        return legal[-1]  # "end"
    return legal[below(rng, len(legal))]


#: ``evaluate``'s logistic model of the chance of the seat whose turn starts: intercept,
#: then weights of the points lead, the Work lead (what each side's face-up Characters
#: earn a turn), the lead in turns still needed to reach 13 at that rate, the Character
#: lead on the field, the hand lead, whether the opponent has a Death Note mark out, the
#: lead in face-up and in face-down Specials on the field, whether the seat's Work reaches
#: 13 this turn and whether the opponent's reaches it next turn. Fitted by maximum
#: likelihood on the turn starts of heuristic-against-heuristic games (docs/rules/tcg.md
#: TCG-BOT-01).
VALUE_MODEL = (0.452, 0.328, 0.095, 0.023, 0.891, 0.109, -0.135, 0.137, 0.193, 4.789, -1.156)


def turn_start(state: State) -> bool:
    """Whether the current seat's turn has just started: it has taken no action yet this
    turn (``TcgState.fresh``; an action that changes nothing, e.g. an attach cancelled,
    still counts, so a search cannot stall on the estimate of its own turn's start)."""
    return state.fresh and state.winner is None and state.phase == CHARACTER


def features(state: State) -> tuple[float, ...]:
    """The model's features (``VALUE_MODEL``) for the seat whose turn it is."""
    seat = state.current
    me, other = state.players[seat], state.players[1 - seat]

    def income(player: Player) -> int:
        return sum(work_points(state, fc) for fc in player.field if fc.face_up)

    def specials(player: Player) -> tuple[int, int]:
        up = sum(1 for fc in player.field if fc.special is not None and fc.special_face_up)
        down = sum(1 for fc in player.field if fc.special is not None and not fc.special_face_up)
        return up, down

    mine, theirs = income(me), income(other)
    need_me = max(WIN_POINTS - me.points, 0) / (mine + 1)
    need_them = max(WIN_POINTS - other.points, 0) / (theirs + 1)
    up_me, down_me = specials(me)
    up_them, down_them = specials(other)
    return (
        1.0,
        float(min(me.points, WIN_POINTS) - min(other.points, WIN_POINTS)),
        float(mine - theirs),
        need_them - need_me,
        float(len(me.field) - len(other.field)),
        float(len(me.hand) - len(other.hand)),
        1.0 if other.mark is not None else 0.0,
        float(up_me - up_them),
        float(down_me - down_them),
        1.0 if me.points + mine >= WIN_POINTS else 0.0,
        1.0 if other.points + theirs >= WIN_POINTS else 0.0,
    )


def evaluate(state: State) -> tuple[float, float] | None:
    """Each seat's chance to win from the start of a turn (``Game.evaluate``; None at any
    other point: the play-out goes on to the next turn's start)."""
    if state.winner is not None:
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
    if not turn_start(state) or state.players[1 - state.current].mark is not None:
        # A Death Note mark is out: it resolves at its writer's next turn start, so the
        # play-out goes on to it (the estimate cannot tell one page from another).
        return None
    z = sum(w * x for w, x in zip(VALUE_MODEL, features(state), strict=True))
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return (p, 1.0 - p) if state.current == 0 else (1.0 - p, p)


def pages(state: State, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
    """The Death Note pages a search considers (``Game.search_actions``): the names of the
    Characters on the opponent's field, face up or down (a page destroys only a Character
    face up there at the reveal; the seat's own names and names not in play are left out,
    and so is Cancel, which only comes back to the same choice); every action elsewhere,
    or when no page names one. Reads only public fields."""
    choice = state.choice
    if choice is None or choice["step"] != "act" or choice["ability"] != "deathnote":
        return legal
    names = {fc.name for fc in state.players[1 - seat].field}
    hits = [a for a in legal if a.kind == "target" and a["target"] in names]
    return hits or legal
