"""Engine core: the Match API shared by every game and every front end."""

from deathnote.engine.actions import (
    OMNISCIENT,
    SPECTATOR,
    Action,
    Decision,
    Event,
    Outcome,
    Seat,
    Viewer,
)
from deathnote.engine.errors import (
    ContentError,
    DeathNoteError,
    IllegalAction,
    OptionsError,
    ReplayError,
)
from deathnote.engine.game import Game
from deathnote.engine.match import Match, content_digest
from deathnote.engine.registry import games, get_game

__all__ = [
    "OMNISCIENT",
    "SPECTATOR",
    "Action",
    "ContentError",
    "DeathNoteError",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "Match",
    "OptionsError",
    "Outcome",
    "ReplayError",
    "Seat",
    "Viewer",
    "content_digest",
    "games",
    "get_game",
]
