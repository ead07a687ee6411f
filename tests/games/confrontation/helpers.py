"""Helpers to set up exact situations of Confrontation (fixed identity, fixed deck order)."""

from __future__ import annotations

import random
from typing import Any

from deathnote.engine import OMNISCIENT, Action, Event
from deathnote.games.confrontation import GAME, content, rules
from deathnote.games.confrontation.state import KIRA, ConfState, L


def tables(chapter: int = 1) -> content.Tables:
    """The packaged content's lookups."""
    return content.tables(content.load(None, chapter), chapter)


def make_state(
    chapter: int = 1,
    identity: str = "G",
    suspects_top: str = "",
    leads_top: list[int] | None = None,
) -> ConfState:
    """A fresh state: Kira is ``identity``; the Suspect deck's top cards are ``suspects_top``
    (first letter drawn first); the Lead deck's top cards are ``leads_top`` (lead numbers)."""
    t = tables(chapter)
    me = t.letters.index(identity)
    top = [t.letters.index(x) for x in suspects_top]
    rest = [s for s in range(len(t.letters)) if s != me and s not in top]
    deck = rest + list(reversed(top))
    lead_top = [t.lead_numbers.index(n) for n in (leads_top or [])]
    lead_rest = [i for i in range(len(t.leads)) if i not in lead_top]
    return rules.build_state(t, me, deck, lead_rest + list(reversed(lead_top)))


def act(
    state: ConfState, seat: int, kind: str, rng: random.Random | None = None, **args: Any
) -> list[Event]:
    """Check and apply one action, as the Match does."""
    action = Action.make(kind, **args)
    GAME.check(state, seat, action)
    return GAME.apply(state, seat, action, rng or random.Random(0))


def texts(events: list[Event]) -> list[str]:
    """The texts of events."""
    return [e.text for e in events]


def chase(
    state: ConfState, kira: str, l_side: str, rng: random.Random | None = None
) -> list[Event]:
    """Follow the next lead and play the Chase with these sides, then answer every Switch
    or dice step that only allows "keep" (Chapter 2 asks them whatever a seat holds)."""
    ev = act(state, L, "follow", rng)
    ev += act(state, KIRA, "chase", rng, side=kira)
    ev += act(state, L, "chase", rng, side=l_side)
    return ev + keep_forced(state, rng)


def keep_forced(state: ConfState, rng: random.Random | None = None) -> list[Event]:
    """Answer the Switch and dice steps whose only choice is "keep"."""
    ev: list[Event] = []
    while state.phase in (rules.SWITCH, rules.DICE):
        seat = next(iter(GAME.pending(state)))
        legal = GAME.legal(state, seat)
        if len(legal) != 1:
            break
        ev += GAME.apply(state, seat, legal[0], rng or random.Random(0))
    return ev


def stars(state: ConfState, *rows: int) -> list[Event]:
    """L places the Stars of the card he drew in these rows (row indices), then the forced
    steps that follow."""
    ev = act(state, L, "star", rows=sorted(rows))
    return ev + keep_forced(state)


def set_news(state: ConfState, dice: list[str]) -> list[Event]:
    """Skip to the Nightly News with these dice (as if rolled)."""
    ev: list[Event] = []
    state.dice = list(dice)
    rules._open_news(state, ev)
    return ev


def news(state: ConfState, *numbers: int) -> list[Event]:
    """L picks these criminals for the news, one at a time."""
    ev: list[Event] = []
    for n in numbers:
        ev += act(state, L, "news", criminal=n)
    return ev


def kill(state: ConfState, number: int) -> list[Event]:
    """Kira kills a criminal from the news."""
    return act(state, KIRA, "kill", criminal=number)


def night(state: ConfState, *numbers: int, victim: int | None = None) -> list[Event]:
    """A whole Nightly News with dice matching the criminals; Kira kills ``victim``."""
    t = state.tables
    dice = [t.crime_type[t.index_of_number[n]] for n in numbers]
    ev = set_news(state, dice)
    ev += news(state, *numbers)
    if victim is not None:
        ev += kill(state, victim)
    return ev


def number_of(state: ConfState, index: int) -> int:
    """A criminal's printed number."""
    return state.tables.numbers[index]


def views(state: ConfState) -> dict[Any, Any]:
    """Every viewer's view."""
    return {v: GAME.view(state, v) for v in (KIRA, L, "spectator", OMNISCIENT)}


def outside(state: ConfState, letter: str) -> list[int]:
    """Numbers of the living criminals outside a Suspect's Local Area."""
    t = state.tables
    bit = 1 << t.letters.index(letter)
    return [
        t.numbers[c] for c in range(len(t.numbers)) if state.alive[c] and not t.local_mask[c] & bit
    ]
