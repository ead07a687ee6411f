"""Action cards: when each may be played (windows) and their effects, registered by id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deathnote.engine.rng import choice as rng_choice

from .flow import (
    DISCARD,
    Ctx,
    add_fact,
    can_receive,
    card,
    draw,
    faction,
    find_step,
    fn,
    forget_holder,
    give_suspicions,
    kill,
    learn_hand,
    learn_role,
    living,
    name,
    pin,
    pin_all,
    ref_label,
    ref_role,
    reveal_inactive,
    role_name,
    table_order,
)
from .state import EnqState, Step

NAMEABLE = ("light", "misa", "higuchi", "yagami", "matsuda", "aizawa", "mogi", "watari")

Start = Callable[[Ctx, int, int], None]
CARD_START: dict[str, Start] = {}
"""Effect of each card id: push the steps of its resolution (seat, card number)."""
CARD_OK: dict[str, Callable[[EnqState, int], bool]] = {}
"""Extra condition of a card id beyond its timing (e.g. a target must exist)."""


def effect(
    card_id: str, ok: Callable[[EnqState, int], bool] | None = None
) -> Callable[[Start], Start]:
    """Register the effect (and optional condition) of a card id."""

    def deco(func: Start) -> Start:
        CARD_START[card_id] = func
        if ok is not None:
            CARD_OK[card_id] = ok
        return func

    return deco


# -- windows --------------------------------------------------------------------------------
def others(st: EnqState, seat: int) -> list[int]:
    """Other living players."""
    return [s for s in living(st) if s != seat]


def playable(
    st: EnqState, seat: int, number: int, window: Step | None, forced: bool = False
) -> bool:
    """Whether ``seat`` may play card ``number`` now (``window`` None: on their own turn)."""
    c = st.content["actions"][number - 1]  # ``card(st, number)``, written out (hot)
    s = st.seats[seat]
    if s.dead:
        return False
    if st.light_silenced and s.role == "light" and not forced and seat not in st.silence_exempt:
        return False
    timing = c["timing"]
    if forced:
        if timing == "reaction":
            return False
    elif window is None:
        if timing not in ("turn", "anytime"):
            return False
    else:
        mode = window["mode"]
        if mode == "turn":
            if timing == "anytime":
                pass
            elif timing == "turn":
                if window["owner"] != seat or st.current != seat:
                    return False
            else:
                return False
        elif mode == "detective":
            if timing != "anytime":
                return False
        elif mode == "lie":
            return bool(c["id"] == "lie" and not s.revealed)
        elif mode == "death":
            return reaction_ok(st, seat, c, window)
        else:
            return False
    ok = CARD_OK.get(c["id"])
    return ok is None or ok(st, seat)


def reaction_ok(st: EnqState, seat: int, c: dict[str, Any], window: Step) -> bool:
    """Death reactions: Fake Death Note, False Identity, Staging, Top Secret."""
    death = find_step(st, window["death"])
    if death is None or death["change"] is not None:
        return False
    ref, cause = death["ref"], death["cause"]
    victim = ref == f"p{seat}"
    cause_card = card(st, cause["card"]) if "card" in cause else None
    if c["id"] == "fake_dn":
        return cause_card is not None and bool(cause_card["action_symbol"])
    if c["id"] == "false_identity":
        return victim and any(not r.dead for r in st.inactive)
    if c["id"] == "staging":
        by = death["by"]
        return victim and cause_card is not None and isinstance(by, int) and by != seat
    if c["id"] == "top_secret":
        return victim
    return False


def window_cards(st: EnqState, window: Step, seat: int) -> list[int]:
    """The numbers of the cards ``seat`` may play in this window, in order."""
    return [n for n in sorted(set(st.seats[seat].hand)) if playable(st, seat, n, window)]


def play_label(st: EnqState, number: int) -> str:
    """The label of the choice to play card ``number`` in a window."""
    return f"Play {card(st, number)['name']} (#{number})"


def window_options(st: EnqState, window: Step, seat: int) -> list[tuple[int, str]]:
    """The cards ``seat`` may play in this window, with their labels."""
    return [(n, play_label(st, n)) for n in window_cards(st, window, seat)]


def window_prompt(window: Step) -> str:
    """The same prompt for every seat asked, whatever they hold."""
    mode = window["mode"]
    if mode == "turn":
        return "Start of a turn: play an Action, or pass."
    if mode == "detective":
        return "Before the Detective reveals the Investigation: play an Action, or pass."
    if mode == "lie":
        return "An Investigation names a Role or a faction: play a Lie, or pass."
    return "A Role is about to die: play an Action, or pass."


def window_play(ctx: Ctx, window: Step, seat: int, number: int) -> None:
    """A seat plays a card in a window (the window stays open for them afterwards)."""
    st = ctx.st
    c = card(st, number)
    if window["mode"] == "death":
        death = find_step(st, window["death"])
        assert death is not None
        window["seats"] = []
        announce(ctx, seat, number, None)
        change = c["id"]
        death["change"] = "cancel" if change == "fake_dn" else change
        death["card"] = number
        return
    if window["mode"] == "lie":
        announce(ctx, seat, number, None)
        st.lying.append(seat)
        return
    play_card(ctx, seat, number)


def announce(ctx: Ctx, seat: int, number: int, borrowed: int | None, forced: bool = False) -> None:
    """A played card is revealed, discarded, takes the pawn, and may trigger Friend."""
    st = ctx.st
    c = card(st, number)
    owner = seat if borrowed is None else borrowed
    st.seats[owner].hand.remove(number)
    st.discard.append(number)
    pin_all(st, number, DISCARD)
    if st.light_silenced and not forced and seat not in st.decision_liars:
        add_fact(st, "not", f"p{seat}", "light")  # Light may not play now (ENQ-INV-16)
    st.stats[seat]["plays"] += 1
    if ctx.loud:
        source = f" from {name(borrowed)}'s hand" if borrowed is not None else ""
        ctx.say(
            f"{name(seat)} plays {c['name']} (#{number}){source}: {c['text']}",
            seat=seat,
            card=number,
        )
    if c["ryuk"]:
        st.stats[seat]["ryuk_plays"] += 1
        if st.pawn != seat and ctx.loud:
            ctx.say(f"{name(seat)} takes the Ryuk pawn.", seat=seat)
        st.pawn = seat
    if st.friend:
        st.friend = False
        lost = min(2, st.seats[seat].suspicions)
        st.seats[seat].suspicions -= lost
        ctx.say(f"Friend: {name(seat)} discards {lost} Suspicion(s).", seat=seat)


def play_card(
    ctx: Ctx, seat: int, number: int, borrowed: int | None = None, forced: bool = False
) -> None:
    """Play a card from one's hand (or, with a Death Note, from ``borrowed``'s hand)."""
    announce(ctx, seat, number, borrowed, forced)
    CARD_START[card(ctx.st, number)["id"]](ctx, seat, number)


# -- conditions --------------------------------------------------------------------------------
def _has_others(st: EnqState, seat: int) -> bool:
    return bool(others(st, seat))


def _suspectable(st: EnqState, seat: int) -> list[int]:
    """Other players who may receive a Suspicion (a dead unrevealed one too, ENQ-SUSP-02)."""
    return [s for s in table_order(st) if s != seat and can_receive(st, s)]


def _page_targets(st: EnqState, seat: int) -> list[str]:
    refs = [f"p{s}" for s in others(st, seat)]
    return refs + [f"i{i}" for i, r in enumerate(st.inactive) if not r.dead]


def _rem_targets(st: EnqState, seat: int) -> list[str]:
    refs = [f"p{s}" for s in others(st, seat)]
    return refs + [f"i{i}" for i, r in enumerate(st.inactive) if r.revealed and not r.dead]


def _others_with_cards(st: EnqState, seat: int) -> list[int]:
    return [s for s in others(st, seat) if st.seats[s].hand]


# -- effects ------------------------------------------------------------------------------------
def target_pick(
    ctx: Ctx, seat: int, number: int, targets: list[int], fn_name: str, verb: str
) -> None:
    """Ask the player of a card to designate another player."""
    c = card(ctx.st, number)
    ctx.then(
        ctx.pick(
            seat,
            f"{c['name']}: designate a player.",
            [(s, f"{verb} {name(s)}") for s in targets],
            fn_name,
            kind="target",
            card=number,
        )
    )


@effect("death_note", ok=_has_others)
def death_note(ctx: Ctx, seat: int, number: int) -> None:
    """Designate a player, look at their hand, maybe play one of its Actions; they die."""
    target_pick(ctx, seat, number, others(ctx.st, seat), "dn_target", "Write the name of")


@fn("dn_target")
def dn_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    seat, target = step["seat"], step["value"]
    st.holds += 1
    learn_hand(ctx, seat, target, "Death Note")
    ctx.then(
        ctx.pick(
            seat,
            "Death Note: play one Action from their hand?",
            dn_play_options(st, seat, target),
            "dn_play",
            kind="dn_play",
            target=target,
            card=step["card"],
        )
    )


def dn_play_options(st: EnqState, seat: int, target: int) -> list[tuple[object, str]]:
    """None, or one Action of the designated hand that the writer could play now."""
    options: list[tuple[object, str]] = [(0, "Play none of them")]
    for n in sorted(set(st.seats[target].hand)):
        if playable(st, seat, n, None):
            options.append((n, f"Play {card(st, n)['name']} (#{n}) from their hand"))
    return options


@fn("dn_play")
def dn_play(ctx: Ctx, step: Step) -> None:
    seat, target, n = step["seat"], step["target"], step["value"]
    ctx.then(ctx.call("dn_finish", seat=seat, target=target, card=step["card"]))
    if n:
        play_card(ctx, seat, n, borrowed=target)


@fn("dn_finish")
def dn_finish(ctx: Ctx, step: Step) -> None:
    """The hand goes back; the designated player dies; the game may end after that."""
    st = ctx.st
    ctx.then(ctx.call("release_hold"))
    if not st.seats[step["target"]].dead:
        kill(ctx, f"p{step['target']}", step["seat"], {"card": step["card"]})


@fn("release_hold")
def release_hold(ctx: Ctx, step: Step) -> None:
    ctx.st.holds = max(0, ctx.st.holds - 1)


@effect("page", ok=lambda st, seat: bool(_page_targets(st, seat)))
def page(ctx: Ctx, seat: int, number: int) -> None:
    """Designate a Role and name one: right, it dies; wrong, you die."""
    st = ctx.st
    ctx.then(
        ctx.pick(
            seat,
            "Page of Death Note: designate a Role.",
            [(r, f"Designate {ref_label(r)}") for r in _page_targets(st, seat)],
            "page_ref",
            kind="target",
            card=number,
        )
    )


@fn("page_ref")
def page_ref(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    ctx.then(
        ctx.pick(
            step["seat"],
            "Page of Death Note: name a Role.",
            [(r, f"Name {role_name(st, r)}") for r in NAMEABLE],
            "page_name",
            kind="name_role",
            ref=step["value"],
            card=step["card"],
        )
    )


@fn("page_name")
def page_name(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    seat, ref, named = step["seat"], step["ref"], step["value"]
    ctx.say(f"{name(seat)} designates {ref_label(ref)} and names {role_name(st, named)}.")
    learn_role(ctx, seat, ref, "Page of Death Note")
    # Whoever dies, everyone learns whether the name was right (sampling.py keeps it).
    add_fact(st, "is" if ref_role(st, ref) == named else "not", ref, named)
    if ref_role(st, ref) == named:
        kill(ctx, ref, seat, {"card": step["card"]})
    else:
        kill(ctx, f"p{seat}", seat, {"card": step["card"]})


@effect("rem", ok=lambda st, seat: not st.seats[seat].revealed and bool(_rem_targets(st, seat)))
def rem(ctx: Ctx, seat: int, number: int) -> None:
    """Designate a Role: if it is not a Kira, it dies."""
    st = ctx.st
    ctx.then(
        ctx.pick(
            seat,
            "Rem: designate a Role.",
            [(r, f"Designate {ref_label(r)}") for r in _rem_targets(st, seat)],
            "rem_ref",
            kind="target",
            card=number,
        )
    )


@fn("rem_ref")
def rem_ref(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    ref = step["value"]
    if faction(ref_role(st, ref)) == "kira":
        add_fact(st, "kira", ref)
        ctx.say(f"Rem: {ref_label(ref)} does not die.", ref=ref)
        return
    add_fact(st, "notkira", ref)
    kill(ctx, ref, step["seat"], {"card": step["card"]})


@effect("kira_supporter", ok=lambda st, seat: bool(st.inactive))
def kira_supporter(ctx: Ctx, seat: int, number: int) -> None:
    """Choose reveal or look, then designate an inactive Role."""
    ctx.then(
        ctx.pick(
            seat,
            "Kira Supporter: reveal or look at an inactive Role?",
            [("reveal", "Reveal an inactive Role"), ("look", "Look at an inactive Role")],
            "ks_mode",
            kind="mode",
        )
    )


@fn("ks_mode")
def ks_mode(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    ctx.say(f"{name(step['seat'])} chooses to {step['value']}.")
    ctx.then(
        ctx.pick(
            step["seat"],
            f"Kira Supporter: which inactive Role do you {step['value']}?",
            [(i, f"Inactive Role {i + 1}") for i in range(len(st.inactive))],
            "ks_target",
            kind="target",
            mode=step["value"],
        )
    )


@fn("ks_target")
def ks_target(ctx: Ctx, step: Step) -> None:
    i = step["value"]
    if step["mode"] == "reveal":
        reveal_inactive(ctx, i, step["seat"])
    else:
        ctx.say(f"{name(step['seat'])} looks at inactive Role {i + 1}.")
        learn_role(ctx, step["seat"], f"i{i}", "Kira Supporter")


def _alibi_targets(st: EnqState) -> list[int]:
    return [
        s
        for s in range(st.players)
        if s != st.detective and not (st.seats[s].dead and st.seats[s].revealed)
    ]


@effect("alibi", ok=lambda st, seat: bool(_alibi_targets(st)))
def alibi(ctx: Ctx, seat: int, number: int) -> None:
    """Protect a player from Suspicions this round; the Detective gains one to give."""
    target_pick(ctx, seat, number, _alibi_targets(ctx.st), "alibi_target", "Alibi for")


@fn("alibi_target")
def alibi_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    s = step["value"]
    if s not in st.alibi:
        st.alibi.append(s)
    st.extra_susp += 1
    ctx.say(
        f"{name(s)} has an Alibi this round; the Detective will give 1 additional Suspicion.",
        seat=s,
    )


@effect("search")
def search(ctx: Ctx, seat: int, number: int) -> None:
    """Draw one more Action if you discard the Investigation this turn."""
    ctx.st.search_bonus[seat] = ctx.st.search_bonus.get(seat, 0) + 1


@effect("eyes", ok=_has_others)
def eyes(ctx: Ctx, seat: int, number: int) -> None:
    """Look at another player's Role."""
    target_pick(ctx, seat, number, others(ctx.st, seat), "eyes_target", "Look at the Role of")


