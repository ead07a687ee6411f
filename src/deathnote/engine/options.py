"""Game options as pydantic models: strict validation for JSON, coercion for text.

Every game declares ``options_model``: a frozen pydantic model that refuses unknown
fields and describes each one. JSON callers (the server, records) are validated strictly
(a boolean is not a number, ``"2"`` is not 2); the terminal's ``-o key=value`` texts are
first coerced by the schema with :func:`coerce`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from deathnote.engine.errors import OptionsError

if TYPE_CHECKING:
    from deathnote.engine.game import Game


def lobby(
    *,
    seat: bool = False,
    hidden: bool = False,
    labels: Mapping[str, str] | None = None,
    decks: Mapping[str, str] | None = None,
    help: str | None = None,
    empty: str | None = None,
) -> dict[str, Any]:
    """Hints for forms built from the schema (the web lobby), as ``x-lobby`` in a field's
    JSON Schema: ``seat`` (its numbers are seats, shown by their names), ``hidden`` (set by
    the room or the terminal, not asked), ``labels`` (words for its values), ``decks`` (the
    shipped decks a deck field may name, by name), ``help`` (the help text, when the description
    speaks of zero-based seats or of the terminal), ``empty`` (what an empty field means)."""
    hints: dict[str, Any] = {}
    if seat:
        hints["seat"] = True
    if hidden:
        hints["hidden"] = True
    if labels:
        hints["labels"] = dict(labels)
    if decks:
        hints["decks"] = dict(decks)
    if help:
        hints["help"] = help
    if empty:
        hints["empty"] = empty
    return {"x-lobby": hints}


class GameOptions(BaseModel):
    """Base of every game's options model: frozen, strict, unknown fields refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _message(game: Game, exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        field = ".".join(str(p) for p in error["loc"]) or "options"
        if error["type"] == "extra_forbidden":
            known = ", ".join(repr(k) for k in (game.options_model or GameOptions).model_fields)
            parts.append(f"{game.id} has no option {field!r} (options: {known or 'none'})")
        else:
            parts.append(f"option {field!r}: {error['msg']}")
    return "; ".join(parts)


def validate(game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """Validate JSON options strictly and fill the defaults; OptionsError names the field."""
    model = game.options_model
    if model is None:
        if options:
            raise OptionsError(f"{game.id} takes no options, got {sorted(options)}")
        return {}
    if not isinstance(options, Mapping):
        raise OptionsError("options must be an object")
    try:
        return model.model_validate(dict(options)).model_dump(mode="json")
    except ValidationError as exc:
        raise OptionsError(_message(game, exc)) from None


def coerce(game: Game, texts: Mapping[str, str]) -> dict[str, Any]:
    """Options typed as text (``-o chapter=2``), converted by the schema and validated."""
    model = game.options_model
    if model is None:
        if texts:
            raise OptionsError(f"{game.id} takes no options, got {sorted(texts)}")
        return {}
    try:
        return model.model_validate_strings(dict(texts)).model_dump(mode="json")
    except ValidationError as exc:
        raise OptionsError(_message(game, exc)) from None


def schema(game: Game) -> dict[str, Any]:
    """The JSON Schema of a game's options (an empty object schema when it has none)."""
    model = game.options_model
    if model is None:
        return {"type": "object", "properties": {}, "additionalProperties": False}
    return model.model_json_schema()
