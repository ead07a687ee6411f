"""The rules of Confrontation (Chapters 1 and 2): set-up, the Chase, the Nightly News,
kills, Quiet Nights, the three ways L eliminates Suspects, abilities and the game end.

Every function works on a ``ConfState`` in place. ``pending``/``legal`` say who decides
and how; ``apply`` carries out one legal action and runs every automatic step after it
until someone must decide again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from operator import add

from deathnote.engine import rng as draw
from deathnote.engine.actions import QUIET, Action, Decision, Event, Outcome, Seat
from deathnote.games.confrontation.content import CRIME_TYPES, Tables, points_text
from deathnote.games.confrontation.state import (
    ACCUSE,
    APPLES,
    CHASE,
    DAY,
    DICE,
    KILL,
    KIRA,
    NEWS,
    NO_CHOICE,
    OVER,
    SIDES,
    STARS,
    SWITCH,
    ConfState,
    L,
    dealt,
)

# -- the numbers of each chapter (rules, not content) ------------------------------------
TARGET_POINTS = {1: 15, 2: 20}
REGIONAL_LIMIT = {1: 2, 2: 3}
QUIET_NIGHTS_ALLOWED = {1: 2, 2: 1}
NEWS_SIZE = 3
DICE_CHANGES = 3  # "change up to three of the dice"
#: the most Stars one Suspect card may carry (the content check's bound): the Star actions
#: list every way to place up to this many Stars in the four Intel rows
MAX_CARD_STARS = 9
INTEL_ROWS = 4

# Reasons a Suspect is eliminated (shown in L's notebook).
BY_CARD = "card"
BY_REGIONAL = "regional"
BY_QUIET = "quiet"

ABILITY_LABELS = {
    "change_dice": "Change up to 3 dice",
    "points_2": "2 points",
    "points_3": "3 points",
    "switch": "Last Minute A/B Switch",
    "extra_suspect": "Draw +1 Suspect card",
    "extra_quiet_night": "+1 Quiet Night",
}
#: What each ability does, in the rulebook's words (CONF-CH2-06..12), shown on a tap.
ABILITY_TEXTS = {
    "change_dice": "After the Crime Type dice are rolled and before the Nightly News is "
    "announced, change up to three of the dice to the faces of your choosing; the news that "
    "night uses the resulting dice.",
    "points_2": "As soon as this row is filled, Kira gets 2 points.",
    "points_3": "As soon as this row is filled, Kira gets 3 points.",
    "switch": "After both players have revealed their chosen crime scene (A or B), switch your "
    "own token to the other side.",
    "extra_suspect": "As soon as L earns this ability he draws one Suspect card.",
    "extra_quiet_night": "L can afford one more Quiet Night before his case goes cold.",
}
POINTS_ROWS = {"points_2": 2, "points_3": 3}

# -- precomputed events (frozen, shared: nobody changes an event once made) ----------------
ONLY_L = frozenset((L,))
ONLY_KIRA = frozenset((KIRA,))
L_WINS_CHASE = Event("L wins the Chase and draws a Suspect card.", {"winner": "l"}, None)
TOKENS = {
    (k, l_side): Event(
        f"The tokens are revealed: Kira chose {SIDES[k]}, L chose {SIDES[l_side]}.",
        {"kira": SIDES[k], "l": SIDES[l_side]},
        None,
    )
    for k in (0, 1)
    for l_side in (0, 1)
}
WHY = {
    BY_REGIONAL: "too many kills outside its Local Area",
    BY_QUIET: "a Quiet Night rules it out",
}

# -- precomputed actions -------------------------------------------------------------------
FOLLOW = Action.make("follow", "Follow the next lead")
START_ACCUSE = Action.make("accuse", "Accuse a suspect (wrong: Kira wins)")
CHASE_ACTIONS = (
    Action.make("chase", "Go to crime scene A", side="A"),
    Action.make("chase", "Go to crime scene B", side="B"),
)
SWITCH_YES = Action.make("switch", "Use the Last Minute A/B Switch", use=True)
SWITCH_NO = Action.make("switch", "Keep your token", use=False)
#: The Crime Type dice's faces as the rulebook calls them ("L rolls one Bomb, one Gun, and
#: one Knife"): what a person reads in labels and the log, never the type's id.
DIE_FACES = {"knife": "Knife", "gun": "Gun", "bomb": "Bomb"}


def faces_text(faces: Sequence[str]) -> str:
    """Dice faces in words: "Knife, Gun, Bomb"."""
    return ", ".join(DIE_FACES.get(f, f.capitalize()) for f in faces)


DICE_KEEP = Action.make("dice", "Keep the dice as rolled", faces=())
DICE_SETS = tuple(
    Action.make("dice", "Change the dice to " + faces_text(combo), faces=combo)
    for combo in combinations_with_replacement(CRIME_TYPES, DICE_CHANGES)
)
DAY_ACTIONS = (FOLLOW, START_ACCUSE)
ACCUSE_ONLY = (START_ACCUSE,)  # past the horizon of the tiny variant (CONF-TINY-01)
SWITCH_ACTIONS = (SWITCH_YES, SWITCH_NO)
SWITCH_KEEP_ONLY = (SWITCH_NO,)
DICE_ACTIONS = (DICE_KEEP, *DICE_SETS)
DICE_KEEP_ONLY = (DICE_KEEP,)

DECISIONS = {
    DAY: Decision(
        "day",
        "A new day: follow the next lead, or accuse a suspect?",
        data={"step": "day", "choose": "follow_or_accuse"},
    ),
    ACCUSE: Decision("accuse", "Who is Kira?", data={"step": "accuse", "choose": "suspect"}),
    CHASE: Decision(
        "chase",
        "The Chase: choose crime scene A or B (secret until both chose)",
        data={"step": "chase", "choose": "side"},
    ),
    SWITCH: Decision(
        "switch",
        "The tokens are revealed: use a Last Minute A/B Switch, or keep your token?",
        covert=True,
        data={"step": "switch", "choose": "use"},
    ),
    APPLES: Decision(
        "apples",
        "Put an Apple in a row of your Ryuk Bribery Tracker",
        data={"step": "apples", "choose": "row"},
    ),
    DICE: Decision(
        "dice",
        "Before the Nightly News: change up to 3 dice, or keep them?",
        covert=True,
        data={"step": "dice", "choose": "faces"},
    ),
    NEWS: Decision(
        "news", "Pick a criminal for the Nightly News", data={"step": "news", "choose": "criminal"}
    ),
    KILL: Decision(
        "kill",
        "Kill one criminal from the Nightly News",
        data={"step": "kill", "choose": "criminal"},
    ),
}


@cache
def stars_decision(count: int) -> Decision:
    """L places the ``count`` Stars of the card he drew (covert: his rows are his secret)."""
    return Decision(
        "stars",
        f"Place the {count} Star{'s' if count != 1 else ''} of your Suspect card in your "
        "Intel Tracker",
        covert=True,
        data={"step": "stars", "choose": "rows", "stars": count},
    )


@cache
def row_action(kind: str, row: int, ability: str, filled: int, cost: int) -> Action:
    """Put an Apple or a Star in a tracker row."""
    return Action.make(kind, f"Row {row + 1}: {ABILITY_LABELS[ability]} ({filled}/{cost})", row=row)


def roll(rng: random.Random, dice: tuple[tuple[str, ...], ...]) -> list[str]:
    """One face of each die, drawn from the match's generator by the engine's ``choice``."""
    return draw.choice_each(rng, dice)


# -- set-up ------------------------------------------------------------------------------
def new_state(tables: Tables, rng: random.Random) -> ConfState:
    """Kira draws his Suspect card at random; both decks are shuffled."""
    cards = list(range(len(tables.letters)))
    draw.shuffle(rng, cards)
    identity = cards.pop()
    leads = list(range(len(tables.leads)))
    draw.shuffle(rng, leads)
    return build_state(tables, identity, cards, leads)


_SETUP: dict[tuple[int, int], tuple[Tables, list[Event]]] = {}


def setup_events(state: ConfState) -> list[Event]:
    """Set-up: Kira learns his identity (his card, kept secret); the table learns the rules
    of the chapter. (The events of each identity are made once per content.)"""
    t = state.tables
    key = (id(t), state.identity)
    hit = _SETUP.get(key)
    if hit is None or hit[0] is not t:
        if len(_SETUP) > 2048:
            _SETUP.clear()
        hit = _SETUP[key] = (t, _setup_events(t, state.identity))
    return list(hit[1])


def _setup_events(t: Tables, me: int) -> list[Event]:
    x, y = t.homes[me]
    chapter = t.chapter
    horizon = f" After Day {t.days} L must name a Suspect." if t.days else ""
    return [
        Event.public(
            f"Chapter {chapter}: Kira wins with {TARGET_POINTS[chapter]} points or a cold case "
            f"(more than {QUIET_NIGHTS_ALLOWED[chapter]} Quiet Night"
            f"{'s' if QUIET_NIGHTS_ALLOWED[chapter] != 1 else ''}); L wins by naming Kira."
            + horizon,
            chapter=chapter,
        ),
        Event.private(
            [KIRA],
            f"You are Kira: your secret identity is Suspect {t.letters[me]}, Home at column "
            f"{x + 1}, row {y + 1}; {REGIONAL_LIMIT[chapter]} Regional Kills outside your "
            "Local Area.",
            identity=t.letters[me],
        ),
        Event.private(
            [L],
            f"You are L: Kira is one of the {len(t.letters)} Suspects. Follow the leads, "
            "read the kills and name him.",
        ),
    ]


_BLANK: dict[int, ConfState] = {}


def build_state(
    tables: Tables, identity: int, suspect_deck: list[int], lead_deck: list[int]
) -> ConfState:
    """A fresh state from explicit decks (tests use it to fix the secret identity): a fork
    of the content's blank state (made once per content), with the deal."""
    blank = _BLANK.get(id(tables))
    if blank is None or blank.tables is not tables:
        if len(_BLANK) > 64:
            _BLANK.clear()
        blank = _BLANK[id(tables)] = _blank_state(tables)
    return dealt(blank, identity, suspect_deck, lead_deck)


