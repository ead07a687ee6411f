"""Loading and validating Werewolf content: Roles, Investigation cards and the set-ups.

The default content is ``content/werewolf.json``. A replacement is one JSON file of the same
shape; card effects and Role abilities are code, keyed by the ids below, so a file may change
names, texts, numbers, counts and which Roles play at each table size, not the ids. The shape
is the pydantic model ``Content``; a broken file is refused naming the file and the field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deathnote.engine.content import load_checked, package_json
from deathnote.engine.errors import ContentError

ROLE_IDS = ("kira", "worshipper", "l", "police", "watari")
CARD_IDS = (
    "death_note",
    "arrest",
    "handgun",
    "alias",
    "alibi",
    "witness",
    "surveillance",
    "vote",
    "exchange",
    "interrogation",
    "shinigami",
)
TEAMS = ("kira", "l")
TABLE_SIZES = ("4", "5", "6", "7")

RoleId = Literal["kira", "worshipper", "l", "police", "watari"]
CardId = Literal[
    "death_note",
    "arrest",
    "handgun",
    "alias",
    "alibi",
    "witness",
    "surveillance",
    "vote",
    "exchange",
    "interrogation",
    "shinigami",
]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class Role(_Strict):
    """One Role card."""

    id: RoleId
    team: Literal["kira", "l"]
    name: str
    text: str
    changes: list[CardId] = Field(description="cards whose number this Role may change")


class Card(_Strict):
    """One Investigation card."""

    id: CardId
    number: int = Field(ge=0)
    name: str
    text: str


class Setup(_Strict):
    """The Roles and cards of one table size."""

    roles: list[RoleId]
    cards: dict[CardId, int]
    turns_before_first_judgment: Literal[1, 2, 3]

    @model_validator(mode="after")
    def _cards(self) -> Setup:
        for cid, k in self.cards.items():
            if k < 0:
                raise ValueError(f"cards.{cid} must be a non-negative integer")
        if self.roles.count("kira") != 1 or "l" not in self.roles:
            raise ValueError("roles needs one Kira and an L")
        if self.cards.get("death_note") != 1:
            raise ValueError("cards.death_note must be 1")
        arrests = self.cards.get("arrest", 0)
        if arrests < 1:
            raise ValueError("cards.arrest must be at least 1")
        # Enough that the deck and discard pile never run dry together (a turn's draw):
        # two cards per hand, the drawn card, plus every Arrest that may leave the game.
        n = len(self.roles)
        if sum(self.cards.values()) < 2 * n + 2 + arrests:
            raise ValueError(f"cards must hold at least {2 * n + 2 + arrests} cards")
        return self


class Content(_Strict):
    """A whole content file."""

    roles: list[Role]
    cards: list[Card]
    setups: dict[Literal["4", "5", "6", "7"], Setup]

    @model_validator(mode="after")
    def _complete(self) -> Content:
        for what, ids, items in (
            ("roles", ROLE_IDS, self.roles),
            ("cards", CARD_IDS, self.cards),
        ):
            got = [x.id for x in items]
            if len(set(got)) != len(got):
                raise ValueError(f"{what} holds a duplicate id")
            if set(got) != set(ids):
                raise ValueError(f"{what} must hold exactly {list(ids)}")
        for size in TABLE_SIZES:
            table = self.setups.get(size)  # type: ignore[call-overload]
            if table is None:
                raise ValueError(f"setups.{size} is missing")
            if len(table.roles) != int(size):
                raise ValueError(f"setups.{size}.roles must list {size} Role ids")
        return self


def default_content() -> dict[str, Any]:
    """The content shipped with the package (a fresh copy)."""
    data: dict[str, Any] = package_json("deathnote.games.werewolf", "werewolf.json")
    return data


_DEFAULT: dict[str, Any] | None = None


def load(path: str | None) -> dict[str, Any]:
    """Default content, or the file at ``path``; validated either way.

    The default is read and checked once per process and shared by every match (content is
    never changed by a game)."""
    global _DEFAULT
    if path is None:
        if _DEFAULT is None:
            _DEFAULT = load_checked(None, default_content, validate, "werewolf")
        return _DEFAULT
    return load_checked(path, default_content, validate, "werewolf")


def validate(data: Any, where: str) -> None:
    """Raise ContentError naming the file and field if ``data`` is not valid content."""
    try:
        Content.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(p) for p in error["loc"]) or "(top)"
        message = str(error["msg"]).removeprefix("Value error, ")
        raise ContentError(f"{where}: field {field!r}: {message}") from None
