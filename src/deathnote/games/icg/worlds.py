"""Copies and hidden worlds: ``fork`` copies a state, ``sample`` redraws what a viewer cannot see.

What a seat cannot see in this game: the other players' Identity and Mission cards (and so
the Mission cards left in the box), the Clue a player has picked so far in a two- or
three-card answer, who has already answered in the eyes-closed phases, Kira's Death Note
choice before it is resolved, and what another X-Kira's Shinigami Eyes saw. Everything
else (covered or revealed Clues, hands in the Kira rules, which are the Clues not on the
table, Death Note results, revealed Missions) is on the table.

``sample`` keeps what the viewer knows (its own cards, its looks, every public fact) and
deals the rest anew among the deals that agree with the table's whole history, tested with
the rules' own functions:

- Light rules: no covered Clue is the player's Identity or Mission.
- Kira rules: replaying each player's answers with the candidate Identity and Mission, every
  Clue taken back and revealed was a legal choice, and "cannot reveal" happened exactly
  when no legal reveal existed.
- A Death Note miss: the covered Placement is not the covered Identity.
- Identities are all different; Kira and L are dealt; no more X-Kiras or Team Members than
  the box holds.

It first draws uniform deals of the unseen cards and keeps the first that agrees; after
``TRIES`` misses it lists every consistent deal (if there are at most ``ENUMERATED``) and
draws one, weighted by the ways to deal it from the physical cards: both are exact, a
uniform deal of the cards conditioned on the table. Failing both, it builds a deal seat by
seat, each seat's card pair drawn uniformly among those still possible, backtracking on a
dead end (every consistent deal can appear, but not with equal odds).
The X-Kira's announcements may be lies and so constrain nothing.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import accumulate, product
from math import comb, factorial, perm

from deathnote.engine import rng as rand
from deathnote.engine.actions import OMNISCIENT, Viewer
from deathnote.engine.rng import weighted_pick

from . import rules
from .content import MISSION_IDS
from .state import IcgState, SeatState

#: Uniform deals tried before the enumeration.
TRIES = 64
#: The most consistent deals enumerated before the seat-by-seat construction.
ENUMERATED = 1000
UNIQUE = ("kira", "l")

Record = tuple[str, tuple[str, ...], tuple[str, ...] | None, bool]
Swaps = tuple[tuple[int, int, int], ...]
"""A shuffle's swaps from the end: (place, choices, random bits), as ``rand.swaps``."""
Drops = tuple[tuple[int, int], ...]
"""Swaps whose bits are drawn and dropped: (choices, random bits)."""
"""A Kira-rules answer: (type, Clues taken back, Clues revealed or None if under way, unable)."""


def fork(st: IcgState) -> IcgState:
    """An independent copy; content and action tables are shared."""
    twin = _bare(IcgState)
    twin.__dict__.update(st.__dict__)
    seats = []
    for x in st.seats:
        y = _bare(SeatState)
        y.__dict__.update(x.__dict__)
        y.covered = list(x.covered)
        y.hand = list(x.hand)
        y.table = list(x.table)
        y.looks = dict(x.looks)
        seats.append(y)
    twin.seats = seats
    twin.unused_missions = list(st.unused_missions)
    twin.mission_box = list(st.mission_box)
    twin.order = list(st.order)
    twin.done = list(st.done)
    twin.chased = list(st.chased)
    twin.picks = list(st.picks)
    twin.asked = list(st.asked)
    # The rules write only into the last investigation's record (key by key, so a shallow
    # copy of it is enough); the earlier records, the Death Notes and the claims are never
    # changed once made, so the copies share them.
    history = twin.history = list(st.history)
    if history:
        history[-1] = dict(history[-1])
    twin.death_notes = list(st.death_notes)
    twin.claims = list(st.claims)
    return twin


#: An instance with no ``__init__`` run (``fork`` fills its ``__dict__``).
_bare = object.__new__