def _blank_state(tables: Tables) -> ConfState:
    chapter = tables.chapter
    return ConfState(
        tables=tables,
        identity=0,
        suspect_deck=[],
        lead_deck=[],
        alive=[True] * len(tables.numbers),
        living={kind: len(tables.by_type[kind]) for kind in CRIME_TYPES},
        outside=[0] * len(tables.letters),
        quiet_allowed=QUIET_NIGHTS_ALLOWED[chapter],
        apples=[0] * len(tables.ryuk_rows),
        ryuk_used=[False] * len(tables.ryuk_rows),
        ryuk_day=[0] * len(tables.ryuk_rows),
        stars=[0] * len(tables.intel_rows),
        intel_used=[False] * len(tables.intel_rows),
        intel_day=[0] * len(tables.intel_rows),
        intel_at=[-1] * len(tables.intel_rows),
    )


# -- who decides, and how ------------------------------------------------------------------
_ASK_L = {phase: {L: DECISIONS[phase]} for phase in (DAY, ACCUSE, NEWS)}
_ASK_KIRA = {phase: {KIRA: DECISIONS[phase]} for phase in (KILL, APPLES)}
_ASK_BOTH = {KIRA: DECISIONS[CHASE], L: DECISIONS[CHASE]}
_ASK_ONE = {
    (phase, seat): {seat: DECISIONS[phase]} for phase in (CHASE, SWITCH, DICE) for seat in (KIRA, L)
}


