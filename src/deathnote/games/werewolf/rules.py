"""The rules of Death Note Werewolf: the phases, the turn, every card and every Role.

Each function takes a ``Ctx`` (state, the match's generator, the events of this action) and
leaves the state at the next decision (``st.step``) or at the end of the game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from deathnote.engine.actions import Action, Event
from deathnote.engine.rng import shuffle

from .content import ROLE_IDS
from .state import SeatState, WwState
from .tables import (
    MEMO_LIMIT,
    NEVER_PLAYED,
    NO_SUGGESTION,
    PLAYABLE,
    PLAYED_ONLY_BY,
    TARGETED,
    UNDISCARDABLE,
    pname,
)

#: How many times the FAQ "draw again" may repeat before the turn is given up (never seen
#: with the printed set-ups; it only guards against a replacement content that jams).
FAQ_LIMIT = 40


@dataclass
class Ctx:
    """What a rule function works with."""

    st: WwState
    rng: random.Random
    events: list[Event]
    #: whether events are kept: the most frequent texts are built only then (``QuietCtx``)
    loud: ClassVar[bool] = True

    def say(self, text: str, **data: Any) -> None:
        """A public event."""
        self.events.append(Event(text, data))

    def tell(self, seats: Iterable[int], text: str, **data: Any) -> None:
        """A private event for exactly these seats."""
        self.events.append(Event(text, data, frozenset(seats)))


class QuietCtx(Ctx):
    """A ``Ctx`` that keeps no log: for play-outs that read none (``apply_quiet``)."""

    loud: ClassVar[bool] = False

    def say(self, text: str, **data: Any) -> None:
        """No event."""

    def tell(self, seats: Iterable[int], text: str, **data: Any) -> None:
        """No event."""


# -- content look-ups ----------------------------------------------------------------------
def card(st: WwState, cid: str) -> dict[str, Any]:
    """The content entry of a card id (a copy)."""
    return dict(st.tables.cards[cid])


def number(st: WwState, cid: str) -> int:
    """The printed number of a card."""
    return st.tables.number[cid]


def cname(st: WwState, cid: str) -> str:
    """The printed name of a card."""
    return st.tables.name[cid]


def role_info(st: WwState, rid: str) -> dict[str, Any]:
    """The content entry of a Role id (a copy)."""
    return dict(st.tables.roles[rid])


def team_of(st: WwState, seat: int) -> str:
    """The team of a seat ("kira" or "l")."""
    return st.tables.team[st.seats[seat].role]


def sort_cards(st: WwState, cards: Iterable[str]) -> list[str]:
    """Cards in printed-number order."""
    return sorted(cards, key=st.tables.key.__getitem__)


def alive(st: WwState) -> list[int]:
    """Living seats in seat order."""
    return [s for s, x in enumerate(st.seats) if x.alive]


def neighbour(st: WwState, seat: int, step: int) -> int:
    """The next living seat to the left (step 1) or to the right (step -1)."""
    s = seat
    for _ in range(st.players):
        s = (s + step) % st.players
        if st.seats[s].alive:
            return s
    return seat


def seat_of(st: WwState, role: str) -> int | None:
    """The seat holding a Role (the first one for Roles dealt twice)."""
    # A plain loop: the Judgment Phase asks it several times a step (no generator made).
    for s, x in enumerate(st.seats):
        if x.role == role:
            return s
    return None


def setup(st: WwState) -> dict[str, Any]:
    """The set-up of this table size."""
    return st.tables.setup


# -- the number-changing ability ------------------------------------------------------------
def lowest_choices(st: WwState, seat: int) -> list[str]:
    """The cards this seat may give when asked for its lowest-numbered card.

    A card whose number the seat's Role may change can be given (its number set to 0) or
    kept (set above every other card); the other cards compare by their printed numbers.
    """
    x = st.seats[seat]
    return _by_role_and_hand(st.tables.lowest, st, seat, lambda: lowest_of(st, x.role, x.hand))


def lowest_of(st: WwState, role: str, hand: Iterable[str]) -> list[str]:
    """``lowest_choices`` for a Role and a hand."""
    changeable = st.tables.changes[role]
    num = st.tables.number
    out = set()
    low = None
    for c in hand:
        if c in changeable:
            out.add(c)
        elif low is None or num[c] < low:
            low = num[c]
    if low is not None:
        out.update(c for c in hand if c not in changeable and num[c] == low)
    return sort_cards(st, out)


def printed_lowest(st: WwState, seat: int) -> str | None:
    """The lowest printed-number card of a hand (Handgun: no one may change numbers)."""
    hand = st.seats[seat].hand
    return sort_cards(st, hand)[0] if hand else None


# -- the turn --------------------------------------------------------------------------------
def can_play(st: WwState, seat: int, cid: str) -> bool:
    """Whether this seat's Role may play this card."""
    return cid in playable_by(st.seats[seat].role)


