"""Hidden worlds of Death Note Werewolf: a state redrawn among those a viewer cannot tell apart.

``sample(state, viewer, rng)`` reads the events the viewer has seen (``state.history``) into
what it knows for certain, then redeals everything else uniformly among the deals that agree
with it (rejection sampling):

- Roles: the viewer's own, those it knows (set-up, Witness, the Kira team's eyes), the dead
  ones, and the public facts "played Arrest, so L" / "played Handgun, so Police" stay; the
  other Roles of the set-up are shuffled among the other seats.
- Cards: the deal put the DEATH NOTE and at least one Arrest into the hands, and neither
  may be discarded. The notebook is always in a living hand (only Kira holding it writes a
  name, and he never dies of it); until an Arrest is played, one is in a hand or among the
  cards of the dead under the deck (the bottom cards, or anywhere in the deck once a
  shuffle mixed them in, until the deck runs out).
- Cards: the viewer's hand, the discard pile and the cards out of the game stay; each other
  hand keeps the cards the viewer knows it holds now (what the viewer gave it, a Surveillance,
  a Handgun or Alias reveal, minus what it played, discarded or gave the viewer since; dropped
  as soon as the hand passes cards the viewer does not see) and never gets a card the viewer
  knows it lacks (a Shinigami when it just played another card, cards below the printed number
  a Handgun revealed, until the hand next takes in unseen cards); the rest of the hidden cards
  are dealt at random to fill every hand to its public size, and the others form the deck.
- The decision under way is rebuilt for the new deal: other seats' secret picks and votes,
  the Worshipper's pointing and Kira's name are redrawn among their legal choices, and the
  Judgment's Kira and Worshipper follow the new Roles. Who has already answered a covert
  decision is kept (it says nothing about Roles or cards).

- Roles and cards together: a name written at the last Judgment means Kira held the DEATH
  NOTE, none written that he did not, an Arrest denied that the named player, if Kira, holds
  the Alibi; the lowest card an Exchange gave the viewer was not above a card the giver's
  Role may not renumber (so a known holder of the DEATH NOTE who gives something else is
  Kira). Each holds until that seat's hand passes or takes in a card the viewer does not see.

Approximations (the sample never contradicts the viewer's view, but may be a world a
careful player would rule out): the lowest cards of an Interrogation (the giver takes in an
unseen card at once) and a hand that could not play are not used, and the deck is shuffled
uniformly but for the DEATH NOTE and the Arrest above (other cards of the dead, known to
be under the deck, may come up anywhere).
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from deathnote.engine.actions import OMNISCIENT, Event, Viewer
from deathnote.engine.rng import choice, shuffle

from . import rules as R
from .content import ROLE_IDS
from .state import WwState

#: Tries of the redeal before falling back to the true deal of the hidden cards (never
#: needed in practice: it only guards against a content where almost no deal fits).
TRIES = 1000


class Knowledge:
    """What one viewer knows for certain about the others' Roles and hands right now."""

    def __init__(self, st: WwState, seen: Iterable[Event], me: int | None) -> None:
        n = st.players
        self.me = me
        self.known: list[Counter[str]] = [Counter() for _ in range(n)]
        self.lacks: list[set[str]] = [set() for _ in range(n)]
        #: What a seat holds, or lacks, if it has a given Role: Kira held the DEATH NOTE when a
        #: name was written at the last Judgment, not when none was, and the Alibi when he
        #: denied an Arrest; a lowest card given to the viewer in an Exchange was not above a
        #: card that Role may not renumber. True until the hand gives away (holds) or takes
        #: in (lacks) a card the viewer does not see.
        self.holds_if: list[dict[str, set[str]]] = [{} for _ in range(n)]
        self.lacks_if: list[dict[str, set[str]]] = [{} for _ in range(n)]
        self.played_as: dict[int, str] = {}
        self.witnessed: list[tuple[int, int]] = []
        self.surveilled: list[tuple[int, int]] = []
        self.kira_team_met = False
        #: The deal put the DEATH NOTE and at least one Arrest into the hands, and neither
        #: may be discarded. The notebook never leaves the living hands: only Kira holding
        #: it writes a name, and he dies of none. An Arrest stays in a hand until one is
        #: played, or goes under the deck with a dead player's hand. ``under``: the cards
        #: put under the deck since it was last shuffled (the bottom ones, while not drawn);
        #: ``mixed``: a shuffle has mixed such cards into the deck (a hand that could not
        #: play returned a card), so they may be anywhere in it until the deck runs out.
        self.under = 0
        self.mixed = False
        self.arrest_spent = False
        self._alive = [True] * n
        self._worshipper_dead = False
        self._passes: list[tuple[int, int, str]] = []
        self._st = st
        for e in seen:
            self.read(e.data)

    def gains_unseen(self, t: int) -> None:
        """Seat ``t`` takes in a card the viewer does not see: nothing it lacks is certain."""
        self.lacks[t].clear()
        self.lacks_if[t].clear()

    def loses_unseen(self, t: int) -> None:
        """Seat ``t`` gives away a card the viewer does not see: any known card may be gone."""
        self.known[t].clear()
        self.holds_if[t].clear()

    def gets_seen(self, t: int, card: str) -> None:
        """Seat ``t`` takes in ``card`` before the viewer's eyes."""
        self.known[t][card] += 1
        self.lacks[t].discard(card)
        for cards in self.lacks_if[t].values():
            cards.discard(card)

    def has(self, t: int, card: str) -> None:
        """Seat ``t`` holds at least one ``card``."""
        if self.known[t][card] == 0:
            self.known[t][card] = 1

    def lose(self, t: int, card: str) -> None:
        """Seat ``t`` no longer holds this one ``card``."""
        if self.known[t][card] > 0:
            self.known[t][card] -= 1
        for cards in self.holds_if[t].values():
            cards.discard(card)  # the content has one DEATH NOTE and one Alibi

    def buried_below(self, deck: int) -> int:
        """How many cards at the bottom of a deck of ``deck`` cards may be cards of the dead
        (so an Arrest once dealt): those put under it and not drawn since, or the whole deck
        once a shuffle mixed them in."""
        return deck if self.mixed else min(self.under, deck)

    def fits(self, seat: int, role: str, hand: list[str]) -> bool:
        """Whether ``seat`` may have ``role`` and hold ``hand``."""
        held = set(hand)
        holds = self.holds_if[seat].get(role)
        lacks = self.lacks_if[seat].get(role)
        return (holds is None or holds <= held) and (lacks is None or not lacks & held)

    def read(self, d: Mapping[str, Any]) -> None:
        """Fold one event's data in."""
        t = d.get("type")
        me = self.me
        if t == "draw":
            self.gains_unseen(int(d["seat"]))
        elif t == "stuck":
            seat = int(d["seat"])
            self.loses_unseen(seat)
            self.gains_unseen(seat)
            # It returns a card drawn from the deck and the deck is shuffled: cards of the
            # dead under the deck may now be anywhere in it.
            self.mixed = self.mixed or self.under > 0
        elif t == "reshuffle":
            # The deck ran out: every card once under it was drawn, and the discard pile
            # (never a DEATH NOTE or an Arrest) is the new deck.
            self.under, self.mixed = 0, False
        elif t in ("play", "discard"):
            seat, card = int(d["seat"]), str(d["card"])
            self.lose(seat, card)
            if card != "shinigami":
                self.lacks[seat].add("shinigami")  # it must be played when held
            if t == "play" and card in ("arrest", "handgun"):
                self.played_as[seat] = "l" if card == "arrest" else "police"
                self.arrest_spent = self.arrest_spent or card == "arrest"
            if t == "play" and card == "shinigami" and not self._worshipper_dead:
                self.kira_team_met = True
        elif t == "target":
            seat, target, card = int(d["seat"]), int(d["target"]), str(d["card"])
            if card == "witness":
                self.witnessed.append((seat, target))
            elif card == "surveillance":
                self.surveilled.append((seat, target))
            elif card == "exchange" and me not in (seat, target):
                for s in (seat, target):
                    self.loses_unseen(s)
                    self.gains_unseen(s)
        elif t == "pass":
            giver, to, card = int(d["seat"]), int(d["to"]), str(d["card"])
            if self._in_interrogation:
                self._passes.append((giver, to, card))
            elif to == me:
                self.lose(giver, card)
                if d.get("lowest"):
                    self._gave_lowest(giver, card)
            elif giver == me:
                self.gets_seen(to, card)
        elif t == "direction":
            self._in_interrogation = True
            self._passes = []
        elif t == "interrogated":
            self._interrogated()
        elif t == "handgun":
            target, card = int(d["target"]), str(d["card"])
            self.has(target, card)
            low = self._st.tables.number[card]
            num = self._st.tables.number
            self.lacks[target].update(c for c, k in num.items() if k < low)
        elif t == "surveillance" and d.get("seat") == me:
            target = int(d["target"])
            self.known[target] = Counter(str(c) for c in d["hand"])
        elif t == "alias":
            self.has(int(d["target"]), "alias")
        elif t == "death":
            target = int(d["target"])
            self._alive[target] = False
            self.known[target].clear()
            self.under += int(d.get("cards") or 0)
            if d.get("role") == "worshipper":
                self._worshipper_dead = True
        elif t == "phase" and d.get("phase") == "judgment" and not self._worshipper_dead:
            self.kira_team_met = True
        elif t in ("written", "no_name"):
            for s in range(self._st.players):
                if self._alive[s]:
                    facts = self.holds_if if t == "written" else self.lacks_if
                    facts[s].setdefault("kira", set()).add("death_note")
        elif t == "denied":
            self.holds_if[int(d["target"])].setdefault("kira", set()).add("alibi")

    _in_interrogation = False

    def _gave_lowest(self, giver: int, card: str) -> None:
        """``giver`` gave the viewer ``card`` as its lowest-numbered card (an Exchange): with a
        Role that may not renumber it, nothing it kept is printed lower and not renumberable."""
        tables = self._st.tables
        low = tables.number[card]
        for role in ROLE_IDS:
            changes = tables.changes[role]
            if card in changes:
                continue
            below = {c for c, k in tables.number.items() if k < low and c not in changes}
            if below:
                self.lacks_if[giver].setdefault(role, set()).update(below)

    def _interrogated(self) -> None:
        """Every living player passed a card at once; the viewer saw only its own two."""
        me = self.me
        gave_me = {g: c for g, to, c in self._passes if to == me and g != me}
        got_mine = {to: c for g, to, c in self._passes if g == me and to != me}
        for t in range(self._st.players):
            if t == me or not self._alive[t]:
                continue
            if t in gave_me:
                self.lose(t, gave_me[t])
            else:
                self.loses_unseen(t)
            if t in got_mine:
                self.gets_seen(t, got_mine[t])
            else:
                self.gains_unseen(t)
        self._passes = []
        self._in_interrogation = False