@fn("eyes_target")
def eyes_target(ctx: Ctx, step: Step) -> None:
    ctx.say(f"{name(step['seat'])} looks at {name(step['value'])}'s Role.")
    learn_role(ctx, step["seat"], f"p{step['value']}", "Shinigami Eyes")


@effect("interrogation", ok=lambda st, seat: bool(_suspectable(st, seat)))
def interrogation(ctx: Ctx, seat: int, number: int) -> None:
    """Give 1 Suspicion to another player."""
    target_pick(ctx, seat, number, _suspectable(ctx.st, seat), "susp_target", "Suspect")


@effect("denunciation", ok=lambda st, seat: bool(_suspectable(st, seat)))
def denunciation(ctx: Ctx, seat: int, number: int) -> None:
    """Give 2 Suspicions to another player."""
    target_pick(ctx, seat, number, _suspectable(ctx.st, seat), "susp_target", "Denounce")


@fn("susp_target")
def susp_target(ctx: Ctx, step: Step) -> None:
    n = 2 if card(ctx.st, step["card"])["id"] == "denunciation" else 1
    give_suspicions(ctx, {step["value"]: n}, card(ctx.st, step["card"])["name"])


@effect("wiretap", ok=_has_others)
def wiretap(ctx: Ctx, seat: int, number: int) -> None:
    """Look at another player's hand."""
    target_pick(ctx, seat, number, others(ctx.st, seat), "wiretap_target", "Look at the hand of")