def playable_by(role: str) -> frozenset[str]:
    """The cards a Role may play (never DEATH NOTE, Alias, Alibi; Arrest and Handgun only by
    their Roles)."""
    return _PLAYABLE[role]


_PLAYABLE = {
    role: frozenset(
        c
        for c in PLAYABLE
        if c not in NEVER_PLAYED and (c not in PLAYED_ONLY_BY or role in PLAYED_ONLY_BY[c])
    )
    for role in ROLE_IDS
}


def _by_role_and_hand(
    memo: dict[Any, tuple[Any, ...]], st: WwState, seat: int, make: Any
) -> list[Any]:
    """What ``make()`` lists for ``seat``, remembered in ``memo`` by its Role and hand
    (bounded: cleared at ``MEMO_LIMIT`` entries); a fresh list each call."""
    x = st.seats[seat]
    key = (x.role, tuple(x.hand))
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        found = memo[key] = tuple(make())
    return list(found)


def turn_actions(st: WwState, seat: int) -> list[Action]:
    """Play a card or pass by discarding one (Shinigami must be played when held)."""
    return _by_role_and_hand(st.tables.turns, st, seat, lambda: _turn_actions(st, seat))


def _turn_actions(st: WwState, seat: int) -> list[Action]:
    """``turn_actions`` worked out."""
    hand = st.seats[seat].hand
    t = st.tables
    if "shinigami" in hand:
        return [t.play["shinigami"]]
    kinds = sort_cards(st, set(hand))
    mine = _PLAYABLE[st.seats[seat].role]
    plays = [t.play[c] for c in kinds if c in mine]
    plays.extend(t.discard[c] for c in kinds if c not in UNDISCARDABLE)
    return plays


def draw(ctx: Ctx) -> str | None:
    """The top card of the deck; the discard pile is shuffled into a new deck when empty."""
    st = ctx.st
    if not st.deck and st.discard:
        st.deck = list(st.discard)
        st.discard.clear()
        shuffle(ctx.rng, st.deck)
        st.reshuffles += 1
        ctx.say(
            "The deck is empty: the discard pile is shuffled into a new deck.",
            type="reshuffle",
            deck=len(st.deck),
        )
    return st.deck.pop(0) if st.deck else None


def start_investigation(ctx: Ctx) -> None:
    """Investigation Phase: every living player takes a turn (two before the first Judgment
    at 4-5 players), starting with the first player."""
    st = ctx.st
    st.phase = "investigation"
    start = st.first if st.seats[st.first].alive else neighbour(st, st.first, 1)
    ring = [start]
    while (n := neighbour(st, ring[-1], 1)) != start:
        ring.append(n)
    rounds = setup(st)["turns_before_first_judgment"] if st.judgments == 0 else 1
    st.order = ring * rounds
    ctx.say(
        f"Investigation Phase {st.judgments + 1}: {pname(start)} starts.",
        type="phase",
        phase="investigation",
        number=st.judgments + 1,
        start=start,
    )
    next_turn(ctx)


