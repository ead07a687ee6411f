"""Copies of a game and the hidden worlds a viewer cannot tell apart (TCG-SEC-02).

``fork`` copies by hand what play changes (players, their piles and field, the choice) and
shares the rest: the card pool and the Character File are never changed after set-up, and a
``Mark`` or a ``Card`` is never changed once made.

``sample`` redraws what the viewer cannot see: the cards of each hidden player's hand, deck
order and face-down Specials (drawn from that player's own unseen cards, the ones not in
the discard pile or face up on the field: both decks are public, as the match options
are), every deck order (also the viewer's own) and the page a hidden Death Note mark
names (any page, the Characters the writer saw face up the likelier: ``_page``). It pins
what the viewer may know from elsewhere: cards an effect showed the viewer
(``Player.shown``) that are still in that hand or under a face-down Special, and the card of
a two-step choice in progress (it stays in the hand).
"""

from __future__ import annotations

import random
from collections import Counter

from deathnote.engine.actions import OMNISCIENT, SPECTATOR, Viewer
from deathnote.engine.rng import below, choice, shuffle
from deathnote.games.tcg.state import FieldCharacter, Mark, Player, TcgState

#: Quick random tries to place the face-down Specials by the construction rules before a
#: complete search (``_search_specials``) finds a placement: the true one always exists, so
#: the search always succeeds, and it reads only what the viewer may know.
SPECIAL_TRIES = 20


def _fork_character(fc: FieldCharacter) -> FieldCharacter:
    twin = object.__new__(FieldCharacter)
    twin.__dict__.update(fc.__dict__)
    return twin


def _fork_player(player: Player) -> Player:
    twin = object.__new__(Player)
    twin.__dict__.update(player.__dict__)
    twin.deck = player.deck[:]
    twin.hand = player.hand[:]
    twin.discard = player.discard[:]
    twin.field = [_fork_character(fc) for fc in player.field]
    twin.shown = set(player.shown)
    return twin


def fork(state: TcgState) -> TcgState:
    """An independent copy; the pool and the Character File are shared."""
    twin = object.__new__(TcgState)
    twin.__dict__.update(state.__dict__)
    twin.players = [_fork_player(p) for p in state.players]
    twin.choice = dict(state.choice) if state.choice is not None else None
    return twin


def sample(state: TcgState, viewer: Viewer, rng: random.Random) -> TcgState:
    """A copy with everything hidden from ``viewer`` drawn anew (see the module text)."""
    twin = fork(state)
    if viewer == OMNISCIENT:
        return twin
    for seat, player in enumerate(twin.players):
        if viewer == seat:
            # The viewer knows their deck's cards, not its order. Every draw here starts
            # from the cards sorted, so a sample depends on what the viewer knows and the
            # generator only, never on the true order (a search bot plays alike in two
            # matches its seat cannot tell apart).
            player.deck.sort()
            shuffle(rng, player.deck)
            continue
        _redraw(twin, seat, player, rng, know_shown=viewer != SPECTATOR)
        if player.mark is not None:
            mark = player.mark
            page = _page(twin.file_names, mark.exposed, rng)
            player.mark = Mark(page, mark.turn, mark.source, mark.character, mark.exposed)
    return twin


def _page(file_names: list[str], exposed: tuple[str, ...], rng: random.Random) -> str:
    """A hidden mark's page: any name of the Character File may have been written, but a
    writer most likely names a Character it saw face up, the most valuable one first: the
    first of ``exposed`` half the time, one of ``exposed`` a quarter, any page a quarter
    (every page, uniformly, when nothing was face up)."""
    if exposed:
        roll = below(rng, 4)
        if roll < 2:
            return exposed[0]
        if roll == 2:
            return choice(rng, list(exposed))
    return choice(rng, file_names)