def pending(state: ConfState) -> dict[Seat, Decision]:
    """The seats that must decide now (shared dicts: callers must not change them)."""
    phase = state.phase
    if phase == CHASE:
        kira, l_side = state.chase
        if kira == NO_CHOICE:
            return _ASK_BOTH if l_side == NO_CHOICE else _ASK_ONE[CHASE, KIRA]
        return _ASK_ONE[CHASE, L] if l_side == NO_CHOICE else {}
    if phase in _ASK_L:
        return _ASK_L[phase]
    if phase in _ASK_KIRA:
        return _ASK_KIRA[phase]
    if phase == SWITCH:
        return _ASK_ONE[SWITCH, state.switcher]
    if phase == DICE:
        return _ASK_ONE[DICE, state.dicer]
    if phase == STARS:
        return _ask_stars(state.stars_to_place)
    return {}


@cache
def _ask_stars(count: int) -> dict[Seat, Decision]:
    return {L: stars_decision(count)}


#: the seat asked in each phase with one fixed seat to ask
_ASKED = {DAY: L, ACCUSE: L, NEWS: L, STARS: L, KILL: KIRA, APPLES: KIRA}


def mover(state: ConfState) -> Seat | None:
    """The lowest seat ``pending`` asks, read from the state (no decision made)."""
    phase = state.phase
    seat = _ASKED.get(phase)
    if seat is not None:
        return seat
    if phase == CHASE:
        kira, l_side = state.chase
        if kira == NO_CHOICE:
            return KIRA
        return L if l_side == NO_CHOICE else None
    if phase == SWITCH:
        return state.switcher
    if phase == DICE:
        return state.dicer
    return None


def legal(state: ConfState, seat: Seat) -> list[Action] | tuple[Action, ...]:
    """The legal actions of a seat now (empty when it is not asked)."""
    phase = state.phase
    t = state.tables
    if phase == NEWS:  # (the phases by how often they come)
        return news_choices(state) if seat == L else ()
    if phase == CHASE:
        return CHASE_ACTIONS if state.chase[seat] == NO_CHOICE else ()
    if phase == DAY:
        return _day_actions(state) if seat == L else ()
    if phase == KILL:
        if seat != KIRA:
            return ()
        kills = t.kill_actions
        if state.regional_used < REGIONAL_LIMIT[t.chapter]:
            return [kills[c] for c in state.news]  # kill_options, inline
        bit = 1 << state.identity
        mask = t.local_mask
        return [kills[c] for c in state.news if mask[c] & bit]
    if phase == ACCUSE:
        if seat != L:
            return ()
        eliminated = state.eliminated
        if not eliminated:
            return t.name_actions
        names = list(t.name_actions)  # but the eliminated Suspects (``remaining``)
        for s in sorted(eliminated, reverse=True):
            del names[s]
        return names
    if phase == SWITCH:
        if seat != state.switcher:
            return ()
        return SWITCH_ACTIONS if usable(state, seat, "switch") else SWITCH_KEEP_ONLY
    if phase == DICE:
        if seat != state.dicer:
            return ()
        return DICE_ACTIONS if usable(state, seat, "change_dice") else DICE_KEEP_ONLY
    if phase == APPLES:
        return row_choices(state, "apple", t.ryuk_rows, state.apples) if seat == KIRA else ()
    if phase == STARS:
        return star_choices(state) if seat == L else ()
    return ()


def _day_actions(state: ConfState) -> tuple[Action, ...]:
    t = state.tables
    return ACCUSE_ONLY if t.days and state.day > t.days else DAY_ACTIONS


