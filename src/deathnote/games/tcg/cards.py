"""The card pool and decks: data files, their validation, and the deck file format.

Names, costs and texts are data (``content/cards.json``); what a card *does* is code,
registered by card number in ``effects.py``. Decks are lists of card numbers.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deathnote.engine.content import package_json
from deathnote.engine.errors import ContentError, OptionsError

T = TypeVar("T")

DECK_SIZE = 40
MAX_COPIES = 4
KINDS = ("character", "special", "event")
DECK_FORMAT = "deathnote-tcg-deck"
#: Bounds on a deck given as data (a client may send one): entries, id and name lengths.
MAX_DECK_ENTRIES = 100
MAX_ID_LENGTH = 32
MAX_NAME_LENGTH = 60
#: The keys a deck given as an object may have (a deck file's object passes as it is).
DECK_KEYS = frozenset({"format", "name", "status", "note", "cards"})
#: What a packaged deck's name looks like (a name, never a path).
DECK_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
#: The packaged decks beyond ``decks.json``: a fixed table of deck name -> packaged file
#: (looked up by name only; no name ever becomes a path).
PACKAGED_DECKS = {"kira-example": "example-deck.json"}
POOL_FORMAT = "deathnote-tcg-pool"
#: The Kira card's number in the sample pool; any card of kind "kira" is one too.
KIRA_NUMBER = "DN-KIRA"


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the pool. ``number`` is its id in decks, hands and actions (copies in a
    deck share it); ``printed`` is the printed card number, the same as ``number`` except
    for a parallel printing, which has an id of its own and its base card's number."""

    number: str
    name: str
    kind: str
    cost: int
    text: str
    points: int = 0
    shinigami: bool = False
    title: str = ""
    printed: str = ""
    print: str = ""  # "parallel" for a parallel printing, else ""

    def __post_init__(self) -> None:
        if not self.printed:
            object.__setattr__(self, "printed", self.number)

    @property
    def label(self) -> str:
        """Name with the Special's title, for buttons and logs."""
        return f"{self.name} — {self.title}" if self.title else self.name


def _package_json(name: str) -> Any:
    return package_json("deathnote.games.tcg", name)


def default_content() -> dict[str, Any]:
    """The sample pool and its packaged decks (``kira``, ``l``, ``kira-example``), as JSON."""
    decks = dict(_package_json("decks.json"))
    for deck_id, file in PACKAGED_DECKS.items():
        decks[deck_id] = _package_json(file)
    return {"pool": _package_json("cards.json"), "decks": decks}


def read_content(path: str) -> dict[str, Any]:
    """A replacement content file: ``{"pool": {...}, "decks": {...}}``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path}: no such content file") from None
    except OSError:
        raise ContentError(f"{path}: the content file cannot be read") from None
    except ValueError:
        raise ContentError(f"{path}: the content file is not JSON") from None
    if not isinstance(data, dict) or "pool" not in data or "decks" not in data:
        raise ContentError(f"{path}: content must be an object with 'pool' and 'decks'")
    return data


class CardEntry(BaseModel):
    """One entry of the pool file: a card, or a parallel printing (``id`` + ``number``)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    number: str = Field(min_length=1, description="The printed card number.")
    id: str | None = Field(None, min_length=1, description="A parallel printing's own id.")
    name: str | None = Field(None, min_length=1)
    kind: Literal["character", "special", "event"] | None = None
    cost: int = Field(0, ge=0)
    points: int = Field(0, ge=0)
    text: str = ""
    shinigami: bool = False
    title: str = ""
    print: str | None = Field(None, min_length=1, description="e.g. 'parallel'.")
    status: str = ""
    note: str = ""


class KiraCard(BaseModel):
    """The pool's Kira card (not a game card)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    number: str = Field(min_length=1)
    name: str = ""


class PoolFile(BaseModel):
    """The pool file ``content/cards.json``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    format: Literal["deathnote-tcg-pool"] = "deathnote-tcg-pool"
    status: str = ""
    note: str = ""
    kira_card: KiraCard | None = None
    cards: list[dict[str, Any]]


