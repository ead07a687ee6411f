"""The rules of Confrontation (Chapters 1 and 2): set-up, the Chase, the Nightly News,
kills, Quiet Nights, the three ways L eliminates Suspects, abilities and the game end.

Every function works on a ``ConfState`` in place. ``pending``/``legal`` say who decides
and how; ``apply`` carries out one legal action and runs every automatic step after it
until someone must decide again.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

from deathnote.engine.actions import Action, Decision, Event, Outcome, Seat
from deathnote.games.confrontation.content import CRIME_TYPES, Tables
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
)

# -- the numbers of each chapter (rules, not content) ------------------------------------
TARGET_POINTS = {1: 15, 2: 20}
REGIONAL_LIMIT = {1: 2, 2: 3}
QUIET_NIGHTS_ALLOWED = {1: 2, 2: 1}
NEWS_SIZE = 3
DICE_CHANGES = 3  # "change up to three of the dice"

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
POINTS_ROWS = {"points_2": 2, "points_3": 3}

# -- precomputed actions -------------------------------------------------------------------
FOLLOW = Action.make("follow", "Follow the next lead")
START_ACCUSE = Action.make("accuse", "Accuse a suspect (wrong: Kira wins)")
CHASE_ACTIONS = (
    Action.make("chase", "Go to crime scene A", side="A"),
    Action.make("chase", "Go to crime scene B", side="B"),
)
SWITCH_YES = Action.make("switch", "Use the Last Minute A/B Switch", use=True)
SWITCH_NO = Action.make("switch", "Keep your token", use=False)
DICE_KEEP = Action.make("dice", "Keep the dice as rolled", faces=())
DICE_SETS = tuple(
    Action.make("dice", "Change the dice to " + ", ".join(combo), faces=combo)
    for combo in combinations_with_replacement(CRIME_TYPES, DICE_CHANGES)
)
DAY_ACTIONS = (FOLLOW, START_ACCUSE)
SWITCH_ACTIONS = (SWITCH_YES, SWITCH_NO)
DICE_ACTIONS = (DICE_KEEP, *DICE_SETS)

DECISIONS = {
    DAY: Decision("day", "A new day: follow the next lead, or accuse a suspect?"),
    ACCUSE: Decision("accuse", "Who is Kira?"),
    CHASE: Decision("chase", "The Chase: choose crime scene A or B (secret until both chose)"),
    SWITCH: Decision("switch", "Use your Last Minute A/B Switch?", covert=True),
    APPLES: Decision("apples", "Put an Apple in a row of your Ryuk Bribery Tracker"),
    STARS: Decision("stars", "Put a Star in a row of your Intel Tracker", covert=True),
    DICE: Decision("dice", "Change up to 3 dice before the Nightly News?", covert=True),
    NEWS: Decision("news", "Pick a criminal for the Nightly News"),
    KILL: Decision("kill", "Kill one criminal from the Nightly News"),
}


@cache
def row_action(kind: str, row: int, ability: str, filled: int, cost: int) -> Action:
    """Put an Apple or a Star in a tracker row."""
    return Action.make(kind, f"Row {row + 1}: {ABILITY_LABELS[ability]} ({filled}/{cost})", row=row)


# -- the match's generator, drawn exactly as ``random.Random`` draws -----------------------
def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``, the same draws and result, without a call per card.

    ``random.Random.shuffle`` swaps each position ``i`` (from the end) with
    ``_randbelow(i + 1)``, which takes ``(i + 1).bit_length()`` random bits and retries
    while the number is too big; this does the same inline (tests compare the two).
    """
    bits = rng.getrandbits
    for i, n, k in _swaps(len(cards)):
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


