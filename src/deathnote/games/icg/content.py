"""Loading and validating the Investigation Card Game content.

The rulebook does not say which characters are on the 8 Identity cards, nor how many of the
6 Mission cards besides Kira and L are X-Kira or Investigation Team Member. Both are data in
``content/icg.json`` (see docs/rules/icg.md, ICG-CONTENT-01 and -02); a replacement file in
the same format may change them.
"""

from __future__ import annotations

from typing import Any

from deathnote.engine.content import load_checked, package_json
from deathnote.engine.content import need as _need

MISSION_IDS = ("kira", "l", "x_kira", "team_member")
"""The four Mission types; every Clue set holds one Mission-Clue of each."""

IDENTITY_COUNT = 8
OTHER_MISSIONS = 6


def default_content() -> dict[str, Any]:
    """The content shipped with the package."""
    data: dict[str, Any] = package_json("deathnote.games.icg", "icg.json")
    return data


_DEFAULT: dict[str, Any] = {}


def load(path: str | None) -> dict[str, Any]:
    """Default content, or the file at ``path``; validated either way.

    The default is read and checked once; every match shares it and never changes it.
    """
    if path is None:
        if not _DEFAULT:
            _DEFAULT.update(load_checked(None, default_content, validate, "icg"))
        return _DEFAULT
    return load_checked(path, default_content, validate, "icg")


def validate(data: Any, where: str) -> None:
    """Raise ContentError naming the file and field when the content is broken."""
    _need(isinstance(data, dict), where, "(top level)", "must be an object")
    ids = data.get("identities")
    _need(
        isinstance(ids, list) and len(ids) == IDENTITY_COUNT,
        where,
        "identities",
        f"must list exactly {IDENTITY_COUNT} Identity cards",
    )
    seen: set[str] = set()
    for i, card in enumerate(ids):
        ok = isinstance(card, dict) and all(
            isinstance(card.get(k), str) and card.get(k) for k in ("id", "name")
        )
        _need(ok, where, f"identities[{i}]", "needs a non-empty 'id' and 'name'")
        _need(card["id"] not in seen, where, f"identities[{i}].id", "is a duplicate")
        _need(card["id"] not in MISSION_IDS, where, f"identities[{i}].id", "is a Mission id")
        seen.add(card["id"])
    missions = data.get("missions")
    _need(
        isinstance(missions, list)
        and [m.get("id") if isinstance(m, dict) else None for m in missions] == list(MISSION_IDS),
        where,
        "missions",
        f"must list the Missions {list(MISSION_IDS)} in this order",
    )
    for i, m in enumerate(missions):
        _need(
            isinstance(m.get("name"), str) and m["name"], where, f"missions[{i}].name", "is missing"
        )
    mix = data.get("other_missions")
    _need(
        isinstance(mix, dict)
        and set(mix) == {"x_kira", "team_member"}
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in mix.values())
        and sum(mix.values()) == OTHER_MISSIONS,
        where,
        "other_missions",
        f"must give x_kira and team_member counts adding up to {OTHER_MISSIONS}",
    )