def moves(state: ConfState) -> tuple[Seat | None, Sequence[Action]]:
    """``(mover(state), legal(state, mover))`` in one read of the phase for the phases of
    every round (random play asks it at every step)."""
    phase = state.phase
    if phase == NEWS:
        return L, news_choices(state)
    if phase == CHASE:
        kira, l_side = state.chase
        if kira == NO_CHOICE:
            return KIRA, CHASE_ACTIONS
        return (L, CHASE_ACTIONS) if l_side == NO_CHOICE else (None, ())
    if phase == DAY:
        return L, _day_actions(state)
    seat = mover(state)
    return (None, ()) if seat is None else (seat, legal(state, seat))


def star_choices(state: ConfState) -> tuple[Action, ...]:
    """Every way to place the card's Stars in the Intel rows with room (as many as fit)."""
    t = state.tables
    room = tuple(cost - f for f, (_a, cost) in zip(state.stars, t.intel_rows, strict=True))
    return _star_placements(room, min(state.stars_to_place, sum(room)))


@cache
def _star_placements(room: tuple[int, ...], count: int) -> tuple[Action, ...]:
    out = []
    for rows in combinations_with_replacement(range(len(room)), count):
        if all(rows.count(i) <= r for i, r in enumerate(room)):
            out.append(star_action(rows))
    return tuple(out)


@cache
def star_action(rows: tuple[int, ...]) -> Action:
    """Put one Star in each of these Intel rows (a row listed twice gets two)."""
    if not rows:
        return Action.make("star", "No room: the Stars are lost", rows=())
    where = ", ".join(f"row {i + 1}" for i in rows)
    return Action.make("star", f"Stars in {where}", rows=rows)


def row_choices(
    state: ConfState, kind: str, rows: tuple[tuple[str, int], ...], filled: list[int]
) -> list[Action]:
    """Rows of a tracker that still have an empty space."""
    return [
        row_action(kind, i, ability, filled[i], cost)
        for i, (ability, cost) in enumerate(rows)
        if filled[i] < cost
    ]


def news_choices(state: ConfState) -> list[Action] | tuple[Action, ...]:
    """Living criminals not yet on tonight's news that match a remaining face."""
    t = state.tables
    faces = state.faces_left
    alive = state.alive
    picked = state.news
    if not picked and not state.kills:
        key = ("news_choices", *faces)
        hit: tuple[Action, ...] | None = t.memo.get(key)
        if hit is None:
            hit = t.memo[key] = tuple(_news_choices(t, faces, alive, picked, state.living, []))
        return hit
    return _news_choices(t, faces, alive, picked, state.living, state.kills)


def _news_choices(
    t: Tables,
    faces: list[str],
    alive: list[bool],
    picked: list[int],
    living: dict[str, int],
    kills: list[int],
) -> list[Action]:
    actions = t.news_actions
    if "any" in faces:
        return [actions[c] for c in range(len(alive)) if alive[c] and c not in picked]
    out: list[Action] = []
    crime_type = t.crime_type
    for kind in CRIME_TYPES:
        if kind in faces:
            members = t.by_type[kind]
            # the criminals of this type left out (dead, or on the news already): how
            # many, and one of them (the lists without one criminal are made once)
            out_count = len(members) - living[kind]
            left_out = -1
            if out_count == 1:
                for c in kills:
                    if crime_type[c] == kind:
                        left_out = c
            for c in picked:
                if crime_type[c] == kind:
                    out_count += 1
                    left_out = c
            if not out_count:
                out += t.news_by_type[kind]
            elif out_count == 1 and left_out >= 0:
                out += t.news_but[left_out]
            else:
                out += [actions[c] for c in members if alive[c] and c not in picked]
    return out


def kill_options(state: ConfState) -> list[int]:
    """Criminals of the news Kira may kill: local ones, or any while Regional Kills remain."""
    t = state.tables
    bit = 1 << state.identity
    if state.regional_used < REGIONAL_LIMIT[t.chapter]:
        return list(state.news)
    return [c for c in state.news if t.local_mask[c] & bit]


def remaining(state: ConfState) -> list[int]:
    """Suspects L has not eliminated (his notebook)."""
    return [s for s in range(len(state.tables.letters)) if s not in state.eliminated]


def holds(state: ConfState, seat: Seat, ability: str) -> bool:
    """Whether a seat has completed, and not yet used, a row with this ability."""
    t = state.tables
    rows, filled, used = (
        (t.ryuk_rows, state.apples, state.ryuk_used)
        if seat == KIRA
        else (t.intel_rows, state.stars, state.intel_used)
    )
    return any(
        ab == ability and filled[i] >= cost and not used[i] for i, (ab, cost) in enumerate(rows)
    )


def usable(state: ConfState, seat: Seat, ability: str) -> bool:
    """Whether a seat may use this ability now: held, and earned in an earlier round
    ("He may use the ability in any future round", CONF-CH2-19)."""
    t = state.tables
    rows, filled, used, day = (
        (t.ryuk_rows, state.apples, state.ryuk_used, state.ryuk_day)
        if seat == KIRA
        else (t.intel_rows, state.stars, state.intel_used, state.intel_day)
    )
    today = state.day
    return any(
        ab == ability and filled[i] >= cost and not used[i] and day[i] < today
        for i, (ab, cost) in enumerate(rows)
    )


