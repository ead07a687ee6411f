"""The resolution machine and the shared rules of Le Jeu d'Enquête.

Everything that happens is a stack of steps. A ``call`` step runs code; a ``pick`` step
asks one seat to choose one value from a short list; a ``window`` step asks the seats in
round order, one after another, whether they play an Action now (each may pass). Card and
Investigation effects are functions registered by id that push further steps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from deathnote.engine.actions import Event
from deathnote.engine.rng import choice as rng_choice
from deathnote.engine.rng import shuffle as rng_shuffle

from .state import EnqState, Step, new_version

SUSPICION_LIMIT = {4: 7, 5: 6, 6: 6, 7: 6, 8: 5}
KIRA_ROLES = ("light", "misa", "higuchi")
INVESTIGATOR_ROLES = ("yagami", "matsuda", "aizawa", "mogi", "watari")


class Ctx:
    """What rule code works with: the state, the match generator and the new events."""

    #: whether events are kept: the hottest texts are built only then (``QuietCtx``)
    loud = True

    def __init__(self, st: EnqState, rng: random.Random, events: list[Event]) -> None:
        self.st = st
        self.rng = rng
        self.events = events

    # -- log ------------------------------------------------------------------------
    def say(self, text: str, **data: Any) -> None:
        """A public event."""
        self.events.append(Event.public(text, **data))

    def tell(self, seats: Iterable[int], text: str, **data: Any) -> None:
        """A private event for these seats only."""
        self.events.append(Event.private(seats, text, **data))

    # -- steps ----------------------------------------------------------------------
    def then(self, *steps: Step) -> None:
        """Push steps so that the first one given resolves first."""
        for step in reversed(steps):
            self.st.stack.append(step)

    def call(self, fn: str, **data: Any) -> Step:
        """A step that runs the registered function ``fn``."""
        return {"k": "call", "fn": fn, **data}

    def pick(
        self,
        seat: int,
        prompt: str,
        options: list[tuple[Any, str]],
        fn: str,
        kind: str = "choose",
        **data: Any,
    ) -> Step:
        """A step asking ``seat`` to choose one of ``options`` ((value, label) pairs)."""
        return {
            "k": "pick",
            "seat": seat,
            "prompt": prompt,
            "options": [[v, label] for v, label in options],
            "fn": fn,
            "dk": kind,
            **data,
        }

    def new_id(self) -> int:
        """A fresh step id."""
        self.st.next_id += 1
        return self.st.next_id


class QuietCtx(Ctx):
    """A ``Ctx`` that keeps no log: for play-outs that read none (``apply_quiet``)."""

    loud = False

    def say(self, text: str, **data: Any) -> None:
        """No event."""

    def tell(self, seats: Iterable[int], text: str, **data: Any) -> None:
        """No event."""


FN: dict[str, Callable[[Ctx, Step], None]] = {}
"""Registered step functions: ``call`` steps run them; ``pick`` steps run them with
``step["value"]`` set to the chosen value."""


def fn(name: str) -> Callable[[Callable[[Ctx, Step], None]], Callable[[Ctx, Step], None]]:
    """Register a step function under ``name``."""

    def deco(func: Callable[[Ctx, Step], None]) -> Callable[[Ctx, Step], None]:
        if name in FN:
            raise RuntimeError(f"step function {name!r} registered twice")
        FN[name] = func
        return func

    return deco


# -- content lookups ------------------------------------------------------------------
def card(st: EnqState, number: int) -> dict[str, Any]:
    """The Action card with this number."""
    result: dict[str, Any] = st.content["actions"][number - 1]
    return result


def tile(st: EnqState, number: int) -> dict[str, Any]:
    """The Investigation tile with this number."""
    result: dict[str, Any] = st.content["investigations"][number - 1]
    return result


#: per content (by id, the content kept alive): the numbers of each pile's tiles
_PILE_TILES: dict[int, tuple[Any, dict[int, frozenset[int]]]] = {}


def piles_of(content: dict[str, Any]) -> dict[int, frozenset[int]]:
    """The numbers of each pile's Investigation tiles, by pile, made once per content."""
    hit = _PILE_TILES.get(id(content))
    if hit is None or hit[0] is not content:
        if len(_PILE_TILES) > 64:
            _PILE_TILES.clear()
        piles: dict[int, frozenset[int]] = {}
        for t in content["investigations"]:
            piles[t["pile"]] = piles.get(t["pile"], frozenset()) | {t["number"]}
        hit = _PILE_TILES[id(content)] = (content, piles)
    return hit[1]


