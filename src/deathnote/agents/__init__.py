"""Bots: a generic random agent plus each game's own agents, looked up by name."""

from __future__ import annotations

import random

from deathnote.agents.base import Agent, Observation, RandomAgent
from deathnote.engine.actions import Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game
from deathnote.engine.rng import agent_rng


def agent_names(game_id: str) -> list[str]:
    """Agent names available for a game."""
    return ["random", *get_game(game_id).agents()]


def make_agent(game_id: str, name: str, seat: Seat) -> Agent:
    """An agent by name for one seat of a game."""
    if name == "random":
        return RandomAgent(seat)
    table = get_game(game_id).agents()
    if name not in table:
        raise DeathNoteError(
            f"unknown agent {name!r} for {game_id}; choose from {', '.join(agent_names(game_id))}"
        )
    return table[name](seat)


def observe(match: Match, seat: Seat, rng: random.Random) -> Observation:
    """The observation of a pending seat."""
    return Observation(seat, match.legal(seat), lambda: match.view(seat), rng)


__all__ = [
    "Agent",
    "Observation",
    "RandomAgent",
    "agent_names",
    "agent_rng",
    "make_agent",
    "observe",
]
