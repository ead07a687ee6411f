"""The turn of the Investigation Card Game: Investigation, Arrest, Death Note, Red position.

Every function takes the state and a list to append the new events to. The Game object
(``game.py``) asks ``pending``/``legal`` and calls ``apply``; nothing else changes the state.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from deathnote.engine.actions import Action, Decision, Event, Seat

from .content import MISSION_IDS
from .state import IcgState

TEAM = {"kira": "kira", "x_kira": "kira", "l": "l", "team_member": "l"}
"""The team of each Mission: the names counted in Outcome.winners."""

NEED = {"identity": (2, 1), "mission": (1, 2)}
"""Kira rules: (ID-Clues, Mission-Clues) revealed for each investigation type."""

RETURNED = 2  # Kira rules: Clues taken back before revealing


# -- names -----------------------------------------------------------------------------------
def player(seat: Seat) -> str:
    """The public name of a seat (its Placement number)."""
    return f"Player {seat + 1}"


def clue_name(st: IcgState, clue: str) -> str:
    """The printed name of a Clue (an Identity or a Mission)."""
    for card in st.content["identities"]:
        if card["id"] == clue:
            return str(card["name"])
    return mission_name(st, clue)


def mission_name(st: IcgState, mission: str) -> str:
    """The printed name of a Mission."""
    for card in st.content["missions"]:
        if card["id"] == mission:
            return str(card["name"])
    raise KeyError(mission)


def is_mission_clue(clue: str) -> bool:
    """Whether a Clue is a Mission-Clue (else an ID-Clue)."""
    return clue in MISSION_IDS


def living(st: IcgState) -> list[Seat]:
    """Seats still in the game, in seat order."""
    return [s for s, x in enumerate(st.seats) if not x.out]


def has_eyes(st: IcgState, seat: Seat) -> bool:
    """A living X-Kira who has revealed the Mission to use the Shinigami Eyes."""
    x = st.seats[seat]
    return st.eyes and x.mission == "x_kira" and x.mission_revealed and not x.out


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- decisions -------------------------------------------------------------------------------
def pending(st: IcgState) -> dict[Seat, Decision]:
    """Who decides now; the Arrest and Death Note phases ask every living seat alike."""
    ph = st.phase
    if ph == "over":
        return {}
    if ph == "investigate":
        assert st.current is not None
        return {st.current: Decision("investigate", "Choose a player to investigate")}
    if ph == "cover":
        assert st.target is not None
        return {st.target: Decision("cover", "Cover a Clue that is not yours")}
    if ph == "return":
        assert st.target is not None
        return {st.target: Decision("return", "Take back a Clue you revealed before")}
    if ph == "reveal":
        assert st.target is not None
        kind = "Identity" if st.inv_type == "identity" else "Mission"
        return {st.target: Decision("reveal", f"{kind} investigation: reveal a Clue")}
    if ph == "eyes":
        assert st.current is not None
        return {st.current: Decision("eyes", "The end of your investigation")}
    if ph == "announce":
        assert st.current is not None
        return {st.current: Decision("announce", "Tell the table what your eyes saw?")}
    if ph == "arrest":
        prompt = "Arrest phase: L may arrest a player"
        return {s: Decision("arrest", prompt, covert=True) for s in st.asked}
    prompt = "Death Note phase: everyone closes their eyes; only Kira acts"
    return {s: Decision("death_note", prompt, covert=True) for s in st.asked}


def legal(st: IcgState, seat: Seat) -> list[Action]:
    """The legal actions of a pending seat."""
    ph = st.phase
    if ph == "investigate":
        return _investigate_options(st, seat)
    if ph == "cover":
        return [
            Action.make("cover", f"Cover {clue_name(st, c)}", clue=c)
            for c in cover_options(st, seat)
            if c not in st.picks
        ]
    if ph == "return":
        return [
            Action.make("return", f"Take back {clue_name(st, c)}", clue=c)
            for c in return_options(st, seat)
        ]
    if ph == "reveal":
        return [
            Action.make("reveal", f"Reveal {clue_name(st, c)}", clue=c)
            for c in reveal_options(st, seat)
        ]
    if ph == "eyes":
        assert st.target is not None
        out = [Action.make("done", "End your investigation")]
        if st.seats[seat].mission == "x_kira":
            out.append(
                Action.make(
                    "open_eyes",
                    f"Reveal X-Kira and open the Shinigami Eyes on {player(st.target)}",
                )
            )
        return out
    if ph == "announce":
        assert st.target is not None
        return [
            Action.make(
                "announce",
                f"Say that {player(st.target)} is {clue_name(st, st.seats[seat].looks[st.target])}",
            ),
            Action.make("quiet", "Keep it to yourself"),
        ]
    if ph == "arrest":
        out = [Action.make("pass", "No arrest")]
        if st.seats[seat].mission == "l":
            out += [
                Action.make("arrest", f"Reveal L and arrest {player(t)}", target=t)
                for t in living(st)
                if t != seat
            ]
        return out
    if ph == "dn_identity":
        out = [Action.make("wait", "Keep your eyes closed")]
        if st.seats[seat].mission == "kira":
            out += [
                Action.make("write", f"Cover {c['name']} on the Death Note", identity=c["id"])
                for c in st.content["identities"]
            ]
        return out
    if ph == "dn_placement":
        if st.seats[seat].mission == "kira" and st.dn_identity is not None:
            # Any living Placement, his own too (a bluff); only his own Identity on his own
            # Placement is left out, since that would put Kira himself out of the game.
            own = st.dn_identity == st.seats[seat].identity
            return [
                Action.make("place", f"Cover Placement #{t + 1}", placement=t)
                for t in living(st)
                if not (own and t == seat)
            ]
        return [Action.make("wait", "Keep your eyes closed")]
    return []


def _investigate_options(st: IcgState, seat: Seat) -> list[Action]:
    types = ["identity", "mission"] if st.rules == "kira" else [None]
    out: list[Action] = []
    for t in living(st):
        if t == seat:
            continue
        for kind in types:
            label = f"Investigate {player(t)}" + (f" ({kind.title()})" if kind else "")
            args = {"target": t} if kind is None else {"target": t, "type": kind}
            out.append(Action.make("investigate", label, **args))
    if st.eyes:
        out += [
            Action.make("chase", f"Pass to chase X-Kira ({player(x)})", x_kira=x)
            for x in st.order
            if x != seat and has_eyes(st, x) and x not in st.chased
        ]
    return out


# -- Light rules: covering -------------------------------------------------------------------
def cover_options(st: IcgState, seat: Seat) -> list[str]:
    """The Clues the investigated player may cover now (Light rules).

    Two ID-Clues that are not the Identity; if fewer than two are left, one Mission-Clue that
    is not the Mission; else nothing.
    """
    x = st.seats[seat]
    ids = [c for c in st.clue_ids if not is_mission_clue(c) and c not in x.covered]
    ids = [c for c in ids if c != x.identity]
    if cover_count(st, seat) == 2:
        return ids
    return [c for c in st.clue_ids if is_mission_clue(c) and c not in x.covered and c != x.mission]


def cover_count(st: IcgState, seat: Seat) -> int:
    """How many Clues this investigation covers: 2 ID-Clues, else 1 Mission-Clue, else 0.

    Public: it depends only on how many Clues of each kind are still face up.
    """
    x = st.seats[seat]
    ids_up = sum(1 for c in st.clue_ids if not is_mission_clue(c) and c not in x.covered)
    if ids_up - 1 >= 2:
        return 2
    missions_up = sum(1 for c in st.clue_ids if is_mission_clue(c) and c not in x.covered)
    return 1 if missions_up - 1 >= 1 else 0


# -- Kira rules: returning and revealing -----------------------------------------------------
def feasible(st: IcgState, seat: Seat, hand: list[str], picked: list[str]) -> bool:
    """Whether ``picked`` (from ``hand``) can be completed into a legal reveal."""
    x = st.seats[seat]
    assert st.inv_type is not None
    need_id, need_m = NEED[st.inv_type]
    left_id = need_id - sum(1 for c in picked if not is_mission_clue(c))
    left_m = need_m - sum(1 for c in picked if is_mission_clue(c))
    if left_id < 0 or left_m < 0:
        return False
    rest = [c for c in hand if c not in picked]
    if sum(1 for c in rest if not is_mission_clue(c)) < left_id:
        return False
    if sum(1 for c in rest if is_mission_clue(c)) < left_m:
        return False
    true = (x.identity, x.mission)
    if any(c in true for c in picked):
        return True
    return (left_id > 0 and x.identity in rest) or (left_m > 0 and x.mission in rest)


def returns_needed(st: IcgState, seat: Seat) -> int:
    """Kira rules: Clues to take back first (2 once investigated before)."""
    return min(RETURNED, len(st.seats[seat].table))


def can_answer(st: IcgState, seat: Seat) -> bool:
    """Kira rules: whether some choice of returned Clues allows a legal reveal."""
    x = st.seats[seat]
    k = returns_needed(st, seat)
    return any(feasible(st, seat, x.hand + list(back), []) for back in combinations(x.table, k))


def return_options(st: IcgState, seat: Seat) -> list[str]:
    """Revealed Clues that may be taken back, keeping a legal reveal possible."""
    x = st.seats[seat]
    k = returns_needed(st, seat)
    left = [c for c in x.table if c not in st.picks]
    out = []
    for c in left:
        rest = [d for d in left if d != c]
        more = k - len(st.picks) - 1
        if any(
            feasible(st, seat, x.hand + st.picks + [c, *extra], [])
            for extra in combinations(rest, more)
        ):
            out.append(c)
    return out


def reveal_options(st: IcgState, seat: Seat) -> list[str]:
    """Clues in hand that may be revealed next, keeping the reveal completable."""
    hand = st.seats[seat].hand
    return [c for c in hand if c not in st.picks and feasible(st, seat, hand, [*st.picks, c])]


# -- transitions -----------------------------------------------------------------------------
def apply(st: IcgState, seat: Seat, action: Action, events: list[Event]) -> None:
    """Carry out a legal action, then run the game on until the next decision."""
    kind = action.kind
    if kind == "investigate":
        _investigate(st, seat, action["target"], action.get("type"), events)
    elif kind == "chase":
        x = action["x_kira"]
        st.chased.append(x)
        events.append(
            Event.public(
                f"{player(seat)} passes to chase X-Kira: {player(x)} must pass this turn.",
                seat=seat,
                chased=x,
            )
        )
        _next_investigator(st, events)
    elif kind == "done":
        _next_investigator(st, events)
    elif kind == "open_eyes":
        _open_eyes(st, seat, events)
    elif kind == "cover":
        _cover(st, seat, action["clue"], events)
    elif kind == "return":
        _return(st, seat, action["clue"], events)
    elif kind == "reveal":
        _reveal(st, seat, action["clue"], events)
    elif kind in ("announce", "quiet"):
        if kind == "announce":
            assert st.target is not None
            seen = st.seats[seat].looks[st.target]
            st.claims.append({"by": seat, "seat": st.target, "identity": seen, "turn": st.turn})
            events.append(
                Event.public(
                    f"{player(seat)} (X-Kira) says that {player(st.target)} is "
                    f"{clue_name(st, seen)}.",
                    seat=seat,
                    target=st.target,
                    identity=seen,
                )
            )
        _next_investigator(st, events)
    elif kind == "arrest":
        _arrest(st, seat, action["target"], events)
    elif kind == "pass":
        st.asked.remove(seat)
        if not st.asked:
            events.append(Event.public("Nobody is arrested."))
            _start_death_note(st)
    elif kind in ("wait", "write", "place"):
        if kind == "write":
            st.dn_identity = action["identity"]
        elif kind == "place":
            st.dn_placement = action["placement"]
        st.asked.remove(seat)
        if not st.asked:
            if st.phase == "dn_identity":
                st.phase = "dn_placement"
                st.asked = living(st)
            else:
                _resolve_death_note(st, events)


def start_turn(st: IcgState, events: list[Event]) -> None:
    """Phase A begins: every living player investigates, clockwise from the red Placement."""
    n = st.players
    st.order = [s for s in ((st.red + i) % n for i in range(n)) if not st.seats[s].out]
    st.done = []
    st.chased = []
    events.append(
        Event.public(
            f"Turn {st.turn}: {player(st.red)} holds the red Placement.", turn=st.turn, red=st.red
        )
    )
    _next_investigator(st, events)


def _next_investigator(st: IcgState, events: list[Event]) -> None:
    st.current = st.target = None
    st.inv_type = None
    st.picks = []
    while st.order:
        s = st.order.pop(0)
        if s in st.chased:
            events.append(Event.public(f"{player(s)} is chased and passes.", seat=s))
            continue
        st.current = s
        st.phase = "investigate"
        return
    _start_arrest(st)


def _investigate(
    st: IcgState, seat: Seat, target: Seat, kind: str | None, events: list[Event]
) -> None:
    st.done.append(seat)
    st.target = target
    st.inv_type = kind
    what = f" ({kind.title()} investigation)" if kind else ""
    events.append(
        Event.public(
            f"{player(seat)} investigates {player(target)}{what}.",
            seat=seat,
            target=target,
            type=kind,
        )
    )
    record: dict[str, Any] = {"turn": st.turn, "by": seat, "seat": target, "type": kind}
    st.history.append(record)
    t = st.seats[target]
    if st.rules == "light":
        record["covered"] = []
        if cover_count(st, target) == 0:
            events.append(Event.public(f"{player(target)} has nothing left to cover."))
            _finish_investigation(st, events)
        else:
            st.phase = "cover"
        return
    record["returned"] = []
    record["revealed"] = []
    if not can_answer(st, target):
        record["unable"] = True
        events.append(
            Event.public(f"{player(target)} cannot reveal Clues as asked and does nothing.")
        )
        _finish_investigation(st, events)
    elif t.table:
        st.phase = "return"
    else:
        st.phase = "reveal"


def _cover(st: IcgState, seat: Seat, clue: str, events: list[Event]) -> None:
    st.picks.append(clue)
    if len(st.picks) < cover_count(st, seat):
        return
    st.seats[seat].covered += st.picks
    st.history[-1]["covered"] = list(st.picks)
    names = _joined([clue_name(st, c) for c in st.picks])
    events.append(Event.public(f"{player(seat)} covers {names}.", seat=seat, clues=list(st.picks)))
    st.picks = []
    _finish_investigation(st, events)


def _return(st: IcgState, seat: Seat, clue: str, events: list[Event]) -> None:
    st.picks.append(clue)
    if len(st.picks) < returns_needed(st, seat):
        return
    x = st.seats[seat]
    for c in st.picks:
        x.table.remove(c)
        x.hand.append(c)
    st.history[-1]["returned"] = list(st.picks)
    names = _joined([clue_name(st, c) for c in st.picks])
    events.append(
        Event.public(f"{player(seat)} takes back {names}.", seat=seat, clues=list(st.picks))
    )
    st.picks = []
    st.phase = "reveal"


def _reveal(st: IcgState, seat: Seat, clue: str, events: list[Event]) -> None:
    st.picks.append(clue)
    if len(st.picks) < 3:
        return
    x = st.seats[seat]
    for c in st.picks:
        x.hand.remove(c)
        x.table.append(c)
    st.history[-1]["revealed"] = list(st.picks)
    names = _joined([clue_name(st, c) for c in st.picks])
    events.append(Event.public(f"{player(seat)} reveals {names}.", seat=seat, clues=list(st.picks)))
    st.picks = []
    _finish_investigation(st, events)


def _finish_investigation(st: IcgState, events: list[Event]) -> None:
    seat = st.current
    assert seat is not None
    st.picks = []
    if st.eyes and "x_kira" in st.mission_box and not st.seats[seat].mission_revealed:
        # Shinigami Eyes: at the end of the investigation a hidden X-Kira may reveal himself.
        # Every investigator is asked alike, so the question betrays no one.
        st.phase = "eyes"
        return
    _look(st, events)


def _open_eyes(st: IcgState, seat: Seat, events: list[Event]) -> None:
    st.seats[seat].mission_revealed = True
    st.history[-1]["eyes_opened"] = True
    events.append(
        Event.public(
            f"{player(seat)} reveals the X-Kira Mission and opens the Shinigami Eyes.",
            seat=seat,
            mission="x_kira",
        )
    )
    _look(st, events)


def _look(st: IcgState, events: list[Event]) -> None:
    """A revealed X-Kira looks at the investigated player's Identity; then play goes on."""
    seat, target = st.current, st.target
    assert seat is not None and target is not None
    x = st.seats[seat]
    if has_eyes(st, seat):
        seen = st.seats[target].identity
        x.looks[target] = seen
        events.append(
            Event.private(
                [seat],
                f"Your Shinigami Eyes see that {player(target)} is {clue_name(st, seen)}.",
                target=target,
                identity=seen,
            )
        )
        events.append(Event.public(f"{player(seat)} looks at {player(target)}'s Identity."))
        st.phase = "announce"
        return
    _next_investigator(st, events)


