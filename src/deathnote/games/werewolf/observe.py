"""The observation tensor of Death Note Werewolf: a flat float32 vector built from a view.

It is built from ``Match.view(viewer)``'s ``state`` part only (what the viewer may see), so two
worlds the viewer cannot tell apart give equal vectors. The layout (``P`` = players, card and
Role blocks in the order of ``content.CARD_IDS`` and ``content.ROLE_IDS``) is in the rules doc
(WW-OBS-01) and in ``SECTIONS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from deathnote.engine.actions import OMNISCIENT, Viewer

from .content import CARD_IDS, ROLE_IDS, TEAMS
from .rules import seat_of
from .state import WwState

CARD = {c: i for i, c in enumerate(CARD_IDS)}
ROLE = {r: i for i, r in enumerate(ROLE_IDS)}
STEP_KINDS = (
    "turn",
    "target",
    "direction",
    "give_lowest",
    "give_back",
    "vote",
    "interrogate",
    "judgment",
    "shinigami",
)
PHASES = ("investigation", "judgment")
NC, NR = len(CARD_IDS), len(ROLE_IDS)
#: Per seat: alive, hand size, first player, current player, Role known (one-hot), hand known.
SEAT_BLOCK = 4 + NR + NC


def sections(players: int) -> list[tuple[str, int]]:
    """The named parts of the vector, in order, with their lengths."""
    p = players
    return [
        ("viewer: seat one-hot, spectator, omniscient", p + 2),
        ("my Role one-hot", NR),
        ("my hand: count per card", NC),
        ("I am asked to decide", 1),
        ("per seat: alive, hand size, first, current, known Role, known hand", p * SEAT_BLOCK),
        ("discard pile: count per card", NC),
        ("out of the game: count per card", NC),
        ("deck size", 1),
        ("phase one-hot", len(PHASES)),
        ("Judgment Phases played", 1),
        ("turns left before Judgment", 1),
        ("step kind one-hot", len(STEP_KINDS)),
        ("step player one-hot", p),
        ("step named player one-hot", p),
        ("step card one-hot", NC),
        ("Interrogation direction: left, right", 2),
        ("card I took (Exchange) one-hot", NC),
        ("Worshipper's pointing seen by Kira: seat one-hot, no one", p + 1),
        ("winning team one-hot", len(TEAMS)),
        ("Handgun reveals to the shooter only", 1),
    ]


@cache
def observation_size(players: int) -> int:
    """The length of the vector for this table size."""
    return sum(n for _, n in sections(players))


def observation(view: dict[str, Any], players: int, viewer: Viewer, asked: bool) -> np.ndarray:
    """The vector of one viewer's view (``Game.view`` output) and whether it is asked."""
    p = players
    out = np.zeros(observation_size(p), dtype=np.float32)
    me = view.get("me")
    i = 0
    if isinstance(viewer, int):
        out[i + viewer] = 1
    elif viewer == OMNISCIENT:
        out[i + p + 1] = 1
    else:
        out[i + p] = 1
    i += p + 2
    if me is not None:
        out[i + ROLE[me["role"]]] = 1
    i += NR
    if me is not None:
        for c in me["hand"]:
            out[i + CARD[c["id"]]] += 1
    i += NC
    out[i] = asked
    i += 1
    known = me["known_roles"] if me is not None else {}
    seen = me["seen_hands"] if me is not None else {}
    hands = view.get("hands")
    for x in view["seats"]:
        s = x["seat"]
        out[i] = x["alive"]
        out[i + 1] = x["hand_size"]
        out[i + 2] = x["first"]
        out[i + 3] = x["current"]
        role = x["role"] or known.get(str(s))
        if role is not None:
            out[i + 4 + ROLE[role]] = 1
        hand = hands[s] if hands is not None else seen.get(str(s), ())
        for c in hand:
            out[i + 4 + NR + CARD[c]] += 1
        i += SEAT_BLOCK
    for c in view["discard"]:
        out[i + CARD[c]] += 1
    i += NC
    for c in view["removed"]:
        out[i + CARD[c]] += 1
    i += NC
    out[i] = view["deck"]
    i += 1
    out[i + PHASES.index(view["phase"])] = 1
    i += len(PHASES)
    out[i] = view["judgments"]
    out[i + 1] = view["turns_left"]
    i += 2
    i = _encode_step(out, i, view["step"] or {}, p)
    if me is not None and "took" in me:
        out[i + CARD[me["took"]]] = 1
    i += NC
    if me is not None and "suggested" in me:
        pointed = me["suggested"]
        out[i + (p if pointed < 0 else pointed)] = 1
    i += p + 1
    if view["winner"] is not None:
        out[i + TEAMS.index(view["winner"])] = 1
    i += len(TEAMS)
    out[i] = view["handgun_reveal"] == "shooter"
    i += 1
    assert i == out.size
    return out


