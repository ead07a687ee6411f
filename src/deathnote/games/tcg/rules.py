"""The rules of the Death Note TCG: set-up, the turn, and every action a seat may take.

A turn (TCG-TURN-01): Start (your Death Note mark is revealed) -> Recovery (your Characters
stand upright) -> Draw (one card) -> Character phase (place Characters, attach and reveal
Specials, turn Characters face down or up) -> Action phase (each face-up upright Character
acts once; Events) -> End. Neither player has Recovery or Action in their first turn and the
first player draws nothing in turn 1.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from deathnote.engine.actions import Action, Decision, Event, Outcome
from deathnote.engine.errors import ContentError, OptionsError
from deathnote.engine.options import GameOptions, lobby
from deathnote.engine.rng import below, shuffle
from deathnote.games.tcg import ops
from deathnote.games.tcg.cards import (
    DECK_FORMAT,
    DECK_ID,
    DECK_KEYS,
    DECK_SIZE,
    PACKAGED_DECKS,
    Card,
    check_deck_cards,
    check_deck_shape,
    deck_cards,
    deck_name,
    default_content,
    parse_pool,
    per_pool,
    read_content,
)
from deathnote.games.tcg.effects import EFFECTS, NO_EFFECT, Ability, effect_of, targets
from deathnote.games.tcg.state import (
    ACTION,
    CHARACTER,
    HAND_SIZE,
    MAX_CHARACTERS,
    MULLIGAN,
    FieldCharacter,
    Player,
    TcgState,
)

DEFAULT_DECKS = ("kira", "l")
SAMPLE_DECK_NAMES = {"kira": "Kira", "l": "L", "kira-example": "Example Kira deck"}
PACKAGED_DECK_NAMES = (*DEFAULT_DECKS, *PACKAGED_DECKS)


# -- options and content ---------------------------------------------------------------------


def deck_option(raw: Any, where: str, default_name: str) -> dict[str, Any]:
    """One deck given as data: a packaged deck's name (``{"id": name}``), or its cards
    (a list, or ``{name, cards}``), checked for size and copies. Never a path: a name is
    looked up in the content's fixed table of decks, nothing is opened."""
    if isinstance(raw, Mapping) and set(raw) == {"id"}:
        raw = raw["id"]
    if isinstance(raw, str):
        if not DECK_ID.fullmatch(raw):
            raise OptionsError(
                f"{where}: not a packaged deck name ({', '.join(PACKAGED_DECK_NAMES)}); "
                "a deck is a name or its list of card numbers, never a file path "
                "(the terminal's --deck FILE reads a deck file)"
            )
        return {"id": raw}
    if isinstance(raw, Mapping):
        extra = set(raw) - DECK_KEYS
        if extra:
            raise OptionsError(f"{where}: a deck object takes only {', '.join(sorted(DECK_KEYS))}")
        if raw.get("format", DECK_FORMAT) != DECK_FORMAT:
            raise OptionsError(f"{where}.format: must be {DECK_FORMAT!r}")
    elif not isinstance(raw, list):
        raise OptionsError(
            f"{where}: a packaged deck name ({', '.join(PACKAGED_DECK_NAMES)}) or a list of "
            f"{DECK_SIZE} card numbers"
        )
    numbers = deck_cards(raw, where)
    check_deck_shape(numbers, where)
    return {"name": deck_name(raw, default_name, where), "cards": numbers}


