"""Copies of a state and worlds a viewer cannot tell from the real one.

``fork_state`` copies by hand (the content is shared, never copied). ``sample_state``
redraws what a viewer cannot see, as the rules doc's "How a world is sampled" describes:
the hidden Roles are permuted among the slots the viewer does not know (keeping the public
facts about Roles), the cards the viewer cannot place are dealt anew into the same places
(hands, set-up pairs, draw pile, discard) keeping each place's size, the Investigations the
viewer has not seen are shuffled within their pile's places, and choices other seats made
in secret (votes, the Detective's Suspicions before they land, a designation not yet
announced) are drawn again. Everyone else's knowledge (their looks, their certainties) is
renamed by the same permutations, so the sample stays consistent for every seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from deathnote.engine.actions import OMNISCIENT, Viewer
from deathnote.engine.rng import choice, sample, shuffle

from .cards import _page_targets, dn_play_options, force_options, others, ransom_options
from .flow import INVESTIGATOR_ROLES, faction, name, ref_role, role_name, round_order
from .rounds import give_card_options, give_to_prompt, keep_options
from .state import EnqState, InactiveRole, SeatState, Step, new_version
from .tiles import (
    discard_options,
    matsuda_options,
    overcast_options,
    players_options,
    rebirth_options,
    unrevealed_of,
)

_COPY = (list, dict)


def _copy_step(step: Step) -> Step:
    twin = step.copy()
    for k, v in step.items():
        if type(v) in _COPY:
            twin[k] = v.copy()
    return twin


def _copy_seat(seat: SeatState, hands: bool = True, roles: bool = True) -> SeatState:
    """A copy of the seat; with ``hands`` or ``roles`` False, its ``known_hands`` or
    ``known_roles`` are the original's (for a caller that puts new ones in their place)."""
    twin = object.__new__(SeatState)
    twin.__dict__.update(seat.__dict__)
    twin.hand = seat.hand.copy()
    twin.extra = [e.copy() for e in seat.extra] if seat.extra else []
    if roles:
        twin.known_roles = seat.known_roles.copy()
    if hands:
        known = seat.known_hands
        twin.known_hands = {k: v.copy() for k, v in known.items()} if known else {}
    return twin


def fork_state(st: EnqState) -> EnqState:
    """An independent copy; the content (and the options, never changed) are shared."""
    return _fork(st)


def _fork(st: EnqState, cards_of: int = -1, roles_of: int = -1, tiles_of: int = -1) -> EnqState:
    """``fork_state``; for a sample, what the sample makes anew for every viewer but one
    is not copied but left the original's: every other viewer's ``pins`` and seat's
    ``known_hands`` (but ``cards_of``'s), every other seat's ``known_roles`` (but
    ``roles_of``'s), every other viewer's ``tile_known`` (but ``tiles_of``'s); -1: all
    copied."""
    twin = object.__new__(EnqState)
    twin.__dict__.update(st.__dict__)
    twin.table_version = new_version()  # its own (see ``EnqState.table_version``)
    if cards_of < 0 and roles_of < 0:
        twin.seats = [_copy_seat(x) for x in st.seats]
    else:
        twin.seats = [
            _copy_seat(x, cards_of < 0 or s == cards_of, roles_of < 0 or s == roles_of)
            for s, x in enumerate(st.seats)
        ]
    twin.inactive = [InactiveRole(r.role, r.revealed, r.dead) for r in st.inactive]
    # (one by one, not by name in a loop: a fork is a sizeable share of a sampled world)
    twin.deck = st.deck.copy()
    twin.discard = st.discard.copy()
    twin.tiles = st.tiles.copy()
    twin.tile_discard = st.tile_discard.copy()
    twin.alibi = st.alibi.copy()
    twin.no_draw = st.no_draw.copy()
    twin.no_draw_next = st.no_draw_next.copy()
    twin.lying = st.lying.copy()
    twin.silence_exempt = st.silence_exempt.copy()
    twin.tile_flags = st.tile_flags.copy()
    twin.apples = st.apples.copy()
    twin.tile_top = st.tile_top.copy()
    twin.decision_liars = st.decision_liars.copy()
    twin.search_bonus = st.search_bonus.copy()
    twin.preset = st.preset.copy()
    twin.given = st.given.copy()
    twin.revealed_by = st.revealed_by.copy()
    twin.kills = [k.copy() for k in st.kills] if st.kills else []
    twin.stats = [x.copy() for x in st.stats]
    twin.apple_lines = [x.copy() for x in st.apple_lines] if st.apple_lines else []
    if cards_of < 0:
        twin.pins = [x.copy() for x in st.pins]
    else:
        twin.pins = st.pins.copy()
        twin.pins[cards_of] = st.pins[cards_of].copy()
    if tiles_of < 0:
        twin.tile_known = [x.copy() for x in st.tile_known]
    else:
        twin.tile_known = st.tile_known.copy()
        twin.tile_known[tiles_of] = st.tile_known[tiles_of].copy()
    twin.facts = [x.copy() for x in st.facts] if st.facts else []
    twin.stack = [_copy_step(s) for s in st.stack]
    return twin