#: The last (state, viewer) read: a search draws many worlds from one state for one viewer,
#: and what the viewer has seen and knows changes only when the state's history grows (it
#: is append-only). The state is held weakly: the cache never keeps a match alive.
_LAST_READ: list[Any] = [None, None, -1, None, None, None]


def _read(st: WwState, viewer: Viewer, me: int | None) -> tuple[list[Event], Knowledge]:
    """The events ``viewer`` has seen and what it knows from them (read once per history)."""
    history = st.history
    n = len(history)
    last = history[-1] if history else None
    ref, seen_by, length, tail, seen, know = _LAST_READ
    if ref is not None and ref() is st and seen_by == viewer and length == n and tail is last:
        return seen, know
    seen = [e for e in history if e.visible_to(viewer)]
    know = Knowledge(st, seen, me)
    _LAST_READ[:] = [weakref.ref(st), viewer, n, last, seen, know]
    return seen, know


def sample(st: WwState, viewer: Viewer, rng: random.Random) -> WwState:
    """A copy of ``st`` with all that ``viewer`` cannot see redrawn (see the module doc)."""
    twin = st.fork()
    if viewer == OMNISCIENT:
        return twin
    me = viewer if isinstance(viewer, int) else None
    seen, know = _read(st, viewer, me)
    twin.history = list(seen)
    if st.winner is not None:
        # The end shows every Role and hand: only the deck's order is unknown.
        shuffle(rng, twin.deck)
        return twin
    for _ in range(TRIES):
        roles = _roles(st, know, me, rng)
        deal = _deal(st, know, me, roles, rng)
        if deal is not None:
            break
    else:  # pragma: no cover - see TRIES
        roles = [x.role for x in st.seats]
        deal = [list(x.hand) for x in st.seats], list(st.deck)
    hands, deck = deal
    for s, x in enumerate(twin.seats):
        x.role = roles[s]
        x.hand = hands[s]
    twin.deck = deck
    _private_knowledge(st, twin, know, me)
    _step(st, twin, me, rng)
    return twin