def state_observation(st: WwState, viewer: Viewer, asked: bool) -> np.ndarray:
    """``observation(build_view(st, viewer), ...)`` read from the state without building
    the view (the learning adapters ask for it at every step). It reads only what that
    view shows this viewer, by the view's own rules (``public_step``, a Role shown to its
    holder, when dead and at the end); a test checks it equals the view's vector for
    every viewer at every step of random games."""
    p = st.players
    # The viewer's slot and the handgun option stay the same all game: copied from a
    # template; the rest is written item by item through a memoryview (as cheap per item
    # as a list, nothing to convert at the end), flags only when set.
    shooter = st.options["handgun_reveal"] == "shooter"
    template = _TEMPLATES.get((p, viewer, shooter))
    if template is None:
        template = _TEMPLATES[p, viewer, shooter] = _template(p, viewer, shooter)
    array = template.copy()
    out: Any = array.data
    winner = st.winner
    everything = viewer == OMNISCIENT or winner is not None
    mine = isinstance(viewer, int)
    me = st.seats[viewer] if isinstance(viewer, int) else None
    i = p + 2
    if me is not None:
        out[i + ROLE[me.role]] = 1.0
    i += NR
    if me is not None:
        for c in me.hand:
            out[i + CARD[c]] += 1.0
    i += NC
    if asked:
        out[i] = 1.0
    i += 1
    known = me.known_roles if me is not None else None
    seen = me.seen_hands if me is not None else None
    first, current = st.first, st.current
    for s, x in enumerate(st.seats):
        alive = x.alive
        if alive:
            out[i] = 1.0
        hand: Sequence[str] = x.hand
        out[i + 1] = len(hand)
        if s == first:
            out[i + 2] = 1.0
        if s == current:
            out[i + 3] = 1.0
        if everything or not alive or viewer == s:
            role: str | None = x.role
        else:
            role = known.get(s) if known else None
        if role is not None:
            out[i + 4 + ROLE[role]] = 1.0
        if not everything:
            hand = seen.get(s, ()) if seen else ()
        if hand:
            at = i + 4 + NR
            for c in hand:
                out[at + CARD[c]] += 1.0
        i += SEAT_BLOCK
    for c in st.discard:
        out[i + CARD[c]] += 1.0
    i += NC
    for c in st.removed:
        out[i + CARD[c]] += 1.0
    i += NC
    out[i] = len(st.deck)
    i += 1
    out[i + _PHASE[st.phase]] = 1.0
    i += len(PHASES)
    out[i] = st.judgments
    out[i + 1] = len(st.order)
    i += 2
    # the public step (``public_step``'s kind, player, named player, card and direction),
    # read from the step itself
    secret = st.step
    if secret is not None:
        k = secret["k"]
        out[i + _STEP[k]] = 1.0
        at = i + len(STEP_KINDS)
        if k in _STEP_PLAYER:
            out[at + secret["seat"]] = 1.0
            if k == "give_back":
                out[at + p + secret["to"]] = 1.0
            elif k == "target":
                out[at + 2 * p + CARD[secret["card"]]] = 1.0
            elif k == "interrogate":
                out[at + 2 * p + NC + (0 if secret["dir"] == "left" else 1)] = 1.0
        elif k == "give_lowest":
            out[at + secret["to"]] = 1.0
            out[at + p + secret["seat"]] = 1.0
    i += len(STEP_KINDS) + 2 * p + NC + 2
    if mine and secret is not None:
        if secret["k"] == "give_back" and secret["seat"] == viewer:
            out[i + CARD[secret["took"]]] = 1.0
        pointed = secret.get("suggested") if secret["k"] == "judgment" else None
        if pointed is not None and viewer == seat_of(st, "kira"):
            out[i + NC + (p if pointed < 0 else pointed)] = 1.0
    i += NC + p + 1
    if winner is not None:
        out[i + TEAMS.index(winner)] = 1.0
    # the handgun option's slot (the last) is in the template
    return array


#: the start of ``state_observation``'s array by (players, viewer, handgun shown to the
#: shooter only): the viewer's slot and the option's set, the rest zero (read-only)
_TEMPLATES: dict[tuple[int, Viewer, bool], np.ndarray] = {}


def _template(p: int, viewer: Viewer, shooter: bool) -> np.ndarray:
    """The slots of ``state_observation`` fixed for a viewer all game."""
    array = np.zeros(observation_size(p), dtype=np.float32)
    if isinstance(viewer, int):
        array[viewer] = 1.0
    elif viewer == OMNISCIENT:
        array[p + 1] = 1.0
    else:
        array[p] = 1.0
    if shooter:
        array[-1] = 1.0
    array.flags.writeable = False
    return array


_PHASE = {phase: i for i, phase in enumerate(PHASES)}
_STEP = {kind: i for i, kind in enumerate(STEP_KINDS)}
#: the steps whose ``seat`` is the public step's player (``public_step``)
_STEP_PLAYER = frozenset(
    ("turn", "target", "direction", "give_back", "vote", "interrogate", "shinigami")
)


def _encode_step(out: Any, i: int, step: dict[str, Any], p: int) -> int:
    """The public step (its kind, player, named player, card, direction) from ``i`` on, in
    either tensor (the view's or the state's); returns the index after it."""
    if step:
        out[i + _STEP[step["kind"]]] = 1.0
    i += len(STEP_KINDS)
    if "player" in step:
        out[i + step["player"]] = 1.0
    i += p
    if "named" in step:
        out[i + step["named"]] = 1.0
    i += p
    if "card" in step:
        out[i + CARD[step["card"]]] = 1.0
    i += NC
    if "dir" in step:
        out[i + (0 if step["dir"] == "left" else 1)] = 1.0
    return i + 2