class TcgOptions(GameOptions):
    """The TCG's options (TCG-OPT-01); decks are data, never paths (TCG-OPT-02)."""

    decks: list[Any] = Field(
        default_factory=lambda: list(DEFAULT_DECKS),
        min_length=2,
        max_length=2,
        description=(
            "The two decks, seat 1 then seat 2: each a packaged deck's name (kira, l, "
            "kira-example) or the deck itself: a list of 40 card numbers, or "
            '{"name": ..., "cards": [...]} (never a file path).'
        ),
        json_schema_extra=lobby(
            decks={d: SAMPLE_DECK_NAMES.get(d, d) for d in PACKAGED_DECK_NAMES},
            help="Each seat's deck: a shipped deck, or a pasted list of 40 card numbers.",
        ),
    )
    deck: Any = Field(
        None,
        description=(
            "One deck for the seat deck_seat, in the same forms (the terminal's --deck FILE "
            "reads a deck file and passes it here)."
        ),
        json_schema_extra=lobby(hidden=True),
    )
    deck_seat: int = Field(
        0,
        ge=0,
        le=1,
        description="The seat (0 or 1) that plays `deck`.",
        json_schema_extra=lobby(hidden=True),
    )
    first: Literal["random", 0, 1] = Field(
        "random",
        description="Who goes first: 'random', 0 or 1.",
        json_schema_extra=lobby(seat=True, labels={"random": "at random"}, help="Who goes first."),
    )

    @field_validator("first", mode="before")
    @classmethod
    def _first(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool):
            raise ValueError("'random', 0 or 1 (a boolean is not a seat)")
        if info.mode == "string" and value in ("0", "1"):
            return int(value)  # typed as text (-o first=1)
        return value


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Normalize validated options: each deck checked for size and copies, a ``deck``
    moved to ``decks[deck_seat]``; the result has ``decks`` and ``first`` only."""
    decks = [
        deck_option(raw, f"option decks[{i}]", f"Deck {i + 1}")
        for i, raw in enumerate(options["decks"])
    ]
    if options.get("deck") is not None:
        decks[options["deck_seat"]] = deck_option(options["deck"], "option deck", "My deck")
    return {"decks": decks, "first": options["first"]}


@cache
def _default_content() -> dict[str, Any]:
    data = default_content()
    check_content(data, "tcg content")
    return data


#: Parsed pools by the identity of their content (the content is kept alive with it).
POOLS: dict[int, tuple[Any, dict[str, Card]]] = {}


def pool_of(content: Mapping[str, Any]) -> dict[str, Card]:
    """The parsed card pool of a content, parsed once (content is never changed)."""
    found = POOLS.get(id(content))
    if found is None or found[0] is not content:
        if len(POOLS) >= 16:
            POOLS.clear()
        found = POOLS[id(content)] = (content, parse_pool(content["pool"]))
    return found[1]


def check_content(data: Mapping[str, Any], where: str) -> dict[str, Card]:
    """Check a content's pool and packaged decks; its parsed pool."""
    pool = parse_pool(data["pool"], f"{where}: pool")
    kira = data["pool"].get("kira_card", {})
    decks = data["decks"]
    if not isinstance(decks, Mapping):
        raise ContentError(f"{where}: decks must map deck ids to decks")
    for deck_id, raw in decks.items():
        try:
            numbers = deck_cards(raw, f"{where}: deck {deck_id}")
            check_deck_shape(numbers, f"{where}: deck {deck_id}")
        except OptionsError as exc:
            raise ContentError(str(exc)) from None
        try:
            check_deck_cards(numbers, pool, kira, f"{where}: deck {deck_id}")
        except OptionsError as exc:
            raise ContentError(str(exc)) from None
    return pool


def load_content(path: str | None, options: Mapping[str, Any]) -> dict[str, Any]:
    """The pool and sample decks (default or a file), checked with the chosen decks. The
    default content is read and checked once per process and shared (never changed)."""
    if path is None:
        data = _default_content()
        pool = pool_of(data)
    else:
        data = read_content(path)
        pool = check_content(data, path)
    kira = data["pool"].get("kira_card", {})
    decks = data["decks"]
    for i, deck in enumerate(options.get("decks", [])):
        if "id" in deck:
            if deck["id"] not in decks:
                raise OptionsError(
                    f"option decks[{i}]: no packaged deck {deck['id']!r}; packaged decks: "
                    f"{', '.join(sorted(decks))}"
                )
        else:
            check_deck_cards(deck["cards"], pool, kira, f"deck {deck['name']!r}")
    return data


def seat_names(options: Mapping[str, Any]) -> list[str]:
    """Seats are Player 1 and Player 2; a deck's name (which a player may write) is shown
    beside the seat, never used as its name."""
    return [f"Player {i + 1}" for i in range(len(options.get("decks", DEFAULT_DECKS)))]


def deck_label(deck: Mapping[str, Any] | str) -> str:
    """A deck's display name."""
    if isinstance(deck, str):
        return SAMPLE_DECK_NAMES.get(deck, deck)
    if "id" in deck:
        return SAMPLE_DECK_NAMES.get(deck["id"], deck["id"])
    return str(deck["name"])