def _roles(st: WwState, know: Knowledge, me: int | None, rng: random.Random) -> list[str]:
    """Known Roles stay; the others of the set-up are shuffled among the other seats."""
    fixed: dict[int, str] = {}
    for s, x in enumerate(st.seats):
        if not x.alive or s == me or s in know.played_as:
            fixed[s] = x.role
    if me is not None:
        for s in st.seats[me].known_roles:
            fixed[s] = st.seats[s].role
    pool = Counter(st.tables.setup["roles"])
    pool.subtract(Counter(fixed.values()))
    free = [s for s in range(st.players) if s not in fixed]
    rest = [r for r, k in sorted(pool.items()) for _ in range(k)]
    shuffle(rng, rest)
    out = [fixed.get(s, "") for s in range(st.players)]
    for s, r in zip(free, rest, strict=True):
        out[s] = r
    return out


def _deal(
    st: WwState, know: Knowledge, me: int | None, roles: list[str], rng: random.Random
) -> tuple[list[list[str]], list[str]] | None:
    """One random deal of the hidden cards agreeing with ``know``, or None if it breaks a
    constraint (the caller tries again)."""
    pool: Counter[str] = Counter()
    for x in st.seats:
        pool.update(x.hand)
    pool.update(st.deck)
    hands: list[list[str]] = []
    for s, x in enumerate(st.seats):
        if s == me or not x.alive:
            hands.append(list(x.hand))
            pool.subtract(x.hand)
        else:
            kept = list(know.known[s].elements())
            hands.append(kept)
            pool.subtract(kept)
    rest = [c for c, k in sorted(pool.items()) for _ in range(k)]
    shuffle(rng, rest)
    i = 0
    for s, x in enumerate(st.seats):
        if s == me or not x.alive:
            continue
        need = len(x.hand) - len(hands[s])
        got = rest[i : i + need]
        i += need
        lacks = know.lacks[s]
        if lacks and any(c in lacks for c in got):
            return None
        hands[s].extend(got)
    deck = rest[i:]
    # The deal's DEATH NOTE is in a living hand; its Arrest too, or among the cards of the
    # dead under the deck (anywhere in it once a shuffle mixed them in).
    if "death_note" in deck:
        return None
    if not know.arrest_spent and not (
        any("arrest" in hand for hand in hands)
        or "arrest" in deck[len(deck) - know.buried_below(len(deck)) :]
    ):
        return None
    for s, x in enumerate(st.seats):
        if s != me and x.alive and not know.fits(s, roles[s], hands[s]):
            return None
    cur = st.current
    if cur is not None and cur != me and st.step is not None and st.step["k"] == "turn":
        # The player on turn always has something to play or discard (the FAQ redraws).
        probe = st.fork()
        probe.seats[cur].hand = hands[cur]
        probe.seats[cur].role = roles[cur]
        if not R.turn_actions(probe, cur):
            return None
    return hands, deck


