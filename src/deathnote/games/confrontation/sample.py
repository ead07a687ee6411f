"""Sampled worlds: a copy of a state with everything a viewer cannot see drawn anew.

What is hidden, and from whom (CONF-SAMPLE-01 in the rules doc says how each is drawn):

- from L and a spectator: Kira's identity, Kira's Chase token while L has not chosen,
  where Kira's Apples lie in his Ryuk rows (and when a row he holds was completed);
- from Kira and a spectator: which Suspect cards L drew (their number is public), L's
  Chase token while Kira has not chosen, where L's Stars lie in his Intel rows;
- from every seat: the order of the Suspect deck and of the Lead deck.

The omniscient viewer, and every viewer once the game is over, sees all: the copy is
unchanged.
"""

from __future__ import annotations

import random
from operator import is_
from typing import cast

from deathnote.engine import rng as draw
from deathnote.engine.actions import OMNISCIENT, Viewer
from deathnote.games.confrontation.rules import BY_CARD, BY_QUIET, BY_REGIONAL, REGIONAL_LIMIT
from deathnote.games.confrontation.state import (
    CHASE,
    KILL,
    KIRA,
    NO_CHOICE,
    OVER,
    STARS,
    ConfState,
    L,
)

#: quick joint draws of an identity and L's cards before a complete search finds a pair
#: that agrees (``_search_cards``: the true pair always agrees, so the search never fails,
#: and it reads only what the viewer knows)
TRIES = 200
#: the Intel rows whose completion is announced to everyone
PUBLIC_INTEL = ("extra_suspect", "extra_quiet_night")


def sample(state: ConfState, viewer: Viewer, rng: random.Random) -> ConfState:
    """A copy of ``state`` drawn among the worlds ``viewer`` cannot tell from it."""
    world = state.fork()
    if viewer == OMNISCIENT or state.phase == OVER:
        return world
    # Nobody has seen the order of the Lead cards left. Sorted first, so the draw depends on
    # which cards are left and the generator only, never on the true order (a search bot
    # then plays alike in two matches its seat cannot tell apart).
    world.lead_deck.sort()
    draw.shuffle(rng, world.lead_deck)
    sees_kira = viewer == KIRA
    sees_l = viewer == L
    if not sees_kira:
        _redraw_token(world, KIRA, rng)
        _redraw_apples(world, rng)
    if not sees_l:
        _redraw_token(world, L, rng)
    if sees_l:
        candidates, undrawn = _l_plan(state)
        world.identity = candidates[draw.below(rng, len(candidates))]
        _deal_rest(world, rng, undrawn)
    elif sees_kira:
        _redraw_cards(world, [state.identity], rng)
    else:
        _redraw_cards(world, _candidates(state), rng)
    world.regional_used = world.outside[world.identity]
    return world


# -- the Suspects ------------------------------------------------------------------------
#: ``public_eliminations`` of the last few histories: (tables, the history's day notes,
#: the answer) by (tables, length, last note): the notes are never changed once written
#: and forks share them, so the same notes (the same objects, kept here alive so that no
#: other note takes their ids) give the same answer. A search samples hundreds of worlds
#: from one position.
_ELIMINATED: dict[
    tuple[int, int, int], tuple[object, tuple[object, ...], dict[int, tuple[int, str]]]
] = {}
ELIMINATED_KEPT = 64


def public_eliminations(state: ConfState) -> dict[int, tuple[int, str]]:
    """Suspects the public record rules out (Methods 2 and 3): Suspect -> (night, reason),
    the first night and reason; L's notebook adds the cards he drew. (A new dict each
    time: the answers for one history are kept, ``_ELIMINATED``.)"""
    t = state.tables
    history = state.history
    key = (id(t), len(history), id(history[-1]) if history else 0)
    kept = _ELIMINATED.get(key)
    if kept is not None and kept[0] is t and all(map(is_, kept[1], history)):
        return dict(kept[2])
    out = _public_eliminations(state)
    if len(_ELIMINATED) >= ELIMINATED_KEPT:
        _ELIMINATED.clear()
    _ELIMINATED[key] = (t, tuple(history), out)
    return dict(out)