@cache
def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """For each position a shuffle swaps, from the end: (position, choices, random bits)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def roll(rng: random.Random, dice: tuple[tuple[str, ...], ...]) -> list[str]:
    """``[rng.choice(die) for die in dice]`` with the same draws (see ``shuffle``)."""
    bits = rng.getrandbits
    out: list[str] = []
    for die in dice:
        n = len(die)
        if not n:
            raise IndexError("a die without faces cannot be rolled")
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        out.append(die[j])
    return out


# -- set-up ------------------------------------------------------------------------------
def new_state(tables: Tables, rng: random.Random) -> ConfState:
    """Kira draws his Suspect card at random; both decks are shuffled."""
    cards = list(range(len(tables.letters)))
    shuffle(rng, cards)
    identity = cards.pop()
    leads = list(range(len(tables.leads)))
    shuffle(rng, leads)
    return build_state(tables, identity, cards, leads)


def build_state(
    tables: Tables, identity: int, suspect_deck: list[int], lead_deck: list[int]
) -> ConfState:
    """A fresh state from explicit decks (tests use it to fix the secret identity)."""
    chapter = tables.chapter
    return ConfState(
        tables=tables,
        identity=identity,
        suspect_deck=suspect_deck,
        lead_deck=lead_deck,
        alive=[True] * len(tables.numbers),
        living={kind: len(tables.by_type[kind]) for kind in CRIME_TYPES},
        outside=[0] * len(tables.letters),
        quiet_allowed=QUIET_NIGHTS_ALLOWED[chapter],
        apples=[0] * len(tables.ryuk_rows),
        ryuk_used=[False] * len(tables.ryuk_rows),
        stars=[0] * len(tables.intel_rows),
        intel_used=[False] * len(tables.intel_rows),
    )


# -- who decides, and how ------------------------------------------------------------------
_ASK_L = {phase: {L: DECISIONS[phase]} for phase in (DAY, ACCUSE, NEWS, STARS)}
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
    return {}


def legal(state: ConfState, seat: Seat) -> list[Action] | tuple[Action, ...]:
    """The legal actions of a seat now (empty when it is not asked)."""
    phase = state.phase
    t = state.tables
    if phase == CHASE:
        return CHASE_ACTIONS if state.chase[seat] == NO_CHOICE else ()
    if phase == DAY:
        return DAY_ACTIONS if seat == L else ()
    if phase == NEWS:
        return news_choices(state) if seat == L else ()
    if phase == KILL:
        if seat != KIRA:
            return ()
        return [t.kill_actions[c] for c in kill_options(state)]
    if phase == ACCUSE:
        if seat != L:
            return ()
        return [t.name_actions[s] for s in remaining(state)]
    if phase == SWITCH:
        return SWITCH_ACTIONS if seat == state.switcher else ()
    if phase == DICE:
        return DICE_ACTIONS if seat == state.dicer else ()
    if phase == APPLES:
        return row_choices(state, "apple", t.ryuk_rows, state.apples) if seat == KIRA else ()
    if phase == STARS:
        return row_choices(state, "star", t.intel_rows, state.stars) if seat == L else ()
    return ()


def row_choices(
    state: ConfState, kind: str, rows: tuple[tuple[str, int], ...], filled: list[int]
) -> list[Action]:
    """Rows of a tracker that still have an empty space."""
    return [
        row_action(kind, i, ability, filled[i], cost)
        for i, (ability, cost) in enumerate(rows)
        if filled[i] < cost
    ]


def news_choices(state: ConfState) -> list[Action]:
    """Living criminals not yet on tonight's news that match a remaining face."""
    t = state.tables
    faces = state.faces_left
    alive = state.alive
    picked = state.news
    actions = t.news_actions
    if "any" in faces:
        return [actions[c] for c in range(len(alive)) if alive[c] and c not in picked]
    out: list[Action] = []
    for kind in CRIME_TYPES:
        if kind in faces:
            out += [actions[c] for c in t.by_type[kind] if alive[c] and c not in picked]
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
    phase = state.phase
    t = state.tables
    if phase == CHASE:
        state.chase[seat] = 0 if action["side"] == "A" else 1
        if state.chase[KIRA] != NO_CHOICE and state.chase[L] != NO_CHOICE:
            ev.append(
                Event.public(
                    f"The tokens are revealed: Kira chose {SIDES[state.chase[KIRA]]}, "
                    f"L chose {SIDES[state.chase[L]]}.",
                    kira=SIDES[state.chase[KIRA]],
                    l=SIDES[state.chase[L]],
                )
            )
            _switch_window(state, ev, rng)
    elif phase == DAY:
        if action.kind == "follow":
            _reveal_lead(state, ev, rng)
        else:
            state.phase = ACCUSE
    elif phase == ACCUSE:
        _accuse(state, t.letters.index(action["suspect"]), ev)
    elif phase == NEWS:
        _pick_news(state, t.index_of_number[action["criminal"]], ev)
    elif phase == KILL:
        _kill(state, t.index_of_number[action["criminal"]], ev)
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
                    f"{who} changes the dice: {', '.join(faces)}.", seat=seat, dice=list(faces)
                )
            )
        if seat == L and holds(state, KIRA, "change_dice"):
            state.dicer = KIRA
        else:
            _open_news(state, ev)
    elif phase == APPLES:
        _place(state, KIRA, action["row"], ev, rng)
    elif phase == STARS:
        _place(state, L, action["row"], ev, rng)
    return ev


