"""Loading and validating the Investigation Card Game content.

The rulebook does not say which characters are on the 8 Identity cards, nor how many of the
6 Mission cards besides Kira and L are X-Kira or Investigation Team Member. Both are data in
``content/icg.json`` (see docs/rules/icg.md, ICG-CONTENT-01 and -02); a replacement file in
the same format may change them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deathnote.engine.content import load_checked, package_json
from deathnote.engine.content import need as _need
from deathnote.engine.errors import ContentError

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


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(min_length=1, description="Stable id (used in actions and records).")
    name: str = Field(min_length=1, description="The printed name.")


class IdentityCard(_Card):
    """One Identity card: a character."""

    source: str | None = Field(None, description="Where the name comes from (a note).")


class MissionCard(_Card):
    """One Mission type."""

    team: str | None = Field(None, description="The team it plays for (a note).")


class OtherMissions(BaseModel):
    """How many of the 6 Mission cards besides Kira and L are of each kind."""

    model_config = ConfigDict(extra="forbid", strict=True)

    x_kira: int = Field(ge=0, description="X-Kira cards.")
    team_member: int = Field(ge=0, description="Investigation Team Member cards.")


class IcgContent(BaseModel):
    """The content file of the Investigation Card Game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    identities: list[IdentityCard] = Field(
        min_length=IDENTITY_COUNT,
        max_length=IDENTITY_COUNT,
        description=f"Exactly {IDENTITY_COUNT} Identity cards.",
    )
    missions: list[MissionCard] = Field(
        description=f"The Missions {list(MISSION_IDS)}, in this order."
    )
    other_missions: OtherMissions


def validate(data: Any, where: str) -> None:
    """Raise ContentError naming the file and field when the content is broken."""
    _need(isinstance(data, dict), where, "(top level)", "must be an object")
    try:
        model = IcgContent.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = "".join(
            f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
            for i, p in enumerate(error["loc"])
        )
        if field.startswith("identities") and error["type"] in ("too_short", "too_long"):
            why = f"must list exactly {IDENTITY_COUNT} Identity cards"
        else:
            why = error["msg"].lower()
        raise ContentError(f"{where}: field {field or '(top level)'!r} {why}") from None
    seen: set[str] = set()
    for i, card in enumerate(model.identities):
        _need(card.id not in seen, where, f"identities[{i}].id", "is a duplicate")
        _need(card.id not in MISSION_IDS, where, f"identities[{i}].id", "is a Mission id")
        seen.add(card.id)
    _need(
        [m.id for m in model.missions] == list(MISSION_IDS),
        where,
        "missions",
        f"must list the Missions {list(MISSION_IDS)} in this order",
    )
    mix = model.other_missions
    _need(
        mix.x_kira + mix.team_member == OTHER_MISSIONS,
        where,
        "other_missions",
        f"must give x_kira and team_member counts adding up to {OTHER_MISSIONS}",
    )
