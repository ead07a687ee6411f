"""The search bot's play-out policy (ICG-BOT-02): the heuristic bot shown the mover's view.

A uniformly random play-out says nothing here: a random L arrests someone on the first turn
most of the time (nearly always the wrong player), so almost every play-out is a win of
Kira's team whatever the search tried before it. The play-out instead asks the heuristic bot
(``agents.HeuristicAgent``) what the seat to move would do, shown only that seat's view of
the sampled world (its state view and decision, no log: the bot reads neither), so it reads
nothing the seat could not see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from deathnote.agents.base import Observation
from deathnote.engine.actions import Action

from . import rules
from .agents import HeuristicAgent
from .state import IcgState


def playout(state: IcgState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """The heuristic bot's choice for ``seat`` from its view of ``state``."""
    if len(legal) == 1:
        return legal[0]
    from deathnote.games.icg import GAME

    def view() -> dict[str, Any]:
        return {
            "viewer": seat,
            "state": GAME.view(state, seat),
            "decision": rules.pending(state)[seat].to_json(),
            "log": [],
        }

    return HeuristicAgent(seat).choose(Observation(seat, legal, view, rng))
