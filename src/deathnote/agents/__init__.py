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


#: What a person reads for the bots a lobby offers, strongest last among the levels.
LEVEL_LABELS = {
    "easy": "easy (plays by rules of thumb)",
    "normal": "normal (searches about 0.2 s a move)",
    "hard": "hard (searches about 1 s a move)",
}


def bot_label(agent: str | None) -> str | None:
    """What a person reads for a seat's bot: its level ("easy", "normal", "hard") or its
    kind in words, never the agent's name ("heuristic", "ismcts-hard").

    >>> bot_label("ismcts-hard"), bot_label("heuristic"), bot_label("random")
    ('hard', 'easy', 'random moves')
    """
    if not agent:
        return None
    base, _, settings = agent.partition(":")
    level = next((lv for lv, name in LEVEL_AGENTS.items() if name == base), None)
    if base == "ismcts":
        level = "normal"
    words = level or (
        "random moves" if base == "random" else base.replace("-", " ").replace("_", " ")
    )
    return f"{words}, tuned" if settings else words


def bot_choices(game_id: str) -> list[dict[str, str]]:
    """The bots a lobby offers for a game, as ``{"agent", "label"}``: the three levels
    first, then the game's other bots (``ismcts`` is the normal level under another name)."""
    names = agent_names(game_id)
    out = [
        {"agent": LEVEL_AGENTS[level], "label": f"bot, {LEVEL_LABELS[level]}"}
        for level in ("easy", "normal", "hard")
        if LEVEL_AGENTS[level] in names
    ]
    shown = {c["agent"] for c in out} | {"ismcts"}
    for name in names:
        if name not in shown:
            words = "random moves" if name == "random" else name.replace("-", " ").replace("_", " ")
            out.append({"agent": name, "label": f"bot, {words}"})
    return out


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
    "LEVEL_LABELS",
    "Agent",
    "IsmctsAgent",
    "Observation",
    "RandomAgent",
    "agent_names",
    "agent_rng",
    "bot_choices",
    "check_agent",
    "make_agent",
    "observe",
    "world_sampler",
]
