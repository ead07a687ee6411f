"""The turn of the Investigation Card Game: Investigation, Arrest, Death Note, Red position.

Every function takes the state and a list to append the new events to. The Game object
(``game.py``) asks ``pending``/``legal`` and calls ``apply``; nothing else changes the state.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from deathnote.engine.actions import QUIET, Action, Decision, Event, Seat

from .content import MISSION_IDS
from .state import IcgState
from .tables import player

__all__ = ["player"]

TEAM = {"kira": "kira", "x_kira": "kira", "l": "l", "team_member": "l"}
"""The team of each Mission: the names counted in Outcome.winners."""

NEED = {"identity": (2, 1), "mission": (1, 2)}
"""Kira rules: (ID-Clues, Mission-Clues) revealed for each investigation type."""

RETURNED = 2  # Kira rules: Clues taken back before revealing


# -- names -----------------------------------------------------------------------------------
def clue_name(st: IcgState, clue: str) -> str:
    """The printed name of a Clue (an Identity or a Mission)."""
    return st.tables.names[clue]


def mission_name(st: IcgState, mission: str) -> str:
    """The printed name of a Mission."""
    return st.tables.names[mission]


_MISSION_CLUES = frozenset(MISSION_IDS)


def is_mission_clue(clue: str) -> bool:
    """Whether a Clue is a Mission-Clue (else an ID-Clue)."""
    return clue in _MISSION_CLUES


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
ARREST_PROMPT = "Arrest phase: L may arrest a player"
DEATH_NOTE_PROMPT = "Death Note phase: everyone closes their eyes; only Kira acts"
# Words the view carries for screens (display only: no rule reads them).
TEAM_NAMES = {"kira": "Kira's team", "l": "L's team"}
INVESTIGATION_NAMES = {"identity": "Identity", "mission": "Mission"}
# What each Mission asks of its player, in our words after the rulebook's "Goal of the Game".
MISSION_TEXTS = {
    "kira": "Put L out of the game: find who holds the L Mission and their Identity, then "
    "write both in the Death Note. A wrong arrest by L puts L out too, so lead the "
    "investigation astray. Kira's team.",
    "l": "Arrest the player with the Kira Mission in the Arrest phase: reveal this card and "
    "name them. The arrest ends the game; a wrong one puts L out and Kira's team wins. "
    "L's team.",
    "x_kira": "Help Kira without knowing who Kira is: drive the investigation the wrong way, "
    "even onto yourself (an arrest of X-Kira is a wrong one). You win with Kira, even when "
    "out of the game. Kira's team.",
    "team_member": "Help L without knowing who L is. You win with L, even when out of the "
    "game, and lose if Kira wins. L's team.",
}
# The card kinds a screen names (Identity cards; Clue cards, ID-Clue and Mission-Clue).
CARD_KIND_TEXTS = {
    "identity": "An Identity card: the character this player is. Kept secret all game; Kira "
    "writes an Identity and a Placement in the Death Note.",
    "id_clue": "An ID-Clue card (each player holds one of each of the 8 Identities). An "
    "investigated player never covers the ID-Clue of their own Identity (Light rules); in "
    "the Kira rules at least one revealed Clue must match their Identity or Mission.",
    "mission_clue": "A Mission-Clue card (each player holds one of each of the 4 Missions). "
    "Covered only when two ID-Clues cannot be (Light rules); in the Kira rules revealed as "
    "an answer like the ID-Clues.",
}
# Our own short summary of the rules, for a screen's rules panel (player-facing words).
RULES_SUMMARY = (
    "Everyone has a secret Identity (one of eight characters) and a secret Mission: Kira "
    "or X-Kira (Kira's team), L or Investigation Team Member (L's team).",
    "Each turn, from the red Placement and clockwise, every player investigates an opponent.",
    "Light rules: the investigated player covers two ID-Clues that are not their Identity"
    " (else a Mission-Clue that is not their Mission).",
    "Kira rules: the investigated player first takes back two Clues revealed before, then"
    " reveals three from their hand (Identity investigation: two ID-Clues and one "
    "Mission-Clue; Mission investigation: one and two), at least one matching their "
    "Identity or Mission.",
    "Arrest: L may reveal the L Mission and arrest a player. Kira: L's team wins. Anyone "
    "else: L is out and Kira's team wins.",
    "Death Note: everyone closes their eyes and Kira may write an Identity and a "
    "Placement. If they match, that player is out and reveals their Mission; if it is L, "
    "Kira's team wins. Then the red Placement passes to the right.",
    "Shinigami Eyes (option): an X-Kira may reveal their Mission at the end of an "
    "investigation to see the Identity of the player investigated, and may say what they "
    "saw (or bluff). Any player may give up an investigation to chase a revealed X-Kira.",
)

PHASE_NAMES = {
    "investigate": "A) Investigation",
    "cover": "A) Investigation: covering Clues",
    "return": "A) Investigation: taking back Clues",
    "reveal": "A) Investigation: revealing Clues",
    "eyes": "A) Investigation: the Shinigami Eyes",
    "announce": "A) Investigation: what the eyes saw",
    "arrest": "B) Arrest",
    "dn_identity": "C) Death Note",
    "dn_placement": "C) Death Note",
    "over": "Game over",
}


def pending(st: IcgState) -> dict[Seat, Decision]:
    """Who decides now; the Arrest and Death Note phases ask every living seat alike.

    The covert decisions (Arrest, Death Note) carry the same kind, prompt and data for every
    seat, whatever it holds: being asked tells nobody anything.
    """
    ph = st.phase
    if ph == "over":
        return {}
    if ph == "investigate":
        assert st.current is not None
        return {
            st.current: Decision(
                "investigate",
                "Choose a player to investigate",
                data={"step": "investigate", "turn": st.turn},
            )
        }
    if ph == "cover":
        assert st.target is not None
        return {
            st.target: Decision(
                "cover",
                "Cover a Clue that is not yours",
                data={
                    "step": "cover",
                    "investigator": st.current,
                    "count": cover_count(st, st.target),
                    "picked": list(st.picks),
                },
            )
        }
    if ph == "return":
        assert st.target is not None
        return {
            st.target: Decision(
                "return",
                "Take back a Clue you revealed before",
                data={
                    "step": "return",
                    "investigator": st.current,
                    "type": st.inv_type,
                    "count": returns_needed(st, st.target),
                    "picked": list(st.picks),
                },
            )
        }
    if ph == "reveal":
        assert st.target is not None
        kind = "Identity" if st.inv_type == "identity" else "Mission"
        return {
            st.target: Decision(
                "reveal",
                f"{kind} investigation: reveal a Clue",
                data={
                    "step": "reveal",
                    "investigator": st.current,
                    "type": st.inv_type,
                    "count": 3,
                    "picked": list(st.picks),
                },
            )
        }
    if ph == "eyes":
        assert st.current is not None
        return {
            st.current: Decision(
                "eyes",
                "The end of your investigation",
                data={"step": "eyes", "target": st.target},
            )
        }
    if ph == "announce":
        assert st.current is not None
        return {
            st.current: Decision(
                "announce",
                "Tell the table what your eyes saw (or anything else)?",
                data={"step": "announce", "target": st.target},
            )
        }
    if ph == "arrest":
        data = {"step": "arrest", "turn": st.turn}
        return {s: Decision("arrest", ARREST_PROMPT, covert=True, data=data) for s in st.asked}
    step = "identity" if ph == "dn_identity" else "placement"
    data = {"step": step, "turn": st.turn}
    return {s: Decision("death_note", DEATH_NOTE_PROMPT, covert=True, data=data) for s in st.asked}


def mover(st: IcgState) -> Seat | None:
    """The lowest seat ``pending`` asks (``min(pending(st))``), without building decisions."""
    ph = st.phase
    if ph == "over":
        return None
    if ph in ("investigate", "eyes", "announce"):
        return st.current
    if ph in ("cover", "return", "reveal"):
        return st.target
    return min(st.asked) if st.asked else None


def is_asked(st: IcgState, seat: Seat) -> bool:
    """Whether ``seat`` is among the seats ``pending`` asks (without building decisions)."""
    ph = st.phase
    if ph in ("investigate", "eyes", "announce"):
        return seat == st.current
    if ph in ("cover", "return", "reveal"):
        return seat == st.target
    return seat in st.asked


def legal(st: IcgState, seat: Seat) -> list[Action]:
    """The legal actions of a pending seat."""
    ph = st.phase
    tab = st.tables
    if ph == "investigate":
        return _investigate_options(st, seat)
    if ph == "cover":
        return [tab.cover[c] for c in cover_options(st, seat) if c not in st.picks]
    if ph == "return":
        return [tab.take_back[c] for c in return_options(st, seat)]
    if ph == "reveal":
        return [tab.reveal[c] for c in reveal_options(st, seat)]
    if ph == "eyes":
        assert st.target is not None
        if st.seats[seat].mission == "x_kira":
            return [tab.done, tab.open_eyes[st.target]]
        return [tab.done]
    if ph == "announce":
        # Any Identity, the true one or a lie (he "can openly speak about it"); the label of
        # the true one reminds him what he saw (only he sees his choices).
        assert st.target is not None
        seen = st.seats[seat].looks[st.target]
        out = []
        for ident, action in tab.announce[st.target].items():
            if ident == seen:
                action = Action(action.kind, action.args, action.label + " (what your eyes saw)")
            out.append(action)
        out.append(tab.quiet)
        return out
    if ph == "arrest":
        if st.seats[seat].mission == "l":
            return [tab.no_arrest, *(tab.arrest[t] for t in living(st) if t != seat)]
        return [tab.no_arrest]
    if ph == "dn_identity":
        if st.seats[seat].mission == "kira":
            return [tab.wait, *tab.write.values()]
        return [tab.wait]
    if ph == "dn_placement":
        x = st.seats[seat]
        if x.mission == "kira" and st.dn_identity is not None:
            return [tab.place[t] for t in placements(st, seat, st.dn_identity)]
        return [tab.wait]
    return []


def placements(st: IcgState, kira: Seat, identity: str) -> list[Seat]:
    """The Placements Kira may cover with ``identity`` written: any living one, his own too
    (a bluff); only his own Identity on his own Placement is left out, since that would put
    Kira himself out of the game."""
    own = identity == st.seats[kira].identity
    return [t for t in living(st) if not (own and t == kira)]


def _investigate_options(st: IcgState, seat: Seat) -> list[Action]:
    tab = st.tables
    out: list[Action] = []
    for t, x in enumerate(st.seats):
        if t != seat and not x.out:
            out += tab.investigate[t]
    if st.eyes:
        out += [
            tab.chase[x] for x in st.order if x != seat and has_eyes(st, x) and x not in st.chased
        ]
    return out


# -- Light rules: covering -------------------------------------------------------------------
def cover_options(st: IcgState, seat: Seat) -> list[str]:
    """The Clues the investigated player may cover now (Light rules).

    Two ID-Clues that are not the Identity; if fewer than two are left, one Mission-Clue that
    is not the Mission; else nothing.
    """
    x = st.seats[seat]
    covered = x.covered
    if cover_count(st, seat) == 2:
        return [c for c in st.tables.identity_ids if c not in covered and c != x.identity]
    return [c for c in MISSION_IDS if c not in covered and c != x.mission]


def cover_count(st: IcgState, seat: Seat) -> int:
    """How many Clues this investigation covers: 2 ID-Clues, else 1 Mission-Clue, else 0.

    Public: it depends only on how many Clues of each kind are still face up.
    """
    covered = st.seats[seat].covered
    if len(covered) < 6:
        return 2  # at most 5 of the 8 ID-Clues down: at least 3 up
    missions_down = len(_MISSION_CLUES.intersection(covered))
    ids_up = len(st.tables.identity_ids) - (len(covered) - missions_down)
    if ids_up - 1 >= 2:
        return 2
    return 1 if len(MISSION_IDS) - missions_down - 1 >= 1 else 0


# -- Kira rules: returning and revealing -----------------------------------------------------
# These take the secret cards explicitly, so that the sampler can test a candidate
# Identity and Mission against the table's history with the same code as the rules.
def feasible_with(
    identity: str, mission: str, inv_type: str, hand: list[str], picked: list[str]
) -> bool:
    """Whether ``picked`` (from ``hand``) can be completed into a legal reveal."""
    need_id, need_m = NEED[inv_type]
    picked_m = sum(1 for c in picked if c in _MISSION_CLUES)
    left_id = need_id - (len(picked) - picked_m)
    left_m = need_m - picked_m
    if left_id < 0 or left_m < 0:
        return False
    rest = [c for c in hand if c not in picked]
    rest_m = sum(1 for c in rest if c in _MISSION_CLUES)
    if len(rest) - rest_m < left_id or rest_m < left_m:
        return False
    if identity in picked or mission in picked:
        return True
    return (left_id > 0 and identity in rest) or (left_m > 0 and mission in rest)


def can_answer_with(
    identity: str, mission: str, inv_type: str, hand: list[str], table: list[str]
) -> bool:
    """Kira rules: whether some choice of returned Clues allows a legal reveal."""
    k = min(RETURNED, len(table))
    return any(
        feasible_with(identity, mission, inv_type, hand + list(back), [])
        for back in combinations(table, k)
    )


def return_options_with(
    identity: str, mission: str, inv_type: str, hand: list[str], table: list[str], picks: list[str]
) -> list[str]:
    """Revealed Clues that may be taken back next, keeping a legal reveal possible."""
    k = min(RETURNED, len(table))
    left = [c for c in table if c not in picks]
    more = k - len(picks) - 1
    out = []
    for c in left:
        rest = [d for d in left if d != c]
        if any(
            feasible_with(identity, mission, inv_type, hand + picks + [c, *extra], [])
            for extra in combinations(rest, more)
        ):
            out.append(c)
    return out


def reveal_options_with(
    identity: str, mission: str, inv_type: str, hand: list[str], picks: list[str]
) -> list[str]:
    """Clues in hand that may be revealed next, keeping the reveal completable."""
    return [
        c
        for c in hand
        if c not in picks and feasible_with(identity, mission, inv_type, hand, [*picks, c])
    ]


def feasible(st: IcgState, seat: Seat, hand: list[str], picked: list[str]) -> bool:
    """Whether ``picked`` (from ``hand``) can be completed into a legal reveal."""
    x = st.seats[seat]
    assert st.inv_type is not None
    return feasible_with(x.identity, x.mission, st.inv_type, hand, picked)


def returns_needed(st: IcgState, seat: Seat) -> int:
    """Kira rules: Clues to take back first (2 once investigated before)."""
    return min(RETURNED, len(st.seats[seat].table))


def can_answer(st: IcgState, seat: Seat) -> bool:
    """Kira rules: whether some choice of returned Clues allows a legal reveal."""
    x = st.seats[seat]
    assert st.inv_type is not None
    return can_answer_with(x.identity, x.mission, st.inv_type, x.hand, x.table)


def return_options(st: IcgState, seat: Seat) -> list[str]:
    """Revealed Clues that may be taken back, keeping a legal reveal possible."""
    x = st.seats[seat]
    assert st.inv_type is not None
    return return_options_with(x.identity, x.mission, st.inv_type, x.hand, x.table, st.picks)


def reveal_options(st: IcgState, seat: Seat) -> list[str]:
    """Clues in hand that may be revealed next, keeping the reveal completable."""
    x = st.seats[seat]
    assert st.inv_type is not None
    return reveal_options_with(x.identity, x.mission, st.inv_type, x.hand, st.picks)


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
            # What he says may be the truth or a bluff: the table hears a claim, not a fact.
            assert st.target is not None
            said = action["identity"]
            st.claims.append({"by": seat, "seat": st.target, "identity": said, "turn": st.turn})
            events.append(
                Event.public(
                    f"{player(seat)} (X-Kira) says that {player(st.target)} is "
                    f"{clue_name(st, said)}.",
                    seat=seat,
                    target=st.target,
                    identity=said,
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
    if events is not QUIET:
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
    if events is not QUIET:
        names = _joined([clue_name(st, c) for c in st.picks])
        events.append(
            Event.public(f"{player(seat)} covers {names}.", seat=seat, clues=list(st.picks))
        )
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