def sample(st: IcgState, viewer: Viewer, rng: random.Random) -> IcgState:
    """A copy with everything ``viewer`` cannot see drawn anew (see the module text)."""
    w = fork(st)
    if viewer == OMNISCIENT or st.phase == "over":
        return w  # the end turns every card over
    me = viewer if isinstance(viewer, int) else None
    _deal(st, w, me, rng)
    _redraw_choices(st, w, me, rng)
    return w


# -- the deal ---------------------------------------------------------------------------------
class _Plan:
    """What a deal for one viewer of one state needs besides the draws: the seats to deal,
    each seat's consistent (Identity, Mission) pairs and the cards left. The same for every
    world drawn while the state does not change (a search draws hundreds), so it is worked
    out once (``_plan``)."""

    __slots__ = (
        "avail",
        "box",
        "checks",
        "deals",
        "domains",
        "extra",
        "free",
        "identities",
        "listed",
        "others",
        "pool_ids",
        "split",
        "swaps",
        "uniques",
        "used",
    )

    def __init__(
        self,
        identities: tuple[str, ...],
        used: set[str],
        avail: Counter[str],
        free: list[int],
        domains: dict[int, frozenset[tuple[str, str]]],
        box: list[str],
    ) -> None:
        self.identities = identities
        self.used = used
        self.avail = avail
        self.free = free
        self.domains = domains
        #: ``_uniform``'s cards: the Identities, Kira and L, and the other Missions to deal
        self.pool_ids = [i for i in identities if i not in used]
        self.uniques = [m for m in UNIQUE if avail[m] > 0]
        self.others = [m for m in MISSION_IDS if m not in UNIQUE for _ in range(max(0, avail[m]))]
        self.extra = len(free) - len(self.uniques)
        #: each free seat's pairs, in the order of ``free``
        self.checks = [domains[s] for s in free]
        #: every consistent deal with its weight (``_consistent_deals``), once ``listed``
        self.deals: list[tuple[float, tuple[tuple[str, str], ...]]] | None = None
        self.listed = False
        #: the Mission box by card, in sorted order (the cards left unused are drawn from it)
        self.box = {m: box.count(m) for m in sorted(set(box))}
        #: ``_uniform_plan``'s swaps (``rand.swaps``, split where its sample ends), made once
        self.swaps: tuple[Swaps, Drops, Swaps, Drops, Swaps] | None = None
        #: the deal split into Missions and Identities (``_split``), once made (False: not
        #: yet; None: the seats' pairs are not all products, as under the Kira rules)
        self.split: _Split | bool | None = False


#: Plans by the state facts they are made of (``_plan_key``); a few decisions' worth.
_PLANS: dict[tuple[object, ...], _Plan] = {}
PLANS_KEPT = 64


def _plan_key(st: IcgState, me: int | None) -> tuple[object, ...]:
    """Everything of ``st`` a plan reads (and a little more: it must never be stale)."""
    light = st.rules == "light"
    seats = tuple(
        (x.identity, x.mission, x.out, x.mission_revealed, tuple(x.covered) if light else None)
        for x in st.seats
    )
    looks = tuple(st.seats[me].looks.items()) if me is not None else None
    notes = tuple((d["seat"], d["hit"], d["identity"]) for d in st.death_notes)
    records = None if light else tuple(_records(st, s) for s in range(st.players))
    return (st.tables, me, st.rules, tuple(st.mission_box), seats, looks, notes, records)


def _plan(st: IcgState, me: int | None) -> _Plan:
    """The deal's plan for ``me``'s view of ``st`` (cached by ``_plan_key``)."""
    key = _plan_key(st, me)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= PLANS_KEPT:
            _PLANS.clear()
        plan = _PLANS[key] = _make_plan(st, me)
    return plan