def next_turn(ctx: Ctx) -> None:
    """The next turn of the phase, or the Judgment Phase when every turn is played."""
    st = ctx.st
    st.step = None
    if st.winner:
        return
    st.order = [s for s in st.order if st.seats[s].alive]
    if not st.order:
        judgment(ctx)
        return
    seat = st.order.pop(0)
    st.current = seat
    st.turns += 1
    c = draw(ctx)
    st.drawn = c
    if c is not None:
        st.seats[seat].hand.append(c)
        if ctx.loud:
            ctx.say(f"{pname(seat)} draws a card.", type="draw", seat=seat)
            ctx.tell([seat], f"You draw {cname(st, c)}.", type="drew", seat=seat, card=c)
    tries = 0
    playable = bool(turn_actions(st, seat))
    while not playable and tries < FAQ_LIMIT:
        tries += 1
        stuck_redraw(ctx, seat)
        playable = bool(turn_actions(st, seat))
    if not playable:
        ctx.say(f"{pname(seat)} still cannot play; the turn passes.", type="stuck_end", seat=seat)
        next_turn(ctx)
        return
    st.step = {"k": "turn", "seat": seat}


def stuck_redraw(ctx: Ctx, seat: int) -> None:
    """FAQ: a hand that can neither play nor discard draws one more card and returns the
    card drawn before it this turn to the deck, which is shuffled."""
    st = ctx.st
    ctx.say(
        f"{pname(seat)} cannot use or discard any card: they draw again.", type="stuck", seat=seat
    )
    new = draw(ctx)
    if new is None:
        return
    hand = st.seats[seat].hand
    hand.append(new)
    back = st.drawn if st.drawn is not None and st.drawn in hand else None
    if back is None:
        back = sort_cards(st, hand)[0]
    hand.remove(back)
    st.deck.append(back)
    shuffle(ctx.rng, st.deck)
    st.drawn = new
    ctx.tell(
        [seat],
        f"You draw {cname(st, new)} and return {cname(st, back)} to the deck.",
        type="redrew",
        seat=seat,
        card=new,
        returned=back,
    )


def end_turn(ctx: Ctx) -> None:
    """The turn is over: the next one (unless the game is)."""
    ctx.st.drawn = None
    next_turn(ctx)


def play_card(ctx: Ctx, seat: int, cid: str) -> None:
    """Play a card from the hand; a targeted card asks for its target next."""
    st = ctx.st
    st.seats[seat].hand.remove(cid)
    if cid == "arrest":
        st.removed.append(cid)
    else:
        st.discard.append(cid)
    if ctx.loud:
        ctx.say(f"{pname(seat)} plays {cname(st, cid)}.", type="play", seat=seat, card=cid)
    if cid in TARGETED:
        st.step = {"k": "target", "seat": seat, "card": cid}
    elif cid == "vote":
        st.step = {"k": "vote", "seat": seat, "votes": {}}
    elif cid == "interrogation":
        st.step = {"k": "direction", "seat": seat}
    elif cid == "shinigami":
        ctx.say(
            "Shinigami: everyone closes their eyes; Kira and the Worshipper open theirs.",
            type="shinigami",
            seat=seat,
        )
        kira_team_sees(ctx)
        if kira_team_alive(st):
            # FAQ: the Worshipper guides Kira with gestures; everyone is asked alike.
            st.step = {"k": "shinigami", "seat": seat, "worshipper": seat_of(st, "worshipper")}
            st.step["done"] = []
        else:
            end_turn(ctx)
    else:  # pragma: no cover - content guards this
        end_turn(ctx)


def discard_card(ctx: Ctx, seat: int, cid: str) -> None:
    """Pass: discard one card face up."""
    st = ctx.st
    st.seats[seat].hand.remove(cid)
    st.discard.append(cid)
    if ctx.loud:
        ctx.say(
            f"{pname(seat)} passes and discards {cname(st, cid)}.",
            type="discard",
            seat=seat,
            card=cid,
        )
    end_turn(ctx)


def targets(st: WwState, seat: int) -> list[int]:
    """The players a card may name: every other living player."""
    return [s for s in alive(st) if s != seat]


