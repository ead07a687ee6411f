"""Content of Confrontation as data: the Maps, Lead decks, Suspect decks, dice and trackers.

``load(path, chapter)`` reads one chapter file (``content/chapter1.json`` by default),
validates every field (``ContentError`` names the file and the field) and returns the plain
JSON dict; ``Tables`` turns that dict into the precomputed lookups the rules use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deathnote.engine.actions import Action
from deathnote.engine.errors import ContentError

CONTENT_DIR = Path(__file__).parent / "content"
CRIME_TYPES = ("knife", "gun", "bomb")
RYUK_ABILITIES = ("change_dice", "points_2", "switch", "points_3")
INTEL_ABILITIES = ("change_dice", "extra_suspect", "switch", "extra_quiet_night")
LOCAL_RADIUS = 2  # the 5x5 Search Grid centred on a Home


def points_text(count: int) -> str:
    """ "1 point", "2 points"."""
    return "1 point" if count == 1 else f"{count} points"


#: the variants of the packaged content (option ``variant``): the printed game, and a tiny
#: one small enough to solve (rules doc CONF-TINY-01)
VARIANTS = ("standard", "tiny")


def default_path(chapter: int, variant: str = "standard") -> Path:
    """The packaged content file of a chapter (of the tiny variant: ``tiny.json``)."""
    if variant == "tiny":
        return CONTENT_DIR / "tiny.json"
    return CONTENT_DIR / f"chapter{chapter}.json"


_FILES: dict[tuple[str, int], tuple[tuple[int, int], dict[str, Any]]] = {}
_TABLES: dict[int, tuple[Any, int, str, Tables]] = {}


def load(path: str | Path | None, chapter: int, variant: str = "standard") -> dict[str, Any]:
    """Read and validate a chapter's content file (the packaged one of the variant when
    ``path`` is None).

    An unchanged file is read once per process; the returned dict is shared: never mutate it.
    """
    packaged_key = "" if variant == "standard" else f":{variant}"
    if path is None:  # the packaged files never change while the process runs
        packaged = _FILES.get((packaged_key, chapter))
        if packaged is not None:
            return packaged[1]
    file = Path(path) if path is not None else default_path(chapter, variant)
    try:
        stat = file.stat()
        key = (str(path) if path is not None else packaged_key, chapter)
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = _FILES.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        data = orjson.loads(file.read_bytes())
    except OSError:
        raise ContentError(f"{file}: cannot read the file") from None
    except orjson.JSONDecodeError:
        raise ContentError(f"{file}: not valid JSON") from None
    validate(data, str(file), chapter)
    _FILES[key] = (stamp, data)
    tables(data, chapter, variant)
    return data  # type: ignore[no-any-return]


def tables(data: Any, chapter: int, variant: str = "standard") -> Tables:
    """The lookups of validated content, built once per content object."""
    hit = _TABLES.get(id(data))
    if hit is not None and hit[0] is data and hit[1] == chapter and hit[2] == variant:
        return hit[3]
    validate(data, "(content)", chapter)
    built = Tables.build(data, chapter, variant)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(data)] = (data, chapter, variant, built)  # holding ``data`` keeps its id unique
    return built


# -- the content file's schema (pydantic: types and ranges; strict, so a bool is no number) --
Crime = Literal["knife", "gun", "bomb"]


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class CrimeTypeModel(_Model):
    """One crime type: its name on the cards and its points."""

    name: str
    points: int = Field(ge=1, le=99)


class CrimeTypesModel(_Model):
    """The three crime types."""

    knife: CrimeTypeModel
    gun: CrimeTypeModel
    bomb: CrimeTypeModel


class HomeModel(_Model):
    """A Suspect's Home on the Map."""

    letter: str = Field(min_length=1)
    x: int = Field(ge=0)
    y: int = Field(ge=0)


class CriminalModel(_Model):
    """A numbered criminal on the Map."""

    number: int = Field(ge=1, le=9999)
    type: Crime
    x: int = Field(ge=0)
    y: int = Field(ge=0)


class MapModel(_Model):
    """The Map: its size, the Suspects' Homes and the criminals."""

    width: int = Field(ge=5, le=60)
    height: int = Field(ge=5, le=60)
    suspects: list[HomeModel] = Field(min_length=2)
    criminals: list[CriminalModel] = Field(min_length=2)


class SceneModel(_Model):
    """One crime scene of a Lead card (Apples: Chapter 2)."""

    type: Crime
    apples: int = Field(0, ge=0, le=9)


class LeadModel(_Model):
    """A Lead card: scenes A and B."""

    number: int = Field(ge=1, le=9999)
    A: SceneModel
    B: SceneModel


class SuspectCardModel(_Model):
    """A Suspect card (Stars: Chapter 2)."""

    letter: str
    stars: int = Field(0, ge=0, le=9)


class RowModel(_Model):
    """A row of the Ryuk or Intel tracker: its ability and its cost."""

    ability: str
    cost: int = Field(ge=1, le=20)