# -- options that depend on hidden things, rebuilt after a redraw -----------------------------
def _opts(options: list[tuple[object, str]]) -> list[list[Any]]:
    return [[v, label] for v, label in options]


REBUILD: dict[str, Callable[[EnqState, Step], list[tuple[object, str]]]] = {
    "setup_keep": lambda st, s: keep_options(st, s["drawn"]),
    "give_card": lambda st, s: give_card_options(st),
    "dn_play": lambda st, s: dn_play_options(st, s["seat"], s["target"]),
    "bm_force": lambda st, s: force_options(st, s["target"]),
    "hostage_give": lambda st, s: ransom_options(st, s["seat"]),
    "tactic_choice": lambda st, s: [(0, "Discard nothing"), *discard_options(st, s["seat"])],
    "discard_one": lambda st, s: discard_options(st, s["seat"]),
    "gaze_discard": lambda st, s: discard_options(st, s["target"]),
    "rebirth_choice": lambda st, s: rebirth_options(st, s["seat"]),
    "overcast_choice": lambda st, s: overcast_options(st, s["seat"]),
    "matsuda_choice": lambda st, s: matsuda_options(st, s["seat"]),
    "rift_second": lambda st, s: players_options([x for x in unrevealed_of(st) if x != s["a"]]),
    "love_second": lambda st, s: players_options([x for x in round_order(st) if x != s["a"]]),
    "pact_add": lambda st, s: players_options(
        [x for x in unrevealed_of(st) if x not in s["chosen"]]
    ),
    "ally_second": lambda st, s: [
        (r, f"Name {role_name(st, r)}") for r in INVESTIGATOR_ROLES if r != s["a"]
    ],
}


def rebuild_options(st: EnqState, step: Step) -> None:
    """Recompute a choice step's options (and prompt) from the state as it is now."""
    if step["k"] != "pick":
        return
    fn_name = step["fn"]
    if fn_name in REBUILD:
        step["options"] = _opts(REBUILD[fn_name](st, step))
    if fn_name == "give_to":
        step["prompt"] = give_to_prompt(st, step["card"])
    if fn_name in ("bm_force",):
        step["prompt"] = f"Blackmail: which Action must {name(step['target'])} play?"


# -- sampling ----------------------------------------------------------------------------------
def sample_state(st: EnqState, viewer: Viewer, rng: random.Random) -> EnqState:
    """A copy in which all that ``viewer`` cannot see is drawn anew (see the module doc)."""
    if viewer == OMNISCIENT:
        return fork_state(st)
    me = viewer if isinstance(viewer, int) else st.players
    plan = plan_of(st, viewer, me)
    # What the redraw below makes anew for the other viewers is not copied first.
    twin = _fork(
        st,
        -1 if plan.cards is None else me,
        -1 if plan.roles is None else (viewer if isinstance(viewer, int) else st.players),
        me if plan.tiles else -1,
    )
    _redraw_choices(twin, viewer, me, rng)
    _sample_roles(twin, viewer, plan.roles, rng)
    _sample_cards(twin, me, plan.cards, rng)
    _sample_tiles(twin, me, plan.tiles, rng)
    for step in twin.stack:
        if step["k"] == "pick" and step["seat"] != viewer:
            rebuild_options(twin, step)
    return twin


_RolePlan = tuple[list[str], list[str], list[list[Any]], dict[str, str]] | None
#: the unseen cards: (place, indices in it (None: all), their number) per place (a place:
#: the hand of seat s ``s``, the set-up pair of the stack's step j ``-1 - j``, the draw
#: pile ``_DECK``, the discard ``_DISCARD``), the cards in the order of those spots, and
#: the same sorted
_CardPlan = tuple[list[tuple[int, list[int] | None, int]], list[int], list[int]] | None
#: per pile with two unseen tiles or more: the runs of its unseen tiles' places, each
#: (place (0 the pile, 1 the discard), first index, end index), the tiles in that order,
#: and the same sorted
_TilePlan = list[tuple[list[tuple[int, int, int]], list[int], list[int]]]
_DECK, _DISCARD = -1000, -1001


