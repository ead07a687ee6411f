"""Investigation effects, registered by tile id as ``tile_<id>`` step functions."""

from __future__ import annotations

from deathnote.engine.rng import choice as rng_choice

from .flow import (
    INVESTIGATOR_ROLES,
    SUSPICION_LIMIT,
    Ctx,
    acting_faction,
    add_fact,
    can_receive,
    card,
    discard_card,
    draw,
    faction,
    fn,
    give_suspicions,
    holds,
    kill,
    learn_hand,
    learn_role,
    living,
    name,
    neighbors,
    ref_label,
    reveal_inactive,
    reveal_player,
    ring,
    role_name,
    round_order,
    table_order,
)
from .state import EnqState, Step


def unrevealed_of(st: EnqState) -> list[int]:
    """Living unrevealed players in round order."""
    return [s for s in round_order(st) if not st.seats[s].revealed]


def unrevealed_living(ctx: Ctx) -> list[int]:
    """Living unrevealed players in round order."""
    return unrevealed_of(ctx.st)


def d_pick(
    ctx: Ctx, prompt: str, options: list[tuple[object, str]], fn_name: str, **data: object
) -> Step:
    """A choice of the Detective."""
    return ctx.pick(ctx.st.detective, prompt, options, fn_name, kind="detective", **data)


def players_options(seats: list[int], verb: str = "Designate") -> list[tuple[object, str]]:
    """(seat, label) options."""
    return [(s, f"{verb} {name(s)}") for s in seats]


# 1 Rebirth -------------------------------------------------------------------------------
@fn("tile_rebirth")
def tile_rebirth(ctx: Ctx, step: Step) -> None:
    targets = unrevealed_living(ctx)
    if targets:
        ctx.then(
            d_pick(ctx, "Rebirth: designate a player.", players_options(targets), "rebirth_target")
        )


@fn("rebirth_target")
def rebirth_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    ctx.say(f"The Detective designates {name(s)}.", seat=s)
    ctx.then(
        ctx.pick(
            s,
            "Rebirth: keep your Role or kill it and take an inactive one?",
            rebirth_options(st, s),
            "rebirth_choice",
            kind="rebirth",
        )
    )


def rebirth_options(st: EnqState, s: int) -> list[tuple[object, str]]:
    """Keep, or (an Investigator, with a living unrevealed inactive Role) exchange."""
    options: list[tuple[object, str]] = [("keep", "Keep your Role")]
    if acting_faction(st, s) == "investigator" and any(
        not r.dead and not r.revealed for r in st.inactive
    ):
        options.append(("exchange", "Kill your Role and take an inactive Role"))
    return options


