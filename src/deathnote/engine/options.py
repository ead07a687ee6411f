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