class SamplePlan:
    """What ``sample_state`` reads of a position for one viewer before it draws anything:
    which slots, cards and tiles are unknown (where they are, their sorted list). It
    depends on the position and the viewer only, so a search sampling many worlds of one
    position works it out once (``plan_of``)."""

    __slots__ = ("cards", "key", "roles", "tiles")

    def __init__(self, st: EnqState, viewer: Viewer, me: int) -> None:
        self.key = _plan_key(st, viewer)
        self.roles = _role_plan(st, viewer)
        self.cards = _card_plan(st, me)
        self.tiles = _tile_plan(st, me)


def _plan_key(st: EnqState, viewer: Viewer) -> tuple[int, int, Viewer]:
    # ``table_version`` changes whenever anything but the resolution stack may change;
    # the stack's steps change with it too, except the top ones leaving it (a window's
    # seats passing, a choice with no option): its length tells those.
    return (st.table_version, len(st.stack), viewer)


def plan_of(st: EnqState, viewer: Viewer, me: int) -> SamplePlan:
    """``SamplePlan(st, viewer, me)``, remembered on the state for its last viewer (a fork
    or sampled world has a ``table_version`` of its own, so never uses its source's)."""
    plan: SamplePlan | None = st.sample_plan
    if plan is None or plan.key != _plan_key(st, viewer):
        plan = st.sample_plan = SamplePlan(st, viewer, me)
    return plan


def _fact_refs(fact: list[Any]) -> list[str]:
    """The Role references a fact is about."""
    return [fact[1], fact[2]] if fact[0] == "faction" else [fact[1]]


def _holds_fact(role_at: Callable[[str], str], fact: list[Any]) -> bool:
    kind = fact[0]
    if kind == "kira":
        return faction(role_at(fact[1])) == "kira"
    if kind == "notkira":
        return faction(role_at(fact[1])) != "kira"
    if kind == "is":
        return role_at(fact[1]) == fact[2]
    if kind == "not":
        return role_at(fact[1]) != fact[2]
    if kind == "faction":
        mine = faction(role_at(fact[1]))
        if fact[4] and mine != "detective":
            mine = "investigator" if mine == "kira" else "kira"
        return (mine == faction(role_at(fact[2]))) == fact[3]
    raise ValueError(f"unknown fact {fact!r}")


def _role_plan(st: EnqState, viewer: Viewer) -> _RolePlan:
    """The slots of the Roles the viewer does not know, their Roles, the facts about them
    and the Roles those facts name (None: nothing to permute)."""
    if st.over:
        return None  # every Role is turned over at the end
    known: set[str] = set()
    if isinstance(viewer, int):
        known = {f"p{viewer}", *st.seats[viewer].known_roles}
    slots = [
        f"p{s}"
        for s, x in enumerate(st.seats)
        if s != st.detective and not x.revealed and f"p{s}" not in known
    ]
    slots += [f"i{i}" for i, r in enumerate(st.inactive) if not r.revealed and f"i{i}" not in known]
    if len(slots) < 2:
        return None
    roles = [ref_role(st, x) for x in slots]
    facts = [f for f in st.facts if any(x in slots for x in _fact_refs(f))]
    fixed = {x: ref_role(st, x) for f in facts for x in _fact_refs(f)}
    return slots, roles, facts, fixed


def _sample_roles(st: EnqState, viewer: Viewer, plan: _RolePlan, rng: random.Random) -> None:
    """Permute the Roles the viewer does not know among their slots, keeping the facts."""
    if plan is None:
        return
    slots, roles, facts, fixed = plan
    drawn = _draw_roles(slots, roles, facts, fixed, rng)
    sigma = dict(zip(roles, drawn, strict=True))
    for ref, role in zip(slots, drawn, strict=True):
        if ref[0] == "p":
            st.seats[int(ref[1:])].role = role
        else:
            st.inactive[int(ref[1:])].role = role
    for k in st.kills:
        k["role"] = sigma.get(k["role"], k["role"])
    for s, x in enumerate(st.seats):
        if s != viewer:
            known = x.known_roles
            x.known_roles = {r: sigma.get(v, v) for r, v in known.items()} if known else {}
    if st.light_silenced:
        st.silence_exempt = [s for s in st.decision_liars if st.seats[s].role == "light"]
    for step in st.stack:
        if "faction" in step and "inactive" in step:  # Resurrection: the looked-at Role
            step["faction"] = faction(st.inactive[step["inactive"]].role)