def _public_eliminations(state: ConfState) -> dict[int, tuple[int, str]]:
    t = state.tables
    limit = REGIONAL_LIMIT[t.chapter]
    n = len(t.letters)
    outside = [0] * n
    out: dict[int, tuple[int, str]] = {}
    for night in state.history:
        day = cast(int, night["day"])
        killed = cast("int | None", night["killed"])
        if killed is not None:
            mask = t.local_mask[t.index_of_number[killed]]
            for s in range(n):
                if not mask >> s & 1:
                    outside[s] += 1
                    if outside[s] == limit + 1 and s not in out:
                        out[s] = (day, BY_REGIONAL)
        else:
            near = 0
            for number in cast("list[int]", night["news"]):
                near |= t.local_mask[t.index_of_number[number]]
            for s in range(n):
                if (near >> s & 1 or outside[s] < limit) and s not in out:
                    out[s] = (day, BY_QUIET)
    return out


def _candidates(state: ConfState) -> list[int]:
    """The Suspects the public record allows as Kira: not ruled out by a kill or a Quiet
    Night, and, while Kira is asked to kill, with a kill allowed among tonight's news."""
    t = state.tables
    ruled = public_eliminations(state)
    limit = REGIONAL_LIMIT[t.chapter]
    out = []
    killing = state.phase == KILL
    near = 0  # the Suspects with a criminal of tonight's news in their Local Area
    if killing:
        for c in state.news:
            near |= t.local_mask[c]
    outside = state.outside
    for s in range(len(t.letters)):
        if s in ruled:
            continue
        if killing and outside[s] >= limit and not near >> s & 1:
            continue  # no kill allowed to this Suspect tonight
        out.append(s)
    return out


#: the last ``_l_plan``: (what it was read from, the history's notes, the answer)
_L_PLAN: list[tuple[tuple[object, ...], tuple[object, ...], tuple[list[int], list[int]]]] = []


def _l_plan(state: ConfState) -> tuple[list[int], list[int]]:
    """What L's samples of ``state`` draw from: the Suspects L cannot rule out as Kira
    (``_candidates`` less his notebook) and the Suspect cards he has not drawn, in order.
    The last answer is kept with what it was read from (a search samples hundreds of worlds
    from one position): the history's notes (never changed once written: the same objects
    give the same answer), the phase, tonight's news, the outside kills, L's notebook and
    his cards. The answer is not to be changed."""
    history = state.history
    killing = state.phase == KILL
    read = (
        len(history),
        killing,
        state.news if killing else None,
        state.outside,
        state.eliminated,
        state.cards_drawn,
    )
    if _L_PLAN:
        before, notes, answer = _L_PLAN[0]
        if notes[0] is state.tables and before == read and all(map(is_, notes[1:], history)):
            return answer
    eliminated = state.eliminated
    drawn = set(state.cards_drawn)
    answer = (
        [s for s in _candidates(state) if s not in eliminated],
        [s for s in range(len(state.tables.letters)) if s not in drawn],
    )
    kept = (  # copies of the lists and the dict read (the state may change them)
        len(history),
        killing,
        list(state.news) if killing else None,
        list(state.outside),
        dict(eliminated),
        list(state.cards_drawn),
    )
    _L_PLAN[:] = [(kept, (state.tables, *history), answer)]
    return answer


def _deal_rest(world: ConfState, rng: random.Random, undrawn: list[int] | None = None) -> None:
    """The Suspect deck: every card not Kira's and not drawn, in a random order
    (``undrawn``: the cards not drawn, in order, where the caller has them)."""
    me = world.identity
    if undrawn is None:
        drawn = set(world.cards_drawn)
        deck = [s for s in range(len(world.tables.letters)) if s != me and s not in drawn]
    else:
        deck = list(undrawn)  # every card appears once: Kira's taken out (in C)
        if me in deck:
            deck.remove(me)
    draw.shuffle(rng, deck)
    world.suspect_deck = deck


def _redraw_cards(world: ConfState, identities: list[int], rng: random.Random) -> None:
    """Kira's identity (among ``identities``) and the cards L drew, drawn together until
    the cards' Stars explain every public Intel row L completed; then L's Stars spread."""
    t = world.tables
    n = len(t.letters)
    k = len(world.cards_drawn)
    for _ in range(TRIES):
        me = identities[draw.below(rng, len(identities))]
        others = list(range(n))
        del others[me]  # every Suspect but Kira's, in order
        cards = draw.sample(rng, others, k)
        if _stars_agree(world, cards):
            break
    else:
        me, cards = _search_cards(world, identities, rng)
    world.identity = me
    world.cards_drawn = cards
    _deal_rest(world, rng)
    _rebuild_notebook(world)
    _redraw_stars(world, rng)