#: The fields a parallel printing may have: everything else is its base card's.
PARALLEL_KEYS = frozenset({"id", "number", "print", "status", "note"})


def _fail(where: str, exc: ValidationError) -> ContentError:
    """A ContentError naming the file and the field of the first error."""
    error = exc.errors()[0]
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
    if where.endswith(": "):
        field = field.lstrip(".")
    return ContentError(f"{where}{field}: {error['msg']}")


def parse_pool(data: Any, where: str = "pool") -> dict[str, Card]:
    """Validate the pool data (pydantic models ``PoolFile`` and ``CardEntry``) and return
    its cards by id (``Card.number``).

    A card's id is its ``number``; a parallel printing (TCG-DECK-07) is an entry with an
    ``id`` of its own and the ``number`` of a card listed before it, and takes every other
    field from that card."""
    if not isinstance(data, Mapping):
        raise ContentError(f"{where}: expected an object with a 'cards' list")
    try:
        pool = PoolFile.model_validate(dict(data))
    except ValidationError as exc:
        raise _fail(where + ": ", exc) from None
    cards: dict[str, Card] = {}
    for i, raw in enumerate(pool.cards):
        at = f"{where}: cards[{i}]"
        try:
            entry = CardEntry.model_validate(raw)
        except ValidationError as exc:
            raise _fail(at, exc) from None
        card_id = entry.id or entry.number
        if card_id in cards:
            raise ContentError(
                f"{at}.{'id' if entry.id else 'number'}: {card_id} appears twice "
                "(a parallel printing has an id of its own)"
            )
        if card_id != entry.number:
            cards[card_id] = parallel_printing(raw, cards, card_id, entry, at)
            continue
        if entry.name is None:
            raise ContentError(f"{at}.name: expected a name")
        if entry.kind is None:
            raise ContentError(f"{at}.kind: expected one of {', '.join(KINDS)}")
        if entry.kind == "special" and entry.cost != 0:
            raise ContentError(f"{at}.cost: Specials have no cost")
        cards[card_id] = Card(
            number=card_id,
            name=entry.name,
            kind=entry.kind,
            cost=entry.cost,
            text=entry.text,
            points=entry.points,
            shinigami=entry.shinigami,
            title=entry.title,
        )
    if pool.kira_card is not None and pool.kira_card.number in cards:
        raise ContentError(f"{where}: the Kira card {pool.kira_card.number} is not a game card")
    return cards


def parallel_printing(
    raw: Mapping[str, Any], cards: Mapping[str, Card], card_id: str, entry: CardEntry, at: str
) -> Card:
    """A parallel printing: its own id, its base card's number and every other field."""
    number = entry.number
    base = cards.get(number)
    if base is None or base.print:
        raise ContentError(
            f"{at}.number: a parallel printing ({card_id}) names the number of a card listed "
            f"before it; {number} is not one"
        )
    extra = sorted(set(raw) - PARALLEL_KEYS)
    if extra:
        raise ContentError(
            f"{at}.{extra[0]}: a parallel printing is its base card {number}; it takes only "
            f"{', '.join(sorted(PARALLEL_KEYS))}"
        )
    return dataclasses.replace(
        base, number=card_id, printed=number, print=entry.print or "parallel"
    )


