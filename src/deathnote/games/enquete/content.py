"""Loading and validating Le Jeu d'Enquête content: Roles, Actions and Investigations.

The default content is the three JSON files of ``content/``. A replacement is one JSON file
holding the three keys ``roles``, ``actions`` and ``investigations`` (and ``piles``) in the
same format. Every text carries ``source``: "printed" or "reconstructed".
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deathnote.engine.content import load_checked, package_json
from deathnote.engine.content import need as _need
from deathnote.engine.errors import ContentError

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


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Objective(_Strict):
    """One objective of a Role: its check (registered by id), Apples, text."""

    id: str = Field(min_length=1)
    apples: int
    text: str


class Role(_Strict):
    """A Role card."""

    id: Literal[ROLE_IDS]  # type: ignore[valid-type]
    name: str
    faction: Literal["detective", "kira", "investigator"]
    source: Literal[SOURCES]  # type: ignore[valid-type]
    objectives: list[Objective] = Field(min_length=1)


class ActionCard(_Strict):
    """An Action card (its effect is code registered by ``id``)."""

    number: int
    id: str
    name: str
    name_source: Literal[SOURCES] | None = None  # type: ignore[valid-type]
    ryuk: bool
    action_symbol: bool
    timing: Literal[TIMINGS]  # type: ignore[valid-type]
    six_plus: bool
    first_games_removable: bool
    text: str
    source: Literal[SOURCES]  # type: ignore[valid-type]


class Investigation(_Strict):
    """An Investigation tile (its effect is the step ``tile_<id>``)."""

    number: int
    id: str
    name: str
    name_source: Literal[SOURCES] | None = None  # type: ignore[valid-type]
    pile: int
    suspicions: int = Field(ge=0)
    ryuk: bool
    checks_role: bool
    text: str
    source: Literal[SOURCES]  # type: ignore[valid-type]


class Pile(_Strict):
    """The back of one of the five piles."""

    pile: int
    direction: Literal["clockwise", "counterclockwise"]
    source: Literal[SOURCES]  # type: ignore[valid-type]


class Content(_Strict):
    """The whole content: Roles, Actions, Investigations and piles."""

    roles: list[Role]
    actions: list[ActionCard] = Field(min_length=46, max_length=46)
    investigations: list[Investigation] = Field(min_length=25, max_length=25)
    piles: list[Pile] = Field(min_length=5, max_length=5)


def _field(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def validate(data: Any, where: str) -> None:
    """Raise ContentError naming the file and field when the content is unusable."""
    _need(isinstance(data, dict), where, "(top)", "must be an object")
    try:
        Content.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ContentError(f"{where}: field {_field(first['loc'])!r} {first['msg']}") from None
    ids = sorted(r["id"] for r in data["roles"])
    _need(ids == sorted(ROLE_IDS), where, "roles", f"must hold {ROLE_IDS}")
    for i, card in enumerate(data["actions"]):
        _need(card["number"] == i + 1, where, f"actions[{i}].number", f"must be {i + 1}")
    for i, tile in enumerate(data["investigations"]):
        _need(tile["number"] == i + 1, where, f"investigations[{i}].number", f"must be {i + 1}")
        _need(
            tile["pile"] == i // 5 + 1, where, f"investigations[{i}].pile", f"must be {i // 5 + 1}"
        )