def deck_key(deck: Mapping[str, Any]) -> str:
    """The key of a deck in Outcome.scores, e.g. ``deck:kira``."""
    base = deck["id"] if "id" in deck else str(deck["name"]).strip().lower().replace(" ", "-")
    return f"deck:{base}"


# -- set-up ------------------------------------------------------------------------------------


def new_state(options: Mapping[str, Any], content: Any, rng: random.Random) -> TcgState:
    """Shuffle, choose the first player, deal 6 cards each; then the mulligans."""
    pool = pool_of(content)
    players = []
    for deck in options["decks"]:
        cards = (
            deck_cards(content["decks"][deck["id"]], "deck")
            if "id" in deck
            else list(deck["cards"])
        )
        players.append(Player(deck_label=deck_label(deck), deck_key=deck_key(deck), deck=cards))
    for player in players:  # TCG-SETUP-03: each deck is shuffled
        shuffle(rng, player.deck)
    first = below(rng, 2) if options["first"] == "random" else int(options["first"])
    names = sorted({c.name for c in pool.values() if c.kind == "character"})
    state = TcgState(cards=pool, file_names=names, players=players, first=first, current=first)
    for seat in (first, 1 - first):
        ops.draw(state, seat, HAND_SIZE)
    return state


def setup(
    options: Mapping[str, Any], content: Any, rng: random.Random
) -> tuple[TcgState, list[Event]]:
    """The new state and its set-up events: who goes first, and each opening hand (its
    cards to its owner alone)."""
    state = new_state(options, content, rng)
    how = "chosen at random" if options["first"] == "random" else "by the options"
    events = [
        Event.public(
            f"{ops.who(state, state.first)} goes first ({how}).", first=state.first, turn=0
        ),
        Event.public(f"Each player shuffles and draws {HAND_SIZE} cards."),
    ]
    for seat in (state.first, 1 - state.first):
        hand = sorted(state.players[seat].hand)
        text = ", ".join(state.cards[n].label for n in hand)
        events.append(Event.private([seat], f"Your opening hand: {text}.", seat=seat, hand=hand))
    return state, events


# -- the turn --------------------------------------------------------------------------------


def first_turn(player: Player) -> bool:
    """Whether the player is in their own first turn."""
    return player.turns_taken == 1


def start_turn(state: TcgState) -> list[Event]:
    """Start -> Recovery -> Draw -> Character phase of the current player."""
    seat = state.current
    me, other = state.me(), state.opponent(seat)
    state.turn += 1
    me.turns_taken += 1
    me.protected = False
    events = [Event.public(f"Turn {state.turn}: {ops.who(state, seat)}.", turn=state.turn)]
    events += reveal_mark(state, seat)
    if state.winner is not None:
        return events
    if not first_turn(me):  # TCG-SETUP-06: no Recovery in your first turn
        for fc in me.field:
            fc.upright = True
    if not (seat == state.first and first_turn(me)):  # TCG-SETUP-05: first draw limit
        events += ops.draw(state, seat)
        if state.winner is not None:
            return events
    me.placed = 0
    me.allowance = 2 if len(other.field) > len(me.field) else 1  # TCG-CHAR-02
    state.phase = CHARACTER
    state.fresh = True
    return events


def reveal_mark(state: TcgState, seat: int) -> list[Event]:
    """TCG-DN-03: at the start of your next turn the marked name is revealed and, if that
    Character is face up on the opponent's field, destroyed."""
    me, other = state.players[seat], state.opponent(seat)
    mark = me.mark
    if mark is None:
        return []
    me.mark = None
    events = [
        Event.public(
            f"{ops.who(state, seat)} reveals the Death Note: the Kira card marks {mark.target}.",
            seat=seat,
            target=mark.target,
        )
    ]
    fc = other.character(mark.target)
    if fc is None:
        return [*events, Event.public(f"{mark.target} is not on the opponent's field: no effect.")]
    if not fc.face_up:
        return [*events, Event.public(f"{mark.target} is face down and escapes the Death Note.")]
    if other.protected:
        return [*events, Event.public(f"The Thirteen-Day Rule protects {mark.target}.")]
    events += ops.destroy(state, 1 - seat, mark.target, "Death Note")
    source = effect_of(state, mark.source)
    bonus = source.dn_points + sum(
        effect_of(state, c.number).dn_kill_bonus for c in me.field if c.face_up
    )
    events += ops.gain(state, seat, bonus, "Death Note")
    if source.dn_draw and state.winner is None:
        events += ops.draw(state, seat, source.dn_draw)
    return events