def pile_tiles(st: EnqState, pile: int) -> frozenset[int]:
    """The numbers of the Investigation tiles of this pile (empty for no such pile)."""
    return piles_of(st.content).get(pile, frozenset())


#: per content (by id, the content kept alive): each Role card by its id
_ROLES: dict[int, tuple[Any, dict[str, dict[str, Any]]]] = {}


def role_info(st: EnqState, role: str) -> dict[str, Any]:
    """The Role card with this id."""
    content = st.content
    hit = _ROLES.get(id(content))
    if hit is None or hit[0] is not content:
        if len(_ROLES) > 64:
            _ROLES.clear()
        hit = _ROLES[id(content)] = (content, {r["id"]: r for r in content["roles"]})
    return hit[1][role]


def role_name(st: EnqState, role: str) -> str:
    """Display name of a Role."""
    return str(role_info(st, role)["name"])


def faction(role: str) -> str:
    """kira, investigator or detective."""
    if role in KIRA_ROLES:
        return "kira"
    return "detective" if role == "detective" else "investigator"


def name(seat: int) -> str:
    """Public name of a seat."""
    return f"Player {seat + 1}"


# -- table geometry -------------------------------------------------------------------
def step_dir(direction: str) -> int:
    """+1 for clockwise (to the left), -1 for counter-clockwise."""
    return 1 if direction == "clockwise" else -1


def players(st: EnqState) -> list[int]:
    """Every seat but the Detective's."""
    return [s for s in range(st.players) if s != st.detective]


def living(st: EnqState) -> list[int]:
    """Living players (never the Detective)."""
    return [s for s in players(st) if not st.seats[s].dead]


def ring(st: EnqState, start: int, direction: str, include_start: bool = True) -> list[int]:
    """Living players from ``start`` going round the table in ``direction``."""
    d = 1 if direction == "clockwise" else -1  # ``step_dir``
    n = st.players
    detective, seats = st.detective, st.seats
    # (n steps in a row from 0 or from 1: each seat once)
    first = 0 if include_start else 1
    out = []
    for i in range(first, n + first):
        s = (start + d * i) % n
        if s != detective and not seats[s].dead:
            out.append(s)
    return out


def round_order(st: EnqState) -> list[int]:
    """Living players in round order, from the one next to the Detective."""
    return ring(st, st.detective, st.direction, include_start=False)


def neighbors(st: EnqState, seat: int) -> list[int]:
    """First living player to each side, never the Detective; the dead have none."""
    if seat == st.detective or st.seats[seat].dead:
        return []
    out: list[int] = []
    for d in (1, -1):
        for i in range(1, st.players):
            s = (seat + d * i) % st.players
            if s == seat:
                break
            if s != st.detective and not st.seats[s].dead:
                if s not in out:
                    out.append(s)
                break
    return out


def seat_of(st: EnqState, role: str) -> int | None:
    """The seat holding a Role, or None if it is inactive."""
    for s, seat in enumerate(st.seats):
        if seat.role == role:
            return s
    return None


def role_state(st: EnqState, role: str) -> tuple[bool, bool]:
    """(revealed, dead) of a Role wherever it is."""
    s = seat_of(st, role)
    if s is not None:
        return st.seats[s].revealed, st.seats[s].dead
    for r in st.inactive:
        if r.role == role:
            return r.revealed, r.dead
    return False, False


def ref_role(st: EnqState, ref: str) -> str:
    """The Role behind a reference "p<seat>" or "i<index>"."""
    i = int(ref[1:])
    return st.seats[i].role if ref[0] == "p" else st.inactive[i].role


def ref_label(ref: str) -> str:
    """Readable name of a Role reference."""
    i = int(ref[1:])
    return f"{name(i)}'s Role" if ref[0] == "p" else f"inactive Role {i + 1}"


def acting_faction(st: EnqState, seat: int) -> str:
    """The faction an Investigation sees for a seat (a Lie played now flips it)."""
    f = faction(st.seats[seat].role)
    if seat in st.lying and f != "detective":
        return "investigator" if f == "kira" else "kira"
    return f


def holds(st: EnqState, seat: int, role: str) -> bool:
    """Whether an Investigation naming ``role`` finds it at ``seat`` (a Lie hides it)."""
    return st.seats[seat].role == role and seat not in st.lying


