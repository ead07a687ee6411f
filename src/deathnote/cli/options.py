"""Turning command-line flags into game options (the game validates them)."""

from __future__ import annotations

from typing import Any

import orjson

from deathnote.engine.errors import OptionsError


def build_options(
    chapter: int | None = None,
    rules: str | None = None,
    shinigami_eyes: bool | None = None,
    deck: str | None = None,
    extra: list[str] | None = None,
) -> dict[str, Any]:
    """Options from the shared flags plus ``-o key=value`` pairs (values parsed as JSON)."""
    options: dict[str, Any] = {}
    if chapter is not None:
        options["chapter"] = chapter
    if rules is not None:
        options["rules"] = rules
    if shinigami_eyes:
        options["shinigami_eyes"] = True
    if deck is not None:
        options["deck"] = deck
    for item in extra or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise OptionsError(f"option {item!r} must look like key=value")
        try:
            options[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            options[key] = raw
    return options