def end_character_phase(state: TcgState) -> list[Event]:
    """To the Action phase, or straight to the end in your first turn (TCG-SETUP-06)."""
    if first_turn(state.me()):
        return end_turn(state)
    state.phase = ACTION
    return [Event.public(f"{ops.who(state, state.current)} enters the Action phase.")]


def end_turn(state: TcgState) -> list[Event]:
    """End phase: nothing to discard (no hand limit); the other player's turn starts."""
    events = [Event.public(f"{ops.who(state, state.current)} ends the turn.")]
    state.current = 1 - state.current
    return events + start_turn(state)


# -- legal actions -----------------------------------------------------------------------------


def can_place(state: TcgState, seat: int, card: Card) -> bool:
    """TCG-COST-01, TCG-CHAR-02..04: cost, one or two per turn, at most 6, one per name."""
    me = state.players[seat]
    return (
        card.cost <= me.points
        and me.placed < me.allowance
        and len(me.field) < MAX_CHARACTERS
        and me.character(card.name) is None
    )


def specials_on_field(state: TcgState, seat: int) -> set[str]:
    """The names of the Specials on a side (TCG-SPEC-04: one of each name)."""
    cards = state.cards
    return {cards[fc.special].name for fc in state.players[seat].field if fc.special}


def attach_targets(
    state: TcgState, seat: int, card: Card, on_field: set[str] | None = None
) -> list[FieldCharacter]:
    """TCG-SPEC-01..04: same name (Shinigami: any), one per Character, one of each name.
    ``on_field``: ``specials_on_field`` when the caller has it already."""
    me = state.players[seat]
    if on_field is None:
        on_field = specials_on_field(state, seat)
    if card.name in on_field:
        return []
    return [
        fc for fc in me.field if fc.special is None and (card.shinigami or fc.name == card.name)
    ]


def character_abilities(
    state: TcgState, seat: int, fc: FieldCharacter
) -> list[tuple[str, Ability]]:
    """The (source card, ability) pairs a Character may use now, Work aside."""
    me = state.players[seat]
    found = [(fc.number, a) for a in effect_of(state, fc.number).abilities]
    if fc.special and fc.special_face_up:
        found += [(fc.special, a) for a in effect_of(state, fc.special).abilities]
    out = []
    for source, ability in found:
        if ability.deathnote and me.deathnote_turn == state.turn:
            continue  # TCG-DN-04: once per turn
        if ability.target and not targets(state, seat, ability):
            continue
        out.append((source, ability))
    return out


def work_points(state: TcgState, fc: FieldCharacter) -> int:
    """What a Character's Work earns (TCG-VP-01)."""
    points = state.cards[fc.number].points
    if fc.special and fc.special_face_up:
        points += (
            effect_of(state, fc.special).work_bonus
            + effect_of(state, fc.number).work_bonus_with_special
        )
    return points


#: Legal actions are immutable and equal by kind and arguments: each (kind, label, args) is
#: made once and handed out again (bounded: cleared when it grows past ``MADE_LIMIT``).
MADE: dict[tuple[Any, ...], Action] = {}
MADE_LIMIT = 50_000


def made(kind: str, label: str, **args: Any) -> Action:
    """``Action.make(kind, label, **args)``, made once."""
    key = (kind, label, *args.items())
    found = MADE.get(key)
    if found is None:
        if len(MADE) >= MADE_LIMIT:
            MADE.clear()
        found = MADE[key] = Action.make(kind, label, **args)
    return found