def _make_plan(st: IcgState, me: int | None) -> _Plan:
    identities = st.tables.identity_ids
    known_id: dict[int, str] = {}
    known_m: dict[int, str] = {}
    for s, x in enumerate(st.seats):
        if s == me or x.out:  # an out player's Identity matched the Death Note, in public
            known_id[s] = x.identity
        if s == me or x.mission_revealed:
            known_m[s] = x.mission
    if me is not None:
        known_id.update(st.seats[me].looks)
    misses: dict[int, set[str]] = {}
    for d in st.death_notes:
        if d["seat"] is not None and not d["hit"]:
            misses.setdefault(d["seat"], set()).add(d["identity"])
    full = [s for s in range(st.players) if s in known_id and s in known_m]
    free = [s for s in range(st.players) if s not in full]
    used = {known_id[s] for s in full}
    avail = Counter({m: 1 for m in UNIQUE})
    avail.update(st.mission_box)
    for s in full:
        avail[known_m[s]] -= 1
    taken = {i for s, i in known_id.items()}
    domains: dict[int, frozenset[tuple[str, str]]] = {}
    for s in free:
        if s in known_id:
            ids = [known_id[s]]
        else:
            ids = [i for i in identities if i not in taken and i not in misses.get(s, ())]
        missions = [known_m[s]] if s in known_m else [m for m in MISSION_IDS if avail[m] > 0]
        x = st.seats[s]
        if st.rules == "light":
            pairs = frozenset(
                (i, m)
                for i, m in product(ids, missions)
                if i not in x.covered and m not in x.covered
            )
        else:
            allowed = _kira_pairs(st.tables.clue_ids, _records(st, s))
            pairs = frozenset(p for p in product(ids, missions) if p in allowed)
        domains[s] = pairs
    return _Plan(identities, used, avail, free, domains, st.mission_box)


def _deal(st: IcgState, w: IcgState, me: int | None, rng: random.Random) -> None:
    plan = _plan(st, me)
    deal = _uniform_plan(plan, rng)
    if deal is None:
        deal = _fallback_deal(st, plan, rng)
    _place(w, me, plan, deal, rng)


def _fallback_deal(st: IcgState, plan: _Plan, rng: random.Random) -> dict[int, tuple[str, str]]:
    """The deal once the uniform tries have failed: drawn from the list of every
    consistent deal where there are few enough, else built seat by seat."""
    if not plan.listed:
        plan.deals = _consistent_deals(plan.used, plan.avail, plan.free, plan.domains)
        plan.listed = True
    deal = _draw_deal(plan.free, plan.domains, plan.deals, rng)
    if deal is None:
        deal = _backtrack(plan.used, plan.avail, plan.free, plan.domains, rng)
    if deal is None:  # cannot happen in real play (the true deal agrees); stay truthful
        deal = {s: (st.seats[s].identity, st.seats[s].mission) for s in plan.free}
    return deal


def _place(
    w: IcgState, me: int | None, plan: _Plan, deal: dict[int, tuple[str, str]], rng: random.Random
) -> None:
    """``deal`` put in ``w``, then the Mission cards nobody holds and the looks of the
    other seats' eyes made to agree with it (the box's order drawn from ``rng``)."""
    seats = w.seats
    for s, (i, m) in deal.items():
        x = seats[s]
        x.identity, x.mission = i, m
    # The Mission cards nobody was dealt, face down in the box (by card, in sorted order).
    left = dict(plan.box)
    for x in seats:
        m = x.mission
        if m in left:
            left[m] -= 1
    w.unused_missions = [m for m, count in left.items() for _ in range(count)]
    rand.shuffle(rng, w.unused_missions)
    for s, x in enumerate(w.seats):
        if s != me and x.looks:
            x.looks = {t: w.seats[t].identity for t in x.looks}