def _search_cards(
    world: ConfState, identities: list[int], rng: random.Random
) -> tuple[int, list[int]]:
    """An identity and L's cards that agree with the public Intel record, found by a
    complete search when the quick draws found none: the identities in a random order, and
    for each a depth-first search over the Stars of the cards in draw order (each step's
    Star counts in a random order, cut where a prefix can no longer agree); then the cards
    themselves drawn among the Suspects with those Stars. It reads only what the viewer
    knows, and an answer exists (the true one), so it never fails; such rare worlds are
    consistent, not uniformly drawn (CONF-SAMPLE-01)."""
    t = world.tables
    n = len(t.letters)
    k = len(world.cards_drawn)
    order = list(identities)
    draw.shuffle(rng, order)
    for me in order:
        by_stars: dict[int, list[int]] = {}
        for s in range(n):
            if s != me:
                by_stars.setdefault(t.stars[s], []).append(s)
        left = {v: len(group) for v, group in sorted(by_stars.items())}
        values: list[int] = []
        counted = _placed_cards(world)
        # Whether a prefix can be completed depends only on its length, its sums (all of
        # it, and of the cards whose Stars are placed) and the cards left: the prefixes
        # found hopeless are remembered, so the search visits each such state once.
        hopeless: set[tuple[int, int, int, tuple[int, ...]]] = set()

        def extend(
            left: dict[int, int] = left,
            values: list[int] = values,
            counted: int = counted,
            hopeless: set[tuple[int, int, int, tuple[int, ...]]] = hopeless,
        ) -> bool:
            if len(values) == k:
                return _values_agree(world, values)
            state = (len(values), sum(values[:counted]), sum(values), tuple(left.values()))
            if state in hopeless:
                return False
            options = [v for v, count in left.items() if count > 0]
            draw.shuffle(rng, options)
            for v in options:
                left[v] -= 1
                values.append(v)
                if _prefix_may_agree(world, values, k) and extend():
                    return True
                values.pop()
                left[v] += 1
            hopeless.add(state)
            return False

        if extend():
            pools = {v: list(group) for v, group in sorted(by_stars.items())}
            for pool in pools.values():
                draw.shuffle(rng, pool)
            return me, [pools[v].pop() for v in values]
    raise RuntimeError("no identity and cards agree with the record")  # pragma: no cover


def _placed_cards(world: ConfState) -> int:
    """The cards whose Stars L has placed (the last one waits while he is asked)."""
    return len(world.cards_drawn) - (1 if world.phase == STARS else 0)


def _stars_agree(world: ConfState, cards: list[int]) -> bool:
    """Whether L, drawing ``cards``, could have completed the announced Intel rows when he
    did (enough Stars by then) and not the others (no Star beyond their room)."""
    t = world.tables
    if t.chapter != 2:
        return True
    return _values_agree(world, [t.stars[c] for c in cards])


def _values_agree(world: ConfState, stars: list[int]) -> bool:
    """``_stars_agree`` for cards with these Stars, in draw order."""
    rows = world.tables.intel_rows
    for i, (ability, _cost) in enumerate(rows):
        if ability in PUBLIC_INTEL and world.intel_used[i]:
            at = world.intel_at[i]
            need = sum(
                c
                for j, (a, c) in enumerate(rows)
                if a in PUBLIC_INTEL and world.intel_used[j] and 0 <= world.intel_at[j] <= at
            )
            if at < 1 or sum(stars[:at]) < need:
                return False
    fixed, room = _fixed_and_room(world, rows, world.stars, world.intel_used, PUBLIC_INTEL)
    placed = min(sum(stars[: _placed_cards(world)]), sum(c for _a, c in rows))
    return fixed <= placed <= fixed + sum(room)