class ContentModel(_Model):
    """One chapter's content file."""

    crime_types: CrimeTypesModel
    dice: list[list[Crime]] = Field(min_length=3, max_length=3)
    map: MapModel
    leads: list[LeadModel] = Field(min_length=1)
    suspects: list[SuspectCardModel] = Field(min_length=2)
    ryuk_rows: list[RowModel] | None = None
    intel_rows: list[RowModel] | None = None
    #: the horizon: after this many days L must accuse (the tiny variant; None: no limit)
    days: int | None = Field(None, ge=1, le=99)


def _where(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as the file's field path: ``map.criminals[3].type``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def validate(data: Any, file: str, chapter: int) -> None:
    """Raise ContentError (naming ``file`` and the field) unless the content is usable."""

    def fail(field: str, problem: str) -> ContentError:
        return ContentError(f"{file}: field {field}: {problem}")

    if not isinstance(data, dict):
        raise fail("(top level)", "must be an object")
    try:
        model = ContentModel.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("list[")))
        given = error.get("input")
        shown = ""
        if error["type"] != "missing" and isinstance(given, str | int | float | bool):
            shown = f" (not {given!r:.40})"
        raise fail(_where(loc), f"{error['msg']}{shown}") from None
    for i, die in enumerate(model.dice):
        if not die:
            raise fail(f"dice[{i}]", "a die needs at least one face")
    board = model.map
    cells: set[tuple[int, int]] = set()
    letters: list[str] = []
    for name, items in (("suspects", board.suspects), ("criminals", board.criminals)):
        for i, item in enumerate(items):
            if item.x >= board.width or item.y >= board.height:
                raise fail(f"map.{name}[{i}]", f"square ({item.x}, {item.y}) is off the map")
            if (item.x, item.y) in cells:
                raise fail(f"map.{name}[{i}]", f"square {(item.x, item.y)} is already taken")
            cells.add((item.x, item.y))
    for i, home in enumerate(board.suspects):
        if home.letter in letters:
            raise fail(f"map.suspects[{i}].letter", f"must be a new name, not {home.letter!r}")
        letters.append(home.letter)
    numbers: set[int] = set()
    for i, k in enumerate(board.criminals):
        if k.number in numbers:
            raise fail(f"map.criminals[{i}].number", f"criminal {k.number} appears twice")
        numbers.add(k.number)
    seen: set[str] = set()
    for i, card in enumerate(model.suspects):
        if card.letter not in letters:
            raise fail(f"suspects[{i}].letter", f"{card.letter!r} has no Home on the map")
        if card.letter in seen:
            raise fail(f"suspects[{i}].letter", f"{card.letter!r} appears twice")
        seen.add(card.letter)
    if seen != set(letters):
        missing = sorted(set(letters) - seen)
        raise fail("suspects", f"no Suspect card for {', '.join(missing)}")
    if chapter == 2:
        for key, names in (("ryuk_rows", RYUK_ABILITIES), ("intel_rows", INTEL_ABILITIES)):
            rows = getattr(model, key)
            if rows is None or len(rows) != len(names):
                raise fail(key, f"must have exactly {len(names)} rows")
            for i, row in enumerate(rows):
                if row.ability not in names:
                    raise fail(f"{key}[{i}].ability", f"must be one of {', '.join(names)}")
            if sorted(r.ability for r in rows) != sorted(names):
                raise fail(key, f"must hold each ability once: {', '.join(names)}")