def _uniform_plan(plan: _Plan, rng: random.Random) -> dict[int, tuple[str, str]] | None:
    """``_uniform`` on a plan: the same draws, without building the pools on every try."""
    free, pool_ids, others, extra = plan.free, plan.pool_ids, plan.others, plan.extra
    if extra < 0 or extra > len(others) or len(free) > len(pool_ids):
        return None
    if type(rng) is not random.Random:
        return _uniform(plan.identities, plan.used, plan.avail, free, plan.domains, rng)
    # ``rand.sample`` and ``rand.shuffle`` written out: the same bits drawn, in order. A
    # sample keeps the last places of a shuffled pool, which the shuffle (from the end)
    # settles first: the later swaps only draw their bits.
    bits = rng.getrandbits
    uniques, checks = plan.uniques, plan.checks
    n_free = len(free)
    if plan.swaps is None:
        id_swaps = rand.swaps(len(pool_ids))
        other_swaps = rand.swaps(len(others))
        plan.swaps = (
            id_swaps[:n_free],
            tuple((n, k) for _i, n, k in id_swaps[n_free:]),
            other_swaps[:extra],
            tuple((n, k) for _i, n, k in other_swaps[extra:]),
            rand.swaps(len(uniques) + extra),
        )
    id_head, id_tail, other_head, other_tail, mission_swaps = plan.swaps
    last_id, cut = len(pool_ids) - 1, len(others) - extra
    for _ in range(TRIES):
        pool = _shuffled(list(pool_ids), id_head, id_tail, bits)
        drawn = _shuffled(list(others), other_head, other_tail, bits)
        missions = uniques + drawn[cut:][::-1]  # the last ``extra`` places, last first
        _shuffled(missions, mission_swaps, (), bits)
        for e in range(n_free):
            if (pool[last_id - e], missions[e]) not in checks[e]:
                break
        else:
            return {s: (pool[last_id - e], missions[e]) for e, s in enumerate(free)}
    return None


def _shuffled(
    items: list[str],
    head: Sequence[tuple[int, int, int]],
    tail: Sequence[tuple[int, int]],
    bits: Callable[[int], int],
) -> list[str]:
    """``items``, shuffled in place by ``head``'s swaps (place, bound, bits: ``rand.swaps``),
    drawing each place's bits as ``rand.shuffle`` does; then the bits of ``tail``'s swaps
    drawn and dropped (a sample keeps only the places the head settles)."""
    for i, n, k in head:
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
    for n, k in tail:
        while bits(k) >= n:
            pass
    return items


def _uniform(
    identities: tuple[str, ...],
    used: set[str],
    avail: Counter[str],
    free: list[int],
    domains: dict[int, frozenset[tuple[str, str]]],
    rng: random.Random,
) -> dict[int, tuple[str, str]] | None:
    """A uniformly drawn deal of the unseen cards, if one of ``TRIES`` agrees."""
    pool_ids = [i for i in identities if i not in used]
    uniques = [m for m in UNIQUE if avail[m] > 0]
    others = [m for m in MISSION_IDS if m not in UNIQUE for _ in range(max(0, avail[m]))]
    extra = len(free) - len(uniques)
    if extra < 0 or extra > len(others) or len(free) > len(pool_ids):
        return None
    for _ in range(TRIES):
        ids = rand.sample(rng, pool_ids, len(free))
        missions = uniques + rand.sample(rng, others, extra)
        rand.shuffle(rng, missions)
        if all((ids[k], missions[k]) in domains[s] for k, s in enumerate(free)):
            return {s: (ids[k], missions[k]) for k, s in enumerate(free)}
    return None