def _private_knowledge(st: WwState, twin: WwState, know: Knowledge, me: int | None) -> None:
    """The other seats' private looks, rebuilt for the new Roles and hands."""
    roles = [x.role for x in twin.seats]
    ls = [s for s, r in enumerate(roles) if r == "l"]
    kira = next((s for s, r in enumerate(roles) if r == "kira"), None)
    worshipper = next((s for s, r in enumerate(roles) if r == "worshipper"), None)
    for s, x in enumerate(twin.seats):
        if s == me:
            continue
        known: dict[int, str] = {}
        if roles[s] == "watari":
            known.update((t, "l") for t in ls)
        if know.kira_team_met and kira is not None and worshipper is not None:
            if s == kira:
                known[worshipper] = "worshipper"
            elif s == worshipper:
                known[kira] = "kira"
        for looker, t in know.witnessed:
            if looker == s:
                known[t] = roles[t]
        x.known_roles = known
        seen: dict[int, list[str]] = {}
        for looker, t in know.surveilled:
            if looker == s:
                if t == me:
                    seen[t] = list(st.seats[s].seen_hands.get(t, []))
                else:
                    seen[t] = R.sort_cards(twin, twin.seats[t].hand)
        x.seen_hands = seen


def _step(st: WwState, twin: WwState, me: int | None, rng: random.Random) -> None:
    """The decision under way, made consistent with the new Roles and hands."""
    step = twin.step
    cur = twin.current
    if cur is not None and cur != me:
        hand = twin.seats[cur].hand
        twin.drawn = choice(rng, hand) if hand else None
    if step is None:
        return
    k = step["k"]
    if k == "give_back":
        giver, taker = step["seat"], step["to"]
        if me not in (giver, taker):
            step["took"] = choice(rng, twin.seats[giver].hand)
    elif k == "interrogate":
        for s in step["picks"]:
            if s != me:
                step["picks"][s] = choice(rng, R.lowest_choices(twin, s))
    elif k == "vote":
        for s in step["votes"]:
            if s != me:
                step["votes"][s] = choice(rng, R.targets(twin, s))
    elif k in ("judgment", "shinigami"):
        kira = R.seat_of(twin, "kira")
        guide = R.kira_team_alive(twin)
        worshipper = R.seat_of(twin, "worshipper") if guide else None
        step["worshipper"] = worshipper
        if k == "shinigami":
            return
        notebook = kira is not None and "death_note" in twin.seats[kira].hand
        step["kira"] = kira if notebook else None
        done = step["done"]
        if me is not None and me in (kira, worshipper):
            pass  # the Kira team sees the pointing
        elif worshipper is not None and (step["stage"] == "write" or worshipper in done):
            options = [R.NO_SUGGESTION, *R.suggest_targets(twin, worshipper)]
            step["suggested"] = choice(rng, options)
        else:
            step["suggested"] = None
        if me is not None and me == kira:
            pass  # Kira knows the name he wrote
        elif step["stage"] == "write" and notebook and kira in done:
            assert kira is not None
            step["written"] = choice(rng, R.write_targets(twin, kira))
        else:
            step["written"] = None