@dataclass(frozen=True, slots=True)
class Tables:
    """Precomputed lookups of one chapter's content (indices, not numbers, inside)."""

    chapter: int
    width: int
    height: int
    points: dict[str, int]
    type_names: dict[str, str]
    dice: tuple[tuple[str, ...], ...]
    letters: tuple[str, ...]
    homes: tuple[tuple[int, int], ...]
    numbers: tuple[int, ...]
    crime_type: tuple[str, ...]
    crime_cell: tuple[tuple[int, int], ...]
    index_of_number: dict[int, int]
    #: bit s set when criminal c lies in Suspect s's Local Area
    local_mask: tuple[int, ...]
    #: criminal indices in each Suspect's Local Area
    local_criminals: tuple[tuple[int, ...], ...]
    leads: tuple[tuple[tuple[str, int], tuple[str, int]], ...]
    lead_numbers: tuple[int, ...]
    #: Stars on each Suspect's card (Chapter 2), by Suspect index
    stars: tuple[int, ...]
    ryuk_rows: tuple[tuple[str, int], ...]
    intel_rows: tuple[tuple[str, int], ...]
    #: per criminal index: the Action featuring it on the news / killing it
    news_actions: tuple[Action, ...]
    kill_actions: tuple[Action, ...]
    #: per crime type: criminal indices of that type
    by_type: dict[str, tuple[int, ...]]
    #: per crime type: ``news_actions`` of the criminals of that type
    news_by_type: dict[str, tuple[Action, ...]]
    #: per criminal index: ``news_by_type`` of its type without its own action
    news_but: tuple[tuple[Action, ...], ...]
    name_actions: tuple[Action, ...]
    #: per criminal index: "number (Type name)" as the Nightly News announces it
    news_names: tuple[str, ...]
    #: per criminal index: the Suspects whose Local Area it lies outside
    outside_of: tuple[tuple[int, ...], ...]
    #: per criminal index: 1 for each Suspect whose Local Area it lies outside, else 0
    outside_add: tuple[tuple[int, ...], ...]
    #: the horizon: from Day ``days + 1`` L must accuse (0: no limit; CONF-TINY-01)
    days: int = 0
    #: the option ``variant`` the game is played with (its action table and tensor layout)
    variant: str = "standard"
    #: the rules' memo of values made from this content and shared by every game that
    #: plays it (log events, outcomes, lists of legal actions: never changed once made)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, data: dict[str, Any], chapter: int, variant: str = "standard") -> Tables:
        """Lookups from validated content."""
        board = data["map"]
        types = data["crime_types"]
        letters = tuple(s["letter"] for s in board["suspects"])
        homes = tuple((s["x"], s["y"]) for s in board["suspects"])
        crims = sorted(board["criminals"], key=lambda k: k["number"])
        cells = tuple((k["x"], k["y"]) for k in crims)
        masks = []
        for cx, cy in cells:
            mask = 0
            for s, (hx, hy) in enumerate(homes):
                if abs(hx - cx) <= LOCAL_RADIUS and abs(hy - cy) <= LOCAL_RADIUS:
                    mask |= 1 << s
            masks.append(mask)
        local = tuple(
            tuple(c for c, m in enumerate(masks) if m >> s & 1) for s in range(len(homes))
        )
        leads = tuple(
            (
                (lead["A"]["type"], int(lead["A"].get("apples", 0)) if chapter == 2 else 0),
                (lead["B"]["type"], int(lead["B"].get("apples", 0)) if chapter == 2 else 0),
            )
            for lead in data["leads"]
        )
        stars_of = {
            card["letter"]: int(card.get("stars", 0)) if chapter == 2 else 0
            for card in data["suspects"]
        }
        rows = data.get("ryuk_rows", []) if chapter == 2 else []
        irows = data.get("intel_rows", []) if chapter == 2 else []
        news_actions = tuple(
            Action.make(
                "news",
                f"Criminal {k['number']} ({types[k['type']]['name']})",
                criminal=k["number"],
            )
            for k in crims
        )
        return cls(
            chapter=chapter,
            width=board["width"],
            height=board["height"],
            points={t: data["crime_types"][t]["points"] for t in CRIME_TYPES},
            type_names={t: data["crime_types"][t]["name"] for t in CRIME_TYPES},
            dice=tuple(tuple(d) for d in data["dice"]),
            letters=letters,
            homes=homes,
            numbers=tuple(k["number"] for k in crims),
            crime_type=tuple(k["type"] for k in crims),
            crime_cell=cells,
            index_of_number={k["number"]: i for i, k in enumerate(crims)},
            local_mask=tuple(masks),
            local_criminals=local,
            leads=leads,
            lead_numbers=tuple(lead["number"] for lead in data["leads"]),
            stars=tuple(stars_of.get(letter, 0) for letter in letters),
            ryuk_rows=tuple((r["ability"], r["cost"]) for r in rows),
            intel_rows=tuple((r["ability"], r["cost"]) for r in irows),
            news_actions=news_actions,
            kill_actions=tuple(
                Action.make(
                    "kill",
                    f"Kill criminal {k['number']} ({types[k['type']]['name']}, "
                    f"{points_text(types[k['type']]['points'])})",
                    criminal=k["number"],
                )
                for k in crims
            ),
            by_type={
                kind: tuple(i for i, k in enumerate(crims) if k["type"] == kind)
                for kind in CRIME_TYPES
            },
            news_by_type={
                kind: tuple(
                    action
                    for action, k in zip(news_actions, crims, strict=True)
                    if k["type"] == kind
                )
                for kind in CRIME_TYPES
            },
            news_but=tuple(
                tuple(
                    action
                    for action, other in zip(news_actions, crims, strict=True)
                    if other["type"] == k["type"] and other is not k
                )
                for k in crims
            ),
            name_actions=tuple(
                Action.make("name", f"Suspect {letter} is Kira", suspect=letter)
                for letter in letters
            ),
            news_names=tuple(f"{k['number']} ({types[k['type']]['name']})" for k in crims),
            outside_of=tuple(tuple(s for s in range(len(homes)) if not m >> s & 1) for m in masks),
            outside_add=tuple(
                tuple(0 if m >> s & 1 else 1 for s in range(len(homes))) for m in masks
            ),
            days=int(data.get("days") or 0),
            variant=variant,
        )