def _consistent_deals(
    used: set[str],
    avail: Counter[str],
    free: list[int],
    domains: dict[int, frozenset[tuple[str, str]]],
) -> list[tuple[float, tuple[tuple[str, str], ...]]] | None:
    """Every consistent deal (pairs in ``_deal_order``) with its number of ways, or None if
    there are more than ``ENUMERATED`` (or none): the exact fallback's list, drawn from by
    ``_draw_deal``.

    Each deal of Missions is weighted by the number of ways to deal it from the physical
    cards (two X-Kira cards make "X-Kira here" twice as likely as one would), so the draw is
    the same as a uniform deal of the cards, kept when it agrees.
    """
    order = _deal_order(free, domains)
    left = Counter(avail)
    taken = set(used)
    pairs: list[tuple[str, str]] = []
    found: list[tuple[float, tuple[tuple[str, str], ...]]] = []

    def go(k: int, weight: float) -> bool:
        if k == len(order):
            if all(left[m] == 0 for m in UNIQUE):
                found.append((weight, tuple(pairs)))
            return len(found) <= ENUMERATED
        if sum(1 for m in UNIQUE if left[m] > 0) > len(order) - k:
            return True
        for i, m in sorted(domains[order[k]]):
            if i in taken or left[m] <= 0:
                continue
            ways = left[m]
            taken.add(i)
            left[m] -= 1
            pairs.append((i, m))
            more = go(k + 1, weight * ways)
            pairs.pop()
            left[m] += 1
            taken.discard(i)
            if not more:
                return False
        return True

    if not go(0, 1.0) or not found:
        return None
    return found


def _deal_order(free: list[int], domains: dict[int, frozenset[tuple[str, str]]]) -> list[int]:
    """The free seats, the most constrained first."""
    return sorted(free, key=lambda s: (len(domains[s]), s))


def _draw_deal(
    free: list[int],
    domains: dict[int, frozenset[tuple[str, str]]],
    found: list[tuple[float, tuple[tuple[str, str], ...]]] | None,
    rng: random.Random,
) -> dict[int, tuple[str, str]] | None:
    """One of the consistent deals, drawn by weight (None: none listed)."""
    if not found:
        return None
    point = rng.random() * sum(w for w, _ in found)
    chosen = found[-1][1]
    for weight, pairs_of_deal in found:
        point -= weight
        if point < 0:
            chosen = pairs_of_deal
            break
    return dict(zip(_deal_order(free, domains), chosen, strict=True))


def _backtrack(
    used: set[str],
    avail: Counter[str],
    free: list[int],
    domains: dict[int, frozenset[tuple[str, str]]],
    rng: random.Random,
) -> dict[int, tuple[str, str]] | None:
    """A consistent deal built seat by seat (the most constrained seat first)."""
    order = sorted(free, key=lambda s: (len(domains[s]), s))
    left = Counter(avail)
    taken = set(used)
    deal: dict[int, tuple[str, str]] = {}

    def go(k: int) -> bool:
        if k == len(order):
            return all(left[m] == 0 for m in UNIQUE)
        if sum(1 for m in UNIQUE if left[m] > 0) > len(order) - k:
            return False
        s = order[k]
        options = sorted(domains[s])
        rand.shuffle(rng, options)
        for i, m in options:
            if i in taken or left[m] <= 0:
                continue
            taken.add(i)
            left[m] -= 1
            deal[s] = (i, m)
            if go(k + 1):
                return True
            taken.discard(i)
            left[m] += 1
            del deal[s]
        return False

    return deal if go(0) else None


def _records(st: IcgState, seat: int) -> tuple[Record, ...]:
    """Kira rules: the public record of every answer of ``seat``, in order."""
    out: list[Record] = []
    under_way = st.phase in ("return", "reveal") and st.target == seat
    last = len(st.history) - 1
    for n, h in enumerate(st.history):
        if h["seat"] != seat:
            continue
        if under_way and n == last:
            returned = tuple(h["returned"]) if st.phase == "reveal" else ()
            out.append((h["type"], returned, None, False))
        else:
            out.append(
                (h["type"], tuple(h["returned"]), tuple(h["revealed"]), bool(h.get("unable")))
            )
    return tuple(out)


