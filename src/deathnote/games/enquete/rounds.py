"""Set-up, rounds, player turns and the Detective's turn."""

from __future__ import annotations

from .flow import (
    DISCARD,
    Ctx,
    begin_ending,
    can_receive,
    card,
    draw,
    fn,
    give_suspicions,
    lie_window,
    name,
    pile_tiles,
    pin,
    refill,
    ring,
    round_order,
    table_order,
    tile,
    tiles_gone,
)
from .objectives import score
from .series import series_lines, series_totals
from .state import EnqState, Step


# -- set-up ------------------------------------------------------------------------------
@fn("setup_keep")
def setup_keep(ctx: Ctx, step: Step) -> None:
    """A player keeps one of the two Actions drawn at set-up; the other is discarded."""
    seat, keep = step["seat"], step["value"]
    other = [n for n in step["drawn"] if n != keep]
    st = ctx.st
    st.seats[seat].hand = [keep]
    st.discard.extend(other)
    for n in other:
        st.pins[seat][n] = DISCARD
    if ctx.loud:
        ctx.say(f"{name(seat)} keeps one Action and discards the other face down.", seat=seat)


def setup_steps(ctx: Ctx) -> None:
    """Deal the set-up Actions: 5 to the Detective, 2-keep-1 for each player."""
    st = ctx.st
    st.seats[st.detective].hand = [st.deck.pop() for _ in range(min(5, len(st.deck)))]
    for n in st.seats[st.detective].hand:
        st.pins[st.detective][n] = st.detective
    if ctx.loud:
        ctx.tell(
            [st.detective],
            "You draw 5 Actions: "
            + ", ".join(card(st, n)["name"] for n in st.seats[st.detective].hand),
            cards=list(st.seats[st.detective].hand),
        )
    steps: list[Step] = []
    for s in ring(st, st.detective, "clockwise", include_start=False):
        drawn = [st.deck.pop() for _ in range(2)]
        for n in drawn:
            st.pins[s][n] = s
        if ctx.loud:
            ctx.tell(
                [s],
                "You draw " + " and ".join(card(st, n)["name"] for n in drawn) + ".",
                cards=drawn,
            )
        steps.append(
            ctx.pick(
                s,
                "Set-up: keep one of the two Actions you drew (the other is discarded face down).",
                keep_options(st, drawn),
                "setup_keep",
                kind="setup_keep",
                drawn=drawn,
            )
        )
    ctx.then(*steps, ctx.call("round_start"))


def keep_options(st: EnqState, drawn: list[int]) -> list[tuple[object, str]]:
    """Keep one of the two Actions drawn at set-up."""
    return [(n, f"Keep {card(st, n)['name']} (#{n})") for n in drawn]


def give_card_options(st: EnqState) -> list[tuple[object, str]]:
    """The Detective's Actions, one of which he gives."""
    hand = sorted(st.seats[st.detective].hand)
    return [(n, f"Give {card(st, n)['name']} (#{n})") for n in hand]


def give_to_prompt(st: EnqState, n: int) -> str:
    """The Detective gives the chosen Action to a player."""
    return f"Give {card(st, n)['name']} to which player?"


# -- the round ---------------------------------------------------------------------------
@fn("round_start")
def round_start(ctx: Ctx, step: Step) -> None:
    """Start of a round: direction, the Detective's gift, then the turns."""
    st = ctx.st
    st.round += 1
    refill(ctx)
    st.direction = st.content["piles"][st.round - 1]["direction"]
    if ctx.loud:
        ctx.say(
            f"Round {st.round} begins ({st.direction}).", round=st.round, direction=st.direction
        )
    steps: list[Step] = []
    d = st.detective
    if st.seats[d].hand:
        steps.append(
            ctx.pick(
                d,
                "Start of the round: choose the Action you give.",
                give_card_options(st),
                "give_card",
                kind="give_card",
            )
        )
    for s in round_order(st):
        steps.append(ctx.call("turn", seat=s))
    window = {"k": "window", "mode": "detective", "seats": round_order(st)}
    ctx.then(*steps, window, ctx.call("reveal"))


@fn("give_card")
def give_card(ctx: Ctx, step: Step) -> None:
    """The Detective picked the Action to give; now the player."""
    st = ctx.st
    n = step["value"]
    ctx.then(
        ctx.pick(
            st.detective,
            give_to_prompt(st, n),
            [(s, f"Give it to {name(s)}") for s in round_order(st)],
            "give_to",
            kind="give_to",
            card=n,
        )
    )


