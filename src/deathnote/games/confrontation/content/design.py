"""How the default Maps were designed (run by hand; never imported by the game).

The printed Maps are not public. This script places Suspect Homes and numbered criminals on
a grid from a fixed seed, then checks the constraints the rulebook's examples need; the
result is written to ``chapter1.json`` / ``chapter2.json`` (the lead and suspect decks in
those files are written by hand). Run: ``python -m deathnote.games.confrontation.content.design``.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

HERE = Path(__file__).parent
LETTERS = string.ascii_uppercase[:20]


def local(home: tuple[int, int], cell: tuple[int, int]) -> bool:
    """Whether a cell lies in the 5x5 Local Area centred on a Home."""
    return abs(home[0] - cell[0]) <= 2 and abs(home[1] - cell[1]) <= 2


def place(
    seed: int, width: int, height: int, counts: dict[str, int], fixed: dict[int, str]
) -> tuple[dict[str, tuple[int, int]], list[tuple[int, int, str]]]:
    """Homes spread out (no two closer than 3 in both axes), criminals anywhere free."""
    rng = random.Random(seed)
    homes: dict[str, tuple[int, int]] = {}
    cells = [(x, y) for y in range(height) for x in range(width)]
    rng.shuffle(cells)
    for cell in cells:
        if len(homes) == 20:
            break
        if all(max(abs(cell[0] - h[0]), abs(cell[1] - h[1])) >= 3 for h in homes.values()):
            homes[LETTERS[len(homes)]] = cell
    taken = set(homes.values())
    free = [c for c in cells if c not in taken]
    rng.shuffle(free)
    types = [t for t, n in counts.items() for _ in range(n)]
    rng.shuffle(types)
    for number, kind in fixed.items():  # the rulebook's example criminals keep their types
        other = next(i for i, t in enumerate(types) if t == kind and i + 1 not in fixed)
        types[number - 1], types[other] = types[other], types[number - 1]
    crims = [(free[i][0], free[i][1], types[i]) for i in range(len(types))]
    return homes, crims


def write(name: str, width: int, height: int, homes: dict, crims: list) -> None:
    """Rewrite the map part of a content file, keeping its decks."""
    path = HERE / name
    data = json.loads(path.read_text()) if path.exists() else {}
    data["map"] = {
        "width": width,
        "height": height,
        "suspects": [{"letter": k, "x": v[0], "y": v[1]} for k, v in sorted(homes.items())],
        "criminals": [
            {"number": i + 1, "type": t, "x": x, "y": y} for i, (x, y, t) in enumerate(crims)
        ],
    }
    path.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    print("edit the seeds and constraints here, then rerun")