@lru_cache(maxsize=16384)
def _kira_pairs(
    clue_ids: tuple[str, ...], records: tuple[Record, ...]
) -> frozenset[tuple[str, str]]:
    """The (Identity, Mission) pairs with which every recorded answer was legal.

    Built on the pairs of all answers but the last (cached), so a game's samples test each
    answer once.
    """
    if not records:
        identities = [c for c in clue_ids if c not in MISSION_IDS]
        return frozenset(product(identities, MISSION_IDS))
    earlier = _kira_pairs(clue_ids, records[:-1])
    table: list[str] = []
    for _kind, returned, revealed, _unable in records[:-1]:
        table = [c for c in table if c not in returned] + list(revealed or ())
    last = records[-1]
    return frozenset(p for p in earlier if _answer_agrees(clue_ids, table, last, *p))


def _answer_agrees(
    clue_ids: tuple[str, ...], table: list[str], record: Record, identity: str, mission: str
) -> bool:
    """Whether one answer, given the table before it, was legal with these cards."""
    kind, returned, revealed, unable = record
    if revealed is not None and identity not in revealed and mission not in revealed:
        return False  # a legal reveal shows at least one true card (quick test first)
    hand = [c for c in clue_ids if c not in table]
    if rules.can_answer_with(identity, mission, kind, hand, table) == unable:
        return False
    if unable:
        return True
    picks: list[str] = []
    for c in returned:
        if c not in rules.return_options_with(identity, mission, kind, hand, table, picks):
            return False
        picks.append(c)
    if revealed is None:
        return True  # the answer under way: what was taken back was legal
    table = [c for c in table if c not in returned]
    hand = [c for c in clue_ids if c not in table]
    picks = []
    for c in revealed:
        if c not in rules.reveal_options_with(identity, mission, kind, hand, picks):
            return False
        picks.append(c)
    return True


# -- belief-weighted worlds -------------------------------------------------------------------
def sample_weighted(
    st: IcgState,
    viewer: Viewer,
    rng: random.Random,
    count: int,
    weigh_missions: Callable[[Sequence[str]], float],
) -> IcgState | None:
    """One of ``count`` worlds of ``sample``, picked with odds proportional to ``exp`` of
    a log-weight that reads only the seats' Missions (``weigh_missions`` of the Missions by
    seat), with the same odds as ``count`` whole worlds drawn and picked, but drawing only
    each candidate's Missions and completing the one picked (ICG-BOT-05, "Speed, fifth
    pass", for the proof). None where the deal does not split so (the Kira rules, a
    finished game, the omniscient viewer): the caller draws whole worlds."""
    if viewer == OMNISCIENT or st.phase == "over":
        return None
    me = viewer if isinstance(viewer, int) else None
    plan = _plan(st, me)
    if plan.split is False:
        plan.split = _split(plan)
    split = plan.split
    if not isinstance(split, _Split):
        return None
    free = plan.free
    known = [x.mission for x in st.seats]
    candidates: list[tuple[dict[int, tuple[str, str]] | None, tuple[str, ...]]] = []
    logs = []
    for _ in range(count):
        if split.fails(rng):
            # Every uniform try failed: the fallback's whole deal, as ``_deal`` draws it.
            deal: dict[int, tuple[str, str]] | None = _fallback_deal(st, plan, rng)
            assert deal is not None
            missions = tuple(deal[s][1] for s in free)
        else:
            deal, missions = None, split.missions(rng)
        by_seat = list(known)
        for s, m in zip(free, missions, strict=True):
            by_seat[s] = m
        candidates.append((deal, missions))
        logs.append(weigh_missions(by_seat))
    deal, missions = weighted_pick(rng, candidates, logs)
    if deal is None:
        deal = dict(zip(free, zip(split.identities(rng), missions, strict=True), strict=True))
    w = fork(st)
    _place(w, me, plan, deal, rng)
    _redraw_choices(st, w, me, rng)
    return w