class Book:
    """The actions that depend on a card or a name only, made once per pool (labels too)."""

    def __init__(self, cards: Mapping[str, Card]) -> None:
        names = sorted({c.name for c in cards.values() if c.kind == "character"})
        by_kind = {
            kind: {n: c for n, c in cards.items() if c.kind == kind}
            for kind in ("character", "special", "event")
        }
        self.place = {
            n: Action.make("place", f"Place {c.name} (cost {c.cost})", card=n)
            for n, c in by_kind["character"].items()
        }
        self.attach = {
            n: Action.make("attach", f"Attach {c.label} face down", card=n)
            for n, c in by_kind["special"].items()
        }
        self.event = {
            n: Action.make("event", f"Play {c.name} (cost {c.cost})", card=n)
            for n, c in by_kind["event"].items()
        }
        self.reveal = {
            name: Action.make("reveal", f"Turn the Special on {name} face up", character=name)
            for name in names
        }
        self.hide = {
            name: Action.make("hide", f"Turn {name} face down", character=name) for name in names
        }
        self.show = {
            name: Action.make("show", f"Turn {name} face up", character=name) for name in names
        }
        self.keep = Action.make("keep", "Keep this hand")
        self.mulligan = Action.make("mulligan", "Mulligan: shuffle the hand back and draw 6")
        self.next_end = Action.make("next", "End the turn")
        self.next_action = Action.make("next", "Go to the Action phase")
        self.end = Action.make("end", "End the turn")
        self.cancel = Action.make("cancel", "Cancel")
        #: each card number's effect (``effect_of``: effects are registered at import)
        self.effect = {n: EFFECTS.get(c.printed, NO_EFFECT) for n, c in cards.items()}
        #: the Work and Character actions handed out so far, by what makes their labels
        self.work: dict[tuple[str, int], Action] = {}
        self.act: dict[tuple[str, str, str], Action] = {}
        self.targets: dict[tuple[str, ...], Action] = {}


#: The last pool asked for and its book: every state of a game shares one pool, so the
#: legal moves of a play-out find their book without a look-up.
_LAST_BOOK: list[Any] = [None, None]


def book(state: TcgState) -> Book:
    """The action book of the state's pool, made once per pool."""
    cards = state.cards
    if _LAST_BOOK[0] is cards:
        found: Book = _LAST_BOOK[1]
        return found
    found = per_pool(cards, "book", Book)
    _LAST_BOOK[0], _LAST_BOOK[1] = cards, found
    return found


def choice_actions(state: TcgState, seat: int) -> list[Action]:
    """The targets of a two-step choice, and Cancel."""
    choice = state.choice
    assert choice is not None
    b = book(state)
    made_targets = b.targets
    if choice["step"] == "attach":
        number = choice["card"]
        card = state.cards[number]
        out = []
        for fc in attach_targets(state, seat, card):
            spot: tuple[str, ...] = (number, fc.name)
            action = made_targets.get(spot)
            if action is None:
                action = made_targets[spot] = made(
                    "target", f"Attach {card.label} to {fc.name}", target=fc.name
                )
            out.append(action)
    else:
        ability = find_ability(state, seat, choice)
        verb = "Write" if ability.deathnote else "Choose"
        out = []
        for value, label in targets(state, seat, ability):
            named: tuple[str, ...] = (verb, value, label)
            action = made_targets.get(named)
            if action is None:
                action = made_targets[named] = made("target", f"{verb} {label}", target=value)
            out.append(action)
    out.append(b.cancel)
    return out


def find_ability(state: TcgState, seat: int, choice: Mapping[str, Any]) -> Ability:
    """The ability a choice or action names."""
    for ability in effect_of(state, choice["source"]).abilities:
        if ability.key == choice["ability"]:
            return ability
    raise KeyError(choice["ability"])


def decision(state: TcgState, prompts: Mapping[str, str]) -> Decision:
    """The current player's decision with its data: the step (``mulligan``, ``character``,
    ``action`` or ``target``), the turn, and what the step is about."""
    me = state.me()
    if state.choice is not None:
        choice = state.choice
        data: dict[str, Any] = {"step": choice["step"], "turn": state.turn}
        for key in ("card", "character", "ability", "source"):
            if choice.get(key):
                data[key] = choice[key]
        return Decision("target", "Choose a target (or cancel).", data=data)
    data = {"step": state.phase, "turn": state.turn}
    if state.phase == MULLIGAN:
        data["hand_size"] = len(me.hand)
    elif state.phase == CHARACTER:
        data["may_place"] = max(0, me.allowance - me.placed)
        data["last"] = "end" if first_turn(me) else "action"
    else:
        data["work"] = {
            fc.name: work_points(state, fc) for fc in me.field if fc.face_up and fc.upright
        }
    return Decision(state.phase, prompts[state.phase], data=data)