@fn("give_to")
def give_to(ctx: Ctx, step: Step) -> None:
    """The Detective gives one Action to a player."""
    st = ctx.st
    n, s = step["card"], step["value"]
    st.seats[st.detective].hand.remove(n)
    st.seats[s].hand.append(n)
    pin(st, [st.detective, s], n, s)
    if ctx.loud:
        ctx.say(f"The Detective gives an Action to {name(s)}.", seat=s)
        ctx.tell(
            [st.detective, s],
            f"The Detective gives {card(st, n)['name']} (#{n}) to {name(s)}.",
            card=n,
        )


def round_tiles_left(ctx: Ctx) -> int:
    """Investigations of the current round still on the pile."""
    st = ctx.st
    # the pile holds each tile once: its tiles of this round, counted by a set
    return len(pile_tiles(st, st.round).intersection(st.tiles))


@fn("turn")
def turn(ctx: Ctx, step: Step) -> None:
    """A player's turn: the start-of-turn window, then the look."""
    st = ctx.st
    s = step["seat"]
    if st.seats[s].dead:
        return
    st.current = s
    st.search_bonus = {}
    if ctx.loud:
        ctx.say(f"{name(s)}'s turn.", seat=s)
    # Plays at the same moment resolve in round order, so the window asks in round order.
    seats = round_order(st)
    ctx.then({"k": "window", "mode": "turn", "owner": s, "seats": seats}, ctx.call("look", seat=s))


@fn("look")
def look(ctx: Ctx, step: Step) -> None:
    """The player secretly looks at the top Investigation and keeps or discards it."""
    st = ctx.st
    s = step["seat"]
    if st.seats[s].dead:
        st.current = None
        return
    t = st.tiles[0]
    st.looking = t
    st.tile_top[s] = t
    info = tile(st, t)
    if ctx.loud:
        ctx.say(f"{name(s)} looks at the Investigation.", seat=s)
        ctx.tell([s], f"You look at Investigation {t}: {info['name']}.", tile=t)
    options: list[tuple[str, str]] = [("keep", "Put it back on top (draw an Action)")]
    if round_tiles_left(ctx) > 1:
        options.append(("discard", "Discard it face down (no draw)"))
    ctx.then(
        ctx.pick(
            s,
            f"Investigation {info['name']}: keep it or discard it?",
            options,
            "investigate",
            kind="investigate",
        )
    )


@fn("investigate")
def investigate(ctx: Ctx, step: Step) -> None:
    """Keep (draw) or discard (no draw) the Investigation; the pawn holder always draws."""
    st = ctx.st
    s = step["seat"]
    st.stats[s]["keeps" if step["value"] == "keep" else "discards"] += 1
    draws = 0
    if step["value"] == "keep":
        if ctx.loud:
            ctx.say(f"{name(s)} puts the Investigation back on top.", seat=s, choice="keep")
        draws = 1
    else:
        st.tile_discard.append(st.tiles.pop(0))
        tiles_gone(st, st.tile_discard[-1:], to_discard=True)
        if ctx.loud:
            ctx.say(f"{name(s)} discards the Investigation.", seat=s, choice="discard")
        draws = (1 if st.pawn == s else 0) + st.search_bonus.get(s, 0)
    draw(ctx, s, draws)
    st.looking = None
    st.current = None
    st.search_bonus = {}


# -- the Detective's turn ------------------------------------------------------------------
@fn("reveal")
def reveal(ctx: Ctx, step: Step) -> None:
    """Reveal the top Investigation: Ryuk Suspicion, effect, then the Suspicions shown."""
    st = ctx.st
    t = st.tiles.pop(0)
    st.revealed_tile = t
    tiles_gone(st, [t], to_discard=False)
    info = tile(st, t)
    if ctx.loud:
        ctx.say(
            f"The Detective reveals Investigation {t}: {info['name']} "
            f"({info['suspicions']} Suspicion{'s' * (info['suspicions'] != 1)}"
            f"{', Ryuk' if info['ryuk'] else ''}). {info['text']}",
            tile=t,
        )
    if info["ryuk"]:
        if st.pawn is None:
            ctx.say("Nobody holds the Ryuk pawn.")
        else:
            give_suspicions(ctx, {st.pawn: 1}, "Ryuk icon")
    steps: list[Step] = []
    if info["checks_role"]:
        st.lying = []
        steps.append(lie_window(st))
    steps += [
        ctx.call(f"tile_{info['id']}"),
        ctx.call("distribute", base=info["suspicions"]),
        ctx.call("round_end"),
    ]
    ctx.then(*steps)