def _draw_roles(
    slots: list[str],
    roles: list[str],
    facts: list[list[Any]],
    fixed: dict[str, str],
    rng: random.Random,
) -> list[str]:
    """A uniform permutation of ``roles`` over ``slots`` that keeps every fact and leaves
    Light with a player (rejection, then a randomised search, which always succeeds since
    the truth keeps them). Light is dealt in every game, and a Role reaches the centre
    only killed and revealed (Rebirth), so no hidden inactive Role is Light."""
    # Every shuffle here starts from a sorted list, so a sample depends on what the viewer
    # knows and the generator only, never on the true places (a search bot then plays
    # alike in two matches its seat cannot tell apart).
    for _ in range(64):
        drawn = sorted(roles)
        shuffle(rng, drawn)
        if not _seated(slots, drawn):
            continue
        if not facts:
            return drawn
        at = dict(fixed)
        at.update(zip(slots, drawn, strict=True))
        if all(_holds_fact(at.__getitem__, f) for f in facts):
            return drawn
    # Depth-first over the slots, each trying the Roles left in a random order.
    at = dict(fixed)

    def ok() -> bool:
        for f in facts:
            if all(x in at for x in _fact_refs(f)) and not _holds_fact(at.__getitem__, f):
                return False
        return True

    for x in slots:
        at.pop(x, None)

    def place(i: int, left: list[str]) -> bool:
        if i == len(slots):
            return True
        order = sorted(left)
        shuffle(rng, order)
        for role in order:
            if role == "light" and slots[i][0] != "p":
                continue
            at[slots[i]] = role
            if ok() and place(i + 1, [r for r in left if r != role]):
                return True
            del at[slots[i]]
        return False

    if not place(0, list(roles)):
        raise RuntimeError("enquete: the public facts about Roles contradict each other")
    return [at[x] for x in slots]


def _seated(slots: list[str], drawn: list[str]) -> bool:
    """Whether Light, if among the ``drawn`` Roles, is at a player's slot."""
    return "light" not in drawn or slots[drawn.index("light")][0] == "p"


def _card_plan(st: EnqState, me: int) -> _CardPlan:
    """Where the cards the viewer cannot place are (None: fewer than two)."""
    known = st.pins[me]
    places: list[tuple[int, list[int]]] = [(s, x.hand) for s, x in enumerate(st.seats) if s != me]
    places += [
        (-1 - j, step["drawn"])
        for j, step in enumerate(st.stack)
        if step.get("fn") == "setup_keep" and step["seat"] != me
    ]
    places += [(_DECK, st.deck), (_DISCARD, st.discard)]
    spots: list[tuple[int, list[int] | None, int]] = []
    cards: list[int] = []
    for where, place in places:
        at = [i for i, n in enumerate(place) if n not in known]
        if at:
            # (None: the whole place, dealt in one slice)
            spots.append((where, None if len(at) == len(place) else at, len(at)))
            cards += [place[i] for i in at]
    if len(cards) < 2:
        return None
    return spots, cards, sorted(cards)


def _sample_cards(st: EnqState, me: int, plan: _CardPlan, rng: random.Random) -> None:
    """Deal the cards the viewer cannot place anew into the same places."""
    if plan is None:
        return
    spots, cards, ordered = plan
    drawn = ordered.copy()
    shuffle(rng, drawn)
    seats, stack = st.seats, st.stack
    k = 0
    for where, at, size in spots:
        if where >= 0:
            place = seats[where].hand
        elif where == _DECK:
            place = st.deck
        elif where == _DISCARD:
            place = st.discard
        else:
            place = stack[-1 - where]["drawn"]
        if at is None:
            place[:] = drawn[k : k + size]
            k += size
        else:
            for i in at:
                place[i] = drawn[k]
                k += 1
    pi = dict(zip(cards, drawn, strict=True))
    moving = pi.keys()
    all_pins = st.pins
    for k, pins in enumerate(all_pins):
        if k != me:
            # A copy with the few cards both ``k`` and this permutation touch renamed (a
            # pin's order means nothing: they are looked up, never listed in order).
            renamed = pins.copy()
            moved = moving & pins.keys()
            if moved:
                for n in moved:
                    del renamed[n]
                for n in moved:
                    renamed[pi[n]] = pins[n]
            all_pins[k] = renamed
    for s, x in enumerate(st.seats):
        if s != me:
            seen = x.known_hands
            x.known_hands = {t: [pi.get(n, n) for n in h] for t, h in seen.items()} if seen else {}
    for step in st.stack:
        if step.get("fn") == "give_to":
            step["card"] = pi.get(step["card"], step["card"])


