"""Turning command-line flags into game options (the game validates them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from deathnote.engine.errors import OptionsError


def read_deck_file(path: str) -> Any:
    """A TCG deck file, read here in the terminal and passed to the game as data (the game
    never opens a file). A deck object without a name is named after the file."""
    try:
        data = orjson.loads(Path(path).read_bytes())
    except FileNotFoundError:
        raise OptionsError(f"deck file {path}: no such file") from None
    except OSError:
        raise OptionsError(f"deck file {path}: cannot be read") from None
    except orjson.JSONDecodeError:
        raise OptionsError(f"deck file {path}: not a JSON deck") from None
    if isinstance(data, dict) and "name" not in data:
        data["name"] = Path(path).stem[:60]
    return data


def build_options(
    chapter: int | None = None,
    rules: str | None = None,
    shinigami_eyes: bool | None = None,
    deck: str | None = None,
    extra: list[str] | None = None,
) -> dict[str, Any]:
    """Options from the shared flags plus ``-o key=value`` pairs (values parsed as JSON);
    ``deck`` is a deck file, read here."""
    options: dict[str, Any] = {}
    if chapter is not None:
        options["chapter"] = chapter
    if rules is not None:
        options["rules"] = rules
    if shinigami_eyes:
        options["shinigami_eyes"] = True
    if deck is not None:
        options["deck"] = read_deck_file(deck)
    for item in extra or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise OptionsError(f"option {item!r} must look like key=value")
        try:
            options[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            options[key] = raw
    return options