def eligible(ctx: Ctx) -> list[int]:
    """Players who may receive the Detective's Suspicions now: "among the unrevealed
    players", so a dead unrevealed one (Top Secret) too."""
    return [s for s in table_order(ctx.st) if can_receive(ctx.st, s)]


@fn("distribute")
def distribute(ctx: Ctx, step: Step) -> None:
    """The Detective distributes the Investigation's Suspicions (plus the additional ones)."""
    st = ctx.st
    total = step["base"] + st.extra_susp
    st.given = {}
    targets = eligible(ctx)
    if total <= 0 and not st.preset:
        return
    if total > 0 and not targets:
        ctx.say(f"The Detective cannot give his {total} Suspicion(s): nobody may receive them.")
        total = 0
    if total > 0 and "frenzy" in st.tile_flags:
        ctx.then(
            ctx.pick(
                st.detective,
                f"Frenzy: give all {total} Suspicions to one player.",
                [(s, f"All to {name(s)}") for s in targets],
                "give_susp",
                kind="give_suspicion",
                left=total,
                all=True,
            )
        )
    elif total > 0:
        ctx.then(give_one(ctx, total, total))
    ctx.st.stack.insert(len(st.stack) - (1 if total > 0 else 0), ctx.call("apply_given"))


def give_one(ctx: Ctx, left: int, total: int) -> Step:
    """Ask the Detective for the next Suspicion's receiver."""
    return ctx.pick(
        ctx.st.detective,
        f"Give Suspicion {total - left + 1} of {total} to:",
        [(s, f"Suspicion to {name(s)}") for s in eligible(ctx)],
        "give_susp",
        kind="give_suspicion",
        left=left,
        total=total,
        all=False,
    )


@fn("give_susp")
def give_susp(ctx: Ctx, step: Step) -> None:
    """Note one (or all, Frenzy) of the Detective's Suspicions; they land together."""
    st = ctx.st
    s = step["value"]
    n = step["left"] if step["all"] else 1
    st.given[s] = st.given.get(s, 0) + n
    left = step["left"] - n
    if left > 0:
        ctx.then(give_one(ctx, left, step["total"]))


@fn("apply_given")
def apply_given(ctx: Ctx, step: Step) -> None:
    """All the Detective's Suspicions land at once; Contact and Wager follow."""
    st = ctx.st
    amounts = dict(st.given)
    for s, n in st.preset.items():
        amounts[s] = amounts.get(s, 0) + n
    receivers = sorted(s for s, n in st.given.items() if n > 0)
    give_suspicions(ctx, amounts, "The Detective's Suspicions")
    if "contact" in st.tile_flags:
        st.no_draw_next = sorted(set(st.no_draw_next) | {s for s, n in amounts.items() if n > 0})
    if "wager" in st.tile_flags and receivers:
        if len(receivers) == 1:
            ctx.then(ctx.call("wager_look", seat=receivers[0]))
        else:
            ctx.then(
                ctx.pick(
                    st.detective,
                    "Wager: which receiver looks at a neighbor's Role?",
                    [(s, f"{name(s)} looks") for s in receivers],
                    "wager_chosen",
                    kind="wager",
                )
            )


@fn("round_end")
def round_end(ctx: Ctx, step: Step) -> None:
    """Discard the round's other Investigations; clear round effects; next round."""
    st = ctx.st
    pile = pile_tiles(st, st.round)
    rest = [t for t in st.tiles if t in pile]
    for t in rest:
        st.tiles.remove(t)
        st.tile_discard.append(t)
    tiles_gone(st, rest, to_discard=True)
    st.alibi = []
    st.extra_susp = 0
    st.preset = {}
    st.given = {}
    st.lying = []
    st.tile_flags = []
    st.revealed_tile = None
    st.no_draw = st.no_draw_next
    st.no_draw_next = []
    if st.round >= 5:
        begin_ending(ctx, "round5")
        return
    ctx.then(ctx.call("round_start"))


@fn("finish")
def finish(ctx: Ctx, step: Step) -> None:
    """Every Role is revealed and Apples are counted."""
    st = ctx.st
    st.apples, st.apple_lines = score(st)
    if not ctx.loud:
        st.over = True
        return
    totals = series_totals(st)
    for s in range(st.players):
        ctx.say(
            f"{name(s)} was {st.seats[s].role and st.seats[s].role.title()}: {st.apples[s]} Apple"
            f"{'s' * (st.apples[s] != 1)} (series total {totals[s]}).",
            seat=s,
            role=st.seats[s].role,
            apples=st.apples[s],
        )
    st.over = True
    for line in series_lines(st):
        ctx.say(line)