def _use(state: ConfState, seat: Seat, ability: str) -> None:
    t = state.tables
    rows, used = (
        (t.ryuk_rows, state.ryuk_used) if seat == KIRA else (t.intel_rows, state.intel_used)
    )
    for i, (ab, _cost) in enumerate(rows):
        if ab == ability and not used[i]:
            used[i] = True
            return


# -- carrying out an action ------------------------------------------------------------------
def apply(state: ConfState, seat: Seat, action: Action, rng: random.Random) -> list[Event]:
    """Carry out a legal action and every automatic step after it."""
    ev: list[Event] = []
    run(state, seat, action, rng, ev)
    return ev


def run(
    state: ConfState, seat: Seat, action: Action, rng: random.Random, ev: list[Event] = QUIET
) -> None:
    """``apply``, its events added to ``ev`` (by default none are made: ``apply_quiet``)."""
    phase = state.phase
    t = state.tables
    # (the phases by how often they come: news picks first)
    if phase == NEWS:  # news and kill actions have one argument: the criminal's number
        _pick_news(state, t.index_of_number[action.args[0][1]], ev)  # type: ignore[index]
    elif phase == CHASE:
        chase = state.chase
        chase[seat] = 0 if action.args[0][1] == "A" else 1  # the only argument: side
        if chase[0] != NO_CHOICE and chase[1] != NO_CHOICE:
            ev.append(TOKENS[chase[0], chase[1]])
            _switch_window(state, ev, rng)
    elif phase == DAY:
        if action.kind == "follow":
            _reveal_lead(state, ev, rng)
        else:
            state.phase = ACCUSE
    elif phase == ACCUSE:
        _accuse(state, t.letters.index(action.args[0][1]), ev)  # the only argument: suspect
    elif phase == KILL:
        _kill(state, t.index_of_number[action.args[0][1]], ev)  # type: ignore[index]
    elif phase == SWITCH:
        state.switch_offered[seat] = True
        if action["use"]:
            _use(state, seat, "switch")
            state.chase[seat] = 1 - state.chase[seat]
            who = "Kira" if seat == KIRA else "L"
            ev.append(
                Event.public(
                    f"{who} uses the Last Minute A/B Switch: now on {SIDES[state.chase[seat]]}.",
                    seat=seat,
                    side=SIDES[state.chase[seat]],
                )
            )
            _switch_window(state, ev, rng)
        else:
            _resolve_chase(state, ev, rng)
    elif phase == DICE:
        faces = action["faces"]
        if faces:
            _use(state, seat, "change_dice")
            state.dice = list(faces)
            who = "Kira" if seat == KIRA else "L"
            ev.append(
                Event.public(
                    f"{who} changes the dice: {faces_text(faces)}.", seat=seat, dice=list(faces)
                )
            )
        if seat == L:
            state.dicer = KIRA  # Kira is asked every night too, whatever he holds
        else:
            _open_news(state, ev)
    elif phase == APPLES:
        _place_apple(state, action["row"], ev, rng)
    elif phase == STARS:
        _place_stars(state, action["rows"], ev, rng)


#: ``apply`` without the events (``Game.apply_quiet``): the same steps and draws. It is
#: ``run`` itself with its default events list (a play-out makes one call per action).
apply_quiet = run