def _start_arrest(st: IcgState) -> None:
    st.current = st.target = None
    st.inv_type = None
    st.phase = "arrest"
    st.asked = living(st)


def _arrest(st: IcgState, seat: Seat, target: Seat, events: list[Event]) -> None:
    st.asked = []
    st.seats[seat].mission_revealed = True
    st.seats[target].mission_revealed = True
    found = st.seats[target].mission
    events.append(
        Event.public(
            f"{player(seat)} reveals the L Mission and arrests {player(target)}, "
            f"whose Mission is {mission_name(st, found)}.",
            seat=seat,
            target=target,
            mission=found,
        )
    )
    if found == "kira":
        _end(st, "l", "arrest_right", f"L arrested Kira ({player(target)}).")
    else:
        st.seats[seat].out = True
        _end(st, "kira", "arrest_wrong", f"L arrested {player(target)}, who is not Kira; L is out.")


def _start_death_note(st: IcgState) -> None:
    st.phase = "dn_identity"
    st.asked = living(st)
    st.dn_identity = None
    st.dn_placement = None


def _resolve_death_note(st: IcgState, events: list[Event]) -> None:
    ident, place = st.dn_identity, st.dn_placement
    st.dn_identity = st.dn_placement = None
    st.asked = []
    if ident is None or place is None:
        st.death_notes.append({"turn": st.turn, "identity": None, "seat": None, "hit": False})
        events.append(Event.public("Eyes open: the Death Note board is empty."))
        _end_turn(st, events)
        return
    victim = st.seats[place]
    hit = victim.identity == ident
    st.death_notes.append({"turn": st.turn, "identity": ident, "seat": place, "hit": hit})
    events.append(
        Event.public(
            f"Eyes open: the Death Note shows {clue_name(st, ident)} and Placement #{place + 1}.",
            identity=ident,
            seat=place,
        )
    )
    if not hit:
        events.append(
            Event.public(f"{player(place)} is not {clue_name(st, ident)}.", seat=place, hit=False)
        )
        _end_turn(st, events)
        return
    victim.out = True
    victim.mission_revealed = True
    events.append(
        Event.public(
            f"{player(place)} is {clue_name(st, ident)} and is out of the game; "
            f"Mission: {mission_name(st, victim.mission)}.",
            seat=place,
            hit=True,
            mission=victim.mission,
        )
    )
    if victim.mission == "l":
        _end(st, "kira", "death_note", f"Kira put L ({player(place)}) out of the game.")
        return
    _end_turn(st, events)


def _end_turn(st: IcgState, events: list[Event]) -> None:
    n = st.players
    # Phase D: the red Placement passes to the right, i.e. counter-clockwise, to a living seat.
    red = (st.red - 1) % n
    while st.seats[red].out:
        red = (red - 1) % n
    st.red = red
    if st.turn >= st.turn_limit:
        _end(st, None, "turn_limit", f"No Mission was fulfilled in {st.turn_limit} turns.")
        return
    st.turn += 1
    start_turn(st, events)


def _end(st: IcgState, team: str | None, condition: str, reason: str) -> None:
    st.phase = "over"
    st.asked = []
    st.current = st.target = None
    st.winners = (team,) if team else ()
    st.ending = condition
    st.reason = reason