def legal_actions(state: TcgState, seat: int) -> list[Action]:
    """Every legal action of the seat now.

    Written out for speed (the search bots' play-outs call it at every step): the same
    actions, in the same order, as ``can_place``, ``attach_targets``, ``work_points`` and
    ``character_abilities`` give."""
    if state.winner is not None or seat != state.current:
        return []
    me = state.players[seat]
    b = book(state)
    phase = state.phase
    if phase == MULLIGAN:
        return [b.keep, b.mulligan]
    if state.choice is not None:
        return choice_actions(state, seat)
    out: list[Action] = []
    cards = state.cards
    field = me.field
    hand = sorted(set(me.hand))
    if phase == CHARACTER:
        # can_place: cost, room this turn and on the field, one Character per name.
        room = me.placed < me.allowance and len(field) < MAX_CHARACTERS
        points = me.points
        on_field: set[str] | None = None
        for number in hand:
            card = cards[number]
            kind = card.kind
            if kind == "character":
                if room and card.cost <= points:
                    name = card.name
                    for fc in field:
                        if fc.name == name:
                            break
                    else:
                        out.append(b.place[number])
            elif kind == "special":
                # attach_targets is not empty: a free Character it may go on, and no
                # Special of its name on this side yet.
                if on_field is None:
                    on_field = {cards[fc.special].name for fc in field if fc.special}
                name = card.name
                if name in on_field:
                    continue
                shinigami = card.shinigami
                for fc in field:
                    if fc.special is None and (shinigami or fc.name == name):
                        out.append(b.attach[number])
                        break
        turn = state.turn
        for fc in field:
            if fc.special and not fc.special_face_up and fc.special_turn < turn:
                out.append(b.reveal[fc.name])
            if fc.flipped_turn != turn:
                out.append(b.hide[fc.name] if fc.face_up else b.show[fc.name])
        out.append(b.next_end if first_turn(me) else b.next_action)
        return out
    # Action phase
    effect = b.effect
    for fc in field:
        if not (fc.face_up and fc.upright):
            continue
        own = effect[fc.number]
        special = fc.special if fc.special and fc.special_face_up else None
        gain = cards[fc.number].points
        if special is not None:
            gain += effect[special].work_bonus + own.work_bonus_with_special
        name = fc.name
        work = b.work.get((name, gain))
        if work is None:
            work = b.work[name, gain] = made("work", f"{name}: Work (+{gain})", character=name)
        out.append(work)
        if own.abilities or (special is not None and effect[special].abilities):
            for source, ability in character_abilities(state, seat, fc):
                key = (name, source, ability.key)
                act = b.act.get(key)
                if act is None:
                    act = b.act[key] = made(
                        "act",
                        f"{name}: {ability.name}",
                        character=name,
                        ability=ability.key,
                        source=source,
                    )
                out.append(act)
    points = me.points
    for number in hand:
        card = cards[number]
        if card.kind != "event" or card.cost > points:
            continue
        abilities = effect[number].abilities
        if not abilities or (abilities[0].target and not targets(state, seat, abilities[0])):
            continue
        out.append(b.event[number])
    out.append(b.end)
    return out


# -- applying actions --------------------------------------------------------------------------