def _reveal_lead(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    t = state.tables
    if state.lead >= 0:
        state.lead_discard.append(state.lead)
    if not state.lead_deck:
        # Decision: an empty Lead deck is reshuffled from the used Lead cards.
        state.lead_deck = state.lead_discard
        state.lead_discard = []
        shuffle(rng, state.lead_deck)
        ev.append(Event.public("The Lead deck ran out: the used Lead cards are reshuffled."))
    state.lead = state.lead_deck.pop()
    (ta, aa), (tb, ab) = t.leads[state.lead]
    ev.append(
        Event.public(
            f"Day {state.day}: L reveals Lead card {t.lead_numbers[state.lead]}: "
            f"A = {t.type_names[ta]} ({t.points[ta]} pts{_apples(aa)}), "
            f"B = {t.type_names[tb]} ({t.points[tb]} pts{_apples(ab)}).",
            lead=t.lead_numbers[state.lead],
            scenes={"A": [t.points[ta], aa], "B": [t.points[tb], ab]},
        )
    )
    state.chase[0] = state.chase[1] = NO_CHOICE
    state.switch_offered[0] = state.switch_offered[1] = False
    state.phase = CHASE


def _apples(n: int) -> str:
    return f", {n} apple{'s' if n != 1 else ''}" if n else ""


def _switch_window(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    """Decision: the seat losing the Chase as it stands may switch first; a switch may be
    answered by the other seat's own switch. Each seat is asked at most once per Chase."""
    if state.tables.chapter == 2:
        loser = L if state.chase[KIRA] != state.chase[L] else KIRA
        if not state.switch_offered[loser] and holds(state, loser, "switch"):
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
        ev.append(
            Event.public(
                f"Kira wins the Chase and kills the {t.type_names[kind]} at crime scene "
                f"{SIDES[side]}: +{pts} points ({state.points} in all).",
                winner="kira",
                points=pts,
            )
        )
        if _check_points(state, ev):
            return
        if apples:
            ev.append(Event.public(f"Kira earns {apples} Apple{'s' if apples > 1 else ''}."))
            state.apples_to_place = apples
            if _next_placement(state, KIRA, ev):
                return
    else:
        ev.append(Event.public("L wins the Chase and draws a Suspect card.", winner="l"))
        if _draw_suspect(state, ev) and _next_placement(state, L, ev):
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
    stars = t.stars[s]
    star_text = f" with {stars} Star{'s' if stars != 1 else ''}" if t.chapter == 2 else ""
    ev.append(
        Event.private([L], f"You draw Suspect {t.letters[s]}{star_text}.", suspect=t.letters[s])
    )
    _eliminate(state, s, BY_CARD, ev, public=False)
    state.stars_to_place += stars
    return state.stars_to_place > 0


def _next_placement(state: ConfState, seat: Seat, ev: list[Event]) -> bool:
    """Ask for the next Apple/Star placement; False when nothing is left to place."""
    t = state.tables
    rows, filled = (t.ryuk_rows, state.apples) if seat == KIRA else (t.intel_rows, state.stars)
    left = state.apples_to_place if seat == KIRA else state.stars_to_place
    if left <= 0:
        return False
    if all(f >= cost for f, (_a, cost) in zip(filled, rows, strict=True)):
        # Decision: Apples or Stars with no empty space left are lost.
        if seat == KIRA:
            state.apples_to_place = 0
            ev.append(Event.public("Every Ryuk row is full: the extra Apples are lost."))
        else:
            state.stars_to_place = 0
            ev.append(Event.private([L], "Every Intel row is full: the extra Stars are lost."))
        return False
    state.phase = APPLES if seat == KIRA else STARS
    return True


def _place(state: ConfState, seat: Seat, row: int, ev: list[Event], rng: random.Random) -> None:
    t = state.tables
    if seat == KIRA:
        state.apples[row] += 1
        state.apples_to_place -= 1
        ability, cost = t.ryuk_rows[row]
        if state.apples[row] >= cost:
            if ability in POINTS_ROWS:
                pts = POINTS_ROWS[ability]
                state.ryuk_used[row] = True  # the Apple Core: counted at once
                state.points += pts
                state.ryuk_points += pts
                ev.append(
                    Event.public(
                        f"Kira bribes Ryuk: a row of Apples is full, +{pts} points "
                        f"({state.points} in all).",
                        points=pts,
                    )
                )
                if _check_points(state, ev):
                    return
            else:
                ev.append(
                    Event.private(
                        [KIRA], f"Ryuk grants you: {ABILITY_LABELS[ability]} (use it once)."
                    )
                )
    else:
        state.stars[row] += 1
        state.stars_to_place -= 1
        ability, cost = t.intel_rows[row]
        if state.stars[row] >= cost:
            if ability == "extra_suspect":
                state.intel_used[row] = True
                ev.append(Event.public("L's Intel earns him one more Suspect card."))
                _draw_suspect(state, ev)
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
                ev.append(
                    Event.private([L], f"Your Intel grants: {ABILITY_LABELS[ability]} (once).")
                )
    if _next_placement(state, seat, ev):
        return
    _start_night(state, ev, rng)


def _start_night(state: ConfState, ev: list[Event], rng: random.Random) -> None:
    t = state.tables
    state.dice = roll(rng, t.dice)
    ev.append(
        Event.public(f"Night {state.day}: L rolls {', '.join(state.dice)}.", dice=list(state.dice))
    )
    if t.chapter == 2:
        # Decision: L may change the dice first, then Kira ("L must use the resulting dice").
        for seat in (L, KIRA):
            if holds(state, seat, "change_dice"):
                state.dicer = seat
                state.phase = DICE
                return
    _open_news(state, ev)


def _open_news(state: ConfState, ev: list[Event]) -> None:
    """Turn the dice into faces to fill; a face with too few living criminals is wild."""
    state.dicer = NO_CHOICE
    living = state.living
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


def _pick_news(state: ConfState, c: int, ev: list[Event]) -> None:
    t = state.tables
    kind = t.crime_type[c]
    state.faces_left.remove(kind if kind in state.faces_left else "any")
    state.news.append(c)
    if state.faces_left:
        return
    numbers = [t.numbers[k] for k in state.news]
    ev.append(
        Event.public(
            "Nightly News: criminals "
            + ", ".join(f"{t.numbers[k]} ({t.type_names[t.crime_type[k]]})" for k in state.news)
            + ".",
            news=numbers,
        )
    )
    if kill_options(state):
        state.phase = KILL
    else:
        _quiet_night(state, ev)


def _quiet_night(state: ConfState, ev: list[Event]) -> None:
    t = state.tables
    state.quiet_nights += 1
    state.history.append(
        {"day": state.day, "news": [t.numbers[c] for c in state.news], "killed": None}
    )
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
        _finish(
            state,
            "kira",
            "cold_case",
            f"Quiet Night number {state.quiet_nights}: L's case has gone cold. Kira wins.",
            ev,
        )
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
    ev.append(
        Event.public(
            f"Kira kills criminal {t.numbers[c]} ({t.type_names[kind]}): +{pts} points "
            f"({state.points} in all).",
            criminal=t.numbers[c],
            points=pts,
        )
    )
    # Method 2: every Suspect with more Regional Kills than allowed is cleared.
    mask = t.local_mask[c]
    limit = REGIONAL_LIMIT[t.chapter]
    outside = state.outside
    for s in range(len(outside)):
        if not mask >> s & 1:
            outside[s] += 1
            if outside[s] == limit + 1:
                _eliminate(state, s, BY_REGIONAL, ev, public=True)
    if _check_points(state, ev):
        return
    _next_day(state)


def _eliminate(state: ConfState, s: int, reason: str, ev: list[Event], public: bool) -> None:
    if s in state.eliminated:
        return
    state.eliminated[s] = reason
    if public:
        why = {
            BY_REGIONAL: "too many kills outside its Local Area",
            BY_QUIET: "a Quiet Night rules it out",
        }[reason]
        ev.append(
            Event.private(
                [L],
                f"Suspect {state.tables.letters[s]} is eliminated: {why}.",
                suspect=state.tables.letters[s],
                reason=reason,
            )
        )


def _next_day(state: ConfState) -> None:
    state.day += 1
    state.news = []
    state.faces_left = []
    state.dice = []
    state.phase = DAY


def _check_points(state: ConfState, ev: list[Event]) -> bool:
    target = TARGET_POINTS[state.tables.chapter]
    if state.points >= target:
        _finish(state, "kira", "points", f"Kira reaches {state.points} points and wins.", ev)
        return True
    return False


def _accuse(state: ConfState, s: int, ev: list[Event]) -> None:
    letters = state.tables.letters
    if s == state.identity:
        _finish(
            state,
            "l",
            "accusation_right",
            f"L accuses Suspect {letters[s]}: correct, Kira is caught. L wins.",
            ev,
        )
    else:
        _finish(
            state,
            "kira",
            "accusation_wrong",
            f"L accuses Suspect {letters[s]}, but Kira is Suspect {letters[state.identity]}. "
            "Kira wins.",
            ev,
        )


def _finish(state: ConfState, winner: str, condition: str, reason: str, ev: list[Event]) -> None:
    seat = KIRA if winner == "kira" else L
    state.result = Outcome(
        (winner,), condition, reason, {"kira_points": float(state.points)}, (seat,)
    )
    state.phase = OVER
    ev.append(
        Event.public(
            reason + f" (Kira was Suspect {state.tables.letters[state.identity]}.)",
            winner=winner,
            condition=condition,
            identity=state.tables.letters[state.identity],
        )
    )