def resolve_target(ctx: Ctx, seat: int, cid: str, target: int) -> None:
    """Carry out a targeted card."""
    st = ctx.st
    text = f"{pname(seat)} names {pname(target)} ({cname(st, cid)})."
    if cid == "exchange":
        text = (
            f"{pname(seat)} names {pname(target)} ({cname(st, cid)}): {pname(target)} gives "
            f"them their lowest-numbered card and gets one card back."
        )
    ctx.say(
        text,
        type="target",
        seat=seat,
        card=cid,
        target=target,
    )
    if cid == "arrest":
        arrest(ctx, seat, target)
        end_turn(ctx)
    elif cid == "handgun":
        shown = printed_lowest(st, target)
        if shown is not None:
            text = f"{pname(target)} reveals {cname(st, shown)} (lowest printed number)."
            if st.options["handgun_reveal"] == "table":
                ctx.say(text, type="handgun", seat=seat, target=target, card=shown)
            else:
                ctx.tell([seat, target], text, type="handgun", seat=seat, target=target, card=shown)
        end_turn(ctx)
    elif cid == "witness":
        role = st.seats[target].role
        st.seats[seat].known_roles[target] = role
        ctx.tell(
            [seat],
            f"Witness: {pname(target)} is {st.tables.role_name[role]}.",
            type="witness",
            seat=seat,
            target=target,
            role=role,
        )
        end_turn(ctx)
    elif cid == "surveillance":
        hand = sort_cards(st, st.seats[target].hand)
        st.seats[seat].seen_hands[target] = list(hand)  # the event keeps its own list
        ctx.tell(
            [seat],
            f"Surveillance: {pname(target)} holds " + ", ".join(cname(st, c) for c in hand) + ".",
            type="surveillance",
            seat=seat,
            target=target,
            hand=hand,
        )
        end_turn(ctx)
    else:  # exchange
        st.step = {"k": "give_lowest", "seat": target, "to": seat}


def arrest(ctx: Ctx, seat: int, target: int) -> None:
    """Arrest: Kira without an Alibi is arrested; anyone else denies. The card is gone."""
    st = ctx.st
    x = st.seats[target]
    if x.role == "kira" and "alibi" not in x.hand:
        ctx.say(f"{pname(target)} is arrested: they are Kira!", type="arrested", target=target)
        finish(ctx, "l", "arrest", f"L arrested Kira ({pname(target)}).")
        return
    ctx.say(f"{pname(target)} denies the accusation.", type="denied", target=target)
    total = setup(st)["cards"].get("arrest", 0)
    if st.removed.count("arrest") >= total:
        finish(
            ctx, "kira", "no_arrest", "Every Arrest card has left the game without arresting Kira."
        )


def _pass_card(ctx: Ctx, giver: int, taker: int, cid: str, lowest: bool) -> None:
    """A card goes from hand to hand; only the two players see which."""
    st = ctx.st
    st.seats[giver].hand.remove(cid)
    st.seats[taker].hand.append(cid)
    _tell_pass(ctx, giver, taker, cid, lowest, "gives")


def _tell_pass(ctx: Ctx, giver: int, taker: int, cid: str, lowest: bool, verb: str) -> None:
    """The entry of a card passed, for the two players only (kept only when logged)."""
    if ctx.loud:
        ctx.tell(
            [giver, taker],
            f"{pname(giver)} {verb} {cname(ctx.st, cid)} to {pname(taker)}.",
            type="pass",
            seat=giver,
            to=taker,
            card=cid,
            lowest=lowest,
        )


def give_lowest(ctx: Ctx, giver: int, taker: int, cid: str) -> None:
    """Exchange, first half: the named player gives their lowest-numbered card."""
    _pass_card(ctx, giver, taker, cid, lowest=True)
    ctx.st.step = {"k": "give_back", "seat": taker, "to": giver, "took": cid}


