"""Helpers every game's content loader shares: read a JSON file, check fields, name errors.

A game keeps its own ``validate(data, where)``; these make its errors uniform: each names the
file (or "<game> default content") and the field that is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from deathnote.engine.errors import ContentError


def need(cond: bool, where: str, field: str, why: str) -> None:
    """Raise ContentError naming the file and field unless ``cond`` holds."""
    if not cond:
        raise ContentError(f"{where}: field {field!r} {why}")


def package_json(package: str, name: str) -> Any:
    """The JSON file ``content/<name>`` shipped inside a game's package."""
    return json.loads(resources.files(package).joinpath("content", name).read_text("utf-8"))


def read_json(path: str | Path) -> Any:
    """The JSON value in the file at ``path``, or a ContentError naming the file."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ContentError(f"{path}: cannot read JSON content ({exc})") from None


def load_checked(
    path: str | Path | None,
    default: Callable[[], dict[str, Any]],
    validate: Callable[[Any, str], None],
    game: str,
) -> dict[str, Any]:
    """The default content, or the file at ``path``; validated either way."""
    if path is None:
        data = default()
        validate(data, f"{game} default content")
        return data
    data = read_json(path)
    validate(data, str(path))
    result: dict[str, Any] = data
    return result