class _Split:
    """A plan's deal drawn in two independent parts, where every free seat's consistent
    pairs are all its possible Identities with all its possible Missions (the Light rules:
    a covered Clue rules out an Identity or a Mission, never a pair): then the uniform
    tries' Identities and Missions are drawn apart and agree apart, so a deal they accept
    is a uniformly drawn consistent Identity for each seat (all different) beside an
    independently drawn consistent Mission for each (weighted by the physical cards).

    ``fails`` draws whether all ``TRIES`` tries of ``_uniform_plan`` would fail, with
    exactly their odds (integers: each try is one of ``tries`` equally likely outcomes, of
    which ``agree`` agree); ``missions`` draws the accepted deal's Missions,
    ``identities`` its Identities."""

    __slots__ = (
        "_counts",
        "_cumulative",
        "_fail_below",
        "_id_options",
        "_sequences",
        "_span",
        "agree",
        "tries",
    )

    def __init__(
        self,
        id_options: list[list[tuple[int, str]]],
        counts: dict[int, int],
        sequences: list[tuple[str, ...]],
        weights: list[int],
        tries: int,
        agree: int,
    ) -> None:
        #: each free seat's possible Identities (bit, name; sorted), in the plan's order
        self._id_options = id_options
        #: the consistent Identity deals by the Identities already dealt (``_id_ways``)
        self._counts = counts
        #: the consistent Missions of the free seats, with their cumulative weights
        self._sequences = sequences
        self._cumulative = list(accumulate(weights))
        #: one try's equally likely outcomes, and those that agree with the table
        self.tries, self.agree = tries, agree
        # P(all tries fail) = ((tries - agree) / tries) ** TRIES, drawn with integers.
        self._span = tries**TRIES
        self._fail_below = (tries - agree) ** TRIES

    def fails(self, rng: random.Random) -> bool:
        """Whether every uniform try fails (then the fallback deals)."""
        if not self._fail_below:
            return False
        if self._fail_below == self._span:
            return True
        return rand.below(rng, self._span) < self._fail_below

    @property
    def sequences(self) -> list[tuple[tuple[str, ...], int]]:
        """Each consistent sequence of Missions by free seat with its weight."""
        before = [0, *self._cumulative[:-1]]
        return [
            (seq, after - b)
            for seq, after, b in zip(self._sequences, self._cumulative, before, strict=True)
        ]

    def missions(self, rng: random.Random) -> tuple[str, ...]:
        """The Missions of an accepted try, by free seat: each consistent sequence with the
        odds of the physical cards that deal it."""
        r = rand.below(rng, self._cumulative[-1])
        return self._sequences[bisect_right(self._cumulative, r)]

    def identities(self, rng: random.Random) -> list[str]:
        """The Identities of an accepted try, by free seat: uniform among the consistent
        ones (all different), seat by seat with the number of ways to finish the deal."""
        options, counts = self._id_options, self._counts
        used = 0
        out = []
        for seat_options in options:
            r = rand.below(rng, _id_ways(options, used, counts))
            for bit, identity in seat_options:
                if used & bit:
                    continue
                ways = _id_ways(options, used | bit, counts)
                if r < ways:
                    used |= bit
                    out.append(identity)
                    break
                r -= ways
        return out


def _id_ways(options: list[list[tuple[int, str]]], used: int, counts: dict[int, int]) -> int:
    """The ways to deal the seats after those holding ``used`` (a bit set: one seat an
    Identity, in order) one Identity each among their ``options``, all different (kept in
    ``counts``)."""
    ways = counts.get(used)
    if ways is None:
        k = used.bit_count()
        if k == len(options):
            ways = 1
        else:
            ways = sum(
                _id_ways(options, used | bit, counts) for bit, _i in options[k] if not used & bit
            )
        counts[used] = ways
    return ways