def apply_action(state: TcgState, seat: int, action: Action, rng: random.Random) -> list[Event]:
    """Carry out a legal action."""
    state.fresh = False
    me = state.players[seat]
    kind = action.kind
    if kind in ("keep", "mulligan"):
        return mulligan(state, seat, kind == "mulligan", rng)
    if kind == "cancel":
        state.choice = None
        return []
    if kind == "target":
        choice, state.choice = state.choice, None
        assert choice is not None
        if choice["step"] == "attach":
            return attach(state, seat, choice["card"], action["target"])
        return use_ability(state, seat, choice, action["target"])
    if kind == "place":
        card = state.cards[action["card"]]
        ops.pay(state, seat, card.cost)
        me.hand.remove(card.number)
        me.field.append(FieldCharacter(number=card.number, name=card.name))
        me.placed += 1
        paid = f", paying {card.cost} victory point{'s' * (card.cost != 1)}" if card.cost else ""
        return [
            Event.public(
                f"{ops.who(state, seat)} places {card.name}{paid}.", seat=seat, card=card.number
            )
        ]
    if kind == "attach":
        state.choice = {"step": "attach", "card": action["card"]}
        return []
    if kind in ("reveal", "hide", "show"):
        fc = me.character(action["character"])
        assert fc is not None
        if kind == "reveal":
            return ops.reveal_special(state, seat, fc, "a later turn")
        fc.face_up = kind == "show"
        fc.flipped_turn = state.turn
        side = "up" if fc.face_up else "down"
        return [
            Event.public(
                f"{ops.who(state, seat)} turns {fc.name} face {side}.",
                seat=seat,
                character=fc.name,
            )
        ]
    if kind == "next":
        return end_character_phase(state)
    if kind == "end":
        return end_turn(state)
    if kind == "work":
        fc = me.character(action["character"])
        assert fc is not None
        fc.upright = False
        return ops.gain(state, seat, work_points(state, fc), f"{fc.name} works")
    if kind == "act":
        choice = {
            "step": "act",
            "character": action["character"],
            "ability": action["ability"],
            "source": action["source"],
        }
        ability = find_ability(state, seat, choice)
        if ability.target:
            state.choice = choice
            return []
        return use_ability(state, seat, choice, "")
    if kind == "event":
        card = state.cards[action["card"]]
        choice = {"step": "event", "character": "", "ability": "event", "source": card.number}
        if effect_of(state, card.number).abilities[0].target:
            state.choice = choice
            return []
        return use_ability(state, seat, choice, "")
    raise AssertionError(f"unhandled action {kind}")


def mulligan(state: TcgState, seat: int, redraw: bool, rng: random.Random) -> list[Event]:
    """TCG-SETUP-04: one optional mulligan each, first player first."""
    me = state.players[seat]
    events = []
    if redraw:
        me.deck += me.hand
        me.hand = []
        shuffle(rng, me.deck)
        me.mulligan = "redrawn"
        events.append(Event.public(f"{ops.who(state, seat)} takes a mulligan."))
        events += ops.draw(state, seat, HAND_SIZE)
    else:
        me.mulligan = "kept"
        events.append(Event.public(f"{ops.who(state, seat)} keeps the opening hand."))
    if seat == state.first:
        state.current = 1 - seat
        return events
    state.current = state.first
    return events + start_turn(state)


def attach(state: TcgState, seat: int, number: str, target: str) -> list[Event]:
    """Attach a Special face down; it may be turned face up in a later turn."""
    me = state.players[seat]
    fc = me.character(target)
    assert fc is not None
    me.hand.remove(number)
    fc.special, fc.special_face_up, fc.special_turn = number, False, state.turn
    return [
        Event.public(
            f"{ops.who(state, seat)} attaches a face-down Special to {target}.",
            seat=seat,
            character=target,
        ),
        Event.private([seat], f"You attach {state.cards[number].label} to {target}.", card=number),
    ]


def use_ability(state: TcgState, seat: int, choice: Mapping[str, Any], target: str) -> list[Event]:
    """A Character action (the Character turns sideways) or an Event (paid, then discarded)."""
    me = state.players[seat]
    ability = find_ability(state, seat, choice)
    source = choice["source"]
    events: list[Event] = []
    if choice["step"] == "event":
        card = state.cards[source]
        ops.pay(state, seat, card.cost)
        me.hand.remove(source)
        me.discard.append(source)
        events.append(
            Event.public(
                f"{ops.who(state, seat)} plays {card.name} (cost {card.cost}).",
                seat=seat,
                card=source,
            )
        )
    else:
        fc = me.character(choice["character"])
        assert fc is not None
        fc.upright = False
        if not ability.deathnote:
            events.append(
                Event.public(
                    f"{ops.who(state, seat)}'s {fc.name} uses {ability.name}.",
                    seat=seat,
                    character=fc.name,
                )
            )
    return events + ability.resolve(state, seat, choice["character"], source, target)


# -- outcome -----------------------------------------------------------------------------------


def outcome(state: TcgState) -> Outcome | None:
    """Winners by turn order ("first"/"second"); scores by deck."""
    if state.winner is None:
        return None
    side = "first" if state.winner == state.first else "second"
    win, lose = (state.players[s].deck_key for s in (state.winner, 1 - state.winner))
    scores = {win: 1.0, lose: 0.0} if win != lose else {win: 0.5}
    return Outcome((side,), state.condition, state.reason, scores, (state.winner,))