def deck_cards(raw: Any, where: str) -> list[str]:
    """The card numbers of a deck given as data: a list of numbers, ``[{number, count}]`` or a
    ``{number: count}`` map, bare or as the ``cards`` of ``{name, cards}``. Bounded before it
    is expanded (at most ``MAX_DECK_ENTRIES`` entries, counts up to ``DECK_SIZE``, numbers up
    to ``MAX_ID_LENGTH`` characters), so no input can make it large."""
    entries = raw.get("cards") if isinstance(raw, Mapping) else raw
    numbers: list[str] = []
    if isinstance(entries, Mapping):
        entries = [{"number": k, "count": v} for k, v in entries.items()]
    if not isinstance(entries, list):
        raise OptionsError(f"{where}: a deck needs a 'cards' list of card numbers")
    if len(entries) > MAX_DECK_ENTRIES:
        raise OptionsError(f"{where}: a deck lists at most {MAX_DECK_ENTRIES} entries")
    for i, item in enumerate(entries):
        if isinstance(item, Mapping):
            number, count = item.get("number"), item.get("count", 1)
            if set(item) - {"number", "count"}:
                raise OptionsError(f"{where}: cards[{i}] takes only 'number' and 'count'")
        else:
            number, count = item, 1
        if not isinstance(number, str) or not 0 < len(number) <= MAX_ID_LENGTH:
            raise OptionsError(
                f"{where}: cards[{i}] must be a card number (at most {MAX_ID_LENGTH} "
                "characters) or {number, count}"
            )
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= DECK_SIZE:
            raise OptionsError(f"{where}: cards[{i}].count must be a whole number 0..{DECK_SIZE}")
        numbers += [number] * count
    return sorted(numbers)


def deck_name(raw: Any, default: str, where: str) -> str:
    """The display name of a deck given as ``{name, cards}`` (bounded, printable)."""
    name = raw.get("name") if isinstance(raw, Mapping) else None
    if name is None:
        return default
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise OptionsError(f"{where}.name: a printable deck name")
    if len(name) > MAX_NAME_LENGTH:
        raise OptionsError(f"{where}.name: at most {MAX_NAME_LENGTH} characters")
    return name.strip()


def check_deck_shape(numbers: list[str], where: str) -> None:
    """The construction rules that need no pool: size, copies, no Kira card."""
    if KIRA_NUMBER in numbers:
        raise OptionsError(
            f"{where}: the Kira card ({KIRA_NUMBER}) is kept apart and may not be in the deck"
        )
    if len(numbers) != DECK_SIZE:
        raise OptionsError(
            f"{where}: a deck holds exactly {DECK_SIZE} cards, this one holds {len(numbers)}"
        )
    for number, count in sorted(Counter(numbers).items()):
        if count > MAX_COPIES:
            raise OptionsError(
                f"{where}: at most {MAX_COPIES} copies of a card number, {number} has {count}"
            )


def check_deck_cards(numbers: list[str], pool: Mapping[str, Card], kira: Any, where: str) -> None:
    """The construction rules that need the pool: every card exists, none is the Kira card,
    and at most 4 of a printed number with its parallel printings (TCG-DECK-02, -07)."""
    kira_number = kira.get("number") if isinstance(kira, Mapping) else None
    for number in sorted(set(numbers)):
        if number == kira_number:
            raise ContentError(
                f"{where}: the Kira card ({number}) is kept apart and may not be in the deck"
            )
        if number not in pool:
            raise ContentError(f"{where}: card {number} is not in the card pool")
    printed = Counter(pool[n].printed for n in numbers)
    for number, count in sorted(printed.items()):
        if count > MAX_COPIES:
            raise OptionsError(
                f"{where}: at most {MAX_COPIES} copies of a card number (a parallel printing "
                f"counts as the same number), {number} has {count}"
            )


#: Things made once per pool (action books, card faces, tensor layouts), by the identity of
#: the pool, which is kept alive with them (a pool is never changed once parsed).
PER_POOL: dict[tuple[int, str], tuple[Mapping[str, Card], Any]] = {}


def per_pool(cards: Mapping[str, Card], name: str, make: Callable[[Mapping[str, Card]], T]) -> T:
    """``make(cards)``, made once per pool and name."""
    key = (id(cards), name)
    found = PER_POOL.get(key)
    if found is None or found[0] is not cards:
        if len(PER_POOL) >= 64:
            PER_POOL.clear()
        found = PER_POOL[key] = (cards, make(cards))
    return found[1]