# -- what each viewer knows for certain ------------------------------------------------
DISCARD = -1
"""The holder of a card in the discard pile (``EnqState.pins``)."""


def pin(st: EnqState, seats: Iterable[int], number: int, holder: int) -> None:
    """These seats now know where this card is."""
    for k in seats:
        st.pins[k][number] = holder


def pin_all(st: EnqState, number: int, holder: int) -> None:
    """Everyone (the public too) knows where this card is (e.g. a played card)."""
    for known in st.pins:
        known[number] = holder


def forget_holder(st: EnqState, holder: int, keep: Iterable[int]) -> None:
    """An unnamed card left ``holder``'s hand: the others' certainties about it end."""
    kept = set(keep)
    for k, known in enumerate(st.pins):
        if k not in kept:
            for n in [n for n, h in known.items() if h == holder]:
                del known[n]


def add_fact(st: EnqState, *fact: Any) -> None:
    """Record a public fact about Roles (once)."""
    entry = list(fact)
    if entry not in st.facts:
        st.facts.append(entry)


def tiles_gone(st: EnqState, gone: Iterable[int], to_discard: bool) -> None:
    """Tiles left the top of the pile: who knew one of them now knows it was discarded."""
    for t in gone:
        for k, top in enumerate(st.tile_top):
            if top == t and to_discard:
                st.tile_known[k].append(t)
    st.tile_top = [None] * len(st.tile_top)


# -- Suspicions, reveals, draws -------------------------------------------------------
def table_order(st: EnqState) -> list[int]:
    """Every player, the dead included, in round order from the one next to the Detective."""
    d = step_dir(st.direction)
    return [(st.detective + d * i) % st.players for i in range(1, st.players)]


def can_receive(st: EnqState, seat: int) -> bool:
    """Unrevealed players without an Alibi may receive Suspicions, the dead included: only
    "a dead and revealed character" may not (ENQ-SUSP-02)."""
    s = st.seats[seat]
    return seat != st.detective and not s.revealed and seat not in st.alibi


def give_suspicions(ctx: Ctx, amounts: dict[int, int], source: str) -> None:
    """Give Suspicions all at once, then reveal in round order whoever reached the limit."""
    st = ctx.st
    got = {s: n for s, n in amounts.items() if n > 0 and can_receive(st, s)}
    for s, n in sorted(got.items()):
        st.seats[s].suspicions += n
    if got and ctx.loud:
        ctx.say(
            f"{source}: "
            + ", ".join(
                f"{name(s)} receives {n} Suspicion{'s' * (n > 1)}" for s, n in sorted(got.items())
            ),
            suspicions={str(s): n for s, n in got.items()},
        )
    limit = SUSPICION_LIMIT[st.players]
    for s in table_order(st):
        if s in got and st.seats[s].suspicions >= limit:
            reveal_player(ctx, s, "suspicions")


def reveal_player(ctx: Ctx, seat: int, by: Any) -> None:
    """Turn a player's Role face up; their Suspicions go back to the supply."""
    st = ctx.st
    s = st.seats[seat]
    if s.revealed:
        return
    s.revealed = True
    s.suspicions = 0
    st.revealed_by[s.role] = by
    ctx.say(f"{name(seat)} is revealed: {role_name(st, s.role)}.", seat=seat, role=s.role)


def reveal_inactive(ctx: Ctx, index: int, by: Any) -> None:
    """Turn an inactive Role face up."""
    r = ctx.st.inactive[index]
    if r.revealed:
        return
    r.revealed = True
    ctx.st.revealed_by[r.role] = by
    ctx.say(
        f"Inactive Role {index + 1} is revealed: {role_name(ctx.st, r.role)}.",
        inactive=index,
        role=r.role,
    )


def draw(ctx: Ctx, seat: int, count: int = 1) -> int:
    """The seat draws Actions (the discard is reshuffled when the pile runs out)."""
    st = ctx.st
    if count <= 0:
        return 0
    if seat in st.no_draw:
        ctx.say(f"{name(seat)} cannot draw Actions this round (Contact).", seat=seat)
        return 0
    drawn: list[int] = []
    for _ in range(count):
        if not st.deck:
            ctx.say("The Action draw pile is empty until the end of the round.")
            break
        drawn.append(st.deck.pop())
    st.seats[seat].hand.extend(drawn)
    known = st.pins[seat]
    for n in drawn:
        known[n] = seat
    if drawn and ctx.loud:
        ctx.say(f"{name(seat)} draws {len(drawn)} Action{'s' * (len(drawn) > 1)}.", seat=seat)
        ctx.tell(
            [seat],
            "You draw: " + ", ".join(card(st, n)["name"] for n in drawn) + ".",
            cards=drawn,
        )
    return len(drawn)