@fn("rebirth_choice")
def rebirth_choice(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["seat"]
    if step["value"] == "keep":
        ctx.say(f"{name(s)} keeps their Role.", seat=s)
        return
    choices = [i for i, r in enumerate(st.inactive) if not r.dead and not r.revealed]
    i = rng_choice(ctx.rng, choices)
    old, new = st.seats[s].role, st.inactive[i].role
    st.inactive[i].role = old
    st.inactive[i].dead = True
    st.inactive[i].revealed = True
    st.revealed_by[old] = s
    st.kills.append({"role": old, "by": s})
    st.seats[s].role = new
    st.seats[s].known_roles = {k: v for k, v in st.seats[s].known_roles.items() if k != f"i{i}"}
    swap_refs(st, f"p{s}", f"i{i}", skip=s)
    ctx.say(
        f"{name(s)} kills their Role ({role_name(st, old)}), now dead and revealed as inactive "
        f"Role {i + 1}, and takes an inactive Role in exchange.",
        seat=s,
        role=old,
    )
    ctx.tell([s], f"Your new Role is {role_name(st, new)}.", role=new)


def swap_refs(st: EnqState, a: str, b: str, skip: int) -> None:
    """The Roles at ``a`` and ``b`` changed places: what anyone knew of one now names the
    other, and so do the public facts (the exchanging seat ``skip`` learns its own)."""
    swap = {a: b, b: a}
    for k, seat in enumerate(st.seats):
        if k != skip:
            seat.known_roles = {swap.get(r, r): v for r, v in seat.known_roles.items()}
    st.facts = [[swap.get(x, x) if isinstance(x, str) else x for x in f] for f in st.facts]


# 2 Confrontation ---------------------------------------------------------------------------
@fn("tile_confrontation")
def tile_confrontation(ctx: Ctx, step: Step) -> None:
    choices = [i for i, r in enumerate(ctx.st.inactive) if not r.revealed]
    if not choices:
        ctx.say("No unrevealed inactive Role: Confrontation has no effect.")
        return
    reveal_inactive(ctx, rng_choice(ctx.rng, choices), "detective")


# 3 Pact -------------------------------------------------------------------------------------
@fn("tile_pact")
def tile_pact(ctx: Ctx, step: Step) -> None:
    count = max(1, len(unrevealed_living(ctx)) // 2)
    if unrevealed_living(ctx):
        ctx.then(pact_pick(ctx, [], count))


def pact_pick(ctx: Ctx, chosen: list[int], count: int) -> Step:
    """Designate the next member of the Pact's group."""
    rest = [s for s in unrevealed_living(ctx) if s not in chosen]
    return d_pick(
        ctx,
        f"Pact: designate player {len(chosen) + 1} of {count}.",
        players_options(rest),
        "pact_add",
        chosen=chosen,
        count=count,
    )


@fn("pact_add")
def pact_add(ctx: Ctx, step: Step) -> None:
    chosen = [*step["chosen"], step["value"]]
    rest = [s for s in unrevealed_living(ctx) if s not in chosen]
    if len(chosen) < step["count"] and rest:
        ctx.then(pact_pick(ctx, chosen, step["count"]))
        return
    ctx.say("Pact: the Detective designates " + ", ".join(name(s) for s in chosen) + ".")
    give_suspicions(ctx, dict.fromkeys(chosen, 1), "Pact")


# 4 Pursuit -----------------------------------------------------------------------------------
@fn("tile_pursuit")
def tile_pursuit(ctx: Ctx, step: Step) -> None:
    ctx.st.pursuit = True
    ctx.say("Pursuit will be resolved just before the end of the game.")


@fn("pursuit_resolve")
def pursuit_resolve(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    clockwise = [(st.detective + i) % st.players for i in range(1, st.players)]
    for s in clockwise:
        if not st.seats[s].revealed and acting_faction(st, s) == "kira":
            kira_next = any(
                faction(st.seats[n].role) == "kira" and n not in st.lying for n in neighbors(st, s)
            )
            kira_next = kira_next or any(
                n in st.lying and faction(st.seats[n].role) != "kira" for n in neighbors(st, s)
            )
            st.seats[s].extra.append({"kind": "pursuit", "met": kira_next})
            ctx.say(f"Pursuit: {name(s)} gains the additional objective.", seat=s)
            return
    ctx.say("Pursuit: no unrevealed Kira player; nobody gains the objective.")


# 5 Tactic ------------------------------------------------------------------------------------
@fn("tile_tactic")
def tile_tactic(ctx: Ctx, step: Step) -> None:
    ctx.then(
        ctx.call("tactic_next", seats=[s for s in round_order(ctx.st) if ctx.st.seats[s].hand])
    )


@fn("tactic_next")
def tactic_next(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    seats = [s for s in step["seats"] if st.seats[s].hand and not st.seats[s].dead]
    if not seats:
        return
    s = seats[0]
    ctx.then(
        ctx.pick(
            s,
            "Tactic: discard an Action (and receive 1 more Suspicion)?",
            [(0, "Discard nothing"), *discard_options(st, s)],
            "tactic_choice",
            kind="tactic",
            rest=seats[1:],
        )
    )


def discard_options(st: EnqState, s: int) -> list[tuple[object, str]]:
    """Each Action of a hand, to discard."""
    return [(n, f"Discard {card(st, n)['name']} (#{n})") for n in sorted(set(st.seats[s].hand))]


@fn("tactic_choice")
def tactic_choice(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s, n = step["seat"], step["value"]
    if n:
        discard_card(ctx, s, n)
        st.preset[s] = st.preset.get(s, 0) + 1
        ctx.say(f"{name(s)} discards an Action.", seat=s)
    else:
        ctx.say(f"{name(s)} discards nothing.", seat=s)
    ctx.then(ctx.call("tactic_next", seats=step["rest"]))


# 6 Rift ---------------------------------------------------------------------------------------
@fn("tile_rift")
def tile_rift(ctx: Ctx, step: Step) -> None:
    targets = unrevealed_living(ctx)
    if len(targets) < 2:
        ctx.say("Rift: fewer than 2 unrevealed players; no vote.")
        return
    ctx.then(
        d_pick(ctx, "Rift: designate the first player.", players_options(targets), "rift_first")
    )


@fn("rift_first")
def rift_first(ctx: Ctx, step: Step) -> None:
    a = step["value"]
    rest = [s for s in unrevealed_living(ctx) if s != a]
    ctx.then(
        d_pick(ctx, "Rift: designate the second player.", players_options(rest), "rift_second", a=a)
    )


@fn("rift_second")
def rift_second(ctx: Ctx, step: Step) -> None:
    a, b = step["a"], step["value"]
    ctx.say(f"Rift: the Detective designates {name(a)} and {name(b)}; the others vote.")
    voters = [s for s in round_order(ctx.st) if s not in (a, b)]
    ctx.then(ctx.call("rift_vote", a=a, b=b, voters=voters, votes={}))


@fn("rift_vote")
def rift_vote(ctx: Ctx, step: Step) -> None:
    a, b, voters, votes = step["a"], step["b"], step["voters"], step["votes"]
    if voters:
        v = voters[0]
        ctx.then(
            ctx.pick(
                v,
                f"Rift: vote secretly for {name(a)} or {name(b)}.",
                [(a, f"Vote for {name(a)}"), (b, f"Vote for {name(b)}")],
                "rift_ballot",
                kind="vote",
                a=a,
                b=b,
                voters=voters[1:],
                votes=votes,
            )
        )
        return
    va = sum(1 for x in votes.values() if x == a)
    vb = sum(1 for x in votes.values() if x == b)
    ctx.say(
        f"Rift: {name(a)} gets {va} vote(s), {name(b)} gets {vb}.",
        votes={str(k): v for k, v in votes.items()},
    )
    # The vote's Suspicion goes to the player with more votes (one each on a tie); one
    # protected by an Alibi loses their share, the other never receives it instead.
    amounts = {a: int(va >= vb and va > 0), b: int(vb >= va and vb > 0)}
    give_suspicions(ctx, amounts, "Rift")


@fn("rift_ballot")
def rift_ballot(ctx: Ctx, step: Step) -> None:
    votes = dict(step["votes"])
    votes[step["seat"]] = step["value"]
    ctx.say(f"{name(step['seat'])} has voted.")
    ctx.tell([step["seat"]], f"You voted for {name(step['value'])}.")
    ctx.then(ctx.call("rift_vote", a=step["a"], b=step["b"], voters=step["voters"], votes=votes))


# 7 Overcast ------------------------------------------------------------------------------------
@fn("tile_overcast")
def tile_overcast(ctx: Ctx, step: Step) -> None:
    targets = unrevealed_living(ctx)
    if targets:
        ctx.then(
            d_pick(
                ctx, "Overcast: designate a player.", players_options(targets), "overcast_player"
            )
        )


@fn("overcast_player")
def overcast_player(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    inactive = [i for i, r in enumerate(st.inactive) if not r.revealed]
    if inactive:
        ctx.then(
            d_pick(
                ctx,
                "Overcast: designate an inactive Role.",
                [(i, f"Inactive Role {i + 1}") for i in inactive],
                "overcast_inactive",
                player=step["value"],
            )
        )
    else:
        ctx.then(ctx.call("overcast_ask", player=step["value"], inactive=-1))


@fn("overcast_inactive")
def overcast_inactive(ctx: Ctx, step: Step) -> None:
    ctx.then(ctx.call("overcast_ask", player=step["player"], inactive=step["value"]))


@fn("overcast_ask")
def overcast_ask(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["player"]
    ctx.say(f"Overcast: the Detective designates {name(s)}.")
    ctx.then(
        ctx.pick(
            s,
            "Overcast: reveal yourself?",
            overcast_options(st, s),
            "overcast_choice",
            kind="overcast",
            inactive=step["inactive"],
        )
    )


def overcast_options(st: EnqState, s: int) -> list[tuple[object, str]]:
    """Stay silent, or (an Investigator) reveal yourself."""
    options: list[tuple[object, str]] = [("silent", "Do not reveal yourself")]
    if acting_faction(st, s) == "investigator":
        options.append(("reveal", "Reveal yourself (the inactive Role is revealed too)"))
    return options


@fn("overcast_choice")
def overcast_choice(ctx: Ctx, step: Step) -> None:
    s = step["seat"]
    if step["value"] == "silent":
        ctx.say(f"{name(s)} does not reveal themselves.")
        return
    reveal_player(ctx, s, s)
    if step["inactive"] >= 0:
        reveal_inactive(ctx, step["inactive"], "detective")


# 8 Gaze -------------------------------------------------------------------------------------------
@fn("tile_gaze")
def tile_gaze(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    targets = [s for s in round_order(st) if st.seats[s].suspicions > 0 and st.seats[s].hand]
    if not targets:
        ctx.say("Gaze: no player has both Suspicions and Actions; nothing happens.")
        return
    ctx.then(
        d_pick(
            ctx,
            "Gaze: whose hand do you look at?",
            players_options(targets, "Look at"),
            "gaze_target",
        )
    )


@fn("gaze_target")
def gaze_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    ctx.say(f"The Detective looks at {name(s)}'s hand.")
    learn_hand(ctx, st.detective, s, "Gaze")
    ctx.then(
        d_pick(
            ctx,
            f"Gaze: discard which Action of {name(s)}?",
            discard_options(st, s),
            "gaze_discard",
            target=s,
        )
    )


@fn("gaze_discard")
def gaze_discard(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    discard_card(ctx, step["target"], step["value"], knowers=[st.detective])
    ctx.say(f"The Detective discards an Action from {name(step['target'])}'s hand.")


# 9 Contact, 14 Friend, 15 Wager, 23 Frenzy: flags read by the distribution ---------------------
@fn("tile_contact")
def tile_contact(ctx: Ctx, step: Step) -> None:
    ctx.st.tile_flags.append("contact")


@fn("tile_friend")
def tile_friend(ctx: Ctx, step: Step) -> None:
    ctx.st.friend = True


@fn("tile_wager")
def tile_wager(ctx: Ctx, step: Step) -> None:
    ctx.st.tile_flags.append("wager")


@fn("tile_frenzy")
def tile_frenzy(ctx: Ctx, step: Step) -> None:
    ctx.st.tile_flags.append("frenzy")


@fn("wager_chosen")
def wager_chosen(ctx: Ctx, step: Step) -> None:
    ctx.then(ctx.call("wager_look", seat=step["value"]))


@fn("wager_look")
def wager_look(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["seat"]
    targets = [n for n in neighbors(st, s) if not st.seats[n].revealed]
    if not targets:
        ctx.say(f"Wager: {name(s)} has no unrevealed neighbor.")
        return
    ctx.then(
        ctx.pick(
            s,
            "Wager: look at the Role of which neighbor?",
            players_options(targets, "Look at"),
            "wager_target",
            kind="target",
        )
    )


@fn("wager_target")
def wager_target(ctx: Ctx, step: Step) -> None:
    ctx.say(f"Wager: {name(step['seat'])} looks at {name(step['value'])}'s Role.")
    learn_role(ctx, step["seat"], f"p{step['value']}", "Wager")


# 10 Doubt ------------------------------------------------------------------------------------------
@fn("tile_doubt")
def tile_doubt(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    targets = [s for s in round_order(st) if st.seats[s].hand]
    if not targets:
        ctx.say("Doubt: no player has Actions; nothing happens.")
        return
    ctx.then(d_pick(ctx, "Doubt: designate a player.", players_options(targets), "doubt_target"))


@fn("doubt_target")
def doubt_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    count = sum(1 for x in table_order(st) if st.seats[x].suspicions == 1)
    ctx.say(f"Doubt: {name(s)} must discard {count} Action(s).")
    ctx.then(ctx.call("discard_n", seat=s, left=count, why="Doubt"))


@fn("discard_n")
def discard_n(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s, left = step["seat"], step["left"]
    if left <= 0 or not st.seats[s].hand:
        return
    ctx.then(
        ctx.pick(
            s,
            f"{step['why']}: discard an Action ({left} to go).",
            discard_options(st, s),
            "discard_one",
            kind="discard",
            left=left,
            why=step["why"],
        )
    )


@fn("discard_one")
def discard_one(ctx: Ctx, step: Step) -> None:
    s = step["seat"]
    discard_card(ctx, s, step["value"])
    ctx.say(f"{name(s)} discards an Action.")
    ctx.then(ctx.call("discard_n", seat=s, left=step["left"] - 1, why=step["why"]))


# 11 Assault ----------------------------------------------------------------------------------------
@fn("tile_assault")
def tile_assault(ctx: Ctx, step: Step) -> None:
    targets = unrevealed_living(ctx)
    if targets:
        ctx.then(
            d_pick(ctx, "Assault: designate a player.", players_options(targets), "assault_target")
        )


@fn("assault_target")
def assault_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    ctx.say(f"Assault: {name(s)} draws 2 Actions and must discard 3.")
    draw(ctx, s, 2)
    if len(st.seats[s].hand) < 3:
        ctx.say(f"{name(s)} cannot discard 3 Actions.")
        reveal_player(ctx, s, "detective")
        return
    ctx.then(ctx.call("discard_n", seat=s, left=3, why="Assault"))


# 12 Love --------------------------------------------------------------------------------------------
@fn("tile_love")
def tile_love(ctx: Ctx, step: Step) -> None:
    targets = round_order(ctx.st)
    if len(targets) >= 2:
        ctx.then(
            d_pick(ctx, "Love: designate the first player.", players_options(targets), "love_first")
        )


@fn("love_first")
def love_first(ctx: Ctx, step: Step) -> None:
    a = step["value"]
    rest = [s for s in round_order(ctx.st) if s != a]
    ctx.then(
        d_pick(ctx, "Love: designate the second player.", players_options(rest), "love_second", a=a)
    )


@fn("love_second")
def love_second(ctx: Ctx, step: Step) -> None:
    a, b = step["a"], step["value"]
    ctx.st.seats[a].extra.append({"kind": "love", "partner": b})
    ctx.st.seats[b].extra.append({"kind": "love", "partner": a})
    ctx.say(f"Love: {name(a)} and {name(b)} each gain the additional objective.")


# 13 Confession ---------------------------------------------------------------------------------------
@fn("tile_confession")
def tile_confession(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    targets = [s for s in ring(st, st.detective, st.direction, False) if not st.seats[s].revealed]
    targets += [s for s in range(st.players) if st.seats[s].dead and not st.seats[s].revealed]
    if targets:
        ctx.then(
            d_pick(
                ctx,
                "Confession: designate a player.",
                players_options(targets),
                "confession_target",
            )
        )


@fn("confession_target")
def confession_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    if st.seats[s].dead:
        ctx.say(
            f"{name(s)} is dead and cannot choose: the Detective gives 2 additional Suspicions."
        )
        st.extra_susp += 2
        return
    ctx.then(
        ctx.pick(
            s,
            "Confession: reveal yourself, or let the Detective give 2 additional Suspicions?",
            [
                ("reveal", "Reveal yourself"),
                ("suspicions", "The Detective gives 2 more Suspicions"),
            ],
            "confession_choice",
            kind="confession",
        )
    )


@fn("confession_choice")
def confession_choice(ctx: Ctx, step: Step) -> None:
    s = step["seat"]
    if step["value"] == "reveal":
        reveal_player(ctx, s, s)
    else:
        ctx.say(f"{name(s)} stays silent: the Detective gives 2 additional Suspicions.")
        ctx.st.extra_susp += 2


# 16 Decision -------------------------------------------------------------------------------------------
@fn("tile_decision")
def tile_decision(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    # The public flag is the same whether or not Light escaped with a Lie.
    st.light_silenced = True
    st.silence_exempt = [s for s in st.lying if st.seats[s].role == "light"]
    st.decision_liars = list(st.lying)
    ctx.say("Decision: Light can no longer play Actions unless forced to by a Blackmail.")


# 17 Execution -------------------------------------------------------------------------------------------
@fn("tile_execution")
def tile_execution(ctx: Ctx, step: Step) -> None:
    targets = unrevealed_living(ctx)
    if targets:
        ctx.then(
            d_pick(
                ctx,
                "Execution: designate the player who dies.",
                players_options(targets, "Execute"),
                "execution_target",
            )
        )


@fn("execution_target")
def execution_target(ctx: Ctx, step: Step) -> None:
    kill(ctx, f"p{step['value']}", "detective", {"tile": 17})


# 18 Ally ---------------------------------------------------------------------------------------------------
@fn("tile_ally")
def tile_ally(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    ctx.then(
        d_pick(
            ctx,
            "Ally: name the first Investigator.",
            [(r, f"Name {role_name(st, r)}") for r in INVESTIGATOR_ROLES],
            "ally_first",
        )
    )


@fn("ally_first")
def ally_first(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    a = step["value"]
    ctx.then(
        d_pick(
            ctx,
            "Ally: name the second Investigator.",
            [(r, f"Name {role_name(st, r)}") for r in INVESTIGATOR_ROLES if r != a],
            "ally_second",
            a=a,
        )
    )


@fn("ally_second")
def ally_second(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    named = (step["a"], step["value"])
    ctx.say(f"Ally: the Detective names {role_name(st, named[0])} and {role_name(st, named[1])}.")
    order = [(st.detective - i) % st.players for i in range(1, st.players)]
    holders = [s for s in order if any(holds(st, s, r) for r in named)]
    for k, s in enumerate(holders):
        if st.seats[s].revealed:
            if k == 0:
                ctx.say("Ally: the first named Investigator is already revealed; the effect ends.")
                return
            continue
        reveal_player(ctx, s, "detective")
    for s in range(st.players):  # public: every holder revealed himself
        if s != st.detective and not st.seats[s].revealed and s not in st.lying:
            for r in named:
                add_fact(st, "not", f"p{s}", r)
    if not holders:
        ctx.say("Ally: no player reveals themselves.")


# 19 Matsuda ------------------------------------------------------------------------------------------------
@fn("tile_matsuda")
def tile_matsuda(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    holder = next((s for s in range(st.players) if holds(st, s, "matsuda")), None)
    if holder is not None and st.seats[holder].dead and not st.seats[holder].revealed:
        reveal_player(ctx, holder, "detective")
        return
    for s in range(st.players):  # public: no dead unrevealed player (without a Lie) is him
        x = st.seats[s]
        if x.dead and not x.revealed and s not in st.lying:
            add_fact(st, "not", f"p{s}", "matsuda")
    asked = unrevealed_living(ctx)
    ctx.then(ctx.call("matsuda_next", seats=asked, revealed=False))


@fn("matsuda_next")
def matsuda_next(ctx: Ctx, step: Step) -> None:
    """Every living unrevealed player is asked alike; only Matsuda may reveal himself."""
    st = ctx.st
    seats = [s for s in step["seats"] if not st.seats[s].dead and not st.seats[s].revealed]
    if step["revealed"]:
        return
    if not seats:
        ctx.say("Matsuda did not reveal himself: the Detective gives 2 additional Suspicions.")
        st.extra_susp += 2
        return
    s = seats[0]
    ctx.then(
        ctx.pick(
            s,
            "Matsuda: reveal yourself if you are Matsuda?",
            matsuda_options(st, s),
            "matsuda_choice",
            kind="matsuda",
            rest=seats[1:],
        )
    )


def matsuda_options(st: EnqState, s: int) -> list[tuple[object, str]]:
    """Every player may decline; only Matsuda may reveal himself."""
    options: list[tuple[object, str]] = [
        ("no", "Do not reveal (the Detective gives 2 more Suspicions)")
    ]
    if holds(st, s, "matsuda"):
        options.append(("reveal", "Reveal yourself as Matsuda"))
    return options


@fn("matsuda_choice")
def matsuda_choice(ctx: Ctx, step: Step) -> None:
    s = step["seat"]
    if step["value"] == "reveal":
        reveal_player(ctx, s, s)
        return
    ctx.say(f"{name(s)} has answered.")
    ctx.then(ctx.call("matsuda_next", seats=step["rest"], revealed=False))


# 20 Expedient ------------------------------------------------------------------------------------------------
@fn("tile_expedient")
def tile_expedient(ctx: Ctx, step: Step) -> None:
    ctx.then(ctx.call("expedient_next", seats=round_order(ctx.st)))


@fn("expedient_next")
def expedient_next(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    seats = [s for s in step["seats"] if not st.seats[s].dead]
    if not seats:
        return
    s = seats[0]
    options: list[tuple[object, str]] = [("no", "Do not draw")]
    if s not in st.no_draw and st.deck:
        options.append(("draw", "Draw 1 Action (the Detective gains 1 Suspicion to give)"))
    ctx.then(
        ctx.pick(
            s,
            "Expedient: draw an Action?",
            options,
            "expedient_choice",
            kind="expedient",
            rest=seats[1:],
        )
    )


@fn("expedient_choice")
def expedient_choice(ctx: Ctx, step: Step) -> None:
    s = step["seat"]
    if step["value"] == "draw" and draw(ctx, s, 1):
        ctx.st.extra_susp += 1
    else:
        ctx.say(f"{name(s)} does not draw.")
    ctx.then(ctx.call("expedient_next", seats=step["rest"]))


# 21 Performance ----------------------------------------------------------------------------------------------
@fn("tile_performance")
def tile_performance(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    pairs: list[tuple[object, str]] = []
    for s in unrevealed_living(ctx):
        for n in neighbors(st, s):
            if s < n and not st.seats[n].revealed:
                pairs.append((f"{s}-{n}", f"{name(s)} and {name(n)}"))
    if not pairs:
        ctx.say("Performance: no two unrevealed neighbors; nothing happens.")
        return
    ctx.then(d_pick(ctx, "Performance: designate two neighbors.", pairs, "performance_pair"))


@fn("performance_pair")
def performance_pair(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    a, b = (int(x) for x in str(step["value"]).split("-"))
    sa, sb = st.seats[a], st.seats[b]
    sa.suspicions, sb.suspicions = sb.suspicions, sa.suspicions
    ctx.say(f"Performance: {name(a)} and {name(b)} exchange their Suspicions.")
    for s in (a, b):
        if st.seats[s].suspicions >= SUSPICION_LIMIT[st.players]:
            reveal_player(ctx, s, "suspicions")


# 22 Conduct ------------------------------------------------------------------------------------------------------
@fn("tile_conduct")
def tile_conduct(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    hit = {
        s: 1
        for s in unrevealed_living(ctx)
        if can_receive(st, s) and any(card(st, n)["ryuk"] for n in st.seats[s].hand)
    }
    if not hit:
        ctx.say("Conduct: nobody receives a Suspicion.")
        return
    give_suspicions(ctx, hit, "Conduct")


# 24 Resurrection ----------------------------------------------------------------------------------------------------
@fn("tile_resurrection")
def tile_resurrection(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    choices = [i for i, r in enumerate(st.inactive) if not r.dead]
    if not choices:
        ctx.say("Resurrection: no living inactive Role; no effect.")
        return
    i = rng_choice(ctx.rng, choices)
    ctx.say(f"The Detective looks at inactive Role {i + 1}.")
    learn_role(ctx, st.detective, f"i{i}", "Resurrection")
    ctx.then(
        ctx.call("resurrection_next", faction=faction(st.inactive[i].role), inactive=i, done=[])
    )


@fn("resurrection_next")
def resurrection_next(ctx: Ctx, step: Step) -> None:
    rest = [s for s in unrevealed_living(ctx) if s not in step["done"]]
    if not rest:
        return
    ctx.then(
        d_pick(
            ctx,
            "Resurrection: designate the next player.",
            players_options(rest),
            "resurrection_pick",
            faction=step["faction"],
            inactive=step["inactive"],
            done=step["done"],
        )
    )


@fn("resurrection_pick")
def resurrection_pick(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    same = acting_faction(st, s) == step["faction"]
    add_fact(st, "faction", f"p{s}", f"i{step['inactive']}", same, s in st.lying)
    if same:
        give_suspicions(ctx, {s: 1}, "Resurrection")
    else:
        ctx.say(f"Resurrection: {name(s)} receives nothing.")
    ctx.then(
        ctx.call(
            "resurrection_next",
            faction=step["faction"],
            inactive=step["inactive"],
            done=[*step["done"], s],
        )
    )


# 25 Silence ---------------------------------------------------------------------------------------------------------
@fn("tile_silence")
def tile_silence(ctx: Ctx, step: Step) -> None:
    targets = round_order(ctx.st)
    if targets:
        ctx.then(
            d_pick(ctx, "Silence: designate a player.", players_options(targets), "silence_player")
        )


@fn("silence_player")
def silence_player(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    refs = [f"p{x}" for x in living(st) if x != s] + [
        f"i{i}" for i, r in enumerate(st.inactive) if not r.dead
    ]
    ctx.say(f"Silence: the Detective designates {name(s)}.")
    ctx.then(
        ctx.pick(
            s,
            "Silence: designate the Role that dies.",
            [(r, f"{ref_label(r)}") for r in refs],
            "silence_target",
            kind="target",
        )
    )


@fn("silence_target")
def silence_target(ctx: Ctx, step: Step) -> None:
    kill(ctx, step["value"], step["seat"], {"tile": 25})