@fn("wiretap_target")
def wiretap_target(ctx: Ctx, step: Step) -> None:
    ctx.say(f"{name(step['seat'])} looks at {name(step['value'])}'s hand.")
    learn_hand(ctx, step["seat"], step["value"], "Wiretap")


@effect("apples")
def apples(ctx: Ctx, seat: int, number: int) -> None:
    """Draw 2 Actions."""
    draw(ctx, seat, 2)


@effect("theft", ok=lambda st, seat: bool(_others_with_cards(st, seat)))
def theft(ctx: Ctx, seat: int, number: int) -> None:
    """Take a random Action from another player's hand."""
    target_pick(ctx, seat, number, _others_with_cards(ctx.st, seat), "theft_target", "Rob")


@fn("theft_target")
def theft_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    seat, target = step["seat"], step["value"]
    if not st.seats[target].hand:
        return
    n = rng_choice(ctx.rng, sorted(st.seats[target].hand))
    st.seats[target].hand.remove(n)
    st.seats[seat].hand.append(n)
    pin(st, [seat, target], n, seat)
    forget_holder(st, target, [seat, target])
    ctx.say(f"{name(seat)} takes an Action from {name(target)}'s hand.")
    ctx.tell(
        [seat, target],
        f"{name(seat)} took {card(st, n)['name']} (#{n}) from {name(target)}.",
        card=n,
    )


