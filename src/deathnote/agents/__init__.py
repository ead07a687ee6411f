"""Bots: a generic random agent plus each game's own agents, looked up by name."""

from __future__ import annotations

import random

from deathnote.agents.base import Agent, Observation, RandomAgent, world_sampler
from deathnote.agents.ismcts import LEVEL_AGENTS, LEVELS, IsmctsAgent, parse_ismcts
from deathnote.engine.actions import Seat
from deathnote.engine.errors import DeathNoteError
from deathnote.engine.match import Match
from deathnote.engine.registry import get_game
from deathnote.engine.rng import agent_rng


def agent_names(game_id: str) -> list[str]:
    """Agent names available for a game (ISMCTS names also take settings, see
    ``deathnote.agents.ismcts.parse_ismcts``)."""
    return ["random", *get_game(game_id).agents(), *LEVELS]


def make_agent(game_id: str, name: str, seat: Seat) -> Agent:
    """An agent by name for one seat of a game."""
    if name == "random":
        return RandomAgent(seat)
    table = get_game(game_id).agents()
    if name in table:
        return table[name](seat)
    search = parse_ismcts(game_id, name, seat)
    if search is None:
        raise DeathNoteError(
            f"unknown agent {name!r} for {game_id}; choose from {', '.join(agent_names(game_id))}"
        )
    return search


def check_agent(game_id: str, name: str) -> None:
    """Raise DeathNoteError naming the valid agents unless ``name`` is one for this game."""
    make_agent(game_id, name, 0)


def observe(match: Match, seat: Seat, rng: random.Random) -> Observation:
    """The observation of a pending seat: what a person there sees, plus a sampler of the
    worlds that seat cannot tell apart (for search bots)."""
    sampler = world_sampler(match, seat)
    return Observation(seat, match.legal(seat), lambda: match.view(seat), rng, sampler)


__all__ = [
    "LEVEL_AGENTS",
    "Agent",
    "IsmctsAgent",
    "Observation",
    "RandomAgent",
    "agent_names",
    "agent_rng",
    "check_agent",
    "make_agent",
    "observe",
    "world_sampler",
]