def _reveal_lead(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    t = state.tables
    if state.lead >= 0:
        state.lead_discard.append(state.lead)
    if not state.lead_deck:
        # Decision: an empty Lead deck is reshuffled from the used Lead cards.
        state.lead_deck = state.lead_discard
        state.lead_discard = []
        draw.shuffle(rng, state.lead_deck)
        ev.append(Event.public("The Lead deck ran out: the used Lead cards are reshuffled."))
    lead = state.lead = state.lead_deck.pop()
    if ev is not QUIET:
        key = ("lead", lead, state.day)
        event = t.memo.get(key)
        if event is None:
            (ta, aa), (tb, ab) = t.leads[lead]
            event = t.memo[key] = Event(
                f"Day {state.day}: {_lead_text(t, lead)}",
                {
                    "lead": t.lead_numbers[lead],
                    "scenes": {"A": [t.points[ta], aa], "B": [t.points[tb], ab]},
                },
                None,
            )
        ev.append(event)
    state.chase[0] = state.chase[1] = NO_CHOICE
    state.switch_offered[0] = state.switch_offered[1] = False
    state.phase = CHASE


_LEAD_TEXT: dict[tuple[int, int], tuple[Tables, str]] = {}


def _lead_text(t: Tables, lead: int) -> str:
    """ "L reveals Lead card N: A = ..., B = ...", made once per content and card."""
    hit = _LEAD_TEXT.get((id(t), lead))
    if hit is None or hit[0] is not t:
        if len(_LEAD_TEXT) > 4096:
            _LEAD_TEXT.clear()
        (ta, aa), (tb, ab) = t.leads[lead]
        text = (
            f"L reveals Lead card {t.lead_numbers[lead]}: "
            f"A = {t.type_names[ta]} ({points_text(t.points[ta])}{_apples(aa)}), "
            f"B = {t.type_names[tb]} ({points_text(t.points[tb])}{_apples(ab)})."
        )
        hit = _LEAD_TEXT[id(t), lead] = (t, text)
    return hit[1]


def _apples(n: int) -> str:
    return f", {n} apple{'s' if n != 1 else ''}" if n else ""


def _switch_window(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    """Decision: the seat losing the Chase as it stands may switch first; a switch may be
    answered by the other seat's own switch. Each seat is asked at most once per Chase.

    In Chapter 2 the loser is asked in every Chase, whether he holds a usable Switch or
    not (then "keep" is his only choice): who is asked tells nothing (CONF-CH2-18)."""
    if state.tables.chapter == 2:
        loser = L if state.chase[KIRA] != state.chase[L] else KIRA
        if not state.switch_offered[loser]:
            state.switcher = loser
            state.phase = SWITCH
            return
    _resolve_chase(state, ev, rng)


def _resolve_chase(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    t = state.tables
    state.switcher = NO_CHOICE
    if state.chase[KIRA] != state.chase[L]:
        side = state.chase[KIRA]
        kind, apples = t.leads[state.lead][side]
        pts = t.points[kind]
        state.points += pts
        state.chase_points += pts
        state.points_by_type[kind] += pts
        if ev is not QUIET:
            key = ("chase", kind, side, state.points)
            event = t.memo.get(key)
            if event is None:
                event = t.memo[key] = Event.public(
                    f"Kira wins the Chase and kills the {t.type_names[kind]} at crime scene "
                    f"{SIDES[side]}: +{points_text(pts)} ({state.points} in all).",
                    winner="kira",
                    points=pts,
                )
            ev.append(event)
        if _check_points(state, ev):
            return
        if apples:
            ev.append(Event.public(f"Kira earns {apples} Apple{'s' if apples > 1 else ''}."))
            state.apples_to_place = apples
            if _next_placement(state, KIRA, ev):
                return
    else:
        ev.append(L_WINS_CHASE)
        if _draw_suspect(state, ev):
            return
    _start_night(state, ev, rng)


def _draw_suspect(state: ConfState, ev: list[Event]) -> bool:
    """L draws the top Suspect card; returns whether Stars now wait to be placed."""
    t = state.tables
    if not state.suspect_deck:
        # Decision: with no Suspect card left, winning the Chase brings nothing.
        ev.append(Event.public("The Suspect deck is empty: L draws nothing."))
        return False
    s = state.suspect_deck.pop()
    state.cards_drawn.append(s)
    state.card_days.append(state.day)
    stars = t.stars[s]
    if ev is not QUIET:
        key = ("draw", s)
        event = t.memo.get(key)
        if event is None:
            star_text = f" with {stars} Star{'s' if stars != 1 else ''}" if t.chapter == 2 else ""
            event = t.memo[key] = Event(
                f"You draw Suspect {t.letters[s]}{star_text}.", {"suspect": t.letters[s]}, ONLY_L
            )
        ev.append(event)
    _eliminate(state, s, BY_CARD, ev, public=False)
    if t.chapter != 2:
        return False
    # Chapter 2: L places the card's Stars in one step, asked after every card he draws
    # (even a card without Stars, or with every row full), so Kira learns nothing.
    state.stars_to_place = stars
    state.phase = STARS
    return True


def _next_placement(state: ConfState, seat: Seat, ev: list[Event]) -> bool:
    """Ask for Kira's next Apple placement; False when nothing is left to place."""
    t = state.tables
    if state.apples_to_place <= 0:
        return False
    if all(f >= cost for f, (_a, cost) in zip(state.apples, t.ryuk_rows, strict=True)):
        # Decision: Apples with no empty space left are lost (public: the Apples earned
        # and the rows' sizes are known, so a full tracker is no secret).
        state.apples_to_place = 0
        ev.append(Event.public("Every Ryuk row is full: the extra Apples are lost."))
        return False
    state.phase = APPLES
    return True


def _place_apple(state: ConfState, row: int, ev: list[Event], rng: random.Random) -> None:
    """Kira puts one Apple in a row."""
    t = state.tables
    state.apples[row] += 1
    state.apples_to_place -= 1
    state.apple_day = state.day
    ability, cost = t.ryuk_rows[row]
    if state.apples[row] >= cost:
        state.ryuk_day[row] = state.day
        if ability in POINTS_ROWS:
            pts = POINTS_ROWS[ability]
            state.ryuk_used[row] = True  # the Apple Core: counted at once
            state.points += pts
            state.ryuk_points += pts
            ev.append(
                Event.public(
                    f"Kira bribes Ryuk: a row of Apples is full, +{points_text(pts)} "
                    f"({state.points} in all).",
                    points=pts,
                )
            )
            if _check_points(state, ev):
                return
        else:
            ev.append(
                Event.private([KIRA], f"Ryuk grants you: {ABILITY_LABELS[ability]} (use it once).")
            )
    if _next_placement(state, KIRA, ev):
        return
    _start_night(state, ev, rng)


def _place_stars(
    state: ConfState, rows: tuple[int, ...], ev: list[Event], rng: random.Random
) -> None:
    """L puts the card's Stars in these rows; completed rows grant their abilities."""
    t = state.tables
    lost = state.stars_to_place - len(rows)
    state.stars_to_place = 0
    state.star_day = state.day
    if lost > 0:
        # Decision: Stars with no empty space left are lost (CONF-CH2-17).
        ev.append(Event.private([L], "Every Intel row is full: the extra Stars are lost."))
    extra_card = False
    for row in sorted(set(rows)):
        state.stars[row] += rows.count(row)
        ability, cost = t.intel_rows[row]
        if state.stars[row] < cost:
            continue
        state.intel_day[row] = state.day
        state.intel_at[row] = len(state.cards_drawn)
        if ability == "extra_suspect":
            state.intel_used[row] = True
            ev.append(Event.public("L's Intel earns him one more Suspect card."))
            extra_card = True
        elif ability == "extra_quiet_night":
            state.intel_used[row] = True
            state.quiet_allowed += 1
            ev.append(
                Event.public(
                    f"L's Intel earns +1 Quiet Night: {state.quiet_allowed} Quiet Nights "
                    "are now allowed.",
                    quiet_allowed=state.quiet_allowed,
                )
            )
        else:
            ev.append(Event.private([L], f"Your Intel grants: {ABILITY_LABELS[ability]} (once)."))
    if extra_card and _draw_suspect(state, ev):
        return
    _start_night(state, ev, rng)


def _start_night(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    t = state.tables
    dice = state.dice = roll(rng, t.dice)
    if ev is not QUIET:
        key = ("night", state.day, *dice)
        event = t.memo.get(key)
        if event is None:
            event = t.memo[key] = Event(
                f"Night {state.day}: L rolls {faces_text(dice)}.", {"dice": list(dice)}, None
            )
        ev.append(event)
    if t.chapter == 2:
        # Decision: L may change the dice first, then Kira ("L must use the resulting dice").
        # Both are asked every night, whatever they hold ("keep" is then the only choice),
        # so the steps tell nobody who holds the ability (CONF-CH2-18).
        state.dicer = L
        state.phase = DICE
        return
    _open_news(state, ev)


def _open_news(state: ConfState, ev: list[Event]) -> None:
    """Turn the dice into faces to fill; a face with too few living criminals is wild."""
    state.dicer = NO_CHOICE
    living = state.living
    typed_faces, counts = _faces(tuple(state.dice))
    for kind, n in counts:
        if living[kind] < n:
            break
    else:  # the common case: no wild face
        state.faces_left = list(typed_faces)
        state.news = []
        state.phase = NEWS
        return
    faces: list[str] = []
    wild = 0
    for kind in CRIME_TYPES:
        wanted = state.dice.count(kind)
        typed = min(wanted, living[kind])
        faces += [kind] * typed
        wild += wanted - typed
    total = sum(living.values())
    faces += ["any"] * max(0, min(wild, total - len(faces)))
    state.faces_left = faces
    state.news = []
    if wild:
        ev.append(
            Event.public(
                f"Too few living criminals match the dice: {wild} face(s) may show any criminal."
            )
        )
    if not faces:
        _quiet_night(state, ev)
        return
    state.phase = NEWS


@cache
def _faces(dice: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """The faces of a roll in crime-type order, and how many of each type it shows."""
    counts = tuple((kind, dice.count(kind)) for kind in CRIME_TYPES if kind in dice)
    return tuple(kind for kind, n in counts for _ in range(n)), counts


def _pick_news(state: ConfState, c: int, ev: list[Event]) -> None:
    t = state.tables
    kind = t.crime_type[c]
    faces = state.faces_left
    faces.remove(kind if kind in faces else "any")
    news = state.news
    news.append(c)
    if faces:
        return
    if ev is not QUIET:
        names, numbers = t.news_names, t.numbers
        ev.append(
            Event(
                "Nightly News: criminals " + ", ".join([names[k] for k in news]) + ".",
                {"news": [numbers[k] for k in news]},
                None,
            )
        )
    if state.regional_used < REGIONAL_LIMIT[t.chapter] or _local_news(state):
        state.phase = KILL  # (Kira may kill: ``kill_options`` is not empty)
    else:
        _quiet_night(state, ev)


def _local_news(state: ConfState) -> bool:
    """Whether a criminal of the news is in Kira's Local Area."""
    bit = 1 << state.identity
    mask = state.tables.local_mask
    return any(mask[c] & bit for c in state.news)


def _quiet_night(state: ConfState, ev: list[Event]) -> None:
    t = state.tables
    state.quiet_nights += 1
    state.history.append(
        {"day": state.day, "news": [t.numbers[c] for c in state.news], "killed": None}
    )
    if ev is not QUIET:
        ev.append(
            Event.public(
                f"Kira declares a Quiet Night ({state.quiet_nights} so far, "
                f"{state.quiet_allowed} allowed).",
                quiet_nights=state.quiet_nights,
            )
        )
    # Method 3: every Suspect with a news criminal in its Local Area is cleared, and so is
    # every Suspect that still had a Regional Kill to spend (Kira had none left).
    near = 0
    for c in state.news:
        near |= t.local_mask[c]
    limit = REGIONAL_LIMIT[t.chapter]
    for s in range(len(t.letters)):
        if near >> s & 1 or state.outside[s] < limit:
            _eliminate(state, s, BY_QUIET, ev, public=True)
    if state.quiet_nights > state.quiet_allowed:
        _finish(state, COLD_CASE, state.quiet_nights, ev)
        return
    _next_day(state)


def _kill(state: ConfState, c: int, ev: list[Event]) -> None:
    t = state.tables
    kind = t.crime_type[c]
    pts = t.points[kind]
    state.alive[c] = False
    state.living[kind] -= 1
    state.kills.append(c)
    if not t.local_mask[c] >> state.identity & 1:
        state.regional_used += 1
    state.points += pts
    state.points_by_type[kind] += pts
    state.history.append(
        {"day": state.day, "news": [t.numbers[k] for k in state.news], "killed": t.numbers[c]}
    )
    if ev is not QUIET:
        key = ("kill", c, state.points)
        event = t.memo.get(key)
        if event is None:
            event = t.memo[key] = Event(
                f"Kira kills criminal {t.numbers[c]} ({t.type_names[kind]}): "
                f"+{points_text(pts)} ({state.points} in all).",
                {"criminal": t.numbers[c], "points": pts},
                None,
            )
        ev.append(event)
    # Method 2: every Suspect with more Regional Kills than allowed is cleared.
    over = REGIONAL_LIMIT[t.chapter] + 1
    # every Suspect's count of kills outside its Local Area, this one added (in C)
    outside = state.outside = list(map(add, state.outside, t.outside_add[c]))
    if over in outside:
        eliminated = state.eliminated
        for s in t.outside_of[c]:
            if outside[s] == over and s not in eliminated:
                _eliminate(state, s, BY_REGIONAL, ev, public=True)
    if _check_points(state, ev):
        return
    _next_day(state)


def _eliminate(state: ConfState, s: int, reason: str, ev: list[Event], public: bool) -> None:
    if s in state.eliminated:
        return
    state.eliminated[s] = reason
    if public and ev is not QUIET:
        t = state.tables
        key = ("eliminated", s, reason)
        event = t.memo.get(key)
        if event is None:
            letter = t.letters[s]
            event = t.memo[key] = Event(
                f"Suspect {letter} is eliminated: {WHY[reason]}.",
                {"suspect": letter, "reason": reason},
                ONLY_L,
            )
        ev.append(event)


def _next_day(state: ConfState) -> None:
    state.day += 1
    state.news = []
    state.faces_left = []
    state.dice = []
    state.phase = DAY


def _check_points(state: ConfState, ev: list[Event]) -> bool:
    target = TARGET_POINTS[state.tables.chapter]
    if state.points >= target:
        _finish(state, POINTS, 0, ev)
        return True
    return False


def _accuse(state: ConfState, s: int, ev: list[Event]) -> None:
    _finish(state, ACCUSATION_RIGHT if s == state.identity else ACCUSATION_WRONG, s, ev)


# The ways the game ends (``Outcome.condition``).
POINTS = "points"
COLD_CASE = "cold_case"
ACCUSATION_RIGHT = "accusation_right"
ACCUSATION_WRONG = "accusation_wrong"


def _finish(state: ConfState, condition: str, detail: int, ev: list[Event]) -> None:
    """The game ends. ``detail``: the accused Suspect for an accusation, the number of
    Quiet Nights for a cold case. (The reason and the event of each ending are made once
    per content; the outcome, which holds the points, once per game.)"""
    t = state.tables
    points = state.points
    key = ("finish", condition, detail, state.identity, points if condition == POINTS else 0)
    hit: tuple[str, Event] | None = t.memo.get(key)
    if hit is None:
        hit = t.memo[key] = _ending(state, condition, detail)
    reason, event = hit
    if condition == ACCUSATION_RIGHT:
        state.result = Outcome(L_WINS, condition, reason, {"kira_points": float(points)}, (L,))
    else:
        state.result = Outcome(
            KIRA_WINS, condition, reason, {"kira_points": float(points)}, (KIRA,)
        )
    state.phase = OVER
    ev.append(event)


L_WINS = ("l",)
KIRA_WINS = ("kira",)


def _ending(state: ConfState, condition: str, detail: int) -> tuple[str, Event]:
    """The reason and the event of an ending."""
    letters = state.tables.letters
    kira = letters[state.identity]
    if condition == POINTS:
        reason = f"Kira reaches {state.points} points and wins."
    elif condition == COLD_CASE:
        reason = f"Quiet Night number {detail}: L's case has gone cold. Kira wins."
    elif condition == ACCUSATION_RIGHT:
        reason = f"L accuses Suspect {letters[detail]}: correct, Kira is caught. L wins."
    else:
        reason = f"L accuses Suspect {letters[detail]}, but Kira is Suspect {kira}. Kira wins."
    winner = "l" if condition == ACCUSATION_RIGHT else "kira"
    return reason, Event.public(
        reason + f" (Kira was Suspect {kira}.)",
        winner=winner,
        condition=condition,
        identity=kira,
    )