def _redraw(
    state: TcgState, seat: int, player: Player, rng: random.Random, know_shown: bool
) -> None:
    """Redraw one hidden player's hand, deck and face-down Specials from their unseen cards."""
    hidden = [fc for fc in player.field if fc.special is not None and not fc.special_face_up]
    unseen = Counter(player.hand) + Counter(player.deck)
    unseen.update(fc.special for fc in hidden if fc.special is not None)
    pinned_hand: list[str] = []
    if state.choice is not None and state.current == seat and "card" in state.choice:
        pinned_hand.append(state.choice["card"])
    elif state.choice is not None and state.current == seat and state.choice["step"] == "event":
        pinned_hand.append(state.choice["source"])
    if know_shown:
        pinned_hand += sorted(n for n in player.hand if n in player.shown and n not in pinned_hand)
    free = [fc for fc in hidden if not (know_shown and fc.special in player.shown)]
    for fc in hidden:
        if fc not in free and fc.special is not None:
            unseen[fc.special] -= 1
    unseen.subtract(pinned_hand)
    placed = _place_specials(state, player, free, unseen, rng)
    if placed is None:
        placed = _search_specials(state, player, free, unseen, rng)
    for fc, number in zip(free, placed, strict=True):
        fc.special = number
        unseen[number] -= 1
    rest = sorted(unseen.elements())
    shuffle(rng, rest)
    extra = len(player.hand) - len(pinned_hand)
    player.hand = pinned_hand + rest[:extra]
    player.deck = rest[extra:]


def _place_specials(
    state: TcgState,
    player: Player,
    free: list[FieldCharacter],
    unseen: Counter[str],
    rng: random.Random,
) -> list[str] | None:
    """Face-down Specials for the ``free`` Characters, drawn from ``unseen`` by the
    attachment rules (same name or Shinigami; one Special of each name on a side)."""
    if not free:
        return []
    fixed = _fixed_names(state, player, free)
    for _ in range(SPECIAL_TRIES):
        pool = Counter(unseen)
        names = set(fixed)
        out = []
        for fc in free:
            options = _options(state, fc, pool, names)
            if not options:
                break
            number = options[below(rng, len(options))]
            out.append(number)
            pool[number] -= 1
            names.add(state.cards[number].name)
        else:
            return out
    return None


def _fixed_names(state: TcgState, player: Player, free: list[FieldCharacter]) -> set[str]:
    """The names of the Specials on this side that stay where they are (face up, pinned)."""
    cards = state.cards
    return {
        cards[fc.special].name for fc in player.field if fc.special is not None and fc not in free
    }


def _options(state: TcgState, fc: FieldCharacter, pool: Counter[str], names: set[str]) -> list[str]:
    """The cards of ``pool`` that may lie face down under ``fc`` (one per copy), in order."""
    cards = state.cards
    return [
        n
        for n, count in sorted(pool.items())
        if count > 0
        and cards[n].kind == "special"
        and (cards[n].shinigami or cards[n].name == fc.name)
        and cards[n].name not in names
        for _ in range(count)
    ]


def _search_specials(
    state: TcgState,
    player: Player,
    free: list[FieldCharacter],
    unseen: Counter[str],
    rng: random.Random,
) -> list[str]:
    """A placement of the face-down Specials found by a complete search (depth first, the
    options of each Character in a random order) when the quick tries found none. It reads
    only the viewer's knowledge (the unseen cards, the field, the rules), and a placement
    exists (the true one), so it never fails; the worlds it gives are consistent, not
    uniformly drawn (rules doc TCG-SEC-02)."""
    pool = Counter(unseen)
    names = set(_fixed_names(state, player, free))
    out: list[str] = []

    def place(index: int) -> bool:
        if index == len(free):
            return True
        options = sorted(set(_options(state, free[index], pool, names)))
        shuffle(rng, options)
        for number in options:
            name = state.cards[number].name
            pool[number] -= 1
            names.add(name)
            out.append(number)
            if place(index + 1):
                return True
            out.pop()
            names.discard(name)
            pool[number] += 1
        return False

    if not place(0):  # pragma: no cover - the true placement always exists
        raise RuntimeError("no placement of the face-down Specials agrees with the field")
    return out