def give_back(ctx: Ctx, giver: int, taker: int, cid: str) -> None:
    """Exchange, second half: the player of the card gives any one card.

    The two players see the pass (one entry each); the table was told at the naming what
    the Exchange does, and nothing more about it is public, so it gets no entry of its own
    (rules version 2 also logged "gives a card back", a second entry for the two players)."""
    _pass_card(ctx, giver, taker, cid, lowest=False)
    end_turn(ctx)


def interrogate(ctx: Ctx, direction: str) -> None:
    """Interrogation: once every player chose, all lowest cards pass at once."""
    st = ctx.st
    assert st.step is not None
    picks: dict[int, str] = {int(k): v for k, v in st.step["picks"].items()}
    step = 1 if direction == "left" else -1
    for s, c in picks.items():
        st.seats[s].hand.remove(c)
    for s, c in sorted(picks.items()):
        to = neighbour(st, s, step)
        st.seats[to].hand.append(c)
        _tell_pass(ctx, s, to, c, True, "passes")
    ctx.say(f"Every player passed a card to the {direction}.", type="interrogated", dir=direction)
    end_turn(ctx)


def vote(ctx: Ctx) -> None:
    """Vote: every player's pointing is shown at once."""
    st = ctx.st
    assert st.step is not None
    votes = {int(k): int(v) for k, v in st.step["votes"].items()}
    text = ", ".join(f"{pname(s)} -> {pname(t)}" for s, t in sorted(votes.items()))
    ctx.say(f"Vote: {text}.", type="vote", votes={str(s): t for s, t in sorted(votes.items())})
    end_turn(ctx)


# -- Judgment ----------------------------------------------------------------------------------
def kira_team_alive(st: WwState) -> bool:
    """Whether Kira and the Worshipper both play on (public: the dead show their Role)."""
    k, w = seat_of(st, "kira"), seat_of(st, "worshipper")
    return k is not None and w is not None and st.seats[k].alive and st.seats[w].alive


def point(ctx: Ctx, worshipper: int, choice: int | None) -> None:
    """The Worshipper's gesture while the eyes are closed: only Kira (and they) see it."""
    kira = seat_of(ctx.st, "kira")
    text = (
        "The Worshipper points at no one."
        if choice is None or choice == NO_SUGGESTION
        else f"The Worshipper points at {pname(choice)}."
    )
    ctx.tell(
        [worshipper] + ([kira] if kira is not None else []),
        text,
        type="suggest",
        seat=worshipper,
        target=choice,
    )


def kira_team_sees(ctx: Ctx) -> None:
    """Kira and the Worshipper open their eyes and see each other."""
    st = ctx.st
    k, w = seat_of(st, "kira"), seat_of(st, "worshipper")
    if k is None or w is None or not (st.seats[k].alive and st.seats[w].alive):
        return
    st.seats[k].known_roles[w] = "worshipper"
    st.seats[w].known_roles[k] = "kira"
    ctx.tell(
        [k, w],
        f"Eyes open: {pname(k)} is Kira and {pname(w)} is the Worshipper.",
        type="kira_team",
        kira=k,
        worshipper=w,
    )


def judgment(ctx: Ctx) -> None:
    """Judgment Phase: every living player is asked alike while the eyes are closed (so that
    nobody, not even a hot-seat hand-over, shows who acts): the Worshipper, while alive,
    points first, then Kira must write a name if he holds the DEATH NOTE. The number of
    rounds depends only on whether the Worshipper lives (public), never on the notebook."""
    st = ctx.st
    st.phase = "judgment"
    st.current = None
    ctx.say(
        "Judgment Phase: everyone closes their eyes.",
        type="phase",
        phase="judgment",
        number=st.judgments + 1,
    )
    kira_team_sees(ctx)
    k = seat_of(st, "kira")
    w = seat_of(st, "worshipper")
    notebook = k is not None and st.seats[k].alive and "death_note" in st.seats[k].hand
    guide = kira_team_alive(st)
    st.step = {
        "k": "judgment",
        "stage": "suggest" if guide else "write",
        "kira": k if notebook else None,
        "worshipper": w if guide else None,
        "done": [],
        "suggested": None,
        "written": None,
    }


