"""The game registry: every subpackage of ``deathnote.games`` exposing ``GAME``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from deathnote.engine.errors import DeathNoteError
from deathnote.engine.game import Game


@cache
def games() -> dict[str, Game]:
    """All registered games by id, in id order."""
    import deathnote.games as pkg

    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"deathnote.games.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.id] = game
    return found


def get_game(game_id: str) -> Game:
    """The game with this id, or a DeathNoteError listing the known ids."""
    try:
        return games()[game_id]
    except KeyError:
        known = ", ".join(games()) or "none"
        raise DeathNoteError(f"unknown game {game_id!r}; known games: {known}") from None