def refill(ctx: Ctx) -> None:
    """Between rounds an empty draw pile is rebuilt from the shuffled discard.

    Never in the middle of a round: then every window is bounded, since each play spends a
    card and a round can only draw the cards its pile held when it began."""
    st = ctx.st
    if not st.deck and st.discard:
        st.deck = list(st.discard)
        st.discard = []
        for known in st.pins:
            for n in [n for n, h in known.items() if h == DISCARD]:
                del known[n]
        rng_shuffle(ctx.rng, st.deck)
        st.reshuffles += 1
        ctx.say("The Action discard pile is shuffled into a new draw pile.")


def discard_card(ctx: Ctx, seat: int, number: int, knowers: Iterable[int] = ()) -> None:
    """Discard an Action from a hand, face down (seen by its holder and ``knowers``)."""
    st = ctx.st
    st.seats[seat].hand.remove(number)
    st.discard.append(number)
    who = [seat, *knowers]
    pin(st, who, number, DISCARD)
    forget_holder(st, seat, who)


def learn_role(ctx: Ctx, seat: int, ref: str, why: str) -> None:
    """A private look at a Role."""
    st = ctx.st
    role = ref_role(st, ref)
    st.seats[seat].known_roles[ref] = role
    if ctx.loud:
        ctx.tell([seat], f"{why}: {ref_label(ref)} is {role_name(st, role)}.", ref=ref, role=role)


def learn_hand(ctx: Ctx, seat: int, target: int, why: str) -> None:
    """A private look at a hand."""
    st = ctx.st
    hand = sorted(st.seats[target].hand)
    st.seats[seat].known_hands[target] = hand
    for n in hand:
        st.pins[seat][n] = target
    if ctx.loud:
        names = ", ".join(card(st, n)["name"] for n in hand) or "no Action"
        ctx.tell([seat], f"{why}: {name(target)} holds {names}.", target=target, cards=hand)


# -- Death ------------------------------------------------------------------------------
def kill(ctx: Ctx, ref: str, by: Any, cause: dict[str, Any]) -> None:
    """Start a death: a reaction window (every player with Actions is asked), then the death.

    ``cause``: {"card": number} for an Action, {"tile": number} for an Investigation.
    """
    st = ctx.st
    did = ctx.new_id()
    death = ctx.call("resolve_death", id=did, ref=ref, by=by, cause=cause, change=None)
    seats = [s for s in round_order(st) if st.seats[s].hand]
    ctx.then({"k": "window", "mode": "death", "seats": seats, "death": did}, death)
    if ctx.loud:
        ctx.say(f"{ref_label(ref)} is about to die.", ref=ref)


def find_step(st: EnqState, step_id: int) -> Step | None:
    """A step on the stack by id."""
    for step in st.stack:
        if step.get("id") == step_id:
            return step
    return None


@fn("resolve_death")
def resolve_death(ctx: Ctx, step: Step) -> None:
    """Carry out a death after its reaction window."""
    st = ctx.st
    ref, by, change = step["ref"], step["by"], step["change"]
    if (ref[0] == "p" and st.seats[int(ref[1:])].dead) or (
        ref[0] == "i" and st.inactive[int(ref[1:])].dead
    ):
        return
    if change == "cancel":
        ctx.say(f"{ref_label(ref)} does not die.", ref=ref)
        return
    if change == "staging":
        ctx.say(f"{ref_label(ref)} does not die: the Staging turns it back on {name(by)}.")
        kill(ctx, f"p{by}", int(ref[1:]), {"card": step["card"]})
        return
    if change == "false_identity":
        options = [i for i, r in enumerate(st.inactive) if not r.dead]
        ctx.say(f"{ref_label(ref)} does not die: an inactive Role dies in its place.")
        if options:
            die(ctx, f"i{rng_choice(ctx.rng, options)}", by, secret=False)
        return
    die(ctx, ref, by, secret=change == "top_secret")