def _prefix_may_agree(world: ConfState, stars: list[int], k: int) -> bool:
    """Whether cards starting with these Stars may still agree (``_values_agree``): every
    announced row completed within the prefix had enough Stars by then, and the Stars placed
    may still end between the announced ones and the room left."""
    t = world.tables
    rows = t.intel_rows
    done = len(stars)
    for i, (ability, _cost) in enumerate(rows):
        if ability in PUBLIC_INTEL and world.intel_used[i]:
            at = world.intel_at[i]
            if at < 1:
                return False
            if at <= done:
                need = sum(
                    c
                    for j, (a, c) in enumerate(rows)
                    if a in PUBLIC_INTEL and world.intel_used[j] and 0 <= world.intel_at[j] <= at
                )
                if sum(stars[:at]) < need:
                    return False
    fixed, room = _fixed_and_room(world, rows, world.stars, world.intel_used, PUBLIC_INTEL)
    cap = sum(c for _a, c in rows)
    counted = _placed_cards(world)
    so_far = sum(stars[:counted])
    if min(so_far, cap) > fixed + sum(room):
        return False  # sums only grow
    most = max(t.stars) if t.stars else 0
    still = max(0, counted - done) * most
    return min(so_far + still, cap) >= fixed


def _fixed_and_room(
    world: ConfState,
    rows: tuple[tuple[str, int], ...],
    filled: list[int],
    used: list[bool],
    public: tuple[str, ...],
) -> tuple[int, list[int]]:
    """The marks every viewer knows (rows whose use or completion was announced) and the
    room the others leave: an unannounced public row stops one short of its cost."""
    fixed = 0
    room = []
    for i, (ability, cost) in enumerate(rows):
        if used[i]:
            fixed += cost
            room.append(0)
        elif ability in public:
            room.append(cost - 1)
        else:
            room.append(cost)
    return fixed, room


def _spread(rng: random.Random, room: list[int], count: int) -> list[int]:
    """``count`` marks dropped one at a time into rows with room, each uniformly."""
    out = [0] * len(room)
    left = list(room)
    for _ in range(count):
        open_rows = [i for i, r in enumerate(left) if r > 0]
        i = open_rows[draw.below(rng, len(open_rows))]
        out[i] += 1
        left[i] -= 1
    return out


def _redraw_stars(world: ConfState, rng: random.Random) -> None:
    t = world.tables
    if t.chapter != 2:
        return
    rows = t.intel_rows
    fixed, room = _fixed_and_room(world, rows, world.stars, world.intel_used, PUBLIC_INTEL)
    stars = [t.stars[c] for c in world.cards_drawn]
    placed = min(sum(stars[: _placed_cards(world)]), sum(c for _a, c in rows))
    spread = _spread(rng, room, placed - fixed)
    for i, (_ability, cost) in enumerate(rows):
        if world.intel_used[i]:
            continue
        world.stars[i] = spread[i]
        world.intel_day[i] = world.star_day if spread[i] >= cost else 0
        world.intel_at[i] = -1
    if world.phase == STARS:
        world.stars_to_place = t.stars[world.cards_drawn[-1]]


def _rebuild_notebook(world: ConfState) -> None:
    """L's eliminations for the drawn cards: a card counts from the day it was drawn (the
    Chase comes before that day's night), the public record from its night."""
    public = public_eliminations(world)
    out: dict[int, str] = {}
    first: dict[int, tuple[int, int]] = {}
    for s, (night, reason) in public.items():
        first[s] = (night, 1)
        out[s] = reason
    for s, day in zip(world.cards_drawn, world.card_days, strict=True):
        if s not in first or (day, 0) < first[s]:
            first[s] = (day, 0)
            out[s] = BY_CARD
    world.eliminated = {s: out[s] for s in sorted(first, key=first.__getitem__)}


# -- secret choices and Kira's tracker ---------------------------------------------------------
def _redraw_token(world: ConfState, seat: int, rng: random.Random) -> None:
    """A token laid face down while the other seat has not chosen: either side alike."""
    if (
        world.phase == CHASE
        and world.chase[seat] != NO_CHOICE
        and world.chase[1 - seat] == NO_CHOICE
    ):
        world.chase[seat] = draw.below(rng, 2)


def _redraw_apples(world: ConfState, rng: random.Random) -> None:
    """Kira's Apples spread again over the rows, keeping what was announced (points rows
    completed, abilities used) and every unannounced points row short of full."""
    t = world.tables
    if t.chapter != 2:
        return
    rows = t.ryuk_rows
    fixed, room = _fixed_and_room(
        world, rows, world.apples, world.ryuk_used, ("points_2", "points_3")
    )
    spread = _spread(rng, room, sum(world.apples) - fixed)
    for i, (_ability, cost) in enumerate(rows):
        if world.ryuk_used[i]:
            continue
        world.apples[i] = spread[i]
        world.ryuk_day[i] = world.apple_day if spread[i] >= cost else 0
