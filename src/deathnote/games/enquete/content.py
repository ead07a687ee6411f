"""Loading and validating Le Jeu d'Enquête content: Roles, Actions and Investigations.

The default content is the three JSON files of ``content/``. A replacement is one JSON file
holding the three keys ``roles``, ``actions`` and ``investigations`` (and ``piles``) in the
same format. Every text carries ``source``: "printed" or "reconstructed".
"""

from __future__ import annotations

from functools import cache
from typing import Any

from deathnote.engine.content import load_checked, package_json
from deathnote.engine.content import need as _need

ROLE_IDS = (
    "detective",
    "light",
    "misa",
    "higuchi",
    "yagami",
    "matsuda",
    "aizawa",
    "mogi",
    "watari",
)
SOURCES = ("printed", "reconstructed")
TIMINGS = ("turn", "anytime", "reaction")


def default_content() -> dict[str, Any]:
    """The content shipped with the package."""
    data: dict[str, Any] = {}
    for name in ("roles", "actions", "investigations"):
        data.update(package_json("deathnote.games.enquete", f"{name}.json"))
    return data


def load(path: str | None) -> dict[str, Any]:
    """Default content, or the file at ``path``; validated either way. The default is read
    and validated once per process: content is never changed (views copy what they show)."""
    if path is None:
        return _default()
    return load_checked(path, default_content, validate, "enquete")


@cache
def _default() -> dict[str, Any]:
    return load_checked(None, default_content, validate, "enquete")


def validate(data: Any, where: str) -> None:
    """Raise ContentError naming the file and field when the content is unusable."""
    _need(isinstance(data, dict), where, "(top)", "must be an object")
    for key in ("roles", "actions", "investigations", "piles"):
        _need(isinstance(data.get(key), list), where, key, "must be a list")
    roles = data["roles"]
    ids = [r.get("id") if isinstance(r, dict) else None for r in roles]
    _need(sorted(map(str, ids)) == sorted(ROLE_IDS), where, "roles", f"must hold {ROLE_IDS}")
    for i, role in enumerate(roles):
        _need(
            role.get("source") in SOURCES, where, f"roles[{i}].source", f"must be one of {SOURCES}"
        )
        _need(
            role.get("faction") in ("detective", "kira", "investigator"),
            where,
            f"roles[{i}].faction",
            "must be detective, kira or investigator",
        )
        objs = role.get("objectives")
        _need(
            isinstance(objs, list) and bool(objs), where, f"roles[{i}].objectives", "must be a list"
        )
        for j, obj in enumerate(objs):
            _need(
                isinstance(obj, dict)
                and isinstance(obj.get("apples"), int)
                and bool(obj.get("id")),
                where,
                f"roles[{i}].objectives[{j}]",
                "needs an id and integer apples",
            )
    actions = data["actions"]
    _need(len(actions) == 46, where, "actions", "must list the 46 Action cards")
    for i, card in enumerate(actions):
        _need(isinstance(card, dict), where, f"actions[{i}]", "must be an object")
        _need(card.get("number") == i + 1, where, f"actions[{i}].number", f"must be {i + 1}")
        _need(card.get("timing") in TIMINGS, where, f"actions[{i}].timing", f"must be in {TIMINGS}")
        _need(card.get("source") in SOURCES, where, f"actions[{i}].source", "must be a source")
        for flag in ("ryuk", "action_symbol", "six_plus", "first_games_removable"):
            _need(isinstance(card.get(flag), bool), where, f"actions[{i}].{flag}", "must be a bool")
        _need(isinstance(card.get("id"), str), where, f"actions[{i}].id", "must be a string")
    tiles = data["investigations"]
    _need(len(tiles) == 25, where, "investigations", "must list the 25 tiles")
    for i, tile in enumerate(tiles):
        _need(isinstance(tile, dict), where, f"investigations[{i}]", "must be an object")
        _need(tile.get("number") == i + 1, where, f"investigations[{i}].number", f"must be {i + 1}")
        _need(
            tile.get("pile") == i // 5 + 1,
            where,
            f"investigations[{i}].pile",
            f"must be {i // 5 + 1}",
        )
        _need(
            isinstance(tile.get("suspicions"), int) and tile["suspicions"] >= 0,
            where,
            f"investigations[{i}].suspicions",
            "must be a non-negative integer",
        )
        for flag in ("ryuk", "checks_role"):
            _need(
                isinstance(tile.get(flag), bool),
                where,
                f"investigations[{i}].{flag}",
                "must be a bool",
            )
        _need(
            tile.get("source") in SOURCES, where, f"investigations[{i}].source", "must be a source"
        )
    piles = data["piles"]
    _need(len(piles) == 5, where, "piles", "must describe the 5 piles")
    for i, pile in enumerate(piles):
        _need(
            pile.get("direction") in ("clockwise", "counterclockwise"),
            where,
            f"piles[{i}].direction",
            "must be clockwise or counterclockwise",
        )