@effect("blackmail", ok=_has_others)
def blackmail(ctx: Ctx, seat: int, number: int) -> None:
    """Look at a hand and force its holder to play one Action."""
    target_pick(ctx, seat, number, others(ctx.st, seat), "bm_target", "Blackmail")


@fn("bm_target")
def bm_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    seat, target = step["seat"], step["value"]
    learn_hand(ctx, seat, target, "Blackmail")
    hand = sorted(set(st.seats[target].hand))
    if not hand:
        ctx.say(f"{name(target)} has no Action: the Blackmail has no effect.")
        return
    ctx.then(
        ctx.pick(
            seat,
            f"Blackmail: which Action must {name(target)} play?",
            force_options(st, target),
            "bm_force",
            kind="force",
            target=target,
        )
    )


def force_options(st: EnqState, target: int) -> list[tuple[object, str]]:
    """Each Action of the blackmailed hand."""
    return [(n, f"Force {card(st, n)['name']} (#{n})") for n in sorted(set(st.seats[target].hand))]


@fn("bm_force")
def bm_force(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    target, n = step["target"], step["value"]
    if n in st.seats[target].hand and playable(st, target, n, None, forced=True):
        ctx.say(f"{name(target)} is forced to play an Action.")
        play_card(ctx, target, n, forced=True)
    else:
        ctx.say(
            f"The chosen Action cannot be played: the Blackmail has no effect on {name(target)}."
        )


@effect("cover_up", ok=lambda st, seat: st.seats[seat].suspicions > 0)
def cover_up(ctx: Ctx, seat: int, number: int) -> None:
    """Discard one of your Suspicions (none left, e.g. after Friend: no effect)."""
    me = ctx.st.seats[seat]
    if me.suspicions <= 0:
        ctx.say(f"{name(seat)} has no Suspicion left to discard.", seat=seat)
        return
    me.suspicions -= 1
    ctx.say(f"{name(seat)} discards 1 Suspicion.", seat=seat)


@effect("hostage", ok=lambda st, seat: bool(_others_with_cards(st, seat)))
def hostage(ctx: Ctx, seat: int, number: int) -> None:
    """Another player gives you one Action of their choice."""
    target_pick(ctx, seat, number, _others_with_cards(ctx.st, seat), "hostage_target", "Ransom")


@fn("hostage_target")
def hostage_target(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    target = step["value"]
    hand = sorted(set(st.seats[target].hand))
    if not hand:
        return
    ctx.then(
        ctx.pick(
            target,
            f"Ransom: give one Action to {name(step['seat'])}.",
            ransom_options(st, target),
            "hostage_give",
            kind="give_action",
            to=step["seat"],
        )
    )


def ransom_options(st: EnqState, giver: int) -> list[tuple[object, str]]:
    """Each Action of the giver's hand."""
    return [(n, f"Give {card(st, n)['name']} (#{n})") for n in sorted(set(st.seats[giver].hand))]


@fn("hostage_give")
def hostage_give(ctx: Ctx, step: Step) -> None:
    st = ctx.st
    giver, to, n = step["seat"], step["to"], step["value"]
    st.seats[giver].hand.remove(n)
    st.seats[to].hand.append(n)
    pin(st, [giver, to], n, to)
    forget_holder(st, giver, [giver, to])
    ctx.say(f"{name(giver)} gives an Action to {name(to)}.")
    ctx.tell([giver, to], f"{name(giver)} gave {card(st, n)['name']} (#{n}) to {name(to)}.", card=n)


def _reaction_only(ctx: Ctx, seat: int, number: int) -> None:
    """Reactions resolve through their window; played any other way they do nothing."""
    ctx.say(f"{card(ctx.st, number)['name']} has no effect now.")


for _rid in ("fake_dn", "false_identity", "staging", "top_secret", "lie"):
    CARD_START[_rid] = _reaction_only