def _tile_plan(st: EnqState, me: int) -> _TilePlan:
    """Where the Investigations the viewer has not seen are, pile by pile."""
    known = set(st.tile_known[me])
    if st.tile_top[me] is not None:
        known.add(st.tile_top[me])  # type: ignore[arg-type]
    # Each unseen tile's place, by pile, in one pass (piles 1 to 5, as the rulebook's).
    by_pile: dict[int, tuple[list[tuple[int, int]], list[int]]] = {
        pile: ([], []) for pile in range(1, 6)
    }
    investigations = st.content["investigations"]
    for where, place in enumerate((st.tiles, st.tile_discard)):
        for i, t in enumerate(place):
            if t not in known:
                mine = by_pile.get(investigations[t - 1]["pile"])
                if mine is not None:
                    mine[0].append((where, i))
                    mine[1].append(t)
    # A pile with one unseen tile or none keeps it where it is (its shuffle draws nothing).
    return [
        (_runs(spots), group, sorted(group)) for spots, group in by_pile.values() if len(group) > 1
    ]


def _runs(spots: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The places of ``spots`` as runs of consecutive indices in one place, in order:
    (place, first index, end index), each dealt a slice at once."""
    runs: list[tuple[int, int, int]] = []
    for where, i in spots:
        if runs and runs[-1][0] == where and runs[-1][2] == i:
            runs[-1] = (where, runs[-1][1], i + 1)
        else:
            runs.append((where, i, i + 1))
    return runs


def _sample_tiles(st: EnqState, me: int, plan: _TilePlan, rng: random.Random) -> None:
    """Shuffle the Investigations the viewer has not seen within their pile's places."""
    if plan:  # else every tile stays where it is, and every viewer's knowledge with it
        tau: dict[int, int] = {}
        places = (st.tiles, st.tile_discard)
        for runs, group, ordered in plan:
            drawn = ordered.copy()
            shuffle(rng, drawn)
            j = 0
            for where, start, end in runs:
                k = j + end - start
                places[where][start:end] = drawn[j:k]
                j = k
            tau.update(zip(group, drawn, strict=True))
        for k in range(len(st.tile_top)):
            if k != me:
                top = st.tile_top[k]
                st.tile_top[k] = None if top is None else tau.get(top, top)
                known = st.tile_known[k]
                st.tile_known[k] = [tau.get(t, t) for t in known] if known else []
    if st.looking is not None:
        st.looking = st.tiles[0]


def _redraw_choices(st: EnqState, viewer: Viewer, me: int, rng: random.Random) -> None:
    """Choices other seats made in secret, not yet shown to anyone else, are drawn again."""
    if not st.stack:
        return
    top = st.stack[-1]
    if top["k"] != "pick" or top["seat"] == viewer:
        return
    fn_name = top["fn"]
    seat = top["seat"]
    if fn_name == "give_susp" and st.given:
        # The Detective's Suspicions so far land together later: who got them is secret.
        total = sum(st.given.values())
        seats = [v for v, _ in top["options"]]
        given: dict[int, int] = {}
        for _ in range(total):
            s = choice(rng, seats)
            given[s] = given.get(s, 0) + 1
        st.given = given
    elif fn_name == "rift_ballot":
        top["votes"] = {
            v: (x if v == viewer else choice(rng, (top["a"], top["b"])))
            for v, x in top["votes"].items()
        }
    elif fn_name in ("dn_play", "bm_force"):
        # The designated player is named only when the effect resolves.
        pool = others(st, seat)
        if fn_name == "bm_force":
            pool = [s for s in pool if st.seats[s].hand]
        old, new = top["target"], choice(rng, pool)
        if new != old:
            top["target"] = new
            # (copies first: a sample shares these with the original until it redraws)
            mine = st.seats[seat]
            known = mine.known_hands = mine.known_hands.copy()
            known.pop(old, None)
            known[new] = sorted(st.seats[new].hand)
            pins = st.pins[seat] = st.pins[seat].copy()
            for n in [n for n, h in pins.items() if h == old]:
                del pins[n]
            for n in st.seats[new].hand:
                pins[n] = new
    elif fn_name == "page_name":
        top["ref"] = choice(rng, _page_targets(st, seat))
    elif fn_name in ("rift_second", "overcast_inactive"):
        key = "a" if fn_name == "rift_second" else "player"
        top[key] = choice(rng, unrevealed_of(st))
    elif fn_name == "love_second":
        top["a"] = choice(rng, round_order(st))
    elif fn_name == "ally_second":
        top["a"] = choice(rng, INVESTIGATOR_ROLES)
    elif fn_name == "pact_add" and top["chosen"]:
        top["chosen"] = sample(rng, unrevealed_of(st), len(top["chosen"]))