def _split(plan: _Plan) -> _Split | None:
    """The plan's deal split into Identities and Missions (``_Split``), or None where a
    free seat's pairs are not all its Identities with all its Missions."""
    identities: list[set[str]] = []
    missions: list[set[str]] = []
    for pairs in plan.checks:
        ids = {i for i, _m in pairs}
        ms = {m for _i, m in pairs}
        if len(pairs) != len(ids) * len(ms):
            return None
        identities.append(ids)
        missions.append(ms)
    bits = {identity: 1 << k for k, identity in enumerate(plan.pool_ids)}
    id_options = [[(bits[i], i) for i in sorted(ids) if i in bits] for ids in identities]
    counts: dict[int, int] = {}
    # The Missions of a try: Kira and L (where still to deal) and ``extra`` cards of the
    # others, dealt to the free seats in a uniform order: each sequence of Missions by
    # seat has the odds of the physical cards that make it (a Mission's cards left, one
    # factor a seat).
    cards = {m: 1 for m in plan.uniques}
    for m in plan.others:
        cards[m] = cards.get(m, 0) + 1
    sequences: list[tuple[str, ...]] = []
    weights: list[int] = []
    _sequences(plan.uniques, cards, missions, [], 1, sequences, weights)
    n = len(plan.free)
    if 0 <= plan.extra <= len(plan.others) and n <= len(plan.pool_ids) and weights:
        # A try: an ordered draw of the Identities from the pool, and the Missions: the
        # ``extra`` other cards dealt and Kira and L, in every order over the seats (the
        # sum of every sequence's weight, consistent or not).
        tries = perm(len(plan.pool_ids), n) * comb(len(plan.others), plan.extra) * factorial(n)
        agree = _id_ways(id_options, 0, counts) * sum(weights)
        return _Split(id_options, counts, sequences, weights, tries, agree)
    # No try can agree (``_uniform_plan`` gives up at once, or no Missions fit): every
    # deal is the fallback's.
    return _Split(id_options, counts, [()], [1], 1, 0)


def _sequences(
    uniques: list[str],
    cards: dict[str, int],
    options: list[set[str]],
    done: list[str],
    weight: int,
    out: list[tuple[str, ...]],
    weights: list[int],
) -> None:
    """Every sequence of Missions for the seats of ``options`` (each seat one of its
    options, at most the cards there are, every one of ``uniques`` dealt), with the number
    of ways to deal it from the physical cards, appended to ``out`` and ``weights``."""
    k = len(done)
    if k == len(options):
        if all(cards[m] == 0 for m in uniques):
            out.append(tuple(done))
            weights.append(weight)
        return
    for m in MISSION_IDS:
        left = cards.get(m, 0)
        if left <= 0 or m not in options[k]:
            continue
        cards[m] = left - 1
        done.append(m)
        _sequences(uniques, cards, options, done, weight * left, out, weights)
        done.pop()
        cards[m] = left


# -- secret choices ----------------------------------------------------------------------------
def _redraw_choices(st: IcgState, w: IcgState, me: int | None, rng: random.Random) -> None:
    ph = w.phase
    if ph in ("cover", "return", "reveal") and w.target != me:
        _redraw_picks(w, rng)
    if ph in ("arrest", "dn_identity", "dn_placement"):
        alive = rules.living(w)
        while True:
            asked = [s for s in alive if (s in st.asked if s == me else rand.below(rng, 2))]
            if asked:
                break
        w.asked = asked
        kira = next(s for s, x in enumerate(w.seats) if x.mission == "kira")
        if ph != "arrest" and kira != me:
            w.dn_identity = w.dn_placement = None
            answered = kira not in w.asked
            if ph == "dn_placement" or answered:
                w.dn_identity = rand.choice(rng, [None, *w.tables.identity_ids])
            if ph == "dn_placement" and answered and w.dn_identity is not None:
                w.dn_placement = rand.choice(rng, rules.placements(w, kira, w.dn_identity))


def _redraw_picks(w: IcgState, rng: random.Random) -> None:
    """The first Clues of an answer under way, drawn among the legal ones (how many too)."""
    target = w.target
    assert target is not None
    if w.phase == "cover":
        need = rules.cover_count(w, target)
    elif w.phase == "return":
        need = rules.returns_needed(w, target)
    else:
        need = 3
    w.picks = []
    for _ in range(rand.below(rng, max(1, need))):
        options = rules.legal(w, target)
        w.picks.append(rand.choice(rng, options)["clue"])
