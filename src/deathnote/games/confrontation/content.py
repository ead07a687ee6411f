"""Content of Confrontation as data: the Maps, Lead decks, Suspect decks, dice and trackers.

``load(path, chapter)`` reads one chapter file (``content/chapter1.json`` by default),
validates every field (``ContentError`` names the file and the field) and returns the plain
JSON dict; ``Tables`` turns that dict into the precomputed lookups the rules use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from deathnote.engine.actions import Action
from deathnote.engine.errors import ContentError

CONTENT_DIR = Path(__file__).parent / "content"
CRIME_TYPES = ("knife", "gun", "bomb")
RYUK_ABILITIES = ("change_dice", "points_2", "switch", "points_3")
INTEL_ABILITIES = ("change_dice", "extra_suspect", "switch", "extra_quiet_night")
LOCAL_RADIUS = 2  # the 5x5 Search Grid centred on a Home


def default_path(chapter: int) -> Path:
    """The packaged content file of a chapter."""
    return CONTENT_DIR / f"chapter{chapter}.json"


_FILES: dict[tuple[str, int], tuple[tuple[int, int], dict[str, Any]]] = {}
_TABLES: dict[int, tuple[Any, int, Tables]] = {}


def load(path: str | Path | None, chapter: int) -> dict[str, Any]:
    """Read and validate a chapter's content file (the packaged one when ``path`` is None).

    An unchanged file is read once per process; the returned dict is shared: never mutate it.
    """
    if path is None:  # the packaged files never change while the process runs
        packaged = _FILES.get(("", chapter))
        if packaged is not None:
            return packaged[1]
    file = Path(path) if path is not None else default_path(chapter)
    try:
        stat = file.stat()
        key = (str(path) if path is not None else "", chapter)
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = _FILES.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        data = orjson.loads(file.read_bytes())
    except OSError as exc:
        raise ContentError(f"{file}: cannot read the file ({exc.strerror})") from None
    except orjson.JSONDecodeError as exc:
        raise ContentError(f"{file}: not valid JSON ({exc})") from None
    validate(data, str(file), chapter)
    _FILES[key] = (stamp, data)
    tables(data, chapter)
    return data  # type: ignore[no-any-return]


def tables(data: Any, chapter: int) -> Tables:
    """The lookups of validated content, built once per content object."""
    hit = _TABLES.get(id(data))
    if hit is not None and hit[0] is data and hit[1] == chapter:
        return hit[2]
    validate(data, "(content)", chapter)
    built = Tables.build(data, chapter)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(data)] = (data, chapter, built)  # holding ``data`` keeps its id unique
    return built


class _Checker:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, field: str, problem: str) -> ContentError:
        return ContentError(f"{self.file}: field {field}: {problem}")

    def obj(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, "must be an object")
        return value

    def lst(self, value: Any, field: str, min_len: int = 1) -> list[Any]:
        if not isinstance(value, list) or len(value) < min_len:
            raise self.fail(field, f"must be a list of at least {min_len} item(s)")
        return value

    def int_(self, value: Any, field: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(field, f"must be an integer from {lo} to {hi}, not {value!r}")
        return value

    def crime(self, value: Any, field: str) -> str:
        if value not in CRIME_TYPES:
            raise self.fail(field, f"must be one of {', '.join(CRIME_TYPES)}, not {value!r}")
        return str(value)


def validate(data: Any, file: str, chapter: int) -> None:
    """Raise ContentError (naming ``file`` and the field) unless the content is usable."""
    c = _Checker(file)
    data = c.obj(data, "(top level)")
    types = c.obj(data.get("crime_types"), "crime_types")
    for kind in CRIME_TYPES:
        entry = c.obj(types.get(kind), f"crime_types.{kind}")
        if not isinstance(entry.get("name"), str):
            raise c.fail(f"crime_types.{kind}.name", "must be a string")
        c.int_(entry.get("points"), f"crime_types.{kind}.points", 1, 99)
    dice = c.lst(data.get("dice"), "dice")
    if len(dice) != 3:
        raise c.fail("dice", "there are exactly 3 Crime Type dice")
    for i, die in enumerate(dice):
        for j, face in enumerate(c.lst(die, f"dice[{i}]")):
            c.crime(face, f"dice[{i}][{j}]")
    board = c.obj(data.get("map"), "map")
    width = c.int_(board.get("width"), "map.width", 5, 60)
    height = c.int_(board.get("height"), "map.height", 5, 60)
    cells: set[tuple[int, int]] = set()
    suspects = c.lst(board.get("suspects"), "map.suspects", 2)
    letters: list[str] = []
    for i, s in enumerate(suspects):
        s = c.obj(s, f"map.suspects[{i}]")
        letter = s.get("letter")
        if not isinstance(letter, str) or not letter or letter in letters:
            raise c.fail(
                f"map.suspects[{i}].letter", f"must be a new non-empty name, not {letter!r}"
            )
        letters.append(letter)
        cell = (
            c.int_(s.get("x"), f"map.suspects[{i}].x", 0, width - 1),
            c.int_(s.get("y"), f"map.suspects[{i}].y", 0, height - 1),
        )
        if cell in cells:
            raise c.fail(f"map.suspects[{i}]", f"square {cell} is already taken")
        cells.add(cell)
    criminals = c.lst(board.get("criminals"), "map.criminals", 3)
    numbers: set[int] = set()
    for i, k in enumerate(criminals):
        k = c.obj(k, f"map.criminals[{i}]")
        number = c.int_(k.get("number"), f"map.criminals[{i}].number", 1, 9999)
        if number in numbers:
            raise c.fail(f"map.criminals[{i}].number", f"criminal {number} appears twice")
        numbers.add(number)
        c.crime(k.get("type"), f"map.criminals[{i}].type")
        cell = (
            c.int_(k.get("x"), f"map.criminals[{i}].x", 0, width - 1),
            c.int_(k.get("y"), f"map.criminals[{i}].y", 0, height - 1),
        )
        if cell in cells:
            raise c.fail(f"map.criminals[{i}]", f"square {cell} is already taken")
        cells.add(cell)
    leads = c.lst(data.get("leads"), "leads")
    for i, lead in enumerate(leads):
        lead = c.obj(lead, f"leads[{i}]")
        c.int_(lead.get("number"), f"leads[{i}].number", 1, 9999)
        for side in ("A", "B"):
            scene = c.obj(lead.get(side), f"leads[{i}].{side}")
            c.crime(scene.get("type"), f"leads[{i}].{side}.type")
            if chapter == 2:
                c.int_(scene.get("apples", 0), f"leads[{i}].{side}.apples", 0, 9)
    deck = c.lst(data.get("suspects"), "suspects", 2)
    seen: set[str] = set()
    for i, card in enumerate(deck):
        card = c.obj(card, f"suspects[{i}]")
        letter = card.get("letter")
        if letter not in letters:
            raise c.fail(f"suspects[{i}].letter", f"{letter!r} has no Home on the map")
        if letter in seen:
            raise c.fail(f"suspects[{i}].letter", f"{letter!r} appears twice")
        seen.add(letter)
        if chapter == 2:
            c.int_(card.get("stars", 0), f"suspects[{i}].stars", 0, 9)
    if seen != set(letters):
        missing = sorted(set(letters) - seen)
        raise c.fail("suspects", f"no Suspect card for {', '.join(missing)}")
    if chapter == 2:
        for key, names in (("ryuk_rows", RYUK_ABILITIES), ("intel_rows", INTEL_ABILITIES)):
            rows = c.lst(data.get(key), key, len(names))
            if len(rows) != len(names):
                raise c.fail(key, f"must have exactly {len(names)} rows")
            for i, row in enumerate(rows):
                row = c.obj(row, f"{key}[{i}]")
                if row.get("ability") not in names:
                    raise c.fail(f"{key}[{i}].ability", f"must be one of {', '.join(names)}")
                c.int_(row.get("cost"), f"{key}[{i}].cost", 1, 20)
            if sorted(r["ability"] for r in rows) != sorted(names):
                raise c.fail(key, f"must hold each ability once: {', '.join(names)}")


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
    name_actions: tuple[Action, ...]
    #: per criminal index: "number (Type name)" as the Nightly News announces it
    news_names: tuple[str, ...]
    #: per criminal index: the Suspects whose Local Area it lies outside
    outside_of: tuple[tuple[int, ...], ...]

    @classmethod
    def build(cls, data: dict[str, Any], chapter: int) -> Tables:
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
            news_actions=tuple(
                Action.make(
                    "news",
                    f"Criminal {k['number']} ({types[k['type']]['name']})",
                    criminal=k["number"],
                )
                for k in crims
            ),
            kill_actions=tuple(
                Action.make(
                    "kill",
                    f"Kill criminal {k['number']} ({types[k['type']]['name']}, "
                    f"{types[k['type']]['points']} points)",
                    criminal=k["number"],
                )
                for k in crims
            ),
            by_type={
                kind: tuple(i for i, k in enumerate(crims) if k["type"] == kind)
                for kind in CRIME_TYPES
            },
            name_actions=tuple(
                Action.make("name", f"Suspect {letter} is Kira", suspect=letter)
                for letter in letters
            ),
            news_names=tuple(f"{k['number']} ({types[k['type']]['name']})" for k in crims),
            outside_of=tuple(tuple(s for s in range(len(homes)) if not m >> s & 1) for m in masks),
        )