def die(ctx: Ctx, ref: str, by: Any, secret: bool) -> None:
    """A Role dies: revealed (unless Top Secret); a player discards hand and Suspicions."""
    st = ctx.st
    i = int(ref[1:])
    role = ref_role(st, ref)
    st.kills.append({"role": role, "by": by})
    if ref[0] == "i":
        r = st.inactive[i]
        r.dead = True
        ctx.say(f"Inactive Role {i + 1} dies.", inactive=i)
        reveal_inactive(ctx, i, by)
        return
    s = st.seats[i]
    s.dead = True
    st.discard.extend(s.hand)
    for known in st.pins:
        for n in s.hand:
            if known.get(n) == i:
                known[n] = DISCARD
    s.hand = []
    s.suspicions = 0
    if st.pawn == i:
        st.pawn = None
    if secret:
        ctx.say(f"{name(i)} dies; their Role stays face down (Top Secret).", seat=i)
    else:
        ctx.say(f"{name(i)} dies.", seat=i)
        reveal_player(ctx, i, by)


# -- End of the game --------------------------------------------------------------------
def dead_revealed(st: EnqState) -> int:
    """How many Roles are dead and revealed."""
    n = 0
    for s in st.seats:
        if s.dead and s.revealed:
            n += 1
    for r in st.inactive:
        if r.dead and r.revealed:
            n += 1
    return n


def end_condition(st: EnqState) -> str | None:
    """light_revealed or three_dead when met now, else None."""
    if "light" in st.revealed_by:  # every reveal of a Role records who revealed it
        return "light_revealed"
    if dead_revealed(st) >= 3:
        return "three_dead"
    return None


def begin_ending(ctx: Ctx, condition: str) -> None:
    """The game ends now: only the Pursuit resolution (if any) remains."""
    st = ctx.st
    st.ending = condition
    st.stack.clear()
    st.holds = 0
    text = {
        "light_revealed": "Light is revealed: the investigation is solved.",
        "three_dead": "Three Roles are dead and revealed: the investigation team is dissolved.",
        "round5": "The fifth round is over: the Detective dies without Light having been unmasked.",
    }[condition]
    ctx.say(text, condition=condition)
    ctx.then(ctx.call("finish"))
    if st.pursuit:
        st.lying = []
        ctx.then(ctx.call("pursuit_resolve"))
        ctx.then(lie_window(st))


def lie_window(st: EnqState) -> Step:
    """Every living unrevealed player with Actions is asked whether they play a Lie."""
    seats = [s for s in round_order(st) if st.seats[s].hand and not st.seats[s].revealed]
    return {"k": "window", "mode": "lie", "seats": seats}


def window_seat_ok(st: EnqState, window: Step, seat: int) -> bool:
    """Whether a window still asks this seat. Only public facts: alive, holding Actions
    (hand sizes are public) and, for a Lie window, unrevealed. Never what the hand holds."""
    s = st.seats[seat]
    if s.dead or not s.hand:
        return False
    return not (window["mode"] == "lie" and s.revealed)


# -- the loop ---------------------------------------------------------------------------
def advance(ctx: Ctx, changed: bool = True) -> None:
    """Run steps until one needs a seat's decision or the game is over (``changed``
    False: the action carried out changed nothing the end conditions read, a pass in a
    window, so they are not read again before a step function runs if they were read on
    this table: ``EnqState.end_read``)."""
    st = ctx.st
    if not changed and st.end_read != st.table_version:
        changed = True
    stack = st.stack  # the same list throughout (``begin_ending`` clears it in place)
    # The end conditions (and ``holds``) change only by the action carried out before this
    # call and by step functions: they are read again after those, not each time a window
    # or an answered choice leaves the stack.
    while not st.over:
        if changed and st.ending is None and st.holds == 0:
            cond = end_condition(st)
            if cond:
                st.table_version = new_version()
                begin_ending(ctx, cond)
            else:
                st.end_read = st.table_version
        changed = False
        if not stack:
            raise RuntimeError("enquete: empty resolution stack before the end")
        top = stack[-1]
        kind = top["k"]
        if kind == "window":
            seats = top["seats"]
            while seats and not window_seat_ok(st, top, seats[0]):
                seats.pop(0)
            if seats:
                return
            stack.pop()
            continue
        if kind == "pick":
            if top["options"]:
                return
            stack.pop()
            continue
        stack.pop()
        st.table_version = new_version()  # a step function may change anything
        FN[top["fn"]](ctx, top)
        changed = True