def judgment_done(ctx: Ctx, seat: int, choice: int | None) -> None:
    """One player's eyes-closed choice; once everyone chose, the next stage or Execution."""
    st = ctx.st
    step = st.step
    assert step is not None
    step["done"].append(seat)
    if step["stage"] == "suggest" and seat == step["worshipper"]:
        step["suggested"] = choice
        point(ctx, seat, choice)
    if step["stage"] == "write" and seat == step["kira"]:
        step["written"] = choice
    if len(step["done"]) < len(alive(st)):
        return
    if step["stage"] == "suggest":
        step["stage"] = "write"
        step["done"] = []
        return
    execution(ctx, step["written"])


def shinigami_done(ctx: Ctx, seat: int, choice: int | None) -> None:
    """One player's eyes-closed answer during a Shinigami; once all answered, eyes open."""
    st = ctx.st
    step = st.step
    assert step is not None
    step["done"].append(seat)
    if seat == step["worshipper"]:
        point(ctx, seat, choice)
    if len(step["done"]) < len(alive(st)):
        return
    ctx.say("Shinigami: everyone opens their eyes.", type="eyes_open")
    end_turn(ctx)


def write_targets(st: WwState, kira: int) -> list[int]:
    """The names Kira may write: any other living player, himself only with an Alias."""
    out = [s for s in alive(st) if s != kira]
    if "alias" in st.seats[kira].hand:
        out.append(kira)
    return sorted(out)


def suggest_targets(st: WwState, worshipper: int) -> list[int]:
    """Whom the Worshipper may point Kira at (any living player but themself)."""
    return [s for s in alive(st) if s != worshipper]


def execution(ctx: Ctx, target: int | None) -> None:
    """Eyes open: the named player dies unless they reveal an Alias."""
    st = ctx.st
    if target is None:
        ctx.say("Eyes open: no name is written in the DEATH NOTE.", type="no_name")
    else:
        ctx.say(
            f"Eyes open: {pname(target)}'s name is written in the DEATH NOTE.",
            type="written",
            target=target,
        )
        x = st.seats[target]
        if "alias" in x.hand:
            ctx.say(f"{pname(target)} reveals an Alias and survives.", type="alias", target=target)
        else:
            die(ctx, target, x)
    st.judgments += 1
    if st.winner:
        st.step = None
        return
    start_investigation(ctx)


def die(ctx: Ctx, target: int, x: SeatState) -> None:
    """Death by heart attack: the Role is revealed, the hand goes under the deck face down."""
    st = ctx.st
    x.alive = False
    cards = list(x.hand)
    x.hand.clear()
    shuffle(ctx.rng, cards)
    st.deck.extend(cards)
    ctx.say(
        f"{pname(target)} dies of a heart attack. They were "
        f"{st.tables.role_name[x.role]}; their {len(cards)} cards go under the deck.",
        type="death",
        target=target,
        role=x.role,
        cards=len(cards),
    )
    l_alive = [s for s in alive(st) if st.seats[s].role == "l"]
    team_alive = [s for s in alive(st) if team_of(st, s) == "l"]
    if not l_alive:
        finish(ctx, "kira", "l_dead", "Every L is dead.")
    elif len(team_alive) <= 1:
        finish(ctx, "kira", "l_team_one", "The L team is down to one player.")


def finish(ctx: Ctx, winner: str, condition: str, reason: str) -> None:
    """The game is over."""
    st = ctx.st
    st.winner, st.condition, st.reason = winner, condition, reason
    st.step = None
    st.order = []
    roles = ", ".join(f"{pname(s)}: {st.tables.role_name[x.role]}" for s, x in enumerate(st.seats))
    ctx.say(
        f"{reason} The {'Kira' if winner == 'kira' else 'L'} team wins. Roles: {roles}.",
        type="end",
        winner=winner,
        condition=condition,
        roles=[x.role for x in st.seats],
    )
